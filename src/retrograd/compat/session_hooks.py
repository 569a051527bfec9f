"""TensorFlow 1's standard ``SessionRunHook``s (``compat.v1.train``): stop at a step, stop
on a NaN loss, log tensors, save checkpoints and summaries every N steps or seconds, count
steps, feed, run final ops; and ``MonitoredTrainingSession``, which assembles them.

>>> import retrograd as rg, retrograd.compat.v1 as tf1
>>> with rg.Graph().as_default():
...     step = tf1.train.get_or_create_global_step()
...     train = tf1.assign_add(step, 1)
...     final = FinalOpsHook(step)
...     with MonitoredTrainingSession(hooks=[StopAtStepHook(num_steps=4), final]) as sess:
...         while not sess.should_stop():
...             _ = sess.run(train)
...     print(final.final_ops_values)
4
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

import numpy as np

from retrograd.compat.monitored_session import (
    ChiefSessionCreator,
    MonitoredSession,
    Scaffold,
    SessionRunArgs,
    SessionRunHook,
)
from retrograd.compat.summaries import FileWriter
from retrograd.training.saver import Saver
from retrograd.training.v1_optimizers import get_global_step

__all__ = [
    "CheckpointSaverHook",
    "CheckpointSaverListener",
    "FeedFnHook",
    "FinalOpsHook",
    "GlobalStepWaiterHook",
    "LoggingTensorHook",
    "MonitoredTrainingSession",
    "NanLossDuringTrainingError",
    "NanTensorHook",
    "SecondOrStepTimer",
    "StepCounterHook",
    "StopAtStepHook",
    "SummarySaverHook",
    "basic_train_loop",
]

_LOG = logging.getLogger("tensorflow")


def _global_step_tensor(who: str) -> Any:
    step = get_global_step()
    if step is None:
        raise RuntimeError(f"Global step should be created to use {who}.")
    return step


class SecondOrStepTimer:
    """Triggers every ``every_secs`` seconds or every ``every_steps`` steps (one of them).

    >>> timer = SecondOrStepTimer(every_steps=3)
    >>> [timer.should_trigger_for_step(s) for s in (0, 1, 2, 3)]
    [True, True, True, True]
    >>> _ = timer.update_last_triggered_step(0)
    >>> [timer.should_trigger_for_step(s) for s in (1, 2, 3)]
    [False, False, True]
    """

    def __init__(self, every_secs: float | None = None, every_steps: int | None = None) -> None:
        if (every_secs is None) == (every_steps is None):
            raise ValueError("Either every_secs or every_steps should be provided.")
        self._every_secs, self._every_steps = every_secs, every_steps
        self.reset()

    def reset(self) -> None:
        self._last_time: float | None = None
        self._last_step: int | None = None

    def should_trigger_for_step(self, step: int) -> bool:
        if self._last_step is None:
            return True
        if self._last_step == step:
            return False
        if self._every_secs is not None:
            return time.time() >= self._last_time + self._every_secs
        return step >= self._last_step + self._every_steps

    def update_last_triggered_step(self, step: int) -> tuple:
        """Records a trigger; returns (seconds, steps) since the last one (None first)."""
        now = time.time()
        if self._last_time is None:
            elapsed = (None, None)
        else:
            elapsed = (now - self._last_time, step - self._last_step)
        self._last_time, self._last_step = now, step
        return elapsed

    def last_triggered_step(self) -> int | None:
        return self._last_step


class StopAtStepHook(SessionRunHook):
    """Stops after ``num_steps`` more steps or once the global step reaches ``last_step``."""

    def __init__(self, num_steps: int | None = None, last_step: int | None = None) -> None:
        if (num_steps is None) == (last_step is None):
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and num_steps < 0:
            raise ValueError("num_steps must be non-negative.")
        if last_step is not None and last_step < 0:
            raise ValueError("last_step must be non-negative.")
        self._num_steps, self._last_step = num_steps, last_step

    def begin(self) -> None:
        self._step_tensor = _global_step_tensor("StopAtStepHook")

    def after_create_session(self, session: Any, coord: Any) -> None:
        step = int(session.run(self._step_tensor))
        if self._last_step is None:
            self._last_step = step + self._num_steps

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._step_tensor)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        step = int(run_values.results) + 1  # the step this run made
        if step >= self._last_step:
            step = int(run_context.session.run(self._step_tensor))
            if step >= self._last_step:
                run_context.request_stop()


class NanLossDuringTrainingError(RuntimeError):
    """Raised by ``NanTensorHook`` (``fail_on_nan_loss``) when the loss is NaN."""

    def __str__(self) -> str:
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Fails (or stops, without ``fail_on_nan_loss``) when ``loss_tensor`` is NaN."""

    def __init__(self, loss_tensor: Any, fail_on_nan_loss: bool = True) -> None:
        self._loss, self._fail = loss_tensor, fail_on_nan_loss

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._loss)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        if np.isnan(run_values.results):
            if self._fail:
                _LOG.error("Model diverged with loss = NaN.")
                raise NanLossDuringTrainingError()
            _LOG.warning("Model diverged with loss = NaN.")
            run_context.request_stop()


