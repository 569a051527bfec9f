"""Forward mode: ``ForwardAccumulator`` computes Jacobian-vector products as ops run.

An accumulator is an op observer (``execute.context.push_observer``): when an op runs whose
inputs carry tangents, it computes the tangents of the op's outputs with the op type's
forward rule (``RegisterForward``). Op types without one, and custom gradients without a
``defjvp`` rule, get theirs derived from the gradient function: a gradient function computes
``u -> Jᵀu``, linear in ``u``, so ``J·t`` is the gradient of ``<Jᵀu, t>`` with respect to
``u`` — one more backward pass through the rule, with a tape watching ``u``.

Tangent computations are ordinary ops: tapes record them (reverse over forward), outer
accumulators differentiate them (forward over forward), and an accumulator entered around a
tape sees the backward pass (forward over reverse: Hessian-vector products). An
accumulator never sees its own tangent computations, nor those of accumulators entered
before it (as in TensorFlow: take higher-order JVPs from the outer accumulator).

``retrograd.gradient_override`` applies to forward mode too: an op that runs inside the
block with an overridden type gets the JVP of the overriding gradient function (the
transpose of its ``u -> Jᵀu``), so forward and reverse mode agree under the override.
TensorFlow's ``gradient_override_map`` marks graph ops for ``tf.gradients`` only.

>>> import retrograd as rg
>>> x = rg.constant([1.0, 2.0])
>>> with rg.autodiff.ForwardAccumulator(x, rg.constant([1.0, 0.0])) as acc:
...     y = x * x * x
>>> acc.jvp(y)
<retrograd.Tensor: shape=(2,), dtype=float32, numpy=array([3., 0.], dtype=float32)>
"""

from __future__ import annotations

import warnings
import weakref
from typing import Any

from retrograd.autodiff.backprop import call_rule
from retrograd.autodiff.tape import GradientTape
from retrograd.autodiff.tape_values import UnconnectedGradients, _policy
from retrograd.core import nest
from retrograd.core.backends import zeros_like
from retrograd.core.execute import Operation, context
from retrograd.core.registry import forward_registry, gradient_registry
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.ops import broadcast
from retrograd.ops.indexed_slices import dense_gradients

__all__ = ["ForwardAccumulator", "output_tangents", "derived_tangents"]


