"""``retrograd.config.threading``: TensorFlow's thread-count settings, kept and read back."""

from retrograd.graph.devices import (
    get_inter_op_parallelism_threads,
    get_intra_op_parallelism_threads,
    set_inter_op_parallelism_threads,
    set_intra_op_parallelism_threads,
)

__all__ = [
    "get_inter_op_parallelism_threads", "get_intra_op_parallelism_threads",
    "set_inter_op_parallelism_threads", "set_intra_op_parallelism_threads",
]  # fmt: skip
