"""TensorFlow 1 names with a v1 signature over retrograd's ops: ``batch_gather``,
``random_poisson`` (``lam`` first), ``get_seed`` and ``nn.depthwise_conv2d_native`` (the raw
op's 4-element strides and dilations).

>>> import retrograd as rg
>>> batch_gather([[1.0, 2.0], [3.0, 4.0]], [[1], [0]]).numpy().tolist()
[[2.0], [3.0]]
"""

from __future__ import annotations

from collections.abc import Sequence

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import conv_more_ops, gather_ops, random_distribution_ops, random_seeding

__all__ = ["batch_gather", "depthwise_conv2d_native", "get_seed", "random_poisson"]


def batch_gather(params: TensorLike, indices: TensorLike, name: str | None = None) -> Tensor:
    """``gather`` within each batch: every axis of ``indices`` but its last is a batch axis
    of ``params`` (TensorFlow 1's ``batch_gather``, ``gather(..., batch_dims=-1)``).

    >>> import retrograd as rg
    >>> rg.compat.v1.batch_gather([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]]).numpy().tolist()
    [[3, 1], [5, 5]]
    """
    indices = convert_to_tensor(indices)
    if indices.shape.rank is None or indices.shape.rank < 1:
        raise InvalidArgumentError(
            f"batch_gather: indices must have rank >= 1, got {indices.shape}"
        )
    return gather_ops.gather(params, indices, batch_dims=indices.shape.rank - 1, name=name)


def random_poisson(
    lam: TensorLike,
    shape: ShapeLike,
    dtype: DTypeLike = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Poisson(``lam``) samples of shape ``shape + lam.shape``: TensorFlow 1's order of
    ``tf.random.poisson``'s arguments.

    >>> import retrograd as rg
    >>> rg.compat.v1.random_poisson([1.0, 4.0], [5], seed=2).shape
    TensorShape([5, 2])
    """
    return random_distribution_ops.poisson(shape, lam, dtype, seed, name)


def get_seed(op_seed: int | None) -> tuple[int | None, int | None]:
    """The (graph-level seed, op-level seed) an op with seed ``op_seed`` uses: both None
    with no seed set; TensorFlow's default graph seed with an op seed alone; a new op seed
    per call with a global seed alone.

    >>> import retrograd as rg
    >>> rg.random.set_seed(None)  # (no global seed)
    >>> rg.compat.v1.get_seed(None), rg.compat.v1.get_seed(7)
    ((None, None), (87654321, 7))
    """
    return random_seeding.get_seed(op_seed)


def depthwise_conv2d_native(
    input: TensorLike,
    filter: TensorLike,
    strides: Sequence[int],
    padding: str | Sequence[Sequence[int]],
    data_format: str = "NHWC",
    dilations: Sequence[int] = (1, 1, 1, 1),
    name: str | None = None,
) -> Tensor:
    """The ``DepthwiseConv2dNative`` op: ``depthwise_conv2d`` with 4-element ``strides``
    and ``dilations`` (1 on the batch and channel axes).

    >>> import retrograd as rg
    >>> rg.compat.v1.nn.depthwise_conv2d_native(rg.ones([1, 3, 3, 2]), rg.ones([2, 2, 2, 1]),
    ...     [1, 1, 1, 1], "VALID").shape
    TensorShape([1, 2, 2, 2])
    """
    spatial = slice(2, 4) if data_format == "NCHW" else slice(1, 3)
    dilations = list(dilations)
    if len(dilations) != 4:
        raise InvalidArgumentError(
            f"DepthwiseConv2dNative: dilations must have 4 elements, got {dilations}"
        )
    return conv_more_ops.depthwise_conv2d(input, filter, strides, padding, data_format,
                                          dilations[spatial], name)  # fmt: skip
