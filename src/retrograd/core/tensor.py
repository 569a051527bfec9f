"""Tensor: an immutable value wrapping a NumPy array, and conversion of Python values.

A Tensor knows nothing of differentiation; operators (``+``, ``@``, ``[]``, ...) are bound
to ops by :mod:`retrograd.ops.operators`.

>>> import retrograd as rg
>>> x = rg.constant([[1.0, 2.0]])
>>> x
<retrograd.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 2.]], dtype=float32)>
>>> rg.constant(3), rg.constant(2**40).dtype, rg.constant(True).dtype
(<retrograd.Tensor: shape=(), dtype=int32, numpy=3>, tf.int64, tf.bool)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core import backends, display, dtypes
from retrograd.core.annotations import DTypeLike, TensorLike, TensorOperators
from retrograd.core.dtypes import DType, as_dtype
from retrograd.core.shapes import TensorShape, public_shape

__all__ = ["Tensor", "constant", "convert_to_tensor", "is_tensor", "next_id"]

# Every tensor and variable gets a unique integer id when it is made (TensorFlow's tensor
# ids): tapes map ids to the ops that produced them, so a record need not keep a value alive
# for its identity. (itertools.count's step is atomic: threads never share an id.)
next_id = itertools.count(1).__next__


class Tensor(TensorOperators):
    """An immutable multi-dimensional value with a dtype and a shape.

    Create tensors with :func:`constant` or :func:`convert_to_tensor`; ops return them.

    >>> import retrograd as rg
    >>> t = rg.constant([[1.0, 2.0]])
    >>> t.shape.as_list(), t.dtype.name, (t * 2 + 1).numpy().tolist()
    ([1, 2], 'float32', [[3.0, 5.0]])
    """

    __slots__ = ("_value", "_id", "__weakref__")
    __array_priority__ = 100  # NumPy defers `ndarray * tensor` to Tensor.__rmul__

    def __init__(self, value: Any) -> None:
        # `value` is an array (np.ndarray or NumPy scalar) this tensor owns; never mutated.
        self._value = value
        self._id = next_id()

    @property
    def dtype(self) -> DType:
        return dtypes.from_numpy(self._value.dtype)

    @property
    def shape(self) -> TensorShape:
        return public_shape(self._value.shape)

    def get_shape(self) -> TensorShape:
        return public_shape(self._value.shape)

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def device(self) -> str:
        """The full name of the device the value lives on (TensorFlow's
        ``/job:localhost/replica:0/task:0/device:CPU:0``)."""
        return backends.device_name(self._value)

    def numpy(self) -> Any:
        """The value as NumPy: a NumPy scalar for rank 0, else a writable copy (TensorFlow's:
        writing to it leaves the tensor unchanged). A value on another device is copied to
        the host (the one copy ``core.backends`` makes for users)."""
        return _copy(self._value)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """``np.asarray(t)`` is a read-only view of the tensor's buffer (as TensorFlow's):
        writing to it raises instead of changing a value tapes may have saved. A copy
        (``np.array(t)``, another dtype) is the caller's own, writable. A value on another
        device is copied to the host first."""
        value = self._value
        if not isinstance(value, (np.ndarray, np.generic)):
            value = backends.to_host(value)
        if copy or (dtype is not None and np.dtype(dtype) != value.dtype):
            return np.array(value, dtype=dtype)
        return _readonly_array(value)

    def __len__(self) -> int:
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __bool__(self) -> bool:
        return bool(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __int__(self) -> int:
        return int(self._value)

    def __index__(self) -> int:
        if self._value.dtype.kind not in "iu":
            raise TypeError(
                f"Only integer tensors can be used as an index, got a {self.dtype.name} tensor"
            )
        return int(self._value)

    def __complex__(self) -> complex:
        return complex(self._value)

    __hash__ = object.__hash__  # by identity; `==` is elementwise

    def ref(self) -> Reference:
        """A hashable reference comparing by identity (TensorFlow's ``Tensor.ref()``)."""
        return Reference(self)

    def __copy__(self) -> Tensor:
        return self

    def __deepcopy__(self, memo: dict) -> Tensor:
        return self

    def __reduce__(self) -> tuple[type[Tensor], tuple[np.ndarray]]:
        return Tensor, (self._value,)

    def __format__(self, format_spec: str) -> str:
        value = backends.to_host(self._value)
        return format(value[()] if value.ndim == 0 else value, format_spec)

    def __repr__(self) -> str:
        return (
            f"<retrograd.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
            f"numpy={numpy_text(self._value)}>"
        )

    def __str__(self) -> str:
        value = backends.to_host(self._value)
        text = str(value[()] if value.ndim == 0 else value)
        return f"retrograd.Tensor({text}, shape={self.shape}, dtype={self.dtype.name})"

    def _repr_html_(self) -> str:
        """Jupyter's view: shape, dtype and the values, summarised when there are many."""
        return display.value_html("retrograd.Tensor", self._value)

    # Graph-only attributes, explained when asked for in eager mode.
    @property
    def op(self) -> Any:  # (a graph tensor's is its Operation)
        raise AttributeError("Tensor.op is undefined when eager execution is enabled.")

    @property
    def graph(self) -> Any:  # (a graph tensor's is its Graph)
        raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")

    @property
    def name(self) -> str:
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")


class Reference:
    """A hashable handle to a tensor or variable, equal only to handles of the same object."""

    __slots__ = ("_obj",)

    def __init__(self, obj: Any) -> None:
        self._obj = obj

    def deref(self) -> Any:
        return self._obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reference) and other._obj is self._obj

    def __hash__(self) -> int:
        return id(self._obj)

    def __repr__(self) -> str:
        return f"<Reference wrapping {self._obj!r}>"


