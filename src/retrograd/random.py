"""``retrograd.random``: TensorFlow's ``tf.random`` namespace (see ops/random_ops.py for the
seeding rules; the streams of the stateful ops differ from TensorFlow's, the distributions do
not; the stateless ops, ops/stateless_random_ops.py, give TensorFlow's numbers)."""

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
from retrograd.ops.stateless_random_ops import (
    stateless_normal,
    stateless_truncated_normal,
    stateless_uniform,
)

__all__ = ["categorical", "normal", "set_seed", "shuffle", "truncated_normal", "uniform"]
__all__ += ["Generator", "get_global_generator", "set_global_generator"]
__all__ += ["stateless_normal", "stateless_truncated_normal", "stateless_uniform"]
