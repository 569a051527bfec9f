"""GradientTape: records the ops applied to watched values and walks them backwards.

A tape maps each value it tracks (by identity) to the Operation that produced it, or to
None for a watched source. ``gradient`` walks those records from the targets in reverse
topological order (iteratively, so chains of any length work), calls each op's gradient
function, checks what it returned, and sums gradients that meet. Gradient functions run
while other tapes record, so nesting tapes gives higher derivatives.

>>> import retrograd as rg
>>> x = rg.constant(3.0)
>>> with rg.GradientTape() as outer:
...     outer.watch(x)
...     with rg.GradientTape() as inner:
...         inner.watch(x)
...         y = x * x * x
...     dy = inner.gradient(y, x)
>>> dy
<retrograd.Tensor: shape=(), dtype=float32, numpy=27.0>
>>> outer.gradient(dy, x)
<retrograd.Tensor: shape=(), dtype=float32, numpy=18.0>
"""

from __future__ import annotations

import contextlib
import itertools
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.autodiff.backprop import NotBatchableError, backward
from retrograd.autodiff.explain import (
    explained_walk,
    note_none_variables,
    ops_seen,
    user_site,
)
from retrograd.autodiff.state import state as autodiff_state
from retrograd.autodiff.tape_values import (
    _BLOCKED_KEPT,
    UnconnectedGradients,
    _apply_policy,
    _as_values,
    _dense_target,
    _in_graph,
    _joined,
    _policy,
    _seeds,
    _shaped,
    _stacked,
    _unit_rows,
    _zeros_for,
)
from retrograd.core import nest
from retrograd.core.execute import Operation, context
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.ops import array_ops

__all__ = ["GradientTape", "UnconnectedGradients"]


