"""Moving blocks of space into the batch or the channels and back: ``space_to_batch`` (``_nd``),
``batch_to_space``, ``required_space_to_batch_paddings``, ``nn.space_to_depth`` and
``nn.depth_to_space``. Each is a pad or crop, a reshape and a transpose, as TensorFlow
defines them, so their gradients are those ops' (and the same as TensorFlow's).

>>> import retrograd as rg
>>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
>>> rg.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]).shape.as_list()
[4, 2, 2, 1]
>>> rg.nn.space_to_depth(x, 2).shape.as_list()
[1, 2, 2, 4]
"""

from __future__ import annotations

from typing import Any

from retrograd.core import dtypes
from retrograd.core.annotations import ShapeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.tensor import Tensor, constant_value, convert_to_tensor
from retrograd.ops import array_ops, pad_ops
from retrograd.ops.index_args import static_int

__all__ = [
    "batch_to_space", "depth_to_space", "required_space_to_batch_paddings", "space_to_batch",
    "space_to_batch_nd", "space_to_depth",
]  # fmt: skip


def _static_list(value: Any, what: str) -> list[int]:
    t = value if isinstance(value, Tensor) else convert_to_tensor(value)
    return [int(v) for v in constant_value(t).reshape(-1).tolist()]


def _pairs(value: Any, m: int, what: str) -> list[list[int]]:
    t = value if isinstance(value, Tensor) else convert_to_tensor(value)
    pairs = constant_value(t).tolist()
    if len(pairs) != m or any(len(p) != 2 for p in pairs):
        raise ValueError(f"{what} must be of shape [{m}, 2], got {pairs}")
    return [[int(a), int(b)] for a, b in pairs]


def _dims(x: Tensor) -> list:
    """The dimensions of ``x``: ints where known, scalar tensors where not."""
    known = x.shape.as_list()
    if None not in known:
        return known
    dynamic = array_ops.shape(x, out_type=dtypes.int32)
    return [d if d is not None else dynamic[i] for i, d in enumerate(known)]


