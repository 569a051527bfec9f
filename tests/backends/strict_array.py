"""A strict, non-NumPy array type that keeps retrograd's kernels honest in CI.

``StrictArray`` wraps a NumPy array and behaves as CuPy's arrays do towards NumPy: NumPy's
functions and ufuncs called on it dispatch to it (``__array_function__``,
``__array_ufunc__``: it unwraps, calls NumPy, wraps the result again), but it refuses to be
turned into a NumPy array implicitly (``__array__`` raises TypeError, as CuPy's "Implicit
conversion to a NumPy array is not allowed"), refuses NumPy arrays as operands (mixing host
and device arrays), and ``isinstance(x, np.ndarray)`` is False. The host copy is explicit:
``x.get()`` or the device's ``to_host``. NumPy scalars and Python numbers are taken as
scalars, as CuPy takes them.

``installed()`` registers the device kind ``STRICT`` (``core.backends``) while it lasts, so
that ``with tf.device("/device:STRICT:0"):`` places new tensors on strict arrays; its namespace
(``STRICT``'s ``namespace()``, ``x.__array_namespace__()``) makes strict arrays from its
creation functions and hands everything else to NumPy, which dispatches back here.

>>> import numpy as np
>>> x = StrictArray(np.arange(3.0))
>>> y = np.exp(x) + 1
>>> type(y).__name__, y.get().round(2).tolist()
('StrictArray', [2.0, 3.72, 8.39])
>>> np.asarray(x)
Traceback (most recent call last):
...
TypeError: Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a NumPy array explicitly.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.lib.mixins

from retrograd.core import backends

__all__ = ["StrictArray", "namespace", "installed", "KIND"]

KIND = "STRICT"

_REFUSED = (
    "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct "
    "a NumPy array explicitly."
)


def _unwrap(value: Any) -> Any:
    """NumPy's view of an argument: strict arrays unwrapped, NumPy arrays refused."""
    if type(value) is StrictArray:
        return value._a
    if isinstance(value, np.ndarray):
        raise TypeError(
            f"StrictArray: a NumPy array (shape {value.shape}, {value.dtype}) was mixed with "
            f"strict arrays; move it explicitly (from_host) first"
        )
    if type(value) in (list, tuple):
        return type(value)(_unwrap(v) for v in value)
    if type(value) is dict:
        return {k: _unwrap(v) for k, v in value.items()}
    return value