def _copy(value: Any) -> Any:
    """A NumPy copy of ``value`` the caller owns: a NumPy scalar for rank 0."""
    if type(value) is np.ndarray:
        return value[()] if value.ndim == 0 else np.array(value)
    if isinstance(value, np.generic):
        return value  # (immutable)
    host: Any = backends.to_host(value)  # (a fresh host array, or a NumPy scalar)
    return host[()] if host.ndim == 0 else host


def _readonly_array(value: Any) -> np.ndarray:
    view = np.asarray(value).view()
    view.flags.writeable = False
    return view


def numpy_text(value: Any) -> str:
    """The ``numpy=`` part of a repr: ``6.0`` for scalars, ``array([...], dtype=...)`` else."""
    value = backends.to_host(value)
    if value.ndim == 0:
        return str(value[()])
    text = repr(value)
    return "\n" + text if "\n" in text else text


def constant_value(tensor: Tensor) -> Any:
    """What a tensor holds before any graph runs: an eager tensor's array, a graph constant's
    value. Ops use it for arguments that become attributes (axes, shapes, counts), so a value
    on another device is copied to the host.

    Raises ValueError for a graph tensor whose value is only known when the graph runs.
    """
    value = tensor._value
    if _is_array(value):
        return value
    if _is_duck_array(value):
        return backends.to_host(value)
    op = getattr(tensor, "op", None)
    if op is not None and op.type in ("Const", "Placeholder") and "value" in op._attrs:
        return op.get_attr("value")  # a constant, or an eager tensor a function captured
    raise ValueError(
        f"{tensor!r} is only known when the graph runs, but this argument must be known while "
        f"it is built: pass a Python value or a constant"
    )


def is_tensor(x: object) -> bool:
    """True for tensors (not for variables or NumPy arrays).

    >>> import retrograd as rg
    >>> rg.is_tensor(rg.constant(1.0)), rg.is_tensor(1.0), rg.is_tensor(rg.Variable(1.0))
    (True, False, False)
    """
    return isinstance(x, Tensor)


# --- conversion of Python and NumPy values -------------------------------------------

_INT32 = np.iinfo(np.int32)
# Which element kinds a value of a kind may become without losing meaning.
_LOSSLESS = {"b": "bfc", "i": "iufc", "u": "iufc", "f": "fc", "c": "c"}


