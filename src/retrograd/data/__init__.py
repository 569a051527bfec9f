"""``retrograd.data`` (``tf.data``): in-memory input pipelines."""

import sys as _sys

from retrograd.data import experimental_namespace as experimental
from retrograd.data.dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset
from retrograd.data.iterators import (
    DatasetSpec,
    Iterator,
    IteratorSpec,
    NumpyIterator,
    Options,
    ThreadingOptions,
)
from retrograd.data.structure import INFINITE as INFINITE_CARDINALITY
from retrograd.data.structure import UNKNOWN as UNKNOWN_CARDINALITY

__all__ = ["AUTOTUNE", "Dataset", "INFINITE", "UNKNOWN"]
__all__ += [
    "DatasetSpec", "INFINITE_CARDINALITY", "Iterator", "IteratorSpec", "NumpyIterator",
    "Options", "ThreadingOptions", "UNKNOWN_CARDINALITY", "experimental",
]  # fmt: skip

# `import retrograd.data.experimental` works too.
_sys.modules[__name__ + ".experimental"] = experimental
