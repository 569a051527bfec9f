"""embedding_lookup: rows of a parameter matrix picked by integer ids of any shape.

``EmbeddingLookup(params, ids)`` gathers rows; its gradient ``EmbeddingLookupGrad(grad, ids)``
adds each upstream row into the row its id picked, so ids that repeat accumulate; and the
gradient of that is the lookup again. (TensorFlow records a ``GatherV2`` and returns an
``IndexedSlices``; retrograd returns the dense sum.)

>>> import retrograd as rg
>>> params = rg.constant([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
>>> with rg.GradientTape() as tape:
...     tape.watch(params)
...     rows = rg.nn.embedding_lookup(params, [[2, 0], [2, 2]])
>>> rows.shape, tape.gradient(rows, params).numpy().tolist()
(TensorShape([2, 2, 2]), [[1.0, 1.0], [0.0, 0.0], [3.0, 3.0]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.errors import InvalidArgumentError
from retrograd.execute import define_op, execute
from retrograd.ops import array_ops, comparison_ops, math_ops, reduction_ops
from retrograd.ops.define import ANY, INTEGER, tensor_arg, tensor_pair
from retrograd.registry import RegisterGradient
from retrograd.tensor import Tensor


def _lookup_kernel(params, ids):
    rows = params.shape[0]
    bad = (ids < 0) | (ids >= rows)
    if np.any(bad):
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        index = ",".join(map(str, where))
        raise InvalidArgumentError(
            f"EmbeddingLookup: ids[{index}] = {ids[where]} is not in [0, {rows})"
        )
    return np.take(params, ids, axis=0)


def _lookup_grad_kernel(grad, ids, num_rows):
    row_shape = grad.shape[ids.ndim :]
    out = np.zeros_like(grad, shape=(num_rows, *row_shape))
    np.add.at(out, ids.reshape(-1), grad.reshape(-1, *row_shape))
    return out


_EmbeddingLookup = define_op("EmbeddingLookup", _lookup_kernel)
_EmbeddingLookupGrad = define_op("EmbeddingLookupGrad", _lookup_grad_kernel)


@RegisterGradient("EmbeddingLookup")
def _embedding_lookup_grad(op, grad):
    params, ids = op.inputs
    rows = params._value.shape[0]
    return execute(_EmbeddingLookupGrad, (grad, ids), {"num_rows": rows}), None


@RegisterGradient("EmbeddingLookupGrad")
def _embedding_lookup_grad_grad(op, grad):
    return execute(_EmbeddingLookup, (grad, op.inputs[1])), None


def _join_shards(shards: list) -> Tensor:
    """One params tensor from shards partitioned as TensorFlow's "div" strategy does."""
    tensors = [tensor_arg("EmbeddingLookup", s, ANY, "params") for s in shards]
    if len(tensors) == 1:
        return tensors[0]
    sizes = [t._value.shape[0] if t._value.ndim else 0 for t in tensors]
    total, count = sum(sizes), len(sizes)
    expected = [total // count + (1 if i < total % count else 0) for i in range(count)]
    if sizes != expected:
        raise InvalidArgumentError(
            f"EmbeddingLookup: {count} params shards of {sizes} rows do not follow the 'div' "
            f"partition of {total} ids, which needs {expected}"
        )
    return array_ops.concat(tensors, 0)


def _clip_rows(x: Tensor, max_norm: Any, first_axis: int) -> Tensor:
    """Each embedding (axes ``first_axis:``) scaled down to an L2 norm of at most ``max_norm``."""
    axes = list(range(first_axis, x._value.ndim))
    _, max_norm = tensor_pair("EmbeddingLookup", x, max_norm)
    l2sum = reduction_ops.reduce_sum(x * x, axes, keepdims=True)
    positive = comparison_ops.greater(l2sum, 0)
    safe = array_ops.where(positive, l2sum, array_ops.ones_like(l2sum))
    l2norm = array_ops.where(positive, math_ops.sqrt(safe), l2sum)
    return x * max_norm / math_ops.maximum(l2norm, max_norm)


def embedding_lookup(
    params: Any, ids: Any, max_norm: Any = None, name: str | None = None
) -> Tensor:
    """``params[ids]`` along the first axis: a tensor of shape ``ids.shape + params.shape[1:]``.

    ``params`` may be a list of shards split in TensorFlow's "div" way (they are joined);
    ``max_norm`` rescales each looked-up embedding whose L2 norm exceeds it.
    """
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("EmbeddingLookup: params must not be an empty list")
        p = _join_shards(list(params))
    else:
        p = tensor_arg("EmbeddingLookup", params, ANY, "params")
    ids = tensor_arg("EmbeddingLookup", ids, INTEGER, "ids")
    if p._value.ndim == 0:
        raise InvalidArgumentError("EmbeddingLookup: params must be at least 1-D, got a scalar")
    if max_norm is None:
        return execute(_EmbeddingLookup, (p, ids), None, name)
    return _clip_rows(execute(_EmbeddingLookup, (p, ids)), max_norm, ids._value.ndim)