def _python_array(value: Any, dtype: DType | None = None) -> np.ndarray:
    """A NumPy array of a Python value: of ``dtype`` if given (exactly), else TF's defaults."""
    if value is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type to a Tensor.")
    try:
        array = np.array(value)
    except OverflowError:
        raise ValueError(
            f"Can't convert Python sequence with out-of-range integer: {value!r}"
        ) from None
    except ValueError:
        raise ValueError(
            f"Can't convert non-rectangular Python sequence to Tensor: {value!r}"
        ) from None
    kind = array.dtype.kind
    if kind == "O":
        if array.size and all(isinstance(v, int) for v in array.flat):
            raise ValueError(f"Can't convert Python sequence with out-of-range integer: {value!r}")
        raise ValueError(f"Can't convert {value!r} to a Tensor: non-rectangular or mixed values")
    if kind not in "biufc":
        raise TypeError(
            f"Can't convert {value!r} (type {type(value).__name__}) to a numeric Tensor"
        )
    if dtype is not None:
        return _checked_cast(array, dtype, value)
    if kind == "f":
        narrowed = array.astype(np.float32)
        if (
            array.size
            and np.isinf(narrowed).any()
            and (np.isinf(narrowed) & np.isfinite(array)).any()
        ):
            raise ValueError(  # (TensorFlow's message, and why)
                "Can't convert Python sequence with a value out of range for a double-precision "
                f"float: {value!r} does not fit the default dtype float32; pass dtype=float64"
            )
        return narrowed
    if kind in "iu":
        fits = not array.size or (array.min() >= _INT32.min and array.max() <= _INT32.max)
        return array.astype(np.int32 if fits else np.int64)
    return array


def _checked_cast(array: np.ndarray, dtype: DType, value: Any) -> np.ndarray:
    """Casts without losing meaning (no float → int, no wrap-around); else TypeError."""
    source, target = array.dtype, dtype._np
    if source == target:
        return array
    if not array.size:
        return array.astype(target)  # no values to lose (TensorFlow converts [] to any dtype)
    if target.kind not in _LOSSLESS.get(source.kind, ""):
        raise TypeError(f"Cannot convert {value!r} to a {dtype.name} tensor without losing values")
    if target.kind in "iu" and array.size:
        info = np.iinfo(target)
        if array.min() < info.min or array.max() > info.max:
            raise TypeError(f"Cannot convert {value!r} to {dtype.name}: values out of range")
    return array.astype(target)


def _numeric(array: np.ndarray, dtype: Any) -> np.ndarray:
    """``array`` when it holds numbers; an object array is cast to ``dtype`` when one is
    given (as TensorFlow converts it), else TensorFlow's ValueError; other kinds (strings,
    dates) are a TypeError. (A tensor of objects would hold nothing an op can compute.)"""
    if array.dtype.kind in "biufc":
        return array
    if array.dtype.kind == "O" and dtype is not None:
        try:
            return array.astype(as_dtype(dtype)._np)
        except (TypeError, ValueError) as error:
            raise ValueError(f"Failed to convert a NumPy array to a Tensor ({error}).") from None
    if array.dtype.kind == "O":
        kind = type(array.flat[0]).__name__ if array.size else "object"
        raise ValueError(
            f"Failed to convert a NumPy array to a Tensor (Unsupported object type {kind})."
        )
    raise TypeError(f"Can't convert a NumPy array of dtype {array.dtype} to a numeric Tensor")


def _is_array(value: Any) -> bool:
    return isinstance(value, (np.ndarray, np.generic))


def _contains_tensor(value: Any) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_contains_tensor(v) for v in value)
    return isinstance(value, Tensor) or hasattr(type(value), "_as_tensor")


# Stacking the tensors of a list is an op, defined in ``ops/`` above this layer; the op
# registers itself here when it is defined (see ``set_stack_op``).
_stack_op: list[Callable[[list[Tensor]], Tensor]] = []


def set_stack_op(stack: Callable[[list[Tensor]], Tensor]) -> None:
    """Called once by ``ops.array_ops``: the op that ``convert_to_tensor`` stacks lists of
    tensors with (differentiably)."""
    _stack_op[:] = [stack]


