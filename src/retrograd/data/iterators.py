"""Iterators over datasets (``tf.data.Iterator``: ``get_next``, ``get_next_as_optional``;
``NumpyIterator``), their type specs (``DatasetSpec``, ``IteratorSpec``), ``Optional``
values, and dataset ``Options``/``ThreadingOptions``.

>>> import retrograd as tf
>>> it = iter(tf.data.Dataset.range(2))
>>> int(it.get_next()), bool(it.get_next_as_optional().has_value())
(0, True)
>>> bool(it.get_next_as_optional().has_value())
False
"""

from __future__ import annotations

from typing import Any

from retrograd.core.errors import InvalidArgumentError, OutOfRangeError
from retrograd.data.structure import _map
from retrograd.graph.signatures import TypeSpec

__all__ = [
    "DatasetSpec", "Iterator", "IteratorSpec", "NumpyIterator", "Optional", "Options",
    "OwnedIterator", "ThreadingOptions",
]  # fmt: skip


class Optional:
    """A value that may be absent (``tf.experimental.Optional``).

    >>> o = Optional.from_value(3)
    >>> bool(o.has_value()), o.get_value()
    (True, 3)
    """

    def __init__(self, value: Any = None, present: bool = False, element_spec: Any = None):
        self._value, self._present, self._element_spec = value, present, element_spec

    @staticmethod
    def from_value(value: Any) -> Optional:
        return Optional(value, True)

    @staticmethod
    def empty(element_spec: Any) -> Optional:
        return Optional(None, False, element_spec)

    def has_value(self, name: str | None = None) -> bool:
        from retrograd.core.tensor import convert_to_tensor

        return convert_to_tensor(self._present)

    def get_value(self, name: str | None = None) -> Any:
        if not self._present:
            raise InvalidArgumentError("The optional does not have a value")
        return self._value

    @property
    def element_spec(self) -> Any:
        return self._element_spec


class Iterator:
    """The interface of dataset iterators: ``next``, ``get_next`` (OutOfRangeError at the
    end), ``get_next_as_optional`` and ``element_spec``.

    >>> import retrograd as tf
    >>> isinstance(iter(tf.data.Dataset.range(1)), tf.data.Iterator)
    True
    """

    def __iter__(self) -> Iterator:
        return self

    def __next__(self) -> Any:
        raise StopIteration

    def get_next(self) -> Any:
        """The next element; OutOfRangeError ("End of sequence") after the last."""
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence") from None

    def get_next_as_optional(self) -> Optional:
        """The next element as an Optional (empty after the last)."""
        try:
            return Optional.from_value(next(self))
        except StopIteration:
            return Optional.empty(self.element_spec)

    @property
    def element_spec(self) -> Any:
        raise TypeError("Iterator is abstract")


class OwnedIterator(Iterator):
    """An iterator over one pass of a dataset."""

    def __init__(self, dataset: Any) -> None:
        self._dataset = dataset
        self._elements = iter(dataset._make_iterator())

    def __next__(self) -> Any:
        return next(self._elements)

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec

    def _type_spec(self) -> IteratorSpec:
        return IteratorSpec(self.element_spec)


class NumpyIterator(Iterator):
    """An iterator giving NumPy arrays in place of tensors (``as_numpy_iterator``).

    >>> import retrograd as tf
    >>> next(tf.data.Dataset.range(3).as_numpy_iterator())
    np.int64(0)
    """

    def __init__(self, dataset: Any) -> None:
        self._owned = OwnedIterator(dataset)

    def __next__(self) -> Any:
        return _map(lambda t: t.numpy(), next(self._owned))

    def next(self) -> Any:
        return self.__next__()

    @property
    def element_spec(self) -> Any:
        return self._owned.element_spec


class DatasetSpec(TypeSpec):
    """The spec of a dataset: its ``element_spec`` (and ``dataset_shape``, () for a dataset).

    >>> import retrograd as tf
    >>> tf.data.DatasetSpec.from_value(tf.data.Dataset.range(3)).element_spec
    TensorSpec(shape=(), dtype=tf.int64, name=None)
    """

    __slots__ = ("_element_spec", "_dataset_shape")

    def __init__(self, element_spec: Any, dataset_shape: Any = ()) -> None:
        self._element_spec, self._dataset_shape = element_spec, tuple(dataset_shape)

    @staticmethod
    def from_value(value: Any) -> DatasetSpec:
        return DatasetSpec(value.element_spec)

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    @property
    def value_type(self) -> type:
        from retrograd.data.dataset import Dataset

        return Dataset

    def _key(self) -> tuple:
        return (repr(self._element_spec), self._dataset_shape)

    def __repr__(self) -> str:
        return f"DatasetSpec({self._element_spec!r}, TensorShape({list(self._dataset_shape)}))"


class IteratorSpec(TypeSpec):
    """The spec of an iterator: its ``element_spec``.

    >>> import retrograd as tf
    >>> tf.data.IteratorSpec(tf.TensorSpec([])).value_type.__name__
    'OwnedIterator'
    """

    __slots__ = ("_element_spec",)

    def __init__(self, element_spec: Any) -> None:
        self._element_spec = element_spec

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    @property
    def value_type(self) -> type:
        return OwnedIterator

    def _key(self) -> tuple:
        return (repr(self._element_spec),)

    def __repr__(self) -> str:
        return f"IteratorSpec({self._element_spec!r})"


class _OptionsBase:
    """Attribute-bag options that refuse unknown names, merged by ``merge``."""

    _FIELDS: tuple = ()

    def __init__(self) -> None:
        for field in self._FIELDS:
            object.__setattr__(self, field, None)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._FIELDS and not isinstance(getattr(type(self), name, None), property):
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(
            getattr(self, f) == getattr(other, f) for f in self._FIELDS
        )

    def merge(self, other: Any) -> Any:
        """These options with ``other``'s set values taking precedence."""
        merged = type(self)()
        for field in self._FIELDS:
            mine, theirs = getattr(self, field), getattr(other, field)
            if isinstance(mine, _OptionsBase):
                object.__setattr__(merged, field, mine.merge(theirs))
            else:
                object.__setattr__(merged, field, theirs if theirs is not None else mine)
        return merged


class ThreadingOptions(_OptionsBase):
    """Threading options of a dataset (accepted; retrograd's pipelines run in one thread).

    >>> o = ThreadingOptions()
    >>> o.private_threadpool_size = 2
    >>> o.private_threadpool_size
    2
    """

    _FIELDS = ("max_intra_op_parallelism", "private_threadpool_size")


class Options(_OptionsBase):
    """A dataset's options (``deterministic``, ``threading``, ...): kept and merged by
    ``with_options``; retrograd's pipelines run in order in one thread whatever they say.

    >>> import retrograd as tf
    >>> o = tf.data.Options()
    >>> o.deterministic = False
    >>> tf.data.Dataset.range(3).with_options(o).options().deterministic
    False
    """

    _FIELDS = ("autotune", "deterministic", "experimental_deterministic",
               "experimental_distribute", "experimental_external_state_policy",
               "experimental_optimization", "experimental_slack",
               "experimental_symbolic_checkpoint",
               "experimental_threading", "experimental_warm_start", "threading", "dataset_name",
               "framework_type")  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        object.__setattr__(self, "threading", ThreadingOptions())
