"""TensorFlow 1's ``MonitoredSession`` family (``compat.v1.train``): a session that
initialises the graph (or restores the latest checkpoint) through a ``Scaffold``, and runs
``SessionRunHook``s around every ``run``: each hook may add fetches and feeds
(``before_run`` returns ``SessionRunArgs``), sees their values (``after_run``) and may ask
the loop to stop. ``MonitoredTrainingSession`` adds TensorFlow's standard hooks
(checkpoints, summaries, step counts) from its arguments. The hooks themselves are in
:mod:`retrograd.compat.session_hooks`.

>>> import retrograd as rg, retrograd.compat.v1 as tf1
>>> with rg.Graph().as_default():
...     step = tf1.train.get_or_create_global_step()
...     train = tf1.assign_add(step, 1)
...     with MonitoredSession(hooks=[tf1.train.StopAtStepHook(last_step=3)]) as sess:
...         while not sess.should_stop():
...             _ = sess.run(train)
...     print(sess.should_stop())
True
"""

from __future__ import annotations

import collections
from typing import Any

from retrograd.compat.graph_collections import (
    global_variables_initializer,
    group,
    local_variables_initializer,
    tables_initializer,
)
from retrograd.compat.summaries import merge_all
from retrograd.graph.session import Session
from retrograd.training.saver import Saver, latest_checkpoint
from retrograd.training.v1_coordination import Coordinator

__all__ = [
    "ChiefSessionCreator",
    "MonitoredSession",
    "Scaffold",
    "SessionCreator",
    "SessionRunArgs",
    "SessionRunContext",
    "SessionRunHook",
    "SessionRunValues",
    "SingularMonitoredSession",
]


class SessionRunArgs(collections.namedtuple("SessionRunArgs", ["fetches", "feed_dict", "options"])):
    """What a hook adds to a ``run``: fetches (any structure), feeds, options.

    >>> SessionRunArgs({'loss': 1}).feed_dict is None
    True
    """

    def __new__(cls, fetches: Any, feed_dict: Any = None, options: Any = None):
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunValues(
    collections.namedtuple("SessionRunValues", ["results", "options", "run_metadata"])
):
    """What a hook's fetches gave (``results``, in their structure)."""


class SessionRunContext:
    """The ``run`` a hook sees: the caller's ``original_args``, the ``session``, and
    ``request_stop`` to end the loop after this run.

    >>> context = SessionRunContext(SessionRunArgs(None), None)
    >>> context.request_stop(); context.stop_requested
    True
    """

    def __init__(self, original_args: SessionRunArgs, session: Any) -> None:
        self._original_args, self._session = original_args, session
        self._stop_requested = False

    @property
    def original_args(self) -> SessionRunArgs:
        return self._original_args

    @property
    def session(self) -> Any:
        return self._session

    @property
    def stop_requested(self) -> bool:
        return self._stop_requested

    def request_stop(self) -> None:
        """Ends the monitored loop after this run (``should_stop`` becomes True)."""
        self._stop_requested = True


class SessionRunHook:
    """A hook of a ``MonitoredSession``: every method does nothing unless overridden."""

    def begin(self) -> None:
        """Called once before the session is made (the graph may still change)."""

    def after_create_session(self, session: Any, coord: Any) -> None:
        """Called once the session is made and initialised."""

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs | None:
        """Called before each ``run``: fetches and feeds to add, or None."""
        return None

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        """Called after each ``run`` with what this hook's fetches gave."""

    def end(self, session: Any) -> None:
        """Called once when the session closes normally."""


