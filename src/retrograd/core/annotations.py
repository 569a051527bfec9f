"""Types for annotations: ``TensorLike`` (what ops accept) and the operators of tensors.

The operators of :class:`~retrograd.core.tensor.Tensor` and
:class:`~retrograd.core.variables.Variable` are bound at import time from one table
(:mod:`retrograd.ops.operators`), where the ops live. :class:`TensorOperators`, a base of
both classes with no state and no behaviour, declares them for type checkers, so that
``x * x``, ``1 - x``, ``x[0]``, ``a @ b``, ``x ** 2`` and ``x > 0`` type-check as tensors
under ``mypy --strict``.

>>> import retrograd as rg
>>> from retrograd.core.annotations import TensorOperators
>>> isinstance(rg.constant(1.0), TensorOperators), isinstance(rg.Variable(1.0), TensorOperators)
(True, True)
>>> TensorOperators.__slots__  # adds no per-instance state
()

The aliases say what an op's arguments may be: :data:`TensorLike` (what converts to a
tensor: tensors, variables, arrays, Python numbers and nested lists of them, not strings,
which retrograd's numeric tensors refuse), :data:`DTypeLike`, :data:`ShapeLike` and
:data:`AxisLike`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar, Union, overload

import numpy as np

if TYPE_CHECKING:
    from retrograd.core.dtypes import DType
    from retrograd.core.shapes import TensorShape
    from retrograd.core.tensor import Tensor
    from retrograd.core.variables import Variable

__all__ = [
    "TensorLike", "DTypeLike", "ShapeLike", "AxisLike", "SupportsTensor", "SupportsArray",
    "TensorOperators", "UnaryOp", "BinaryOp", "CustomGradientFunction",
]  # fmt: skip


class SupportsTensor(Protocol):
    """An object that converts itself to a tensor (variables, IndexedSlices, ...)."""

    def _as_tensor(self) -> Tensor: ...


class SupportsArray(Protocol):
    """An object NumPy converts to an array (``__array__``), e.g. a pandas Series."""

    def __array__(self) -> np.ndarray: ...


# One element of what converts to a tensor.
# (Variables are SupportsTensor; NumPy arrays and scalars SupportsArray; int and bool are
# accepted where float is, float where complex is.)
_Scalar = Union["Tensor", SupportsTensor, SupportsArray, float, complex]
# Nested lists of them, six levels deep (literal values of rank 6 at most; arrays have any
# rank). Each level has one sequence member, so that mypy infers mixed lists such as
# ``[x, 1.0]``; the depth is bounded, so that ``str`` (a sequence of strings, forever) is
# not accepted, as a recursive alias would.
_Nested5 = _Scalar | Sequence[_Scalar]
_Nested4 = _Scalar | Sequence[_Nested5]
_Nested3 = _Scalar | Sequence[_Nested4]
_Nested2 = _Scalar | Sequence[_Nested3]
_Nested1 = _Scalar | Sequence[_Nested2]

# What an op converts to a tensor: tensors, variables, NumPy values, Python numbers and
# (nested) lists of them.
TensorLike = _Scalar | Sequence[_Nested1]

# What names a dtype: a DType, its name ("float32"), a NumPy dtype or scalar type, or
# Python's float, int, bool and complex (see ``dtypes.as_dtype``).
DTypeLike = Union["DType", str, type, "np.dtype[Any]"]

# A shape: a TensorShape, a sequence of dimensions (None where unknown), one number (a
# vector's length) or an integer tensor.
ShapeLike = Union[
    "TensorShape", Sequence[Union[int, np.integer, None, "Tensor"]], int, np.integer,
    "Tensor", "Variable", np.ndarray,
]  # fmt: skip

# An axis or axes: an int, a sequence of ints, or an integer tensor.
AxisLike = Union[int, np.integer, Sequence[int | np.integer], "Tensor", np.ndarray]


class TensorOperators:
    """Declares the operators that :mod:`retrograd.ops.operators` binds (for type checkers).

    ``==`` and ``!=`` are elementwise, as in TensorFlow, so they return tensors.
    """

    __slots__ = ()

    if TYPE_CHECKING:

        def __add__(self, other: TensorLike) -> Tensor: ...
        def __radd__(self, other: TensorLike) -> Tensor: ...
        def __sub__(self, other: TensorLike) -> Tensor: ...
        def __rsub__(self, other: TensorLike) -> Tensor: ...
        def __mul__(self, other: TensorLike) -> Tensor: ...
        def __rmul__(self, other: TensorLike) -> Tensor: ...
        def __truediv__(self, other: TensorLike) -> Tensor: ...
        def __rtruediv__(self, other: TensorLike) -> Tensor: ...
        def __floordiv__(self, other: TensorLike) -> Tensor: ...
        def __rfloordiv__(self, other: TensorLike) -> Tensor: ...
        def __mod__(self, other: TensorLike) -> Tensor: ...
        def __rmod__(self, other: TensorLike) -> Tensor: ...
        def __pow__(self, other: TensorLike) -> Tensor: ...
        def __rpow__(self, other: TensorLike) -> Tensor: ...
        def __matmul__(self, other: TensorLike) -> Tensor: ...
        def __rmatmul__(self, other: TensorLike) -> Tensor: ...
        def __and__(self, other: TensorLike) -> Tensor: ...
        def __rand__(self, other: TensorLike) -> Tensor: ...
        def __or__(self, other: TensorLike) -> Tensor: ...
        def __ror__(self, other: TensorLike) -> Tensor: ...
        def __xor__(self, other: TensorLike) -> Tensor: ...
        def __rxor__(self, other: TensorLike) -> Tensor: ...
        def __lt__(self, other: TensorLike) -> Tensor: ...
        def __le__(self, other: TensorLike) -> Tensor: ...
        def __gt__(self, other: TensorLike) -> Tensor: ...
        def __ge__(self, other: TensorLike) -> Tensor: ...
        def __eq__(self, other: object) -> Tensor: ...  # type: ignore[override]
        def __ne__(self, other: object) -> Tensor: ...  # type: ignore[override]
        def __neg__(self) -> Tensor: ...
        def __abs__(self) -> Tensor: ...
        def __invert__(self) -> Tensor: ...
        def __getitem__(self, key: Any) -> Tensor: ...
        def __iter__(self) -> Iterator[Tensor]: ...


class UnaryOp(Protocol):
    """The type of an elementwise op of one tensor, ``f(x, name=None)``."""

    __name__: str

    def __call__(self, x: TensorLike, name: str | None = None) -> Tensor: ...


class BinaryOp(Protocol):
    """The type of an elementwise op of two tensors, ``f(x, y, name=None)``."""

    __name__: str

    def __call__(self, x: TensorLike, y: TensorLike, name: str | None = None) -> Tensor: ...


_P = ParamSpec("_P")
_Q = ParamSpec("_Q")
_R = TypeVar("_R", covariant=True)
_S = TypeVar("_S")
_F = TypeVar("_F", bound=Callable[..., Any])


class CustomGradientFunction(Protocol[_P, _R]):
    """What ``custom_gradient(f)`` is to type checkers, for ``f(*x) -> (y, grad_fn)``: a
    function of ``f``'s arguments returning ``y`` (bound as a method where ``f`` is one),
    with ``defjvp``."""

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...
    def defjvp(self, jvp_fn: _F) -> _F: ...
    @overload
    def __get__(self, instance: None, owner: Any = None) -> CustomGradientFunction[_P, _R]: ...
    @overload
    def __get__(
        self: CustomGradientFunction[Concatenate[Any, _Q], _S], instance: object, owner: Any = None
    ) -> CustomGradientFunction[_Q, _S]: ...
