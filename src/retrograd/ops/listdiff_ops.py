"""TensorFlow 1's ``setdiff1d`` (the ``ListDiff`` op): the elements of a vector that another
vector does not hold, in their order, with their positions. Like ``unique`` it has no
gradient (TensorFlow registers none).

>>> out, idx = setdiff1d([1, 2, 3, 4, 2], [2, 4])
>>> out.numpy().tolist(), idx.numpy().tolist()
([1, 3], [0, 2])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops.define import ANY, tensor_pair

__all__ = ["ListDiff", "setdiff1d"]


class ListDiff(NamedTuple):
    """What ``setdiff1d`` returns: the kept values ``out`` and their positions ``idx``."""

    out: Tensor
    idx: Tensor


def _listdiff_kernel(x, y, out_idx):
    if x.ndim != 1 or y.ndim != 1:
        raise InvalidArgumentError(
            f"ListDiff: x and y must be vectors, got shapes {list(x.shape)} and {list(y.shape)}"
        )
    positions = np.flatnonzero(~np.isin(x, y))
    return x[positions], positions.astype(out_idx.as_numpy_dtype)


def _listdiff_meta(metas, out_idx):
    return [((None,), metas[0].dtype), ((None,), np.dtype(out_idx.as_numpy_dtype))]


_ListDiff = define_op("ListDiff", _listdiff_kernel, multi_output=True, shape_fn=_listdiff_meta)
no_gradient("ListDiff")


def setdiff1d(
    x: TensorLike, y: TensorLike, index_dtype: DTypeLike = dtypes.int32, name: str | None = None
) -> ListDiff:
    """The values of the vector ``x`` that are not in the vector ``y`` (duplicates kept, in
    ``x``'s order) and their indices in ``x``.

    >>> setdiff1d([5.0, 6.0, 7.0], [6.0]).idx.numpy().tolist()
    [0, 2]
    """
    a, b = tensor_pair("ListDiff", x, y, ANY)
    index_type = dtypes.as_dtype(index_dtype)
    if index_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"ListDiff: index_dtype must be int32 or int64, got {index_type.name}")
    out, idx = execute(_ListDiff, (a, b), {"out_idx": index_type}, name)
    return ListDiff(out, idx)
