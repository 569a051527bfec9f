"""Overriding the gradient of built-in ops by type, for every way of differentiating.

``retrograd.gradient_override({"Relu": guided_relu_grad})`` replaces the registered gradient
of every op of type ``Relu`` for the gradients computed inside the ``with`` block, in the
current thread: ``GradientTape.gradient`` (also over ops recorded before the block, so a
model that already exists can be explained by guided backprop), tapes inside ``function``
(and the gradients of ``function`` calls) and ``tf.gradients``. A ``function`` keeps one trace
per override scope, so one traced before the block is traced again inside it. Forward mode
(``ForwardAccumulator``) honours it for the ops that run inside the block: their JVPs are
derived from the overriding gradient function. A value is a gradient
function ``fn(op, *grads)``, the name of a registered gradient, or None (no gradient).
Custom gradients (``custom_gradient``) keep their own rule.

TensorFlow's ``Graph.gradient_override_map`` is different: it marks the ops created inside
it, and only ``tf.gradients`` in that graph honours it; GradientTape ignores it, also inside
``function``. Both check the op types they are given and suggest the closest known ones.

>>> import retrograd as rg
>>> def guided_relu_grad(op, grad):
...     return rg.where(grad > 0, grad, 0.0) * rg.cast(op.outputs[0] > 0, grad.dtype)
>>> x = rg.constant([-1.0, 2.0, 3.0])
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = rg.nn.relu(x)
>>> with rg.gradient_override({"Relu": guided_relu_grad}):
...     tape.gradient(y, x, output_gradients=rg.constant([1.0, -1.0, 1.0])).numpy().tolist()
[0.0, 0.0, 1.0]
"""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from retrograd.core.execute import OP_DEFS, Operation, context
from retrograd.core.registry import function_location, gradient_registry

__all__ = ["gradient_override", "check_op_types", "overridden_rule", "override_key"]


class _Override:
    """A gradient function put in place of an op type's by ``gradient_override``."""

    __slots__ = ("op_type", "fn", "name")

    def __init__(self, op_type: str, fn: Callable | None, name: str | None) -> None:
        self.op_type = op_type
        self.fn = fn
        self.name = name  # the registered name it came from, if any

    @property
    def describe(self) -> str:
        """How errors name it: the override, what it is, and where it is defined."""
        if self.name is not None:
            where = gradient_registry.location(self.name)
            what = f"the gradient registered as '{self.name}' (at {where})"
        else:
            name = getattr(self.fn, "__qualname__", self.fn)
            what = f"'{name}' (defined at {function_location(self.fn)})"
        return f"the gradient override for op type '{self.op_type}', {what}"

    def __call__(self, op: Operation, *grads: Any) -> Any:
        if self.fn is None:
            return [None] * len(op.inputs)
        return self.fn(op, *grads)


def known_op_types() -> list[str]:
    """Every op type retrograd defines or has a gradient registered for."""
    return sorted(set(OP_DEFS) | set(gradient_registry.list()))


def check_op_types(op_types: Any, where: str) -> None:
    """Raises ValueError for a key of ``op_types`` that is no known op type, suggesting the
    closest known names (``"sign"`` -> ``'Sign'``)."""
    known = known_op_types()
    by_lower: dict[str, list[str]] = {}
    for name in known:
        by_lower.setdefault(name.lower(), []).append(name)
    for op_type in op_types:
        if not isinstance(op_type, str):
            raise TypeError(f"{where}: op types must be strings, got {op_type!r}")
        if op_type in OP_DEFS or op_type in gradient_registry:
            continue
        close = list(by_lower.get(op_type.lower(), []))  # the same name but for case
        for match in (
            []
            if close
            else difflib.get_close_matches(op_type.lower(), list(by_lower), n=3, cutoff=0.6)
        ):
            close.extend(n for n in by_lower[match] if n not in close)
        hint = f"; did you mean {' or '.join(repr(c) for c in close[:3])}?" if close else ""
        raise ValueError(
            f"{where}: unknown op type {op_type!r}{hint} (op types are TensorFlow's names, "
            f"like 'Relu' or 'MatMul'; retrograd.gradient_registry.list() has every registered one)"
        )


def _as_override(op_type: str, value: Any) -> _Override:
    if value is None:
        return _Override(op_type, None, None)
    if isinstance(value, str):
        if value not in gradient_registry:
            raise LookupError(
                f"gradient_override: no gradient is registered under the name {value!r} (for op "
                f"type {op_type!r}); register one with @retrograd.RegisterGradient({value!r}), "
                f"or give the function itself"
            )
        return _Override(op_type, gradient_registry.lookup(value), value)
    if not callable(value):
        raise TypeError(
            f"gradient_override: the gradient for op type {op_type!r} must be a function "
            f"fn(op, *grads), the name of a registered gradient or None; got {value!r}"
        )
    return _Override(op_type, value, None)


@contextlib.contextmanager
def gradient_override(overrides: Mapping[str, Any]) -> Iterator[None]:
    """Within this block (and this thread), ops of the given types get the given gradients.

    ``overrides`` maps op types (``"Relu"``) to gradient functions ``fn(op, *grads)``, names
    registered with ``RegisterGradient``, or None. Blocks nest; the inner one wins.

    >>> import retrograd as rg
    >>> x = rg.constant(2.0)
    >>> with rg.gradient_override({'Square': lambda op, dy: dy}):
    ...     with rg.GradientTape() as tape:
    ...         tape.watch(x)
    ...         y = rg.square(x)
    ...     print(tape.gradient(y, x).numpy().tolist())
    1.0
    """
    if not isinstance(overrides, Mapping):
        raise TypeError(
            f"gradient_override expects a dict of op type -> gradient function, got "
            f"{type(overrides).__name__}"
        )
    check_op_types(overrides, "gradient_override")
    made = {op_type: _as_override(op_type, value) for op_type, value in overrides.items()}
    outer = context.gradient_overrides
    context.gradient_overrides = {**(outer or {}), **made}
    try:
        yield
    finally:
        context.gradient_overrides = outer


def overridden_rule(op: Operation, graph_map: bool) -> Any:
    """The gradient function for ``op`` with the override scope (and, when ``graph_map``,
    the op's ``gradient_override_map`` entry) taken into account."""
    scoped = context.gradient_overrides
    if scoped:
        found = scoped.get(op.type)
        if found is not None:
            return found
    if graph_map:
        name = getattr(op, "gradient_override", None)
        if name is not None:
            return _Override(op.type, gradient_registry.lookup(name), name)
    return gradient_registry.lookup(op.type)


def override_key() -> tuple:
    """What the override scope is now, as a hashable key (for caches of traced gradients)."""
    scoped = context.gradient_overrides
    if not scoped:
        return ()
    return tuple(sorted((t, o.fn, o.name) for t, o in scoped.items()))