def _wrap(value: Any) -> Any:
    """A NumPy result as strict arrays: arrays and NumPy scalars become strict arrays
    (rank 0 for scalars, as CuPy's reductions give); other values stay."""
    if isinstance(value, np.ndarray):
        return StrictArray(value)
    if isinstance(value, np.generic):
        return StrictArray(np.asarray(value))
    if isinstance(value, tuple):
        items = [_wrap(v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


# Methods of np.ndarray that a strict array forwards (computing on its device, as CuPy's
# arrays have them); the result wrapped again.
_METHODS = frozenset(
    [
        "all",
        "any",
        "argmax",
        "argmin",
        "argsort",
        "clip",
        "conj",
        "conjugate",
        "cumprod",
        "cumsum",
        "diagonal",
        "dot",
        "fill",
        "flatten",
        "max",
        "mean",
        "min",
        "nonzero",
        "prod",
        "ravel",
        "repeat",
        "round",
        "sort",
        "squeeze",
        "std",
        "sum",
        "swapaxes",
        "take",
        "trace",
        "var",
        "view",
        "choose",
        "partition",
        "argpartition",
        "searchsorted",
    ]
)


class StrictArray(numpy.lib.mixins.NDArrayOperatorsMixin):
    """An array on the ``STRICT`` device: NumPy computes on it only through dispatch."""

    __slots__ = ("_a",)
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, array: np.ndarray) -> None:
        if not isinstance(array, np.ndarray):
            raise TypeError(f"StrictArray wraps a NumPy array, got {type(array).__name__}")
        self._a = array

    # -- dispatch ------------------------------------------------------------------------
    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        for v in inputs:
            known = isinstance(v, (StrictArray, np.ndarray, np.generic))
            if hasattr(v, "__array_ufunc__") and not known:
                return NotImplemented  # (another type's override: it decides)
        result = getattr(ufunc, method)(*_unwrap(inputs), **_unwrap(kwargs))
        if method == "at":
            return None
        return _wrap(result)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        if not all(issubclass(t, (StrictArray, np.ndarray)) for t in types):
            return NotImplemented
        return _wrap(func(*_unwrap(args), **_unwrap(kwargs)))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise TypeError(_REFUSED)

    def __array_namespace__(self, api_version: Any = None) -> Any:
        return namespace

    # -- explicit host copy --------------------------------------------------------------
    def get(self) -> np.ndarray:
        """A NumPy copy of the values (CuPy's ``get``)."""
        return self._a.copy()

    def tolist(self) -> Any:
        return self._a.tolist()

    def item(self, *args: Any) -> Any:
        return self._a.item(*args)

    # -- attributes ----------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._a.shape

    @property
    def dtype(self) -> np.dtype:
        return self._a.dtype

    @property
    def ndim(self) -> int:
        return self._a.ndim

    @property
    def size(self) -> int:
        return self._a.size

    @property
    def nbytes(self) -> int:
        return self._a.nbytes

    @property
    def itemsize(self) -> int:
        return self._a.itemsize

    @property
    def strides(self) -> tuple[int, ...]:
        return self._a.strides

    @property
    def T(self) -> StrictArray:
        return StrictArray(self._a.T)

    @property
    def real(self) -> StrictArray:
        return StrictArray(self._a.real)

    @real.setter
    def real(self, value: Any) -> None:
        self._a.real = _unwrap(value)

    @property
    def imag(self) -> StrictArray:
        return StrictArray(self._a.imag)

    @imag.setter
    def imag(self, value: Any) -> None:
        self._a.imag = _unwrap(value)

    @property
    def device(self) -> str:
        return f"{KIND}:0"

    def astype(self, dtype: Any, copy: bool = True, **kwargs: Any) -> StrictArray:
        return StrictArray(self._a.astype(dtype, copy=copy, **kwargs))

    def reshape(self, *shape: Any, **kwargs: Any) -> StrictArray:
        return StrictArray(self._a.reshape(*shape, **kwargs))

    def transpose(self, *axes: Any) -> StrictArray:
        return StrictArray(self._a.transpose(*axes))

    def copy(self, order: str = "C") -> StrictArray:
        return StrictArray(self._a.copy(order))

    def __getattr__(self, name: str) -> Any:
        if name in _METHODS:
            method = getattr(self._a, name)
            return lambda *args, **kwargs: _wrap(method(*_unwrap(args), **_unwrap(kwargs)))
        raise AttributeError(f"'StrictArray' object has no attribute '{name}'")

    def __getitem__(self, key: Any) -> StrictArray:
        return _wrap(self._a[_unwrap(key)])

    def __setitem__(self, key: Any, value: Any) -> None:
        self._a[_unwrap(key)] = _unwrap(value)

    def __len__(self) -> int:
        return len(self._a)

    def __iter__(self) -> Any:
        return (_wrap(row) for row in self._a)

    # -- conversions of one value (CuPy's: they synchronise and copy one number) ---------
    def _scalar(self, what: str) -> Any:
        if self._a.ndim != 0:
            raise TypeError(
                f"only 0-dimensional strict arrays can be converted to {what}, got shape "
                f"{self._a.shape}"
            )
        return self._a[()]

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __index__(self) -> int:
        return self._a[()].__index__() if self._a.ndim == 0 else self._scalar("an index")

    def __complex__(self) -> complex:
        return complex(self._scalar("complex"))

    def __bool__(self) -> bool:
        if self._a.size != 1:
            return bool(self._a)  # (NumPy's ValueError for ambiguous truth)
        return bool(self._a.reshape(()))

    def __repr__(self) -> str:
        return f"StrictArray({self._a!r})"

    def __format__(self, spec: str) -> str:
        return format(self._scalar("a formatted number"), spec)


class _Namespace:
    """The ``STRICT`` device's array namespace: creation functions make strict arrays (from
    host data, an explicit copy to the device); every other name is NumPy's, whose
    functions dispatch to strict arguments."""

    __name__ = "strict_array.namespace"

    _CREATORS = frozenset(
        [
            "zeros",
            "ones",
            "empty",
            "full",
            "arange",
            "eye",
            "identity",
            "linspace",
            "logspace",
            "tri",
            "indices",
            "frombuffer",
            "fromfunction",
        ]
    )

    def asarray(self, value: Any, dtype: Any = None, copy: Any = None) -> StrictArray:
        if type(value) is StrictArray:
            return value if dtype is None else value.astype(dtype, copy=False)
        return StrictArray(np.array(value, dtype=dtype))

    array = asarray

    def ascontiguousarray(self, value: StrictArray, dtype: Any = None) -> StrictArray:
        return StrictArray(np.ascontiguousarray(value._a, dtype=dtype))

    def __getattr__(self, name: str) -> Any:
        found = getattr(np, name)
        if name in self._CREATORS:
            return lambda *args, **kwargs: _wrap(found(*args, **kwargs))
        return found


namespace = _Namespace()


def _from_host(array: Any, index: int) -> StrictArray:
    return StrictArray(np.array(array))


@contextlib.contextmanager
def installed() -> Iterator[None]:
    """The ``STRICT`` device kind registered while the block runs (one device)."""
    backends.register_device(
        KIND,
        lambda: namespace,
        _from_host,
        lambda array: array.get(),
        lambda: 1,
        lambda cls: issubclass(cls, StrictArray),
    )
    try:
        yield
    finally:
        backends.unregister_device(KIND)