class GradientTape:
    """Records operations on watched tensors and variables for reverse-mode differentiation.

    Trainable variables read inside the tape are watched automatically (unless
    ``watch_accessed_variables=False``). A non-persistent tape computes one set of gradients
    and then frees what it recorded; ``persistent=True`` allows several.

    As TensorFlow's tape, it maps the id of each value it tracks to the record of the op that
    produced it (None for a watched value): :meth:`tracks`, :meth:`producer`,
    :meth:`record` and :meth:`producers` are how the rest of retrograd reads and writes it.

    >>> import retrograd as rg
    >>> x = rg.Variable(3.0)
    >>> with rg.GradientTape() as tape:
    ...     y = x * x
    >>> tape.gradient(y, x).numpy().tolist()
    6.0
    """

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        self._persistent = bool(persistent)
        self._watch_accessed_variables = bool(watch_accessed_variables)
        self._producers: dict[int, Operation | None] = {}  # value id -> its record; None: watched
        self._watched: set[int] = set()  # ids of the values watched directly
        self._variables: list[Variable] = []
        self._recording = False
        self._spent = False
        self._blocked: list[Operation] = []  # recorded ops with only integer/bool outputs
        self._notes: dict[int, tuple[str, str]] = {}  # what explanations of None gradients use
        self._opened = 0

    # -- what the rest of retrograd uses ----------------------------------------------------
    @property
    def persistent(self) -> bool:
        """Whether several gradients may be computed from this tape."""
        return self._persistent

    @property
    def watches_accessed_variables(self) -> bool:
        """Whether trainable variables read while it records are watched automatically."""
        return self._watch_accessed_variables

    def tracks(self, value: Any) -> bool:
        """Whether ``value`` (a tensor or variable) is watched, or produced by a record."""
        return value._id in self._producers

    def tracks_any(self, values: Any) -> bool:
        """Whether one of ``values`` is tracked (an op on them is to be recorded)."""
        producers = self._producers
        for value in values:  # noqa: SIM110 - a plain loop is faster than any() here
            if value._id in producers:
                return True
        return False

    def producer(self, value: Any) -> Operation | None:
        """The record that produced ``value``; None for a watched value or one not tracked."""
        return self._producers.get(value._id)

    def producers(self) -> dict[int, Operation | None]:
        """A copy of the map from each tracked value's id to its record (None: watched), in
        the order the values were tracked (explanations and checks read it)."""
        return dict(self._producers)

    def tracked_count(self) -> int:
        """How many values this tape tracks (the records after a count were made since)."""
        return len(self._producers)

    def recent(self, count: int) -> list[tuple[int, Operation | None]]:
        """The last ``count`` tracked values, as ``(id, record)`` pairs, newest first."""
        return list(itertools.islice(reversed(self._producers.items()), count))

    def record(self, op: Operation) -> None:
        """Adds a record of an op on tracked values: its trainable outputs become tracked."""
        producers = self._producers
        kept = False
        for out in op.outputs:
            # integer and bool results carry no gradient; variants (a TensorArray's list in a
            # graph) do
            if out._value.dtype.kind in "fcO":
                producers[out._id] = op
                kept = True
        if not kept and len(self._blocked) < _BLOCKED_KEPT:
            self._blocked.append(op)  # for explanations: where a path lost its gradient

    @property
    def blocked_ops(self) -> tuple[Operation, ...]:
        """Recorded ops on tracked values whose outputs are all integer or bool."""
        return tuple(self._blocked)

    @property
    def notes(self) -> dict[int, tuple[str, str]]:
        """What explanations of None gradients know: ``value id -> (kind, text)`` for captured
        tensors, and ``stop_recording`` sites (negative keys)."""
        return self._notes

    @property
    def opened(self) -> int:
        """The op count (see ``explain.ops_seen``) when this tape was entered."""
        return self._opened

    # -- recording ---------------------------------------------------------------------
    def __enter__(self) -> GradientTape:
        if self._recording:
            raise ValueError(
                "Tape is still recording: a GradientTape cannot be re-entered while active."
            )
        if self._spent:  # as TensorFlow: a spent non-persistent tape starts afresh
            self.reset()
        if not self._producers:
            self._opened = ops_seen()  # (explanations look at ops run since)
        self._push()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._recording:
            self._pop()

    def _push(self) -> None:
        context.push_tape(self)
        self._recording = True

    def _pop(self) -> None:
        context.pop_tape(self)
        self._recording = False

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        """Within this block, this tape records nothing."""
        if not self._recording:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._notes[-1 - len(self._notes)] = ("stopped", user_site())
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self) -> None:
        """Forgets everything recorded, as if the tape had just been entered."""
        self._producers, self._watched, self._variables = {}, set(), []
        self._blocked, self._notes = [], {}
        self._spent = False

    def watch(self, tensor: Any) -> None:
        """Watches a tensor, a variable, or a nested structure of them.

        Non-floating values are not differentiable and are not watched (with a warning).
        """
        for value in nest.flatten(tensor):
            if not isinstance(value, (Tensor, Variable)):
                raise ValueError(
                    f"GradientTape.watch: passed an object of type {type(value).__name__}, "
                    f"not a retrograd.Tensor or retrograd.Variable: {value!r}"
                )
            self._watch_one(_in_graph(value), stacklevel=4)

    def watch_variable(self, variable: Variable) -> None:
        """Watches a variable that was read (automatic watching of trainable variables)."""
        self._watch_one(variable, stacklevel=4)

    def _watch_one(self, value: Any, stacklevel: int) -> None:
        if value._value.dtype.kind not in "fc":
            warnings.warn(
                f"GradientTape.watch: the dtype of the watched value must be floating or complex, "
                f"got {value.dtype.name}; it will get no gradient",
                stacklevel=stacklevel,
            )
            return
        key = value._id
        if key not in self._producers:
            self._producers[key] = None
            self._watched.add(key)
            if isinstance(value, Variable):
                self._variables.append(value)

    def watched_variables(self) -> tuple[Variable, ...]:
        """The variables this tape watches, in the order they were first watched.

        As in TensorFlow, they are still listed after a non-persistent tape computed its
        gradient; ``reset()`` forgets them, and entering the tape again adds to them.
        """
        return tuple(self._variables)

    # -- differentiation -------------------------------------------------------------------
    def gradient(
        self,
        target: Any,
        sources: Any,
        output_gradients: Any = None,
        unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
        explain: bool = False,
    ) -> Any:
        """d(sum of targets)/d(source) for each source, in the structure of ``sources``.

        Args:
            target: A tensor, or a structure of tensors whose sum is differentiated.
            sources: A tensor or variable, or a structure of them.
            output_gradients: Weights of the targets (the upstream gradient; ones by default).
            unconnected_gradients: What a source the targets do not depend on gets: None
                (``"none"``) or zeros (``"zero"``).
            explain: True (or ``retrograd.debugging.enable_explain_none_gradients()``) warns
                with a ``NoneGradientWarning`` saying why a gradient is None.

        Returns:
            The gradients, in the structure of ``sources`` (None where unconnected).

        Raises:
            RuntimeError: A non-persistent tape was already used for gradients.
            TypeError: A target or source is not a tensor or variable.
        """
        policy = _policy(unconnected_gradients)
        # A sparse gradient (IndexedSlices) as a target is its dense tensor, made before the
        # walk so that this tape records how.
        if type(target) is not Tensor:
            target = nest.map_structure(_dense_target, target)
        self._begin("gradient")
        targets = [target] if type(target) is Tensor else _as_values(nest.flatten(target), "target")
        seeds = _seeds(targets, output_gradients, target)
        single = type(sources) is Tensor
        flat_sources = [sources] if single else _as_values(nest.flatten(sources), "sources")
        explaining = explain or autodiff_state.explain_none
        if context.graph is not None:
            flat_sources = [_in_graph(s) for s in flat_sources]
        try:
            if explaining:
                grads = explained_walk(
                    self,
                    targets,
                    flat_sources,
                    lambda: self._backward(
                        targets, seeds, flat_sources, release=not self._persistent
                    ),
                )
            else:
                recorded = self.tracks_any(targets)
                # A non-persistent tape lets the walk free each record once it is used.
                grads = self._backward(
                    targets, seeds, flat_sources, release=not self._persistent, sparse=True
                )
                autodiff_state.none_gradients = None
                if all(g is None for g in grads):  # an optimizer would have nothing to do
                    note_none_variables(self, targets, flat_sources, grads, recorded)
        finally:
            self._end()
        grads = _apply_policy(grads, flat_sources, policy)
        return grads[0] if single else nest.pack_sequence_as(sources, grads)

    def jacobian(
        self,
        target: Any,
        sources: Any,
        unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
        parallel_iterations: int | None = None,
        experimental_use_pfor: bool = True,
        explain: bool = False,
    ) -> Any:
        """The full Jacobian: for each source, shape ``target.shape + source.shape``.

        Vectorised: when every gradient function between the sources and ``target`` is
        batchable (``OpDef.batchable``), all rows come from one backward pass whose seeds are
        stacked on a leading axis (``parallel_iterations`` rows per pass when given, to bound
        memory). Otherwise (a custom gradient, a reshape, a reduction on the path), or with
        ``experimental_use_pfor=False``, it falls back to one backward pass per element of
        ``target``. Both give the same values. ``explain`` (or the debugging switch) says why
        a Jacobian is None, as ``gradient`` does.

        >>> import retrograd as rg
        >>> x = rg.constant([1.0, 2.0])
        >>> with rg.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.jacobian(y, x).numpy().tolist()
        [[2.0, 0.0], [0.0, 4.0]]
        """
        policy = _policy(unconnected_gradients)
        self._begin("jacobian")
        (y,) = _as_values([target], "target")
        flat_sources = _as_values(nest.flatten(sources), "sources")
        shape, dtype = tuple(y._value.shape), y._value.dtype

        def walk() -> list:
            return self._rows(
                y,
                int(np.prod(shape, dtype=np.int64)),
                lambda lo, hi: _unit_rows(lo, hi, shape, dtype, y._value),
                flat_sources,
                parallel_iterations,
                experimental_use_pfor,
            )

        try:
            if (explain or autodiff_state.explain_none) and 0 not in shape:
                rows = explained_walk(self, [y], flat_sources, walk)
            else:
                rows = walk()
        finally:
            self._end()
        result = [
            _zeros_for(s, (*shape, *s.shape.as_list()))
            if 0 in shape
            else _shaped(r, (*shape, *s.shape.as_list()), s, policy)
            for r, s in zip(rows, flat_sources)
        ]  # (an empty target has an empty Jacobian, as TensorFlow's: zeros, not None)
        return nest.pack_sequence_as(sources, result)

    def batch_jacobian(
        self,
        target: Any,
        source: Any,
        unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
        parallel_iterations: int | None = None,
        experimental_use_pfor: bool = True,
        explain: bool = False,
    ) -> Any:
        """Per-example Jacobians: ``[b, *target.shape[1:], *source.shape[1:]]``.

        Assumes example ``i`` of ``target`` depends only on example ``i`` of ``source``.
        Vectorised as ``jacobian`` is, with one backward pass per element of an example as
        the fallback. ``explain`` says why the result is None, as ``gradient`` does.
        """
        policy = _policy(unconnected_gradients)
        self._begin("batch_jacobian")
        (y,) = _as_values([target], "target")
        (x,) = _as_values([source], "source")
        if y.ndim < 1 or x.ndim < 1 or y.shape.as_list()[0] != x.shape.as_list()[0]:
            raise ValueError(
                f"batch_jacobian: target {y._value.shape} and source {x._value.shape} need the "
                f"same first (batch) dimension"
            )
        batch, rest = y._value.shape[0], tuple(y._value.shape[1:])
        dtype = y._value.dtype

        def seeds(lo: int, hi: int) -> np.ndarray:
            units = _unit_rows(lo, hi, rest, dtype, y._value)[:, None]
            return np.broadcast_to(units, (hi - lo, batch, *rest)).copy()

        def walk() -> list:
            return self._rows(
                y,
                int(np.prod(rest, dtype=np.int64)),
                seeds,
                [x],
                parallel_iterations,
                experimental_use_pfor,
            )

        try:
            explaining = (explain or autodiff_state.explain_none) and batch and 0 not in rest
            (rows,) = explained_walk(self, [y], [x], walk) if explaining else walk()
        finally:
            self._end()
        if rows is not None:  # [rows, batch, *x_rest] -> [batch, rows, *x_rest]
            rows = array_ops.transpose(rows, (1, 0, *range(2, rows.ndim)))
        return _shaped(rows, (batch, *rest, *x.shape.as_list()[1:]), x, policy)

    def _rows(
        self,
        y: Any,
        count: int,
        seeds: Any,
        sources: list,
        parallel_iterations: int | None,
        vectorize: bool,
    ) -> list[Tensor | None]:
        """Backward passes from ``y`` for ``count`` seeds (``seeds(lo, hi)`` stacks seeds
        ``lo..hi-1``); for each source, the gradients stacked as ``[count, *source.shape]``.
        """
        if parallel_iterations is not None and int(parallel_iterations) < 1:
            raise ValueError(
                f"parallel_iterations must be a positive integer, got {parallel_iterations!r}"
            )
        if vectorize and count:
            step = int(parallel_iterations or count)
            try:
                parts = [
                    self._backward(
                        [y],
                        [Tensor(seeds(lo, min(lo + step, count)))],
                        sources,
                        (min(lo + step, count) - lo,),
                    )
                    for lo in range(0, count, step)
                ]
            except NotBatchableError:
                pass  # the fallback below
            else:
                return [_joined([p[j] for p in parts]) for j in range(len(sources))]
        rows = [self._backward([y], [Tensor(seeds(i, i + 1)[0])], sources) for i in range(count)]
        return [_stacked([row[j] for row in rows], s) for j, s in enumerate(sources)]

    def _begin(self, what: str) -> None:
        if self._spent:
            raise RuntimeError(
                f"A non-persistent GradientTape can only be used to compute one set of gradients "
                f"(or jacobians); GradientTape.{what} was called again. Use "
                f"GradientTape(persistent=True) to compute several."
            )
        if self._recording and not self._persistent:
            self._pop()  # as TensorFlow: a non-persistent tape stops recording here

    def _end(self) -> None:
        if not self._persistent:
            self._producers, self._watched = {}, set()  # the variables stay listed, as in TF
            self._blocked, self._notes = [], {}
            self._spent = True

    def _backward(
        self,
        targets: list,
        seeds: list,
        sources: list,
        batch_shape: tuple = (),
        release: bool = False,
        sparse: bool = False,
    ) -> list[Tensor | None]:
        source_ids = {s._id for s in sources}
        return backward(
            self._producers,
            targets,
            seeds,
            sources,
            batch_shape,
            release,
            sparse=sparse,
            all_influenced=self._watched <= source_ids,
        )