def space_to_batch_nd(
    input: TensorLike, block_shape: ShapeLike, paddings: TensorLike, name: str | None = None
) -> Tensor:
    """Pads the ``M`` spatial dimensions (after the batch) by ``paddings``, cuts them into
    blocks of ``block_shape`` and moves the position inside each block to the batch.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(4), [1, 2, 2, 1])
    >>> rg.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]).numpy().reshape(-1).tolist()
    [0, 1, 2, 3]
    """
    x = convert_to_tensor(input)
    block = _static_list(block_shape, "block_shape")
    m = len(block)
    if any(b < 1 for b in block):
        raise InvalidArgumentError(f"SpaceToBatchND: block_shape must be positive, got {block}")
    pads = _pairs(paddings, m, "SpaceToBatchND: paddings")
    rank = x.shape.rank
    if rank is None or rank < m + 1:
        raise InvalidArgumentError(
            f"SpaceToBatchND: input must have rank >= {m + 1}, got shape {x.shape}"
        )
    padded = pad_ops.pad(x, [[0, 0], *pads, *[[0, 0]] * (rank - m - 1)])
    dims = _dims(padded)
    for i, b in enumerate(block):
        size = dims[1 + i]
        if isinstance(size, int) and size % b:
            raise InvalidArgumentError(
                f"SpaceToBatchND: padded spatial dimension {i} ({size}) must be divisible by "
                f"block_shape[{i}] = {b}"
            )
    split = [dims[0]]
    for i, b in enumerate(block):
        split += [dims[1 + i] // b, b]
    rest = dims[1 + m :]
    blocks = array_ops.reshape(padded, [*split, *rest])
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)]
    perm += list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    moved = array_ops.transpose(blocks, perm)
    batch = dims[0]
    for b in block:
        batch = batch * b
    spatial = [dims[1 + i] // b for i, b in enumerate(block)]
    return array_ops.reshape(moved, [batch, *spatial, *rest], name=name)


def space_to_batch(
    input: TensorLike, block_shape: ShapeLike, paddings: TensorLike, name: str | None = None
) -> Tensor:
    """TensorFlow 2's name for ``space_to_batch_nd``.

    >>> import retrograd as rg
    >>> rg.space_to_batch(rg.zeros([1, 4, 4, 1]), [2, 2], [[0, 0], [0, 0]]).shape.as_list()
    [4, 2, 2, 1]
    """
    return space_to_batch_nd(input, block_shape, paddings, name)


def batch_to_space(
    input: TensorLike, block_shape: ShapeLike, crops: TensorLike, name: str | None = None
) -> Tensor:
    """The inverse of ``space_to_batch``: the batch's blocks back into space, then
    ``crops`` cut from the start and end of each spatial dimension.

    >>> import retrograd as rg
    >>> x = rg.reshape(rg.range(16.0), [1, 4, 4, 1])
    >>> y = rg.space_to_batch(x, [2, 2], [[0, 0], [0, 0]])
    >>> bool(rg.reduce_all(rg.batch_to_space(y, [2, 2], [[0, 0], [0, 0]]) == x))
    True
    """
    x = convert_to_tensor(input)
    block = _static_list(block_shape, "block_shape")
    m = len(block)
    cut = _pairs(crops, m, "BatchToSpaceND: crops")
    rank = x.shape.rank
    if rank is None or rank < m + 1:
        raise InvalidArgumentError(
            f"BatchToSpaceND: input must have rank >= {m + 1}, got shape {x.shape}"
        )
    dims = _dims(x)
    product = 1
    for b in block:
        product *= b
    if isinstance(dims[0], int) and dims[0] % product:
        raise InvalidArgumentError(
            f"BatchToSpaceND: the batch ({dims[0]}) must be divisible by the product of "
            f"block_shape ({product})"
        )
    batch = dims[0] // product
    rest = dims[1 + m :]
    blocks = array_ops.reshape(x, [*block, batch, *dims[1 : 1 + m], *rest])
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    moved = array_ops.transpose(blocks, perm)
    spatial = [dims[1 + i] * b for i, b in enumerate(block)]
    joined = array_ops.reshape(moved, [batch, *spatial, *rest])
    index = [slice(None)] + [
        slice(start, (size - end) if isinstance(size, int) else None if not end else -end)
        for (start, end), size in zip(cut, spatial)
    ]
    return array_ops.getitem(joined, tuple(index), name)


def required_space_to_batch_paddings(
    input_shape: ShapeLike,
    block_shape: ShapeLike,
    base_paddings: TensorLike | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """The ``(paddings, crops)`` that make each spatial size (plus ``base_paddings``) a
    multiple of its block size, for ``space_to_batch`` and ``batch_to_space``.

    >>> import retrograd as rg
    >>> [t.numpy().tolist() for t in rg.required_space_to_batch_paddings([5, 5], [2, 2])]
    [[[0, 1], [0, 1]], [[0, 1], [0, 1]]]
    """
    shape = _static_list(input_shape, "input_shape")
    block = _static_list(block_shape, "block_shape")
    base = [[0, 0]] * len(block) if base_paddings is None else _pairs(
        base_paddings, len(block), "required_space_to_batch_paddings: base_paddings"
    )  # fmt: skip
    paddings, crops = [], []
    for size, b, (start, end) in zip(shape, block, base):
        extra = (b - (size + start + end) % b) % b
        paddings.append([start, end + extra])
        crops.append([0, extra])
    return constant_pair(paddings), constant_pair(crops)


def constant_pair(pairs: list) -> Tensor:
    return convert_to_tensor(pairs, dtype=dtypes.int32) if pairs else array_ops.zeros(
        [0, 2], dtypes.int32
    )  # fmt: skip


def _block_size(block_size: Any, who: str) -> int:
    size = static_int(who, block_size, "block_size")
    if size < 2:
        raise ValueError(f"{who}: block_size must be at least 2, got {size}")
    return size


def space_to_depth(
    input: TensorLike, block_size: int, data_format: str = "NHWC", name: str | None = None
) -> Tensor:
    """Each ``block_size x block_size`` block of height and width moved into the channels
    (in row-major order of the block positions).

    >>> import retrograd as rg
    >>> rg.nn.space_to_depth(rg.reshape(rg.range(4), [1, 2, 2, 1]), 2).numpy().tolist()
    [[[[0, 1, 2, 3]]]]
    """
    x = convert_to_tensor(input)
    b = _block_size(block_size, "SpaceToDepth")
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"SpaceToDepth: data_format must be NHWC or NCHW, got {data_format!r}")
    if data_format == "NCHW":
        x = array_ops.transpose(x, [0, 2, 3, 1])
    n, h, w, c = _dims(x)
    for size, what in ((h, "height"), (w, "width")):
        if isinstance(size, int) and size % b:
            raise InvalidArgumentError(
                f"SpaceToDepth: the {what} ({size}) must be divisible by block_size {b}"
            )
    blocks = array_ops.reshape(x, [n, h // b, b, w // b, b, c])
    out = array_ops.reshape(array_ops.transpose(blocks, [0, 1, 3, 2, 4, 5]),
                            [n, h // b, w // b, c * b * b])  # fmt: skip
    return array_ops.transpose(out, [0, 3, 1, 2], name=name) if data_format == "NCHW" else (
        array_ops.identity(out, name=name) if name else out
    )  # fmt: skip


def depth_to_space(
    input: TensorLike, block_size: int, data_format: str = "NHWC", name: str | None = None
) -> Tensor:
    """The inverse of ``space_to_depth``: channels moved back into blocks of height and width.

    >>> import retrograd as rg
    >>> rg.nn.depth_to_space(rg.reshape(rg.range(4), [1, 1, 1, 4]), 2).numpy().reshape(-1).tolist()
    [0, 1, 2, 3]
    """
    x = convert_to_tensor(input)
    b = _block_size(block_size, "DepthToSpace")
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"DepthToSpace: data_format must be NHWC or NCHW, got {data_format!r}")
    if data_format == "NCHW":
        x = array_ops.transpose(x, [0, 2, 3, 1])
    n, h, w, c = _dims(x)
    if isinstance(c, int) and c % (b * b):
        raise InvalidArgumentError(
            f"DepthToSpace: the channels ({c}) must be divisible by block_size * block_size "
            f"({b * b})"
        )
    blocks = array_ops.reshape(x, [n, h, w, b, b, c // (b * b)])
    out = array_ops.reshape(array_ops.transpose(blocks, [0, 1, 3, 2, 4, 5]),
                            [n, h * b, w * b, c // (b * b)])  # fmt: skip
    return array_ops.transpose(out, [0, 3, 1, 2], name=name) if data_format == "NCHW" else (
        array_ops.identity(out, name=name) if name else out
    )  # fmt: skip