class Scaffold:
    """What a monitored session needs from the graph: the op initialising the variables
    (``global_variables_initializer`` by default) and ``init_fn``, the local initializer
    (local variables and tables), the summary op (``merge_all``) and a ``Saver`` of the global
    variables; ``finalize`` makes the missing ones.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     v = tf1.Variable(1.0)
    ...     scaffold = Scaffold()
    ...     _ = scaffold.finalize()
    ...     print(scaffold.init_op.type, type(scaffold.saver).__name__)
    NoOp Saver
    """

    def __init__(
        self,
        init_op=None,
        init_feed_dict=None,
        init_fn=None,
        ready_op=None,
        ready_for_local_init_op=None,
        local_init_op=None,
        summary_op=None,
        saver=None,
        copy_from_scaffold=None,
        local_init_feed_dict=None,
    ) -> None:
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            base = copy_from_scaffold
            init_op, init_feed_dict = init_op or base.init_op, init_feed_dict or base.init_feed_dict
            init_fn = init_fn or base._user_init_fn
            local_init_op = local_init_op or base.local_init_op
            summary_op, saver = summary_op or base.summary_op, saver or base.saver
            local_init_feed_dict = local_init_feed_dict or base.local_init_feed_dict
        self._init_op, self._init_feed_dict = init_op, init_feed_dict
        self._user_init_fn = init_fn
        self._ready_op, self._ready_for_local_init_op = ready_op, ready_for_local_init_op
        self._local_init_op, self._local_init_feed_dict = local_init_op, local_init_feed_dict
        self._summary_op, self._saver = summary_op, saver

    def finalize(self) -> Scaffold:
        """Makes the ops not given (idempotent)."""
        if self._init_op is None:
            self._init_op = global_variables_initializer()
        if self._local_init_op is None:
            self._local_init_op = group(local_variables_initializer(), tables_initializer())
        if self._summary_op is None:
            self._summary_op = merge_all()  # None without summaries
        if self._saver is None:
            self._saver = Saver(allow_empty=True)
        return self

    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    local_init_op = property(lambda self: self._local_init_op)
    local_init_feed_dict = property(lambda self: self._local_init_feed_dict)
    summary_op = property(lambda self: self._summary_op)
    saver = property(lambda self: self._saver)

    @property
    def init_fn(self) -> Any:
        if self._user_init_fn is None:
            return None
        return lambda sess: self._user_init_fn(self, sess)

    @staticmethod
    def default_local_init_op() -> Any:
        """The local variables' and tables' initializers, grouped."""
        return group(local_variables_initializer(), tables_initializer())


class SessionCreator:
    """Makes the session of a ``MonitoredSession`` (``create_session``)."""

    def create_session(self) -> Any:
        raise TypeError(f"{type(self).__name__} must define create_session()")


class ChiefSessionCreator(SessionCreator):
    """A ``Session`` restored from the latest checkpoint in ``checkpoint_dir`` (or the one
    ``checkpoint_filename_with_path`` names) if there is one, else initialised by the
    scaffold's ``init_op`` and ``init_fn``; then its ``local_init_op`` runs."""

    def __init__(
        self,
        scaffold=None,
        master="",
        config=None,
        checkpoint_dir=None,
        checkpoint_filename_with_path=None,
    ) -> None:
        self._scaffold = scaffold or Scaffold()
        self._config, self._checkpoint_dir = config, checkpoint_dir
        self._checkpoint_path = checkpoint_filename_with_path

    def create_session(self) -> Any:
        scaffold = self._scaffold.finalize()
        sess = Session(config=self._config)
        path = self._checkpoint_path
        if path is None and self._checkpoint_dir:
            path = latest_checkpoint(self._checkpoint_dir)
        if path is not None:
            scaffold.saver.restore(sess, path)
        else:
            sess.run(scaffold.init_op, feed_dict=scaffold.init_feed_dict)
            if scaffold.init_fn is not None:
                scaffold.init_fn(sess)
        sess.run(scaffold.local_init_op, feed_dict=scaffold.local_init_feed_dict)
        return sess


