"""``retrograd.random.experimental`` (``tf.random.experimental``): generators and the seed
utilities under their experimental names.

>>> import retrograd as tf
>>> tf.random.experimental.stateless_fold_in([1, 2], 7).numpy().tolist()
[1105988140, 7]
"""

from retrograd.ops.random_seed_ops import Algorithm, create_rng_state
from retrograd.ops.random_seed_ops import fold_in as stateless_fold_in
from retrograd.ops.random_seed_ops import split as stateless_split
from retrograd.ops.stateful_random_ops import (
    Generator,
    get_global_generator,
    set_global_generator,
)

__all__ = [
    "Algorithm", "Generator", "create_rng_state", "get_global_generator",
    "set_global_generator", "stateless_fold_in", "stateless_split",
]  # fmt: skip
