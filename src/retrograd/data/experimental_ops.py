"""``tf.data.experimental``'s functions: transformations (functions of a dataset, for
``Dataset.apply``) and helpers over the Dataset methods they name.

>>> import retrograd as tf
>>> ds = tf.data.Dataset.range(4).apply(tf.data.experimental.take_while(lambda x: x < 2))
>>> [int(x) for x in ds], int(tf.data.experimental.cardinality(tf.data.Dataset.range(4)))
([0, 1], 4)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.core.errors import FailedPreconditionError
from retrograd.core.tensor import Tensor

__all__ = [
    "Counter", "assert_cardinality", "at", "bucket_by_sequence_length", "cardinality",
    "enumerate_dataset", "from_list", "get_next_as_optional", "get_single_element",
    "get_structure", "group_by_window", "ignore_errors", "map_and_batch", "scan",
    "shuffle_and_repeat", "take_while", "unbatch", "unique",
]  # fmt: skip


def _dataset() -> Any:
    from retrograd.data.dataset import Dataset

    return Dataset


def Counter(start: int = 0, step: int = 1, dtype: Any = "int64", name: str | None = None):  # noqa: N802
    """``Dataset.counter``."""
    return _dataset().counter(start, step, dtype, name)


def cardinality(dataset: Any) -> Tensor:
    """The number of elements of ``dataset`` (INFINITE -1, UNKNOWN -2)."""
    return dataset.cardinality()


def assert_cardinality(expected_cardinality: Any) -> Callable:
    """A transformation: the dataset, checked to have ``expected_cardinality`` elements as
    it is iterated (FailedPreconditionError otherwise)."""
    expected = int(expected_cardinality)

    def apply(dataset: Any) -> Any:
        def iterate():
            count = 0
            for element in dataset:
                count += 1
                if 0 <= expected < count:
                    raise FailedPreconditionError(
                        None, None, f"Input dataset was expected to contain {expected} "
                        f"elements but contained at least {count} elements."
                    )  # fmt: skip
                yield element
            if count < expected:
                raise FailedPreconditionError(
                    None, None, f"Input dataset was expected to contain {expected} elements "
                    f"but contained only {count} elements."
                )  # fmt: skip

        return type(dataset)(iterate, dataset.element_spec, expected)

    return apply


def _method(name: str, *args: Any, **kwargs: Any) -> Callable:
    return lambda dataset: getattr(dataset, name)(*args, **kwargs)


def enumerate_dataset(start: int = 0) -> Callable:
    """A transformation: ``Dataset.enumerate``."""
    return _method("enumerate", start)


def scan(initial_state: Any, scan_func: Callable) -> Callable:
    """A transformation: ``Dataset.scan``."""
    return _method("scan", initial_state, scan_func)


def take_while(predicate: Callable) -> Callable:
    """A transformation: ``Dataset.take_while``."""
    return _method("take_while", predicate)


def unique() -> Callable:
    """A transformation: ``Dataset.unique``."""
    return _method("unique")


def unbatch() -> Callable:
    """A transformation: ``Dataset.unbatch``."""
    return _method("unbatch")


def ignore_errors(log_warning: bool = False) -> Callable:
    """A transformation: ``Dataset.ignore_errors``."""
    return _method("ignore_errors", log_warning)


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None) -> Callable:
    """A transformation: ``Dataset.group_by_window``."""
    return _method("group_by_window", key_func, reduce_func, window_size, window_size_func)


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False) -> Callable:  # fmt: skip
    """A transformation: ``Dataset.bucket_by_sequence_length``."""
    return _method("bucket_by_sequence_length", element_length_func, bucket_boundaries,
                   bucket_batch_sizes, padded_shapes, padding_values, pad_to_bucket_boundary,
                   no_padding, drop_remainder)  # fmt: skip


def shuffle_and_repeat(buffer_size: int, count: int | None = None, seed: int | None = None):
    """A transformation: ``shuffle(buffer_size, seed)`` then ``repeat(count)``."""
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None) -> Callable:  # fmt: skip
    """A transformation: ``map(map_func)`` then ``batch(batch_size, drop_remainder)``."""
    return lambda dataset: dataset.map(map_func).batch(batch_size, drop_remainder)


def get_single_element(dataset: Any) -> Any:
    """``dataset.get_single_element()``."""
    return dataset.get_single_element()


def get_next_as_optional(iterator: Any) -> Any:
    """``iterator.get_next_as_optional()``."""
    return iterator.get_next_as_optional()


def get_structure(dataset_or_iterator: Any) -> Any:
    """The element spec of a dataset or iterator."""
    return dataset_or_iterator.element_spec


def from_list(elements: list, name: str | None = None) -> Any:
    """A dataset of the given elements (of one structure), in order."""
    from retrograd.data.structure import _zip_map
    from retrograd.ops import array_ops

    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty.")
    stacked = _zip_map(lambda leaves: array_ops.stack(leaves), list(elements))
    return _dataset().from_tensor_slices(stacked)


def at(dataset: Any, index: int) -> Any:
    """The element at position ``index`` (OutOfRangeError when there is none)."""
    from retrograd.core.errors import OutOfRangeError

    for i, element in enumerate(dataset):
        if i == int(index):
            return element
    raise OutOfRangeError(None, None, f"Index {index} is out of range")
