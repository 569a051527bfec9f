"""The loop variables of ``while_loop``: their shapes and shape invariants, what the body
must return, and how Python values and composites (a TensorArray) enter the loop."""

from __future__ import annotations

from typing import Any

from retrograd.core import nest
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable

__all__ = ["as_list", "as_loop_tensor", "check_body", "invariant_leaves", "same_structure"]


def invariant_leaves(loop_vars: Any, invariants: Any) -> list:
    """One shape per loop variable, walking ``invariants`` in the structure of ``loop_vars``
    (its leaves are shapes, which are tuples themselves). A composite's components keep
    their shapes (a TensorArray's list is a scalar whatever its elements' shapes)."""
    if nest.is_composite(loop_vars):
        return [c._value.shape for c in loop_vars._nest_components()]
    if nest.is_nested(loop_vars):
        if isinstance(loop_vars, dict):  # in nest.flatten's order: sorted keys
            keys = sorted(loop_vars)
            children, invariants = [loop_vars[k] for k in keys], [invariants[k] for k in keys]
        else:
            children = list(loop_vars)
        if len(invariants) != len(children):
            raise ValueError("while_loop: shape_invariants must have the structure of loop_vars")
        return [shape for c, i in zip(children, invariants) for shape in invariant_leaves(c, i)]
    return [None if invariants is None else TensorShape(invariants)]


def as_list(loop_vars: Any) -> list:
    return list(loop_vars) if isinstance(loop_vars, (list, tuple)) else [loop_vars]


def as_loop_tensor(value: Any) -> Any:
    if isinstance(value, (Tensor, Variable)) or nest.is_composite(value):
        return value
    return convert_to_tensor(value)


def same_structure(loop_vars: Any, result: Any) -> Any:
    if not isinstance(loop_vars, (list, tuple)):
        result = result[0] if isinstance(result, (list, tuple)) and len(result) == 1 else result
    elif not isinstance(result, (list, tuple)):
        result = [result]
    try:
        nest.assert_same_structure(loop_vars, result, check_types=False, expand_composites=True)
    except (TypeError, ValueError) as e:
        raise ValueError(f"while_loop: body must return the structure of loop_vars: {e}") from None
    return result


def check_body(flat: list, invariants: list, outputs: list) -> None:
    for i, (v, shape, out) in enumerate(zip(flat, invariants, outputs)):
        out = convert_to_tensor(out)
        if out.dtype != v.dtype:
            raise TypeError(
                f"while_loop: loop variable {i} enters as {v.dtype.name} but the body returns "
                f"{out.dtype.name}"
            )
        if shape is not None and not out.shape.is_compatible_with(shape):
            raise ValueError(
                f"while_loop: loop variable {i} enters the loop with shape {tuple(shape)}, but has "
                f"shape {out.shape} after one iteration; give shape_invariants (None for a "
                f"dimension that changes)"
            )
