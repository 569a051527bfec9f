"""``retrograd.data.experimental`` (``tf.data.experimental``).

>>> import retrograd as tf
>>> tf.data.experimental.INFINITE_CARDINALITY, tf.data.experimental.UNKNOWN_CARDINALITY
(-1, -2)
"""

from retrograd.data.dataset import AUTOTUNE
from retrograd.data.experimental_ops import (
    Counter,
    assert_cardinality,
    at,
    bucket_by_sequence_length,
    cardinality,
    enumerate_dataset,
    from_list,
    get_next_as_optional,
    get_single_element,
    get_structure,
    group_by_window,
    ignore_errors,
    map_and_batch,
    scan,
    shuffle_and_repeat,
    take_while,
    unbatch,
    unique,
)
from retrograd.data.iterators import Optional, ThreadingOptions
from retrograd.data.structure import INFINITE as INFINITE_CARDINALITY
from retrograd.data.structure import UNKNOWN as UNKNOWN_CARDINALITY

__all__ = [
    "AUTOTUNE", "Counter", "INFINITE_CARDINALITY", "Optional", "ThreadingOptions",
    "UNKNOWN_CARDINALITY", "assert_cardinality", "at", "bucket_by_sequence_length",
    "cardinality", "enumerate_dataset", "from_list", "get_next_as_optional",
    "get_single_element", "get_structure", "group_by_window", "ignore_errors", "map_and_batch",
    "scan", "shuffle_and_repeat", "take_while", "unbatch", "unique",
]  # fmt: skip
