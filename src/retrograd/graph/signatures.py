"""What selects a trace of a ``function``: ``TensorSpec`` (a dtype and a shape that may hold
None), the key of a call's arguments, and the relaxation ``reduce_retracing`` applies.

>>> import retrograd as rg
>>> spec = TensorSpec([None, 3])
>>> spec.is_compatible_with(rg.zeros([5, 3])), spec.is_compatible_with(rg.zeros([5, 4]))
(True, False)
>>> relaxed([TensorSpec([2, 3]), None], [TensorSpec([4, 3]), None])
[TensorSpec(shape=(None, 3), dtype=tf.float32, name=None), None]
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from retrograd.core import backends, dtypes, nest
from retrograd.core.annotations import DTypeLike, ShapeLike
from retrograd.core.shapes import TensorShape, plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable

__all__ = [
    "TypeSpec",
    "TensorSpec",
    "leaf_key",
    "tensor_types",
    "as_tensor",
    "cast_to_spec",
    "signature_arguments",
    "relaxed",
    "structured_input_signature",
    "argument_names",
]


class TypeSpec:
    """What a value of some type is, without the value (TensorFlow's ``tf.TypeSpec``): the
    base of ``TensorSpec``, ``TensorArraySpec``, ... Two specs are compatible when a value of
    one may stand where the other is expected.

    >>> import retrograd as rg
    >>> isinstance(rg.TensorSpec([2]), rg.TypeSpec)
    True
    """

    __slots__ = ()

    @property
    def value_type(self) -> type:
        """The Python type of the values this spec describes."""
        raise TypeError(f"{type(self).__name__} is abstract")

    def _key(self) -> tuple:
        raise TypeError(f"{type(self).__name__} is abstract")

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        """Whether a value of ``spec_or_value`` (a spec or a value) may stand for this one."""
        return self == spec_or_value

    def is_subtype_of(self, other: Any) -> bool:
        """Whether every value this spec describes is described by ``other`` too."""
        return self == other

    def most_specific_common_supertype(self, others: list) -> TypeSpec | None:
        """The narrowest spec describing this one's values and ``others``' (None: none)."""
        return self if all(self == o for o in others) else None

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))


class TensorSpec(TypeSpec):
    """The dtype and shape (None for an unknown dimension) a traced function accepts.

    >>> import retrograd as rg
    >>> spec = rg.TensorSpec([None, 3], rg.float32)
    >>> spec.shape.as_list(), spec.dtype.name
    ([None, 3], 'float32')
    >>> spec.is_compatible_with(rg.zeros([5, 3]))
    True
    """

    __slots__ = ("shape", "dtype", "name")

    def __init__(
        self, shape: ShapeLike | None, dtype: DTypeLike = dtypes.float32, name: str | None = None
    ) -> None:
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> TensorSpec:
        return cls(tensor.shape, tensor.dtype, name)

    @classmethod
    def from_spec(cls, spec: TensorSpec, name: str | None = None) -> TensorSpec:
        """A TensorSpec with ``spec``'s shape and dtype (and ``name``, else ``spec``'s)."""
        return cls(spec.shape, spec.dtype, name if name is not None else spec.name)

    @property
    def value_type(self) -> type:
        return Tensor

    def is_compatible_with(self, spec_or_tensor: Any) -> bool:
        value = spec_or_tensor
        return value.dtype == self.dtype and self.shape.is_compatible_with(value.shape)

    def is_subtype_of(self, other: Any) -> bool:
        """Whether ``other`` accepts every tensor this spec does (its shape is as general).

        >>> import retrograd as rg
        >>> rg.TensorSpec([2], rg.float32).is_subtype_of(rg.TensorSpec([None], rg.float32))
        True
        """
        if not isinstance(other, TensorSpec) or other.dtype != self.dtype:
            return False
        if other.shape.rank is None:
            return True
        if self.shape.rank != other.shape.rank:
            return False
        return all(b is None or a == b for a, b in zip(self.shape, other.shape))

    def most_specific_common_supertype(self, others: list) -> TensorSpec | None:
        """The narrowest TensorSpec accepting this one's and ``others``' tensors.

        >>> import retrograd as rg
        >>> rg.TensorSpec([2]).most_specific_common_supertype([rg.TensorSpec([3])]).shape
        TensorShape([None])
        """
        shape = self.shape
        for other in others:
            if not isinstance(other, TensorSpec) or other.dtype != self.dtype:
                return None
            if shape.rank is None or other.shape.rank != shape.rank:
                shape = TensorShape(None)
                continue
            shape = TensorShape([a if a == b else None for a, b in zip(shape, other.shape)])
        return TensorSpec(shape, self.dtype, self.name)

    def _key(self) -> tuple:
        return (self.dtype.name, None if self.shape.rank is None else plain_dims(self.shape))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorSpec) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shape = None if self.shape.rank is None else plain_dims(self.shape)
        return f"TensorSpec(shape={shape}, dtype={self.dtype!r}, name={self.name!r})"


def tensor_types(args: tuple) -> tuple | None:
    """(dtype, shape) of each argument when all are tensors; else None."""
    key = []
    for a in args:
        if type(a) is not Tensor:
            return None
        value = a._value
        key.append((value.dtype, value.shape))
    return tuple(key)


def as_tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(backends.place(np.array(value)))


def cast_to_spec(leaf: Any, declared: TensorSpec | None) -> Any:
    """A NumPy array given for an ``input_signature`` spec, converted to the spec's dtype as
    TensorFlow converts it (float64 data for a float32 spec); a tensor is never cast."""
    if declared is None or not isinstance(leaf, np.ndarray) or declared.dtype is None:
        return leaf
    try:
        return convert_to_tensor(leaf, dtype=declared.dtype)
    except (TypeError, ValueError):
        return leaf  # (refused against the signature, with TensorFlow's message)


def signature_arguments(signature: list, args: tuple) -> tuple:
    """The positional arguments with Python numbers and lists given for a ``TensorSpec`` of
    the ``input_signature`` made arrays (they become tensors of the spec's dtype)."""
    return tuple(
        np.asarray(a)
        if isinstance(spec, TensorSpec) and isinstance(a, (bool, int, float, list, tuple))
        else a
        for a, spec in zip(args, [*signature, *[None] * (len(args) - len(signature))])
    )


def structured_input_signature(python_function: Callable, args: list, kwargs: dict) -> tuple:
    """A trace's ``(args, kwargs)`` of specs and Python values as TensorFlow reports them:
    bound to the function's parameters (keyword arguments given positionally where they can
    be, defaults filled in), an unnamed spec named by its parameter."""
    try:
        bound = inspect.signature(python_function).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return tuple(args), dict(kwargs)
    bound.apply_defaults()
    for name, value in bound.arguments.items():
        if isinstance(value, TensorSpec) and value.name is None:
            bound.arguments[name] = TensorSpec(value.shape, value.dtype, name=name)
    return bound.args, bound.kwargs


def leaf_key(leaf: Any, spec: TensorSpec | None) -> Hashable:
    """What of one argument selects the trace: a tensor's spec, a variable's identity, a
    Python value's value (or identity, when it cannot be hashed)."""
    if spec is not None:
        return ("tensor", spec._key())
    if isinstance(leaf, Variable):
        return ("variable", id(leaf))
    try:
        hash(leaf)
    except TypeError:
        return ("object", id(leaf))
    return ("python", type(leaf).__name__, leaf)


def relaxed(old: list, new: list) -> list | None:
    """The specs that cover both ``old`` and ``new`` calls (dimensions that differ become
    None), or None when they differ in more than dimensions (ranks, dtypes)."""
    if len(old) != len(new):
        return None
    out = []
    for a, b in zip(old, new):
        if (a is None) != (b is None):
            return None
        if a is None:
            out.append(None)
            continue
        if a.dtype != b.dtype:
            return None
        if a.shape.rank is None or b.shape.rank is None or a.shape.rank != b.shape.rank:
            return None  # ranks differ: traced apart (ops here need to know ranks)
        else:
            dims = [x if x == y else None for x, y in zip(plain_dims(a.shape), plain_dims(b.shape))]
            out.append(TensorSpec(dims, a.dtype, a.name))
    return out


def argument_names(python_function: Callable, structure: tuple) -> list[str]:
    """The name of each flattened argument of ``structure`` (``(args, kwargs)``), as TensorFlow
    names a function's placeholders: its parameter's (``*args``' for extra positional ones)
    or its keyword's; "input" where the signature cannot be read.

    >>> argument_names(lambda x, pair, *, k: x, ([1.0, [2.0, 3.0]], {"k": 4.0}))
    ['x', 'pair', 'pair', 'k']
    """
    args, kwargs = structure
    try:
        parameters = list(inspect.signature(python_function).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    positional = [
        p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    rest = next((p.name for p in parameters if p.kind == p.VAR_POSITIONAL), "input")
    names = []
    for i, arg in enumerate(args):
        names += [positional[i] if i < len(positional) else rest] * len(nest.flatten(arg))
    for key in sorted(kwargs):
        names += [key] * len(nest.flatten(kwargs[key]))
    return names
