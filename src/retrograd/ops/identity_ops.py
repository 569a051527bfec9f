"""Ops that pass values through, checking or reinterpreting them: ``identity_n`` (several
tensors in one op), ``ensure_shape`` (a shape checked when the op runs), ``bitcast`` (the
same bytes as another dtype), ``guarantee_const`` and ``check_pinned`` (TensorFlow's
hints; on this CPU-only build ``check_pinned`` fails as TensorFlow's does without CUDA),
and ``timestamp`` (the time the op ran).

>>> import retrograd as rg
>>> a, b = rg.identity_n([rg.constant(1.0), rg.constant([2, 3])])
>>> a.numpy(), b.numpy().tolist()
(np.float32(1.0), [2, 3])
>>> rg.ensure_shape(rg.constant([1.0, 2.0]), [None]).shape
TensorShape([2])
"""

from __future__ import annotations

import time

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.errors import FailedPreconditionError, InvalidArgumentError
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor
from retrograd.ops.define import ANY, tensor_arg

__all__ = [
    "bitcast", "check_pinned", "ensure_shape", "guarantee_const", "identity_n", "timestamp",
]  # fmt: skip

_IdentityN = define_op(
    "IdentityN",
    lambda *values: tuple(values),
    multi_output=True,
    shape_fn=lambda metas: [(m.shape, m.dtype) for m in metas],
)


@op_gradient("IdentityN")
def _identity_n_grad(op, *grads):
    return list(grads)


def identity_n(input: list[TensorLike], name: str | None = None) -> list[Tensor]:
    """The tensors of ``input`` as new tensors, in one op (gradients pass through).

    >>> import retrograd as rg
    >>> [t.numpy().tolist() for t in rg.identity_n([[1, 2], [3.0]])]
    [[1, 2], [3.0]]
    """
    if isinstance(input, Tensor) or not isinstance(input, (list, tuple)):
        raise TypeError(f"IdentityN: input must be a list of tensors, got {type(input).__name__}")
    tensors = [tensor_arg("IdentityN", t, ANY, "input") for t in input]
    if not tensors:
        return []
    return list(execute(_IdentityN, tensors, None, name))


def _ensure_shape_kernel(x, shape):
    if not TensorShape(shape).is_compatible_with(TensorShape(np.shape(x))):
        raise InvalidArgumentError(
            f"EnsureShape: Shape of tensor input {list(np.shape(x))} is not compatible with "
            f"expected shape {TensorShape(shape)}"
        )
    return x


def _ensure_shape_meta(metas, shape):
    merged = TensorShape(metas[0].shape).merge_with(TensorShape(shape))
    return [(None if merged.rank is None else tuple(merged.as_list()), metas[0].dtype)]


_EnsureShape = define_op("EnsureShape", _ensure_shape_kernel, shape_fn=_ensure_shape_meta)


@op_gradient("EnsureShape")
def _ensure_shape_grad(op, grad):
    return grad


def ensure_shape(x: TensorLike, shape: ShapeLike, name: str | None = None) -> Tensor:
    """``x``, checked to have a shape compatible with ``shape`` (None: any size) when the op
    runs; in a graph, its static shape becomes the two merged.

    >>> import retrograd as rg
    >>> rg.ensure_shape([1.0, 2.0], [3])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    retrograd.errors.InvalidArgumentError: EnsureShape: Shape of tensor input [2] is not ...
    """
    t = tensor_arg("EnsureShape", x, ANY, "x")
    dims = TensorShape(shape)
    if context.graph is not None and not dims.is_compatible_with(t.shape):  # (while built)
        raise ValueError(f"EnsureShape: shape {t.shape} is not compatible with {dims}")
    spec = None if dims.rank is None else tuple(dims.as_list())
    return execute(_EnsureShape, (t,), {"shape": spec}, name)


_GuaranteeConst = define_op("GuaranteeConst", lambda x: x, forwards_inputs=True)


@op_gradient("GuaranteeConst")
def _guarantee_const_grad(op, grad):
    # TensorFlow registers no gradient for GuaranteeConst: asking for one fails, as there.
    raise LookupError("gradient registry has no entry for: GuaranteeConst")


