"""What GradientTape does with its arguments and results: the unconnected-gradient policy,
targets and their seeds (upstream gradients), sources inside a graph being built, and the
rows of Jacobians.

>>> _policy("zero")
<UnconnectedGradients.ZERO: 'zero'>
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.backends import is_array, namespace_of, on_device_of, place, zeros_like
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import context
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.ops import array_ops
from retrograd.ops.indexed_slices import IndexedSlices

__all__ = ["UnconnectedGradients"]


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on.

    >>> import retrograd as rg
    >>> x, y = rg.constant(1.0), rg.constant(2.0)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     z = y * 2.0
    >>> tape.gradient(z, x, unconnected_gradients=rg.UnconnectedGradients.ZERO).numpy().tolist()
    0.0
    """

    NONE = "none"
    ZERO = "zero"


_BLOCKED_KEPT = 256  # ops with integer/bool outputs a tape remembers for explanations


def _policy(value: UnconnectedGradients | str) -> UnconnectedGradients:
    if type(value) is UnconnectedGradients:
        return value
    try:
        return UnconnectedGradients(
            value.value if isinstance(value, UnconnectedGradients) else value
        )
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}") from None


def _dense_target(value: Any) -> Any:
    return convert_to_tensor(value) if type(value) is IndexedSlices else value


def _as_values(values: list, what: str) -> list:
    for i, v in enumerate(values):
        if not isinstance(v, (Tensor, Variable)):
            raise TypeError(
                f"GradientTape: {what}[{i}] must be a retrograd.Tensor or Variable, "
                f"got {type(v).__name__}: {v!r}"
            )
    return values if context.graph is None else [_in_graph(v) for v in values]


def _in_graph(value: Any) -> Any:
    """While a graph is built (a ``function`` traced), an eager tensor stands for the graph
    value its ops use: the input a function captures it as (or a graph's constant)."""
    graph = context.graph
    if graph is None or type(value) is not Tensor:
        return value
    return graph.input_for(value)


def _seeds(targets: list, output_gradients: Any, structure: Any) -> list:
    """The upstream gradient of each target: ones unless ``output_gradients`` says otherwise."""
    if output_gradients is None and len(targets) == 1:  # the common call, in a few steps
        value = targets[0]._value
        if type(targets[0]) is Tensor and value.dtype.kind in "fc":
            return [Tensor(_ones_like(value))]
    given = [None] * len(targets) if output_gradients is None else nest.flatten(output_gradients)
    if len(given) != len(targets):
        raise ValueError(
            f"GradientTape.gradient: output_gradients has {len(given)} element(s) for "
            f"{len(targets)} target(s)"
        )
    seeds: list[Tensor | None] = []
    for i, (t, g) in enumerate(zip(targets, given)):
        if t._value.dtype.kind not in "fc":
            seeds.append(None)  # integer and bool targets have no gradient
        elif g is None:
            symbolic = isinstance(t, Tensor) and type(t) is not Tensor  # a graph tensor
            seeds.append(array_ops.ones_like(t) if symbolic else Tensor(_ones_like(t._value)))
        else:
            if isinstance(g, Tensor) and g.dtype != t.dtype:
                raise InvalidArgumentError(  # (TensorFlow's error: the product cannot be made)
                    f"GradientTape.gradient: output_gradients[{i}] is {g.dtype.name} but target "
                    f"{i} is {t.dtype.name}: they must have the same dtype"
                )
            g = convert_to_tensor(g, dtype=t.dtype)
            if g._value.shape != t._value.shape:
                raise ValueError(
                    f"GradientTape.gradient: output_gradients[{i}] has shape {g._value.shape} but "
                    f"target {i} has shape {t._value.shape}"
                )
            seeds.append(g)
    return seeds


_SCALAR_ONES: dict[Any, Any] = {}  # dtype -> its NumPy scalar 1 (immutable: shared)


def _ones_like(value: Any) -> Any:
    if not isinstance(value, (np.ndarray, np.generic)):  # (an array of another device)
        return namespace_of(value).ones(value.shape, value.dtype)
    if value.ndim:
        return np.ones(value.shape, value.dtype)
    one = _SCALAR_ONES.get(value.dtype)
    if one is None:
        one = _SCALAR_ONES[value.dtype] = value.dtype.type(1)
    return one


def _zeros_for(value: Any, shape: tuple | None = None) -> Tensor:
    if shape is None and isinstance(value, Tensor) and type(value) is not Tensor:
        return array_ops.zeros_like(value)  # a graph tensor: zeros when the graph runs
    return Tensor(zeros_like(value._value, shape))


def _apply_policy(grads: list, sources: list, policy: UnconnectedGradients) -> list:
    if policy is UnconnectedGradients.NONE:
        return grads
    return [_zeros_for(s) if g is None else g for g, s in zip(grads, sources)]


def _unit_rows(lo: int, hi: int, shape: tuple, dtype: Any, like: Any = None) -> Any:
    """Unit seeds ``lo..hi-1`` (in row-major order of ``shape``) stacked on a leading axis,
    on the device of array ``like`` (made on the host, copied there explicitly; the current
    device where ``like`` is a graph value)."""
    size = int(np.prod(shape, dtype=np.int64))
    rows = np.zeros((hi - lo, size), dtype=dtype)
    rows[np.arange(hi - lo), np.arange(lo, hi)] = 1
    rows = rows.reshape((hi - lo, *shape))
    if is_array(like):
        return on_device_of(rows, like)
    return place(rows)  # (a graph's value, known by its shape: the current device)


def _joined(parts: list) -> Tensor | None:
    if parts[0] is None:
        return None
    return parts[0] if len(parts) == 1 else array_ops.concat(parts, 0)


def _stacked(rows: list, source: Any) -> Tensor | None:
    if all(r is None for r in rows):
        return None
    return array_ops.stack([_zeros_for(source) if r is None else r for r in rows])


def _shaped(rows: Tensor | None, shape: tuple, source: Any, policy: UnconnectedGradients) -> Any:
    """Stacked gradient rows reshaped to the Jacobian's ``shape``; unconnected: the policy."""
    if rows is None:
        return None if policy is UnconnectedGradients.NONE else _zeros_for(source, shape)
    return array_ops.reshape(rows, shape)
