"""Output shapes and dtypes of graph ops, known before the graph runs.

Three ways, in order: an op's own ``shape_fn``; for elementwise ops, NumPy's broadcast rule
(the dtype from running the kernel on 0-d zeros); otherwise the op's kernel run on
broadcast dummy arrays of the input shapes (little memory is spent on them) — more than
once, with different sizes for unknown dimensions, so output dimensions that follow an
unknown input dimension come out unknown too (``None``). Where the op needs dimensions to
agree, an unknown one takes the size another input knows at its position. A kernel that
rejects the shapes fails while the graph is built, naming the op.

>>> import retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     a = rg.compat.v1.placeholder(rg.float32, [None, 3])
...     b = rg.compat.v1.placeholder(rg.float32, [2, None])
>>> with g.as_default():
...     rg.concat([a, b], 0).shape, rg.add_n([a, b]).shape
(TensorShape([None, 3]), TensorShape([2, 3]))
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.core import backends
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import OpDef
from retrograd.core.shapes import broadcast_dims
from retrograd.core.variables import Variable
from retrograd.graph.graph import TensorMeta

__all__ = ["infer_outputs"]


def _meta(value: Any) -> TensorMeta:
    if isinstance(value, Variable):  # read when the graph runs (maybe not initialised yet)
        return TensorMeta(tuple(value.shape.as_list()), value.dtype.as_numpy_dtype)
    return value._value


def infer_outputs(op_def: OpDef, inputs: tuple, attrs: dict) -> list[TensorMeta]:
    """The output metas of ``op_def`` applied to ``inputs`` (graph tensors or variables).

    Kernels run on dummy values (zeros, twos) divide by zero and overflow by design: NumPy's
    floating-point warnings are off while they do. The dummies are host arrays, and so are
    the arrays kernels make from nothing meanwhile (the CPU is the current device)."""
    if backends.current_device() is None:  # (the CPU: nothing to change)
        with np.errstate(all="ignore"):
            return _infer_outputs(op_def, inputs, attrs)
    with np.errstate(all="ignore"), on_host():
        return _infer_outputs(op_def, inputs, attrs)


@contextlib.contextmanager
def on_host() -> Iterator[None]:
    """The CPU current while the block runs (kernels run on host dummies or host values)."""
    if backends.current_device() is None:
        yield
        return
    before = backends.set_current_device(None)
    try:
        yield
    finally:
        backends.set_current_device(*(before or (None,)))


def _infer_outputs(op_def: OpDef, inputs: tuple, attrs: dict) -> list[TensorMeta]:
    metas = [_meta(t) for t in inputs]
    if op_def.shape_fn is not None:
        return [TensorMeta(shape, dtype) for shape, dtype in op_def.shape_fn(metas, **attrs)]
    if op_def.elementwise:
        zeros = [np.zeros((), m.dtype) for m in metas]
        dtype = _dtype(op_def.kernel(*zeros, **attrs))
        shape = broadcast_dims([m.shape for m in metas], op_def.type)
        return [TensorMeta(shape, dtype)]
    return _by_dummy_run(op_def, inputs, metas, attrs)


def _dtype(result: Any) -> np.dtype:
    """The dtype of a kernel's result (an array of any device, or a Python number)."""
    dtype = getattr(result, "dtype", None)
    return np.dtype(dtype) if dtype is not None else np.asarray(result).dtype


def _dummy(shape: tuple, dtype: np.dtype, integer: int = 0) -> np.ndarray:
    """A read-only stand-in of ``shape``: integers and float scalars are ``integer`` (0: valid
    indices), other floats hold identity matrices in their last two axes (valid input for
    inverses, factorisations and solves). Broadcast: the memory of one matrix at most."""
    if dtype.kind in "iu" or (dtype.kind == "f" and shape == ()):
        return np.broadcast_to(np.array(integer, dtype), shape)
    if len(shape) < 2 or dtype.kind not in "fc":
        return np.broadcast_to(np.zeros((), dtype), shape)
    return np.broadcast_to(np.eye(shape[-2], shape[-1], dtype=dtype), shape)


def _run(
    op_def: OpDef, inputs: tuple, metas: list[TensorMeta], attrs: dict, fill: dict, integer=0
) -> list:
    """The output shapes and dtypes of one run on dummies, unknown dimension ``(input,
    axis)`` taking the size ``fill[(input, axis)]``, integer inputs of unknown value the
    value ``integer``."""
    arrays = []
    for i, (value, m) in enumerate(zip(inputs, metas)):
        op = getattr(value, "op", None)
        if op is not None and op.type in ("Const", "Placeholder") and "value" in op._attrs:
            # a constant or captured tensor: its value (on the host, as every dummy)
            arrays.append(backends.to_host(op.get_attr("value")))
            continue
        if m.shape is None:
            raise ValueError(
                f"{op_def.type}: an input has unknown rank, and this op needs it; give the "
                f"placeholder a shape"
            )
        dims = tuple(fill[(i, j)] if d is None else d for j, d in enumerate(m.shape))
        arrays.append(_dummy(dims, m.dtype, integer))
    try:
        result = op_def.kernel(*arrays, **attrs)
    except InvalidArgumentError:
        raise
    except (ValueError, IndexError, TypeError) as e:
        shapes = ", ".join(f"{m.dtype}{list(m.shape)}" for m in metas)
        raise InvalidArgumentError(f"{op_def.type}: {e} (input shapes: {shapes})") from None
    outputs = result if op_def.multi_output else (result,)
    return [(np.shape(r), _dtype(r)) for r in outputs]


