"""The structure of dataset elements: nested tuples and dicts of tensors (lists are leaves,
as in tf.data), mapped and zipped leaf by leaf.

>>> _map(lambda x: x * 2, (1, {"a": 2}))
(2, {'a': 4})
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any

from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph.function import TensorSpec

__all__ = ["INFINITE", "UNKNOWN"]

INFINITE = -1
UNKNOWN = -2

# True while a transformation looks at a first element to learn its structure (TensorFlow
# traces instead): a shuffle lends the next pass its seeds then, without drawing them
PEEKING: contextvars.ContextVar[bool] = contextvars.ContextVar("dataset_peeking", default=False)


@contextlib.contextmanager
def peeking() -> Iterator[None]:
    """Marks a look at a dataset's first element (see ``PEEKING``)."""
    token = PEEKING.set(True)
    try:
        yield
    finally:
        PEEKING.reset(token)


def _map(fn: Callable, structure: Any) -> Any:
    """Applies ``fn`` to the leaves of tuples and dicts (lists are leaves)."""
    if isinstance(structure, tuple):
        return tuple(_map(fn, s) for s in structure)
    if isinstance(structure, dict):
        return {k: _map(fn, structure[k]) for k in structure}
    return fn(structure)


def _leaves(structure: Any) -> list[Any]:
    if isinstance(structure, tuple):
        return [leaf for s in structure for leaf in _leaves(s)]
    if isinstance(structure, dict):
        return [leaf for k in structure for leaf in _leaves(structure[k])]
    return [structure]


def _zip_map(fn: Callable, structures: list[Any]) -> Any:
    first = structures[0]
    if isinstance(first, tuple):
        return tuple(_zip_map(fn, [s[i] for s in structures]) for i in range(len(first)))
    if isinstance(first, dict):
        return {k: _zip_map(fn, [s[k] for s in structures]) for k in first}
    return fn(structures)


def _to_tensor(value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, Variable):
        return value.read_value()
    return convert_to_tensor(value)


def _spec(value: Tensor) -> TensorSpec:
    return TensorSpec(value.shape, value.dtype)