class ForwardAccumulator:
    """Computes Jacobian-vector products of the ops run inside it (TensorFlow's API).

    ``primals``: tensors or variables (a nested structure) to watch; ``tangents``: one tangent
    per primal, of the same shape and dtype (Python numbers, lists and arrays are converted to
    the primal's dtype). Values not watched have zero tangents. Tangents are held only as long
    as the values they belong to are alive.

    >>> import retrograd as rg
    >>> x = rg.constant([1.0, 2.0])
    >>> with rg.autodiff.ForwardAccumulator(x, rg.constant([1.0, 0.0])) as acc:
    ...     y = x * x
    >>> acc.jvp(y).numpy().tolist()
    [2.0, 0.0]
    """

    def __init__(self, primals: Any, tangents: Any) -> None:
        if nest.is_nested(primals):
            nest.assert_same_structure(primals, tangents, check_types=False)
            pairs = list(zip(nest.flatten(primals), nest.flatten(tangents)))
        else:  # one primal: its tangent is one value, even a nested list of numbers
            pairs = [(primals, tangents)]
        self._tangents: dict[int, tuple[weakref.ref, Tensor]] = {}
        self._recording = False
        self._paused = 0
        self._forget = _forgetter(self)
        seen: set[int] = set()
        for i, (primal, tangent) in enumerate(pairs):
            if not isinstance(primal, (Tensor, Variable)):
                raise TypeError(
                    f"ForwardAccumulator: primals[{i}] must be a retrograd.Tensor or Variable, "
                    f"got {type(primal).__name__}: {primal!r}"
                )
            if id(primal) in seen:
                raise ValueError(
                    f"Tensor {primal!r} was specified as a primal multiple times. This may "
                    f"indicate an error. If it was intended, please sum the corresponding tangents."
                )
            seen.add(id(primal))
            if primal._value.dtype.kind not in "fc":
                warnings.warn(
                    f"ForwardAccumulator: the dtype of the watched primal must be floating or "
                    f"complex, got {primal.dtype.name}; it gets no tangent",
                    stacklevel=2,
                )
                continue
            self._set(primal, _as_tangent(primal, tangent, i))

    # -- recording ---------------------------------------------------------------------------
    def __enter__(self) -> ForwardAccumulator:
        if self._recording:
            raise ValueError("Accumulator is already recording.")
        context.push_observer(self)
        self._recording = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._recording:
            context.pop_observer(self)
            self._recording = False

    def observe(self, op: Operation) -> None:
        """Computes the tangents of ``op``'s outputs when one of its inputs has a tangent."""
        if self._paused:
            return
        known = self._tangents
        tangents: list[Any] | None = None
        for i, value in enumerate(op.inputs):
            entry = known.get(id(value))
            if entry is not None:
                if tangents is None:
                    tangents = [None] * len(op.inputs)
                tangents[i] = entry[1]
        if tangents is None:
            return
        busy = self._with_inner_accumulators()
        for acc in busy:
            acc._paused += 1
        try:
            with broadcast.gradient_batch_dims(0):
                found = output_tangents(op, tangents)
        finally:
            for acc in busy:
                acc._paused -= 1
        for value, tangent in zip(op.outputs, found):
            if tangent is not None and value._value.dtype.kind in "fc":
                self._set(value, tangent)

    def _with_inner_accumulators(self) -> list[ForwardAccumulator]:
        """This accumulator and those entered after it: none of them sees its tangent ops."""
        observers = context.observers
        start = next(i for i, o in enumerate(observers) if o is self)
        return [self, *(o for o in observers[start + 1 :] if isinstance(o, ForwardAccumulator))]

    def _set(self, value: Any, tangent: Tensor) -> None:
        self._tangents[id(value)] = (weakref.KeyedRef(value, self._forget, id(value)), tangent)

    # -- results -----------------------------------------------------------------------------
    def jvp(
        self,
        primals: Any,
        unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
    ) -> Any:
        """The tangent of each tensor in ``primals`` (a nested structure): its
        Jacobian-vector product. Values that do not depend on the watched primals get
        ``None``, or zeros with ``unconnected_gradients="zero"``. Computes nothing.
        """
        policy = _policy(unconnected_gradients)

        def lookup(value: Any) -> Tensor | None:
            if not isinstance(value, (Tensor, Variable)):
                raise TypeError(
                    f"ForwardAccumulator.jvp: expected retrograd tensors or variables, got "
                    f"{type(value).__name__}: {value!r}"
                )
            entry = self._tangents.get(id(value))
            if entry is not None and entry[0]() is value:
                return entry[1]
            if policy is UnconnectedGradients.NONE:
                return None
            return Tensor(zeros_like(value._value))

        return nest.map_structure(lookup, primals)


def _forgetter(acc: ForwardAccumulator) -> Any:
    """The weak-reference callback dropping a dead value's tangent (not keeping ``acc`` alive)."""
    acc_ref = weakref.ref(acc)

    def forget(ref: weakref.KeyedRef) -> None:
        alive = acc_ref()
        if alive is not None:
            alive._tangents.pop(ref.key, None)

    return forget


def _as_tangent(primal: Any, tangent: Any, i: int) -> Tensor:
    if isinstance(tangent, (Tensor, Variable)) and tangent.dtype != primal.dtype:
        raise ValueError(
            f"ForwardAccumulator: tangents[{i}] has dtype {tangent.dtype.name} but its primal "
            f"has dtype {primal.dtype.name}"
        )
    t = convert_to_tensor(tangent, dtype=primal.dtype)
    if t._value.shape != primal._value.shape:
        raise ValueError(
            f"ForwardAccumulator: tangents[{i}] has shape {plain_dims(t.shape)} but its primal has "
            f"shape {plain_dims(primal.shape)}"
        )
    return t


# --- tangents of one op ------------------------------------------------------------------


