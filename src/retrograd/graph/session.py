"""Session (TensorFlow 1): runs what the fetched values need, with fed placeholders.

>>> import numpy as np, retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     x = rg.compat.v1.placeholder(rg.float32, [None, 2], name="x")
...     total = rg.reduce_sum(x * x)
>>> with rg.compat.v1.Session(graph=g) as sess:
...     print(sess.run(total, {x: np.ones((3, 2))}))
6.0
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from retrograd.core import backends, nest
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.shapes import TensorShape, plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import Graph, GraphOperation, SymbolicTensor, get_default_graph
from retrograd.graph.plan import Plan, ops_needed
from retrograd.graph.variables import GraphVariable, variables_assigned, variables_read
from retrograd.ops.indexed_slices import IndexedSlices, IndexedSlicesValue
from retrograd.ops.random_seeding import GraphStream

__all__ = ["Session", "InteractiveSession", "get_default_session", "ops_with_control_inputs"]


class _SessionState(threading.local):
    """The sessions this thread entered with ``with``, innermost last."""

    def __init__(self) -> None:
        self.entered: list = []


_sessions_state = _SessionState()


def get_default_session() -> Session | None:
    """The innermost session this thread entered with ``with``, if any.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> print(tf1.get_default_session())
    None
    >>> with rg.Graph().as_default():
    ...     with tf1.Session() as sess:
    ...         print(tf1.get_default_session() is sess)
    True
    """
    sessions = _sessions_state.entered
    return sessions[-1] if sessions else None


class Session:
    """Runs parts of ``graph`` (the default graph unless given).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     a = tf1.placeholder(rg.float32, [])
    ...     b = a * 2.0
    ...     with tf1.Session() as sess:
    ...         print([float(v) for v in sess.run([b, a], feed_dict={a: 1.5})])
    [3.0, 1.5]
    """

    def __init__(self, target: str = "", graph: Graph | None = None, config: Any = None) -> None:
        self.graph = graph if graph is not None else get_default_graph()
        self._plans: dict[tuple, tuple[Plan, list, list]] = {}
        self._closed = False
        self._graph_context: Any = None
        self._random_streams: dict[GraphStream, Any] = {}  # this session's, by op stream

    def __enter__(self) -> Session:
        _sessions_state.entered.append(self)
        self._graph_context = self.graph.as_default()
        self._graph_context.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._graph_context.__exit__(*exc)
        if self in _sessions_state.entered:
            _sessions_state.entered.remove(self)
        self.close()

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Session]:
        """Within the block, this is the default session (``tensor.eval()`` uses it)."""
        _sessions_state.entered.append(self)
        try:
            with self.graph.as_default():
                yield self
        finally:
            _sessions_state.entered.remove(self)

    def close(self) -> None:
        self._closed = True
        self._plans.clear()

    def run(
        self,
        fetches: Any,
        feed_dict: dict | None = None,
        options: Any = None,
        run_metadata: Any = None,
    ) -> Any:
        """Values of ``fetches`` (any nested structure of tensors, ops or their names);
        operations give None. ``feed_dict`` maps placeholders (or names) to values."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if not self._plans and not self.graph.get_operations():  # (TensorFlow's check)
            raise RuntimeError(
                "The Session graph is empty. Add operations to the graph before calling run()."
            )
        if feed_dict is not None and not isinstance(feed_dict, Mapping):
            raise TypeError(
                f"Session.run: feed_dict must be a dictionary, got {type(feed_dict).__name__}: "
                f"{feed_dict!r}"
            )
        flat = nest.flatten(fetches)
        if any(type(f) is IndexedSlices for f in flat):
            return self._run_with_slices(fetches, flat, feed_dict, options, run_metadata)
        leaves = [self._element(f, "fetch") for f in flat]
        feeds = {self._element(k, "feed"): v for k, v in (feed_dict or {}).items()}
        for key in feeds:
            if isinstance(key, Variable):  # (its reads are not inputs a plan is fed)
                raise TypeError(
                    f"Session.run: feeding variable {key.name} is not supported by retrograd: "
                    f"assign it (sess.run(v.assign(value))) or feed a placeholder"
                )
        feed_tensors = list(feeds)
        outputs = [leaf for leaf in leaves if not isinstance(leaf, GraphOperation)]
        key = (tuple(id(x) for x in leaves), tuple(id(t) for t in feed_tensors))
        entry = self._plans.get(key)
        if entry is None:  # the entry keeps the leaves alive, so the ids in `key` stay theirs
            plan = self._plan(leaves, outputs, feed_tensors)
            read = variables_read(plan.ops) + [v for v in leaves if isinstance(v, GraphVariable)]
            assigned = variables_assigned(plan.ops)
            unassigned = [v for v in read if id(v) not in assigned]
            entry = self._plans[key] = (plan, leaves, feed_tensors, unassigned)
        plan = entry[0]
        for variable in entry[3]:
            if not variable.is_initialized_now:
                raise variable.uninitialized_error()
        values = iter(plan(*[_feed_value(t, feeds[t]) for t in feed_tensors]))
        results = [
            None if isinstance(leaf, GraphOperation) else _as_numpy(next(values)) for leaf in leaves
        ]
        return nest.pack_sequence_as(fetches, results)

    def _run_with_slices(
        self, fetches: Any, flat: list, feed_dict: Any, options: Any, run_metadata: Any
    ) -> Any:
        """``run`` where some fetches are IndexedSlices: each gives an ``IndexedSlicesValue``
        of its parts' values (as in TensorFlow)."""
        parts: list = []
        for f in flat:
            if type(f) is IndexedSlices:
                parts += [f.values, f.indices] + (
                    [f.dense_shape] if f.dense_shape is not None else []
                )
            else:
                parts.append(f)
        values = iter(self.run(parts, feed_dict, options, run_metadata))
        results = []
        for f in flat:
            if type(f) is IndexedSlices:
                slices, indices = next(values), next(values)
                shape = next(values) if f.dense_shape is not None else None
                results.append(IndexedSlicesValue(slices, indices, shape))
            else:
                results.append(next(values))
        return nest.pack_sequence_as(fetches, results)

    def _element(self, item: Any, role: str) -> Any:
        try:
            item = self.graph.as_graph_element(item)
        except (KeyError, ValueError) as e:  # an unknown name: TensorFlow's errors
            reason = e.args[0] if e.args else e
            if role == "fetch":
                raise ValueError(
                    f"Argument `fetch` = {item} cannot be interpreted as a Tensor. ({reason})"
                ) from None
            raise TypeError(f"Cannot interpret feed_dict key as Tensor: {reason}") from None
        if isinstance(item, (SymbolicTensor, GraphOperation)) and item.graph is not self.graph:
            raise ValueError(f"Fetch or feed {item.name} is not an element of this session's graph")
        if not isinstance(item, (SymbolicTensor, GraphOperation, Tensor, Variable)):
            raise TypeError(f"Session.run: cannot fetch or feed a {type(item).__name__}: {item!r}")
        return item

    def _plan(self, leaves: list, outputs: list, feeds: list) -> Plan:
        fed = {id(t) for t in feeds}
        ops = ops_with_control_inputs(
            [leaf for leaf in leaves if isinstance(leaf, (SymbolicTensor, GraphOperation))], fed
        )
        for op in ops:
            if op.type == "Placeholder":
                shape = op.get_attr("shape")
                dims = (
                    "unknown"
                    if shape is None
                    else [("?" if d is None else d) for d in plain_dims(shape)]
                )
                raise InvalidArgumentError(
                    f"You must feed a value for placeholder tensor '{op.name}' with dtype "
                    f"{op.get_attr('dtype').name} and shape {dims}"
                )
        return Plan(ops, feeds, outputs, attrs_of=self._kernel_attrs)

    def _kernel_attrs(self, op: GraphOperation) -> dict:
        """An op's attributes as this session runs it: a seeded random op draws from this
        session's own stream, started from the seed when the session first runs it."""
        attrs = op._attrs
        stream = attrs.get("rng")
        if not isinstance(stream, GraphStream):
            return attrs
        generator = self._random_streams.get(stream)
        if generator is None:  # (setdefault: plans made at once in two threads share it)
            generator = self._random_streams.setdefault(stream, stream.new_generator())
        return {**attrs, "rng": generator}