class LoggingTensorHook(SessionRunHook):
    """Logs the values of ``tensors`` (a list or a dict of names) every ``every_n_iter``
    runs or ``every_n_secs`` seconds (or only at the end with ``at_end``), through the
    ``tensorflow`` logger at INFO, as ``name = value, ...`` or by ``formatter``."""

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False, formatter=None):
        only_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError(
                "either at_end and/or exactly one of every_n_iter and every_n_secs must be "
                "provided."
            )
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if isinstance(tensors, dict):
            self._order, self._tensors = list(tensors), dict(tensors)
        else:
            items = list(tensors)
            self._order = [getattr(t, "name", t) for t in items]
            self._tensors = dict(zip(self._order, items))
        self._timer = None if only_at_end else SecondOrStepTimer(every_n_secs, every_n_iter)
        self._at_end, self._formatter = at_end, formatter
        self._iter = 0

    def begin(self) -> None:
        self._iter = 0
        if self._timer is not None:
            self._timer.reset()

    def before_run(self, run_context: Any) -> SessionRunArgs | None:
        self._should = self._timer is not None and self._timer.should_trigger_for_step(self._iter)
        return SessionRunArgs(self._tensors) if self._should else None

    def _log(self, values: dict) -> None:
        if self._formatter is not None:
            _LOG.info(self._formatter(values))
        else:
            _LOG.info(", ".join(f"{name} = {values[name]}" for name in self._order))

    def after_run(self, run_context: Any, run_values: Any) -> None:
        if self._should:
            self._timer.update_last_triggered_step(self._iter)
            self._log(run_values.results)
        self._iter += 1

    def end(self, session: Any) -> None:
        if self._at_end:
            self._log(session.run(self._tensors))


class CheckpointSaverListener:
    """Told before and after each checkpoint a ``CheckpointSaverHook`` writes; ``after_save``
    returning True stops training."""

    def begin(self) -> None:
        pass

    def before_save(self, session: Any, global_step_value: int) -> None:
        pass

    def after_save(self, session: Any, global_step_value: int) -> bool | None:
        return None

    def end(self, session: Any, global_step_value: int) -> None:
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves ``checkpoint_dir/checkpoint_basename-STEP`` with ``saver`` (or the scaffold's)
    right after the session is made, every ``save_secs`` seconds or ``save_steps`` steps,
    and at the end."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None,
                 save_graph_def=True) -> None:  # fmt: skip
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._dir, self._saver, self._scaffold = checkpoint_dir, saver, scaffold
        self._path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._timer = SecondOrStepTimer(save_secs, save_steps)
        self._listeners = list(listeners or [])

    def begin(self) -> None:
        self._step_tensor = _global_step_tensor("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    # (the listeners get the step as the session gives it, a NumPy integer, as TensorFlow's)
    def after_create_session(self, session: Any, coord: Any) -> None:
        step = session.run(self._step_tensor)
        self._save(session, step)
        self._timer.update_last_triggered_step(int(step))

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._step_tensor)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        step = run_context.session.run(self._step_tensor)
        if self._timer.should_trigger_for_step(int(step)):
            self._timer.update_last_triggered_step(int(step))
            if self._save(run_context.session, step):
                run_context.request_stop()

    def end(self, session: Any) -> None:
        step = session.run(self._step_tensor)
        if int(step) != self._timer.last_triggered_step():
            self._save(session, step)
        for listener in self._listeners:
            listener.end(session, step)

    def _get_saver(self) -> Any:
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        self._saver = Saver(allow_empty=True)
        return self._saver

    def _save(self, session: Any, step: Any) -> bool:
        for listener in self._listeners:
            listener.before_save(session, step)
        self._get_saver().save(session, self._path, global_step=int(step))
        stop = False
        for listener in self._listeners:
            stop = bool(listener.after_save(session, step)) or stop
        return stop


