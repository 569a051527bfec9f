"""embedding_lookup: rows of a parameter matrix picked by integer ids of any shape.

A lookup is a ``gather`` along the first axis (``GatherV2``, as TensorFlow records it); its
gradient adds each upstream row into the row its id picked, so ids that repeat accumulate
(returned to a caller as an ``IndexedSlices``, as in TensorFlow; dense for other rules).

>>> import retrograd as rg
>>> params = rg.constant([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
>>> with rg.GradientTape() as tape:
...     tape.watch(params)
...     rows = rg.nn.embedding_lookup(params, [[2, 0], [2, 2]])
>>> rows.shape, rg.convert_to_tensor(tape.gradient(rows, params)).numpy().tolist()
(TensorShape([2, 2, 2]), [[1.0, 1.0], [0.0, 0.0], [3.0, 3.0]])
"""

from __future__ import annotations

from retrograd.core.annotations import TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.tensor import Tensor
from retrograd.ops import array_ops, clip_ops, gather_ops
from retrograd.ops.define import ANY, tensor_arg


def _join_shards(shards: list) -> Tensor:
    """One params tensor from shards partitioned as TensorFlow's "div" strategy does."""
    tensors = [tensor_arg("embedding_lookup", s, ANY, "params") for s in shards]
    if len(tensors) == 1:
        return tensors[0]
    sizes = [t._value.shape[0] if t._value.ndim else 0 for t in tensors]
    total, count = sum(sizes), len(sizes)
    expected = [total // count + (1 if i < total % count else 0) for i in range(count)]
    if sizes != expected:
        raise InvalidArgumentError(
            f"embedding_lookup: {count} params shards of {sizes} rows do not follow the 'div' "
            f"partition of {total} ids, which needs {expected}"
        )
    return array_ops.concat(tensors, 0)


def embedding_lookup(
    params: TensorLike, ids: TensorLike, max_norm: TensorLike | None = None, name: str | None = None
) -> Tensor:
    """``params[ids]`` along the first axis: a tensor of shape ``ids.shape + params.shape[1:]``.

    ``params`` may be a list of shards split in TensorFlow's "div" way (they are joined);
    ``max_norm`` rescales each looked-up embedding whose L2 norm exceeds it.

    >>> import retrograd as rg
    >>> params = rg.constant([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    >>> rg.nn.embedding_lookup(params, [2, 0]).numpy().tolist()
    [[4.0, 5.0], [0.0, 1.0]]
    """
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("embedding_lookup: params must not be an empty list")
        params = _join_shards(list(params))
    params = tensor_arg("GatherV2", params, ANY, "params")
    if max_norm is None:
        return gather_ops.gather(params, ids, name=name)
    rows = gather_ops.gather(params, ids)
    ids_rank = rows._value.ndim - (params._value.ndim - 1)  # each embedding: the axes after
    axes = list(range(ids_rank, rows._value.ndim))
    return clip_ops.clip_by_norm(rows, max_norm, axes=axes, name=name)
