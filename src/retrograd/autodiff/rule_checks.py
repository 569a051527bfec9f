"""Calling a gradient function and checking what it returned.

``call_rule`` checks that a rule returned one gradient per input, each a tensor (or None,
or IndexedSlices) with its input's dtype and shape, and names the rule when it did not.

>>> import retrograd as rg
>>> from retrograd.autodiff.rule_checks import call_rule
>>> x = rg.constant([1.0, 2.0])
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = rg.exp(x)
>>> op = tape.producer(y)
>>> call_rule(lambda op, g: [g], op, [rg.ones_like(y)])[0].numpy().tolist()
[1.0, 1.0]
>>> call_rule(lambda op, g: [g[0]], op, [rg.ones_like(y)])
Traceback (most recent call last):
    ...
ValueError: the gradient function for op type 'Exp' ... returned a gradient of shape () ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from retrograd.core.execute import Operation, context
from retrograd.core.registry import gradient_registry
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.ops.indexed_slices import IndexedSlices

__all__ = ["call_rule", "describe_rule"]


def describe_rule(op: Operation, rule: Any) -> str:
    """How error messages name the rule that computed ``op``'s gradient."""
    described = getattr(rule, "describe", None)
    if described is not None:
        return described
    return (
        f"the gradient function for op type '{op.type}' "
        f"(registered at {gradient_registry.location(op.type)})"
    )


def _input_label(op: Operation, i: int) -> str:
    value = op.inputs[i]
    return f"variable '{value.name}'" if isinstance(value, Variable) else f"input {i}"


def _same_shape(a: Any, b: Any) -> bool:
    """Equal shapes; in graphs, shapes that could be equal once unknown dimensions are known."""
    if a == b:
        return True
    if a is None or b is None:
        return True  # unknown rank
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))


def call_rule(rule: Any, op: Operation, upstream: list, batch_shape: tuple = ()) -> Sequence:
    """Calls a gradient function and checks that it returned one well-formed gradient per input
    (a tuple or list, or a single tensor for a single input); returns the gradients.

    Each gradient must have its input's dtype and shape (after ``batch_shape``).
    """
    context.rule_depth += 1
    try:
        result = rule(op, *upstream)
    finally:
        context.rule_depth -= 1
    kind = type(result)
    if kind is tuple or kind is list:
        grads = result
    else:
        grads = tuple(result) if isinstance(result, (list, tuple)) else (result,)
    inputs = op.inputs
    if len(grads) != len(inputs):
        raise ValueError(
            f"{describe_rule(op, rule)} returned {len(grads)} gradient(s) but op '{op.name}' has "
            f"{len(inputs)} input(s); return one per input (None for no gradient)"
        )
    for i in range(len(grads)):
        g = grads[i]
        if g is None:
            continue
        if type(g) is IndexedSlices:
            _check_slices(rule, op, i, g, batch_shape)
            continue
        if type(g) is not Tensor and not isinstance(g, Tensor):
            raise TypeError(
                f"{describe_rule(op, rule)} returned a {type(g).__name__} for "
                f"{_input_label(op, i)}; gradients must be retrograd tensors (or None)"
            )
        got, want = g._value, inputs[i]._value
        kind = type(got)
        if kind is type(want) and kind is not np.ndarray and not batch_shape:
            continue  # NumPy scalars of one type: the same dtype and shape
        if (
            batch_shape
            or got.shape != want.shape
            or (got.dtype is not want.dtype and got.dtype != want.dtype)
        ):
            _check_gradient(rule, op, i, g, batch_shape)
    return grads


def _check_slices(rule: Any, op: Operation, i: int, g: Any, batch_shape: tuple) -> None:
    """Raises unless sparse gradient ``g`` stands for a tensor like input ``i``."""
    value = op.inputs[i]
    if (
        not batch_shape
        and _same_shape(g._static_shape, value._value.shape)
        and g.values._value.dtype == value._value.dtype
    ):
        return
    raise ValueError(
        f"{describe_rule(op, rule)} returned IndexedSlices of dense shape {g._static_shape} "
        f"and dtype {g.dtype.name} for {_input_label(op, i)}, which has shape "
        f"{tuple(value._value.shape)} and dtype {value.dtype.name}; a gradient must match "
        f"its input"
    )


def _check_gradient(rule: Any, op: Operation, i: int, g: Tensor, batch_shape: tuple) -> None:
    """Raises unless gradient ``g`` for input ``i`` has the input's dtype and (batched) shape."""
    value = op.inputs[i]
    shape = value._value.shape
    if batch_shape:
        shape = (*batch_shape, *shape)
    got = g._value
    if _same_shape(got.shape, shape) and got.dtype == value._value.dtype:
        return
    raise ValueError(
        f"{describe_rule(op, rule)} returned a gradient of shape {plain_dims(g.shape)} and "
        f"dtype {g.dtype.name} for {_input_label(op, i)}, which has shape "
        f"{tuple(shape)} and dtype {value.dtype.name}; a gradient must match its "
        f"input"
    )
