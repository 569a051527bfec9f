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
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.autodiff import long_tapes
from retrograd.autodiff.backprop import NotBatchableError, backward
from retrograd.autodiff.explain import (
    explained_backward,
    explained_walk,
    note_none_variables,
    ops_seen,
    user_site,
)
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
from retrograd.core.released_values import release_dropped
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.ops import array_ops

__all__ = ["GradientTape", "UnconnectedGradients"]


class GradientTape:
    """Records operations on watched tensors and variables for reverse-mode differentiation.

    Trainable variables read inside the tape are watched automatically (unless
    ``watch_accessed_variables=False``). A non-persistent tape computes one set of gradients
    and then frees what it recorded; ``persistent=True`` allows several.

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
        self._tracked: dict[int, Operation | None] = {}  # id(value) -> producer; None: source
        self._kept: list[Any] = []  # watched values, kept alive so their ids stay theirs
        self._variables: list[Variable] = []
        self._recording = False
        self._spent = False
        self._blocked: list[Operation] = []  # recorded ops with only integer/bool outputs
        self._notes: dict[int, tuple[str, str]] = {}  # what explanations of None gradients use
        self._opened = 0
        # id(tensor) -> [tensor, records holding it]: large values no gradient reads, freed
        # once the program drops them (see core.released_values).
        self._candidates: dict[int, list] = {}

    # -- recording ---------------------------------------------------------------------
    def __enter__(self) -> GradientTape:
        if self._recording:
            raise ValueError(
                "Tape is still recording: a GradientTape cannot be re-entered while active."
            )
        if self._spent:  # as TensorFlow: a spent non-persistent tape starts afresh
            self.reset()
        if not self._tracked:
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
        if long_tapes.frozen:  # (a long tape stops recording: objects frozen meanwhile thaw)
            long_tapes.thaw()

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
        self._tracked, self._kept, self._variables = {}, [], []
        self._blocked, self._notes, self._candidates = [], {}, {}
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
            self._watch_one(_in_graph(value))

    def _watch_one(self, value: Any) -> None:
        if value._value.dtype.kind not in "fc":
            warnings.warn(
                f"GradientTape.watch: the dtype of the watched value must be floating or complex, "
                f"got {value.dtype.name}; it will get no gradient",
                stacklevel=3,
            )
            return
        key = id(value)
        if key not in self._tracked:
            self._tracked[key] = None
            self._kept.append(value)
            if isinstance(value, Variable):
                self._variables.append(value)

    def watched_variables(self) -> tuple[Variable, ...]:
        """The variables this tape watches, in the order they were first watched.

        As in TensorFlow, they are still listed after a non-persistent tape computed its
        gradient; ``reset()`` forgets them, and entering the tape again adds to them.
        """
        return tuple(self._variables)

    def _should_record(self, inputs: Any) -> bool:
        tracked = self._tracked
        for value in inputs:  # noqa: SIM110 - a plain loop is faster than any() on this hot path
            if id(value) in tracked:
                return True
        return False

    def _record(self, op: Operation) -> None:
        tracked = self._tracked
        kept = False
        for out in op.outputs:
            if out._value.dtype.kind in "fc":  # integer and bool results carry no gradient
                tracked[id(out)] = op
                kept = True
        if not kept and len(self._blocked) < _BLOCKED_KEPT:
            self._blocked.append(op)  # for explanations: where a path lost its gradient

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
        explaining = explain or context.explain_none
        if context._graph is not None:  # (behind the `graph` property)
            flat_sources = [_in_graph(s) for s in flat_sources]
        try:
            if explaining:
                grads = explained_backward(self, targets, seeds, flat_sources)
            else:
                tracked = self._tracked
                recorded = False
                for t in targets:  # (a loop: cheaper than any() on a generator)
                    if id(t) in tracked:
                        recorded = True
                        break
                # A non-persistent tape lets the walk free each record once it is used.
                grads = self._backward(
                    targets, seeds, flat_sources, release=not self._persistent, sparse=True
                )
                context.none_gradients = None
                if grads.count(None) == len(grads):  # an optimizer would have nothing to do
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
        batchable (``mark_batchable``), all rows come from one backward pass whose seeds are
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
                lambda lo, hi: _unit_rows(lo, hi, shape, dtype),
                flat_sources,
                parallel_iterations,
                experimental_use_pfor,
            )

        try:
            if (explain or context.explain_none) and 0 not in shape:
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
            units = _unit_rows(lo, hi, rest, dtype)[:, None]
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
            explaining = (explain or context.explain_none) and batch and 0 not in rest
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
        if self._candidates:
            release_dropped(self._candidates)
            if not self._persistent:
                self._candidates = {}  # (the walk frees the records as it goes)

    def _end(self) -> None:
        if not self._persistent:
            self._tracked, self._kept = {}, []  # the variables stay listed, as in TensorFlow
            self._blocked, self._notes, self._candidates = [], {}, {}
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
        watched = {id(v) for v in self._kept}
        return backward(
            self._tracked, targets, seeds, sources, batch_shape, release, watched, sparse=sparse
        )