def _valued(value: Any, meta: TensorMeta) -> bool:
    """Whether ``value`` is an integer tensor or a float scalar known only when the graph
    runs (its dummy's value may decide output sizes)."""
    if getattr(getattr(value, "op", None), "type", None) == "Const":
        return False
    return meta.dtype.kind in "iu" or (meta.dtype.kind == "f" and meta.shape == ())


def _first_run_refused(
    op_def: OpDef, inputs: tuple, metas: list, attrs: dict, unknown: list, valued: bool
) -> tuple[list, dict]:
    """The first dummy run and its unknown dimensions' sizes, after the op refused dummies
    of 2 and zeros: run-time values at 2 (``range(1, n + 1)``), unknown dimensions at the
    size other inputs know at their position, or (last) large enough to hold the constant
    indices."""
    base = dict.fromkeys(unknown, 2)
    if valued:
        try:
            return _run(op_def, inputs, metas, attrs, base, 2), base
        except InvalidArgumentError:
            if not unknown:
                raise
    base = {(i, j): _aligned(metas, i, j, 2) for i, j in unknown}
    try:
        return _run(op_def, inputs, metas, attrs, base), base
    except InvalidArgumentError:
        # Constant indices beyond the dummy sizes (gather rows [2, 0] of a [None, 3]
        # tensor): unknown dimensions large enough to hold them.
        size = _past_constant_indices(inputs)
        if size is None:
            raise
        base = {(i, j): _aligned(metas, i, j, size) for i, j in unknown}
        return _run(op_def, inputs, metas, attrs, base), base


def _aligned(metas: list[TensorMeta], i: int, axis: int, default: int) -> int:
    """The size another input knows at the same position, counted from the right."""
    from_right = len(metas[i].shape) - axis
    for k, other in enumerate(metas):
        if k == i or other.shape is None or len(other.shape) < from_right:
            continue
        d = other.shape[len(other.shape) - from_right]
        if d is not None and d != 1:
            return d
    return default


def _past_constant_indices(inputs: tuple) -> int | None:
    """A size past every constant integer input's values (None without such inputs, or
    when they are too large for a dummy)."""
    largest = None
    for value in inputs:
        op = getattr(value, "op", None)
        if op is not None and op.type == "Const":
            array = np.asarray(backends.to_host(op.get_attr("value")))
            if array.dtype.kind in "iu" and array.size:
                top = int(np.abs(array).max())
                largest = top if largest is None else max(largest, top)
    if largest is None or largest > 4096:
        return None
    return largest + 2


def _by_dummy_run(
    op_def: OpDef, inputs: tuple, metas: list[TensorMeta], attrs: dict
) -> list[TensorMeta]:
    """Runs the kernel on dummies with every unknown dimension at 2 (or, if the op refuses,
    at the size other inputs know at its position: an AddN of [None, 3] and [2, 3]); then
    again with the unknown dimensions changed, all together or one at a time where the op
    refuses that: output dimensions that change are unknown."""
    unknown = [
        (i, j)
        for i, m in enumerate(metas)
        if m.shape is not None
        for j, d in enumerate(m.shape)
        if d is None
    ]
    # Integer inputs (and float scalars) whose values are known only when the graph runs
    # may decide output sizes (the limits of a Range): the variants change them too.
    valued = any(_valued(v, m) for v, m in zip(inputs, metas))
    base = dict.fromkeys(unknown, 2)
    try:
        first = _run(op_def, inputs, metas, attrs, base)
    except InvalidArgumentError:
        if not unknown and not valued:
            raise
        first, base = _first_run_refused(op_def, inputs, metas, attrs, unknown, valued)
    if not unknown and not valued:
        return [TensorMeta(shape, dtype) for shape, dtype in first]
    together = ({k: v + 1 for k, v in base.items()}, 1 if valued else 0)
    one_at_a_time = [({**base, k: base[k] + 1}, 0) for k in unknown] + (
        [(base, 1)] if valued else []
    )
    # Last, every unknown dimension doubled: sizes that keep divisibility (a reshape of
    # [None, 4] to [-1, 8] refuses 3 rows but takes 4).
    doubled = [({k: v * 2 for k, v in base.items()}, 1 if valued else 0)]
    runs = []
    for variants in ([together], one_at_a_time if len(one_at_a_time) > 1 else [], doubled):
        for fill, integer in variants:
            try:
                runs.append(_run(op_def, inputs, metas, attrs, fill, integer))
            except InvalidArgumentError:
                continue
        if runs:
            break
    out = []
    for n, (shape, dtype) in enumerate(first):
        others = [run[n][0] for run in runs]
        if any(len(o) != len(shape) for o in others):
            out.append(TensorMeta(None, dtype))
            continue
        dims = tuple(d if all(o[j] == d for o in others) else None for j, d in enumerate(shape))
        out.append(TensorMeta(dims, dtype))
    return out