def convert_to_tensor(
    value: TensorLike,
    dtype: DTypeLike | None = None,
    dtype_hint: DTypeLike | None = None,
    name: str | None = None,
) -> Tensor:
    """Converts a tensor, variable, NumPy array or (nested) Python value to a Tensor.

    ``dtype`` is required: a value that cannot become it without losing meaning raises
    TypeError (a tensor of another dtype raises ValueError). ``dtype_hint`` is a preference
    used when it fits. Lists that contain tensors are stacked (differentiably).

    >>> import retrograd as rg
    >>> rg.convert_to_tensor([1, 2], dtype=rg.float32)
    <retrograd.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype != as_dtype(dtype):
            raise ValueError(
                f"Tensor conversion requested dtype {as_dtype(dtype).name} for Tensor with dtype "
                f"{value.dtype.name}: {value!r}"
            )
        return value
    to_tensor = getattr(type(value), "_as_tensor", None)
    if to_tensor is not None:  # variables, and other tensor-like objects
        return convert_to_tensor(to_tensor(value), dtype=dtype)
    if isinstance(value, (list, tuple)) and _contains_tensor(value):
        return _stack_op[0]([convert_to_tensor(v, dtype, dtype_hint) for v in value])
    target = as_dtype(dtype) if dtype is not None else None
    if target is None and dtype_hint is not None:
        try:
            return convert_to_tensor(value, dtype=dtype_hint)
        except (TypeError, ValueError):
            pass
    if _is_duck_array(value):
        array = _duck_copy(value)
    elif _is_array(value):
        array = _numeric(np.array(value), target)
    else:
        array = _python_array(value, target)
        return _in_graph(Tensor(_held(_placed(array) if _placing.count else array)), None)
    live = (
        value if type(value) is np.ndarray and (target is None or target == value.dtype) else None
    )
    array = array if target is None else _checked_cast(array, target, value)
    placed = _placed(array) if _placing.count and _is_array(array) else array
    converted = Tensor(_held(placed))
    return _in_graph(converted, live)


_placing = backends.placing  # (read before placing: NumPy-only threads skip the call)
_placed = backends.place

_CONTEXT: list = []  # core.execute's `context`, looked up once, at the first conversion


def _in_graph(converted: Tensor, live: Any) -> Tensor:
    """While a ``function`` is traced, a converted value belongs to its graph, as in
    TensorFlow: a Python value is a constant there, a NumPy array (``live``) an input read
    at every call. Otherwise ``converted`` itself."""
    if not _CONTEXT:
        from retrograd.core.execute import context  # (it imports this module)

        _CONTEXT.append(context)
    graph = _CONTEXT[0].graph
    if graph is None or not graph.traces_function():
        return converted
    return graph.literal(converted, live)


def _held(array: Any) -> Any:
    """What a tensor keeps of a new array: a rank-0 NumPy array as a NumPy scalar, which
    NumPy's arithmetic serves without the ufunc machinery (as rank-0 op results already
    are). Arrays of other devices stay arrays."""
    return array[()] if type(array) is np.ndarray and array.ndim == 0 else array


def _is_duck_array(value: Any) -> bool:
    """Arrays of other NumPy-protocol libraries (CuPy, Dask) kept as they are."""
    return not _is_array(value) and hasattr(value, "__array_function__") and hasattr(value, "dtype")


def _duck_copy(value: Any) -> Any:
    """A tensor's own copy of an array of another library, kept on its device."""
    backends.foreign.seen = True
    return value.copy()


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = None) -> Tensor:
    """Creates a constant tensor from a Python or NumPy value.

    NumPy arrays keep their dtype unless ``dtype`` is given (then they are cast); Python
    values must fit ``dtype`` exactly. ``shape`` broadcasts a single value or reshapes.

    >>> import retrograd as rg
    >>> rg.constant(1.0, shape=[2])
    <retrograd.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """
    if isinstance(value, Tensor) or hasattr(type(value), "_as_tensor"):
        value = convert_to_tensor(value)
        if dtype is not None and value.dtype != as_dtype(dtype):
            raise TypeError(
                f"Expected tensor {value.numpy()} with dtype {as_dtype(dtype).name}, "
                f"but got dtype {value.dtype.name}."
            )
        if shape is None or tuple(shape) == tuple(value.shape):
            return value  # the tensor itself, as TensorFlow: gradients still flow through it
        array = value._value
    elif _is_array(value) or _is_duck_array(value):
        array = _numeric(np.array(value), dtype) if _is_array(value) else _duck_copy(value)
        if dtype is not None:
            array = array.astype(as_dtype(dtype)._np)
    else:
        array = _python_array(value, None if dtype is None else as_dtype(dtype))
    if shape is not None:
        array = _fit_shape(array, tuple(int(d) for d in shape))
    if _placing.count and _is_array(array):
        array = _placed(array)
    return Tensor(_held(array))


def _fit_shape(array: Any, shape: tuple[int, ...]) -> Any:
    if array.shape == shape:
        return array
    if array.size == 1:
        return np.broadcast_to(array.reshape(()), shape).copy()
    if array.size == int(np.prod(shape, dtype=np.int64)):
        return array.reshape(shape)
    raise TypeError(
        f"constant: value has {array.size} elements (shape {array.shape}) but `shape` "
        f"{shape} has {int(np.prod(shape, dtype=np.int64))}"
    )