def output_tangents(op: Operation, tangents: list) -> list[Tensor | None]:
    """The tangents of ``op``'s outputs, given one tangent per input (None: zero).

    A custom gradient's own forward rule (``defjvp``) comes first, then the op type's
    registered forward rule; otherwise the tangents are derived from the gradient function.
    An op type overridden by the ``gradient_override`` scope in force when the op runs gets
    its tangents derived from the override (a forward rule of the op type would disagree
    with it); custom gradients keep their own rules, as under tapes.
    """
    rule = op.grad_fn
    if rule is not None:  # a custom gradient
        if getattr(rule, "forward_rule", None) is None:
            return derived_tangents(op, rule, tangents)
        return _custom_tangents(op, rule, tangents)
    scoped = context.gradient_overrides
    if scoped and op.type in scoped:  # gradient_override: the overriding rule, transposed
        return derived_tangents(op, scoped[op.type], tangents)
    direct = forward_registry.find(op.type)
    if direct is not None:
        return _call_forward_rule(direct, op, tangents)
    gradient = gradient_registry.lookup(op.type)
    if gradient is None:  # declared non-differentiable: no tangent
        return [None] * len(op.outputs)
    return derived_tangents(op, gradient, tangents)


def derived_tangents(op: Operation, rule: Any, tangents: list) -> list[Tensor | None]:
    """``J·t`` from a gradient function ``u -> Jᵀu``: the gradient of ``<Jᵀu, t>`` in ``u``.

    Exact for every rule that is a vector-Jacobian product (linear in ``u``); ``u`` is zero,
    so a rule that is not linear is linearised there.
    """
    upstream = [
        Tensor(zeros_like(out._value)) if out._value.dtype.kind in "fc" else None
        for out in op.outputs
    ]
    watched = [u for u in upstream if u is not None]
    if not watched:
        return [None] * len(op.outputs)
    with GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(watched)
        grads = call_rule(rule, op, upstream)
    targets, weights = [], []
    for g, t in zip(grads, tangents):
        if g is not None and t is not None:
            targets.append(g)
            weights.append(t)
    if not targets:
        return [None] * len(op.outputs)
    # Transposing the rule (linear in u) takes the true gradients of the ops it is made of,
    # not those an override scope puts in place of them.
    scoped, context.gradient_overrides = context.gradient_overrides, None
    try:
        found = iter(dense_gradients(tape.gradient(targets, watched, output_gradients=weights)))
    finally:
        context.gradient_overrides = scoped
    return [None if u is None else next(found) for u in upstream]


def _custom_tangents(op: Operation, rule: Any, tangents: list) -> list[Tensor | None]:
    """A ``defjvp`` rule for the arguments, plus the derived part for variables read inside."""
    n = rule.argument_count
    found = rule.jvp(tangents[:n])
    for i, (t, out) in enumerate(zip(found, op.outputs)):
        check_tangent(t, out, lambda: f"{rule.describe}: the forward rule given with defjvp", i)
    if any(t is not None for t in tangents[n:]):
        extra = derived_tangents(op, rule, [None] * n + list(tangents[n:]))
        found = [_plus(a, b) for a, b in zip(found, extra)]
    return found


def _plus(a: Tensor | None, b: Tensor | None) -> Tensor | None:
    if a is None or b is None:
        return b if a is None else a
    return a + b


def _describe_forward(op: Operation, rule: Any) -> str:
    return (
        f"the forward rule for op type '{op.type}' (registered at "
        f"{forward_registry.location(op.type)})"
    )


def _call_forward_rule(rule: Any, op: Operation, tangents: list) -> list[Tensor | None]:
    """Calls a registered forward rule and checks one well-formed tangent per output."""
    result = rule(op, *tangents)
    found = list(result) if isinstance(result, (list, tuple)) else [result]
    if len(found) != len(op.outputs):
        raise ValueError(
            f"{_describe_forward(op, rule)} returned {len(found)} tangent(s) but op '{op.name}' "
            f"has {len(op.outputs)} output(s); return one per output (None for no tangent)"
        )
    for i, (out, t) in enumerate(zip(op.outputs, found)):
        check_tangent(t, out, lambda: f"{_describe_forward(op, rule)}", i)
    return found


def check_tangent(t: Any, out: Tensor, describe: Any, i: int) -> None:
    """Raises unless ``t`` is None or a tensor with output ``i``'s shape and dtype."""
    if t is None:
        return
    if not isinstance(t, Tensor):
        raise TypeError(
            f"{describe()} returned a {type(t).__name__} for output {i}; tangents must be "
            f"retrograd tensors (or None)"
        )
    if t._value.shape != out._value.shape or t._value.dtype != out._value.dtype:
        raise ValueError(
            f"{describe()} returned a tangent of shape {plain_dims(t.shape)} and dtype "
            f"{t.dtype.name} for output {i}, which has shape {plain_dims(out.shape)} and dtype "
            f"{out.dtype.name}; a tangent must match its output"
        )
