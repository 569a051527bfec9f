"""``tf.random.shuffle`` with TensorFlow's permutations: the ``RandomShuffle`` kernel's
Fisher-Yates pass over its Philox stream (``philox_random.shuffled_order``), seeded as
TensorFlow seeds it (``random_seeding.get_seed``; the stream's life is the kernel's:
``random_seeding.philox_stream``). The same program prints the same permutations as
TensorFlow: eagerly, in a ``function`` and in a Session, with a global seed, an op seed, both
or (differently each run) neither.

>>> import retrograd as rg
>>> rg.random.set_seed(5)
>>> rg.random.shuffle(rg.range(10)).numpy().tolist()  # TensorFlow's numbers
[0, 5, 2, 8, 1, 6, 7, 9, 4, 3]
>>> rg.random.set_seed(None)
"""

from __future__ import annotations

from retrograd.core.annotations import TensorLike
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor
from retrograd.ops import philox_random, random_seeding
from retrograd.ops.define import ANY, tensor_arg

__all__ = ["shuffle"]


def _shuffle_kernel(value, seed, seed2, rng):
    # TensorFlow copies what has at most one element or one row, and draws nothing then
    if value.ndim == 0 or value.size <= 1 or value.shape[0] <= 1:
        return value.copy()
    return value[philox_random.shuffled_order(value.shape[0], rng)]


def _shuffled_shape(metas, **_):
    return [(metas[0].shape, metas[0].dtype)]


# Stateful, with a shape function (graph construction draws nothing), as the other random ops
_RandomShuffle = define_op(
    "RandomShuffle", _shuffle_kernel, shape_fn=_shuffled_shape, stateful=True, quiet=True
)
no_gradient("RandomShuffle")


def shuffle(value: TensorLike, seed: int | None = None, name: str | None = None) -> Tensor:
    """``value`` with its first dimension randomly permuted, as TensorFlow permutes it.

    >>> import retrograd as rg
    >>> rg.random.set_seed(1)
    >>> rg.random.shuffle(rg.reshape(rg.range(6), [3, 2]), seed=2).numpy().tolist()
    [[4, 5], [0, 1], [2, 3]]
    >>> rg.random.set_seed(None)
    """
    x = tensor_arg("RandomShuffle", value, ANY, "value")
    rng, (seed1, seed2) = random_seeding.philox_stream("RandomShuffle", (x.dtype,), seed)
    return execute(_RandomShuffle, (x,), {"seed": seed1, "seed2": seed2, "rng": rng}, name)