class SummarySaverHook(SessionRunHook):
    """Writes ``summary_op`` (or the scaffold's) to ``output_dir`` (or ``summary_writer``)
    every ``save_steps`` steps or ``save_secs`` seconds."""

    def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None,
                 scaffold=None, summary_op=None) -> None:  # fmt: skip
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._op, self._scaffold = summary_op, scaffold
        self._writer, self._dir = summary_writer, output_dir
        self._timer = SecondOrStepTimer(save_secs, save_steps)

    def begin(self) -> None:
        if self._writer is None and self._dir:
            self._writer = FileWriter(self._dir)
        self._step_tensor = _global_step_tensor("SummarySaverHook")

    def _summary(self) -> Any:
        return self._op if self._op is not None else self._scaffold.summary_op

    def before_run(self, run_context: Any) -> SessionRunArgs:
        fetches = {"global_step": self._step_tensor}
        self._request = self._timer.should_trigger_for_step(self._next_step(run_context))
        if self._request and self._summary() is not None:
            fetches["summary"] = self._summary()
        return SessionRunArgs(fetches)

    def _next_step(self, run_context: Any) -> int:
        return int(run_context.session.run(self._step_tensor)) + 1

    def after_run(self, run_context: Any, run_values: Any) -> None:
        step = int(run_values.results["global_step"])
        if self._request:
            self._timer.update_last_triggered_step(step)
            if "summary" in run_values.results and self._writer is not None:
                self._writer.add_summary(run_values.results["summary"], step)

    def end(self, session: Any = None) -> None:
        if self._writer is not None:
            self._writer.flush()


class StepCounterHook(SessionRunHook):
    """Logs (and, with a writer, writes as ``global_step/sec``) the steps per second every
    ``every_n_steps`` steps or ``every_n_secs`` seconds."""

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None,
                 summary_writer=None) -> None:  # fmt: skip
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(every_n_secs, every_n_steps)
        self._writer, self._dir = summary_writer, output_dir

    def begin(self) -> None:
        if self._writer is None and self._dir:
            self._writer = FileWriter(self._dir)
        self._step_tensor = _global_step_tensor("StepCounterHook")

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._step_tensor)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        step = int(run_values.results)
        if self._timer.should_trigger_for_step(step):
            seconds, steps = self._timer.update_last_triggered_step(step)
            if seconds:
                _LOG.info("global_step/sec: %g", steps / seconds)


class FinalOpsHook(SessionRunHook):
    """Runs ``final_ops`` (with ``final_ops_feed_dict``) when the session ends; their values
    are ``final_ops_values``."""

    def __init__(self, final_ops: Any, final_ops_feed_dict: Any = None) -> None:
        self._ops, self._feeds = final_ops, final_ops_feed_dict
        self._values = None

    @property
    def final_ops_values(self) -> Any:
        return self._values

    def end(self, session: Any) -> None:
        if self._ops is not None:
            self._values = session.run(self._ops, feed_dict=self._feeds)


