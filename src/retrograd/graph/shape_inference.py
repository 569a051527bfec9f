"""Output shapes and dtypes of graph ops, known before the graph runs.

Three ways, in order: an op's own ``shape_fn``; for elementwise ops, NumPy's broadcast rule
(the dtype from running the kernel on 0-d zeros); otherwise the op's kernel run on
broadcast dummy arrays of the input shapes (little memory is spent on them) — twice, with
different sizes for unknown dimensions, so output dimensions that follow an unknown input
dimension come out unknown too. A kernel that rejects the shapes fails while the graph is
built, naming the op.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import OpDef
from retrograd.core.shapes import broadcast_dims
from retrograd.graph.graph import TensorMeta

__all__ = ["infer_outputs"]


def _meta(value: Any) -> TensorMeta:
    meta = value._value
    if isinstance(meta, TensorMeta):
        return meta
    return TensorMeta(meta.shape, meta.dtype)  # a variable (read at run time)


def infer_outputs(op_def: OpDef, inputs: tuple, attrs: dict) -> list[TensorMeta]:
    """The output metas of ``op_def`` applied to ``inputs`` (graph tensors or variables)."""
    metas = [_meta(t) for t in inputs]
    if op_def.shape_fn is not None:
        return [TensorMeta(shape, dtype) for shape, dtype in op_def.shape_fn(metas, **attrs)]
    if op_def.elementwise:
        zeros = [np.zeros((), m.dtype) for m in metas]
        dtype = np.asarray(op_def.kernel(*zeros, **attrs)).dtype
        shape = broadcast_dims([m.shape for m in metas], op_def.type)
        return [TensorMeta(shape, dtype)]
    return _by_dummy_run(op_def, inputs, metas, attrs)


def _dummy(shape: tuple, dtype: np.dtype) -> np.ndarray:
    """A read-only stand-in of ``shape``: integers are zeros (valid indices), floats hold
    identity matrices in their last two axes (valid input for inverses, factorisations and
    solves). Broadcast, so it costs the memory of one matrix at most."""
    if len(shape) < 2 or dtype.kind not in "fc":
        return np.broadcast_to(np.zeros((), dtype), shape)
    return np.broadcast_to(np.eye(shape[-2], shape[-1], dtype=dtype), shape)


def _run(
    op_def: OpDef, inputs: tuple, metas: list[TensorMeta], attrs: dict, unknown: int
) -> list[tuple]:
    arrays = []
    for value, m in zip(inputs, metas):
        op = getattr(value, "op", None)
        if op is not None and op.type in ("Const", "Placeholder") and "value" in op._attrs:
            arrays.append(op.get_attr("value"))  # a constant or captured tensor: its value
            continue
        if m.shape is None:
            raise ValueError(
                f"{op_def.type}: an input has unknown rank, and this op needs it; give the "
                f"placeholder a shape"
            )
        arrays.append(_dummy(tuple(unknown if d is None else d for d in m.shape), m.dtype))
    try:
        result = op_def.kernel(*arrays, **attrs)
    except InvalidArgumentError:
        raise
    except (ValueError, IndexError, TypeError) as e:
        shapes = ", ".join(f"{m.dtype}{list(m.shape)}" for m in metas)
        raise InvalidArgumentError(f"{op_def.type}: {e} (input shapes: {shapes})") from None
    outputs = result if op_def.multi_output else (result,)
    return [(np.shape(r), np.asarray(r).dtype) for r in outputs]


def _by_dummy_run(
    op_def: OpDef, inputs: tuple, metas: list[TensorMeta], attrs: dict
) -> list[TensorMeta]:
    first = _run(op_def, inputs, metas, attrs, 2)
    if not any(m.shape is not None and None in m.shape for m in metas):
        return [TensorMeta(shape, dtype) for shape, dtype in first]
    try:
        second = _run(op_def, inputs, metas, attrs, 3)
    except InvalidArgumentError:
        # The op only accepts the first sizes (a reshape to a fixed size pins the unknown
        # dimension): its outputs are as the first run found them.
        return [TensorMeta(shape, dtype) for shape, dtype in first]
    out = []
    for (shape_a, dtype), (shape_b, _) in zip(first, second):
        if len(shape_a) != len(shape_b):
            out.append(TensorMeta(None, dtype))
        else:
            out.append(
                TensorMeta(tuple(a if a == b else None for a, b in zip(shape_a, shape_b)), dtype)
            )
    return out
