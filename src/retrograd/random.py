"""``retrograd.random``: TensorFlow's ``tf.random`` namespace (see ops/random_ops.py for the
seeding rules; the streams differ from TensorFlow's, the distributions do not)."""

from retrograd.ops.random_ops import (
    categorical,
    normal,
    set_seed,
    shuffle,
    truncated_normal,
    uniform,
)
from retrograd.ops.stateful_random_ops import (
    Generator,
    get_global_generator,
    set_global_generator,
)

__all__ = ["categorical", "normal", "set_seed", "shuffle", "truncated_normal", "uniform"]
__all__ += ["Generator", "get_global_generator", "set_global_generator"]