class FeedFnHook(SessionRunHook):
    """Adds ``feed_fn()``'s feeds to every run."""

    def __init__(self, feed_fn: Any) -> None:
        self.feed_fn = feed_fn

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class GlobalStepWaiterHook(SessionRunHook):
    """Waits until the global step reaches ``wait_until_step`` before the first run (one
    process here: the step only moves through this session, so a step not yet reached is
    an error instead of a wait that never ends)."""

    def __init__(self, wait_until_step: int) -> None:
        self._wait_until_step = wait_until_step

    def begin(self) -> None:
        self._step_tensor = _global_step_tensor("GlobalStepWaiterHook")
        self._checked = self._wait_until_step <= 0

    def before_run(self, run_context: Any) -> None:
        if not self._checked:
            step = int(run_context.session.run(self._step_tensor))
            if step < self._wait_until_step:
                raise RuntimeError(
                    f"GlobalStepWaiterHook: the global step is {step}, below "
                    f"{self._wait_until_step}, and nothing else moves it in this process"
                )
            self._checked = True


def MonitoredTrainingSession(  # noqa: N802 (TensorFlow's name)
    master="",
    is_chief=True,
    checkpoint_dir=None,
    scaffold=None,
    hooks=None,
    chief_only_hooks=None,
    save_checkpoint_secs=600,
    save_summaries_steps=100,
    save_summaries_secs=None,
    config=None,
    stop_grace_period_secs=120,
    log_step_count_steps=100,
    max_wait_secs=7200,
    save_checkpoint_steps=None,
    summary_dir=None,
    save_graph_def=True,
):
    """A ``MonitoredSession`` for training: restores the latest checkpoint of
    ``checkpoint_dir`` (else initialises), and adds a ``StepCounterHook`` and a
    ``SummarySaverHook`` writing to ``summary_dir`` (default ``checkpoint_dir``) and a
    ``CheckpointSaverHook`` (every ``save_checkpoint_steps`` steps, else every
    ``save_checkpoint_secs`` seconds) to ``hooks``. One process: ``is_chief`` must be True."""
    if not is_chief:
        raise ValueError(
            "MonitoredTrainingSession: retrograd runs one process, its own chief: "
            "is_chief must be True"
        )
    scaffold = scaffold or Scaffold()
    all_hooks = list(hooks or []) + list(chief_only_hooks or [])
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(StepCounterHook(log_step_count_steps, output_dir=summary_dir))
        if save_summaries_steps and save_summaries_steps > 0:
            all_hooks.append(
                SummarySaverHook(save_summaries_steps, None, summary_dir, None, scaffold)
            )
        elif save_summaries_secs and save_summaries_secs > 0:
            all_hooks.append(
                SummarySaverHook(None, save_summaries_secs, summary_dir, None, scaffold)
            )
    if checkpoint_dir:
        if save_checkpoint_steps and save_checkpoint_steps > 0:
            all_hooks.append(CheckpointSaverHook(checkpoint_dir, save_steps=save_checkpoint_steps,
                                                 scaffold=scaffold))  # fmt: skip
        elif save_checkpoint_secs and save_checkpoint_secs > 0:
            all_hooks.append(CheckpointSaverHook(checkpoint_dir, save_secs=save_checkpoint_secs,
                                                 scaffold=scaffold))  # fmt: skip
    creator = ChiefSessionCreator(scaffold, master, config, checkpoint_dir)
    return MonitoredSession(creator, all_hooks, stop_grace_period_secs)


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """Calls ``train_step_fn(session, *args, **kwargs)`` until the supervisor's session
    should stop (``supervisor.managed_session`` gives it).

    >>> class Supervisor:
    ...     def managed_session(self, master):
    ...         return MonitoredSession(hooks=[])
    >>> import retrograd as rg
    >>> steps = []
    >>> def step(sess):
    ...     steps.append(1)
    ...     if len(steps) == 3:
    ...         raise StopIteration
    >>> with rg.Graph().as_default():
    ...     basic_train_loop(Supervisor(), step)
    >>> len(steps)
    3
    """
    with supervisor.managed_session(master) as sess:
        while not sess.should_stop():
            train_step_fn(sess, *(args or ()), **(kwargs or {}))