def ops_with_control_inputs(targets: list, fed: set[int]) -> list[GraphOperation]:
    """The ops needed for ``targets`` (as ``ops_needed``), with the ops they wait for through
    ``control_dependencies`` and what those need, in graph order."""
    ops = ops_needed(targets, fed)
    while True:
        have = {id(op) for op in ops}
        missing = [c for op in ops for c in getattr(op, "control_inputs", ()) if id(c) not in have]
        if not missing:
            return ops
        merged = {id(op): op for op in ops + ops_needed(missing, fed)}
        ops = sorted(merged.values(), key=lambda op: op._index)


class InteractiveSession(Session):
    """A session that makes itself the default on creation (for shells and notebooks);
    ``close()`` removes it.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> g = rg.Graph()
    >>> with g.as_default():
    ...     c = rg.constant(4.0) * 2.0
    >>> sess = tf1.InteractiveSession(graph=g)
    >>> tf1.get_default_session() is sess, float(sess.run(c))
    (True, 8.0)
    >>> sess.close()
    """

    def __init__(self, target: str = "", graph: Graph | None = None, config: Any = None) -> None:
        super().__init__(target, graph, config)
        _sessions_state.entered.append(self)

    def close(self) -> None:
        if self in _sessions_state.entered:
            _sessions_state.entered.remove(self)
        super().close()


def _feed_value(tensor: Any, value: Any) -> Any:
    if not isinstance(tensor, SymbolicTensor):
        raise TypeError(f"Session.run: only graph tensors can be fed, got {tensor!r}")
    try:
        array = convert_to_tensor(value, dtype=tensor.dtype)._value
    except (TypeError, ValueError) as e:
        raise TypeError(
            f"Cannot feed value of type {type(value).__name__} for Tensor {tensor.name} with "
            f"dtype {tensor.dtype.name}: {e}"
        ) from None
    if not TensorShape(tensor._value.shape).is_compatible_with(np.shape(array)):
        raise ValueError(
            f"Cannot feed value of shape {np.shape(array)} for Tensor {tensor.name}, which has "
            f"shape {tensor.shape}"
        )
    return array


def _as_numpy(value: Any) -> Any:
    """What Session.run returns: NumPy scalars for rank 0, fresh arrays otherwise."""
    value = backends.to_host(value)  # (device arrays copied to the host)
    return value[()] if np.ndim(value) == 0 else np.array(value)
