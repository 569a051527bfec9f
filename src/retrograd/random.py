"""``retrograd.random``: TensorFlow's ``tf.random`` namespace (see ops/random_ops.py for the
seeding rules; the streams of the stateful ops differ from TensorFlow's, the distributions do
not; the stateless uniform, normal, truncated normal and categorical ops, and split/fold_in,
give TensorFlow's numbers: ops/stateless_random_ops.py, ops/random_seed_ops.py)."""

import sys as _sys

from retrograd.ops import random_experimental_namespace as experimental
from retrograd.ops.random_distribution_ops import (
    all_candidate_sampler,
    fixed_unigram_candidate_sampler,
    gamma,
    learned_unigram_candidate_sampler,
    log_uniform_candidate_sampler,
    poisson,
    stateless_binomial,
    stateless_gamma,
    stateless_parameterized_truncated_normal,
    stateless_poisson,
    uniform_candidate_sampler,
)
from retrograd.ops.random_ops import (
    categorical,
    normal,
    truncated_normal,
    uniform,
)
from retrograd.ops.random_seed_ops import (
    Algorithm,
    create_rng_state,
    fold_in,
    split,
    stateless_categorical,
)
from retrograd.ops.random_seeding import set_seed
from retrograd.ops.random_shuffle_ops import shuffle
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
__all__ += [
    "Algorithm", "all_candidate_sampler", "create_rng_state", "experimental",
    "fixed_unigram_candidate_sampler", "fold_in", "gamma", "learned_unigram_candidate_sampler",
    "log_uniform_candidate_sampler", "poisson", "split", "stateless_binomial",
    "stateless_categorical", "stateless_gamma", "stateless_parameterized_truncated_normal",
    "stateless_poisson", "uniform_candidate_sampler",
]  # fmt: skip

# `import retrograd.random.experimental` works too.
_sys.modules[__name__ + ".experimental"] = experimental