def guarantee_const(input: TensorLike, name: str | None = None) -> Tensor:
    """``input``, promised constant for the life of the graph (a hint for TensorFlow's
    runtime; the value is unchanged). Like TensorFlow, it has no gradient.

    >>> import retrograd as rg
    >>> rg.guarantee_const(rg.constant(1.5)).numpy()
    np.float32(1.5)
    """
    x = tensor_arg("GuaranteeConst", input, ANY, "input")
    return execute(_GuaranteeConst, (x,), None, name)


def _check_pinned_kernel(x):
    raise FailedPreconditionError(
        "CheckPinned: to check pinnedness, must be built with `--config=cuda` (retrograd "
        "computes on the CPU)"
    )


_CheckPinned = define_op("CheckPinned", _check_pinned_kernel)
no_gradient("CheckPinned")


def check_pinned(tensor: TensorLike, name: str | None = None) -> Tensor:
    """Checks that ``tensor`` is in host memory pinned for a GPU: as in TensorFlow built
    without CUDA, running it raises FailedPreconditionError.

    >>> import retrograd as rg
    >>> rg.check_pinned(rg.constant(1.0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    retrograd.errors.FailedPreconditionError: CheckPinned: to check pinnedness, must be built ...
    """
    return execute(_CheckPinned, (tensor_arg("CheckPinned", tensor, ANY, "tensor"),), None, name)


_Timestamp = define_op(
    "Timestamp",
    lambda: np.array(time.time(), dtype=np.float64),
    stateful=True,
    shape_fn=lambda metas: [((), np.dtype(np.float64))],
)
no_gradient("Timestamp")


def timestamp(name: str | None = None) -> Tensor:
    """The time the op ran, in seconds since the epoch (float64; each run of a graph reads
    the clock again).

    >>> import retrograd as rg
    >>> rg.timestamp().dtype.name, float(rg.timestamp()) > 1.6e9
    ('float64', True)
    """
    return execute(_Timestamp, (), None, name)


def _bitcast_kernel(x, type):
    target = np.dtype(type.as_numpy_dtype)
    source = x.dtype
    if source.itemsize == target.itemsize:
        return x.copy().view(target)
    if source.itemsize > target.itemsize:
        ratio = source.itemsize // target.itemsize
        return x.copy().view(target).reshape(*np.shape(x), ratio)
    return x.copy().reshape(*np.shape(x)[:-1], -1).view(target).reshape(np.shape(x)[:-1])


def _bitcast_meta(metas, type):
    x = metas[0]
    target = np.dtype(type.as_numpy_dtype)
    if x.shape is None:
        return [(None, target)]
    if x.dtype.itemsize > target.itemsize:
        return [((*x.shape, x.dtype.itemsize // target.itemsize), target)]
    if x.dtype.itemsize < target.itemsize:
        return [(x.shape[:-1], target)]
    return [(x.shape, target)]


_Bitcast = define_op("Bitcast", _bitcast_kernel, shape_fn=_bitcast_meta)
no_gradient("Bitcast")


def bitcast(input: TensorLike, type: DTypeLike, name: str | None = None) -> Tensor:
    """The bytes of ``input`` read as ``type``: to a smaller type a last dimension is added
    (bytes of one element); to a larger one the last dimension (which must be the ratio
    of the sizes) is taken away.

    >>> import retrograd as rg
    >>> rg.bitcast(rg.constant([1.0], rg.float32), rg.int32).numpy().tolist()
    [1065353216]
    >>> rg.bitcast(rg.constant([1], rg.int32), rg.uint8).shape.as_list()
    [1, 4]
    """
    x = tensor_arg("Bitcast", input, ANY, "input")
    target = dtypes.as_dtype(type)
    size, target_size = x._value.dtype.itemsize, np.dtype(target.as_numpy_dtype).itemsize
    if target_size > size:
        last = x.shape[-1] if x.shape.rank else None
        if x.shape.rank == 0 or (last is not None and last != target_size // size):
            raise InvalidArgumentError(
                f"Bitcast: Cannot bitcast from {x.dtype.name} to {target.name}: the last "
                f"dimension of shape {x.shape} must be {target_size // size}"
            )
    return execute(_Bitcast, (x,), {"type": target}, name)