class MonitoredSession:
    """A session that runs ``hooks`` around each ``run`` (see the module). Used as a
    context manager, it closes itself, calls each hook's ``end`` on a normal exit, and
    treats ``StopIteration`` as the end of the input."""

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120) -> None:
        self._hooks = list(hooks or [])
        for hook in self._hooks:
            hook.begin()
        self._creator = session_creator or ChiefSessionCreator()
        self._sess = self._creator.create_session()
        self._coord = Coordinator()
        self._grace = stop_grace_period_secs
        self._stop = False
        self._closed = False
        for hook in self._hooks:
            hook.after_create_session(self._sess, self._coord)

    @property
    def graph(self) -> Any:
        return self._sess.graph

    def should_stop(self) -> bool:
        """Whether a hook (or the coordinator) asked to stop, or the session is closed."""
        return self._closed or self._stop or self._coord.should_stop()

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None) -> Any:
        """``Session.run`` with every hook's ``before_run``/``after_run`` around it."""
        if self._closed:
            raise RuntimeError("Run called even after should_stop requested.")
        context = SessionRunContext(SessionRunArgs(fetches, feed_dict, options), self._sess)
        added = [hook.before_run(context) for hook in self._hooks]
        feeds = dict(feed_dict or {})
        for args in added:
            for key, value in ((args.feed_dict or {}) if args else {}).items():
                if key in feeds:
                    raise RuntimeError(f"Same tensor is fed by a SessionRunHook and user. {key}")
                feeds[key] = value
        hook_fetches = [[] if args is None or args.fetches is None else args.fetches
                        for args in added]  # fmt: skip
        results = self._sess.run([fetches, hook_fetches], feeds or None, options, run_metadata)
        for hook, args, value in zip(self._hooks, added, results[1]):
            shown = None if args is None or args.fetches is None else value
            hook.after_run(context, SessionRunValues(shown, options, run_metadata))
        self._stop = self._stop or context.stop_requested
        return results[0]

    def run_step_fn(self, step_fn: Any) -> Any:
        """``step_fn(step_context)`` with ``step_context.run_with_hooks`` running through the
        hooks and ``step_context.session`` the raw session."""
        step_context = _StepContext(self)
        try:
            return step_fn(step_context)
        except _StopStep:
            self._stop = True
            return None

    def close(self) -> None:
        """Closes the session (the hooks' ``end`` is not called: see ``__exit__``)."""
        self._close(normal=False)

    def _close(self, normal: bool) -> None:
        if self._closed:
            return
        try:
            if normal:
                for hook in self._hooks:
                    hook.end(self._sess)
        finally:
            self._coord.request_stop()
            self._sess.close()
            self._closed = True

    def __enter__(self) -> MonitoredSession:
        return self

    def __exit__(self, exception_type, exception_value, traceback) -> bool:
        if exception_type is StopIteration:
            exception_type = None
        self._close(normal=exception_type is None)
        return exception_type is None


class _StopStep(Exception):
    pass


class _StepContext:
    """What ``run_step_fn`` hands a step function."""

    def __init__(self, monitored: MonitoredSession) -> None:
        self._monitored = monitored

    @property
    def session(self) -> Any:
        return self._monitored._sess

    def run_with_hooks(self, *args: Any, **kwargs: Any) -> Any:
        return self._monitored.run(*args, **kwargs)

    def request_stop(self) -> None:
        raise _StopStep()


class SingularMonitoredSession(MonitoredSession):
    """A ``MonitoredSession`` with a ``ChiefSessionCreator`` made from the arguments, and
    ``raw_session()`` for the plain session."""

    def __init__(
        self,
        hooks=None,
        scaffold=None,
        master="",
        config=None,
        checkpoint_dir=None,
        stop_grace_period_secs=120,
        checkpoint_filename_with_path=None,
    ) -> None:
        creator = ChiefSessionCreator(
            scaffold, master, config, checkpoint_dir, checkpoint_filename_with_path
        )
        super().__init__(creator, hooks, stop_grace_period_secs)

    def raw_session(self) -> Any:
        """The underlying ``Session``."""
        return self._sess
