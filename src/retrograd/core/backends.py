"""Array backends: which library computes on a tensor's array, and on which device it lives.

A tensor holds an array of one backend: a NumPy array (or NumPy scalar, for rank 0) on the
CPU, a CuPy array on a GPU, or an array of another registered device kind. Kernels compute
through the NumPy functions NumPy dispatches to the array's own library
(``__array_ufunc__``, ``__array_function__``), or through ``namespace_of(array)`` for what
must be created from nothing (``namespace_of(x).zeros(...)``); they never force an array
through ``np.asarray``. Values needed on the host (shapes, axes, indices that steer Python)
are copied explicitly with :func:`to_host`; ``Tensor.numpy()`` is the copy users see.

The API, one line each:

- ``namespace_of(array)``: the module whose functions compute on ``array`` (``numpy`` for
  NumPy arrays and scalars, ``cupy`` for CuPy arrays, else the namespace its device kind or
  its ``__array_namespace__`` declares).
- ``to_host(array)``: a NumPy array (or NumPy scalar) of ``array``'s values; NumPy values
  come back as they are, others are copied from their device.
- ``from_host(array, kind=None, index=0)``: a NumPy value made an array of device ``kind``
  (default: the thread's current device; the CPU keeps it as it is).
- ``place(array)``: ``array`` (NumPy, from host data) on the thread's current device — what
  tensor creation from Python or NumPy data calls.
- ``zeros_like(value, shape=None)``: zeros of ``value``'s dtype on its device.
- ``on_device_of(array, template)``: ``array`` copied (explicitly) to ``template``'s device
  where it is elsewhere — random numbers drawn on the host, a variable's assigned value.
- ``device_of(array)`` / ``device_name(array)``: ``(kind, index)`` of the device ``array``
  lives on / TensorFlow's full name of it (``/job:localhost/replica:0/task:0/device:CPU:0``).
- ``is_array(value)``: whether ``value`` is an array of a registered backend (or a NumPy
  scalar), i.e. something a tensor may hold.
- ``register_device(kind, ...)`` / ``unregister_device(kind)``: adds (removes) a device kind
  — its array namespace, host copies both ways, array types, how many are present. The CPU
  (NumPy) and the GPU (CuPy, ``core.gpu``: present where ``import cupy`` works and finds a
  device) are registered here; a library or a test registers its own kind the same way
  (TensorFlow's pluggable devices), and ``tf.device("/device:<KIND>:0")`` places on it.
- ``device_kinds()``: the registered kinds; ``device_count(kind)``: how many are present.
- ``current_namespace()``: the namespace of the thread's current device, for kernels that
  make arrays from nothing (zeros, eye, ranges).
- ``current_device()`` / ``set_current_device(kind, index)``: the thread's current device
  (``tf.device`` sets it; None: the CPU). An absent device gives the CPU, as TensorFlow 2's
  soft placement does (``tf.device("/GPU:0")`` without a GPU computes on the CPU).
- ``host_kernel(kernel, makes_arrays=False)``: ``kernel`` run on host copies of its
  arguments, results copied back to their device (random numbers: to the current device) —
  the explicit form of what only the host computes.
- ``check_one_device(op_type, arrays)``: InvalidArgumentError naming the op and both devices
  when ``arrays`` live on different devices (NumPy scalars go with any device, as every
  array library takes them as scalars); ``core.execute`` calls it once a non-NumPy array
  exists in the process, so NumPy-only programs pay nothing.

>>> import numpy as np
>>> namespace_of(np.ones(2)).__name__, device_name(np.ones(2))
('numpy', '/job:localhost/replica:0/task:0/device:CPU:0')
>>> to_host(np.float32(2.0)), device_count("CPU"), "GPU" in device_kinds()
(np.float32(2.0), 1, True)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core import gpu
from retrograd.core.errors import InvalidArgumentError

__all__ = [
    "DeviceKind", "check_one_device", "current_device", "current_namespace", "device_count",
    "device_kinds", "device_name", "device_of", "foreign", "from_host", "host_kernel",
    "is_array", "namespace_of", "on_device_of", "place", "placing", "register_device",
    "set_current_device", "to_host", "unregister_device", "zeros_like",
]  # fmt: skip

_HOST = "/job:localhost/replica:0/task:0/device:"


class DeviceKind:
    """A registered device kind (see :func:`register_device`)."""

    __slots__ = ("kind", "_namespace", "_from_host", "_to_host", "_count", "owns", "index_of")

    def __init__(
        self,
        kind: str,
        namespace: Callable[[], Any],
        from_host: Callable[[np.ndarray, int], Any],
        to_host: Callable[[Any], Any],
        count: Callable[[], int],
        owns: Callable[[type], bool],
        index_of: Callable[[Any], int],
    ) -> None:
        self.kind = kind
        self._namespace = namespace
        self._from_host = from_host
        self._to_host = to_host
        self._count = count
        self.owns = owns
        self.index_of = index_of

    def namespace(self) -> Any:
        """The array namespace of this kind (a module, or an object with its functions)."""
        return self._namespace()

    def count(self) -> int:
        """How many devices of this kind the process can use (0: none present)."""
        try:
            return int(self._count())
        except Exception:  # a library that imports but finds no driver: none present
            return 0

    def from_host(self, array: Any, index: int = 0) -> Any:
        return self._from_host(array, index)

    def to_host(self, array: Any) -> Any:
        return self._to_host(array)


_KINDS: dict[str, DeviceKind] = {}
_KIND_OF_TYPE: dict[type, DeviceKind] = {}  # filled as array types are met
_lock = threading.Lock()


class _Foreign:
    """Process-wide: ``seen`` turns True once an array of a kind other than the CPU was
    made (by ``from_host``) or wrapped; until then no op can mix devices, and
    ``core.execute`` skips the check."""

    seen = False


foreign = _Foreign()


def register_device(
    kind: str,
    namespace: Callable[[], Any],
    from_host: Callable[[np.ndarray, int], Any],
    to_host: Callable[[Any], Any],
    count: Callable[[], int],
    owns: Callable[[type], bool],
    index_of: Callable[[Any], int] = lambda array: 0,
) -> DeviceKind:
    """Registers device ``kind`` (upper case, as TensorFlow writes device types):
    ``namespace()`` gives its array namespace; ``from_host(np_array, index)`` makes an
    array on device ``index`` of the kind; ``to_host(array)`` copies one back to a NumPy
    array; ``count()`` says how many devices are present (0: absent, so ``tf.device`` of
    the kind falls back to the CPU); ``owns(array_type)`` recognises the kind's array
    types; ``index_of(array)`` the device an array lives on. Registering a kind again
    replaces it.

    >>> import numpy as np
    >>> kind = register_device("DOCDEV", lambda: np, lambda a, i: a, lambda a: a,
    ...                        lambda: 0, lambda t: False)
    >>> device_count("DOCDEV"), "DOCDEV" in device_kinds()
    (0, True)
    """
    kind = kind.upper()
    entry = DeviceKind(kind, namespace, from_host, to_host, count, owns, index_of)
    with _lock:
        _KINDS[kind] = entry
        _KIND_OF_TYPE.clear()
        _KIND_OF_TYPE[np.ndarray] = _KINDS.get("CPU", entry)
    return entry


def unregister_device(kind: str) -> None:
    """Removes device kind ``kind`` (not the CPU); arrays of it can no longer be told apart.

    >>> unregister_device("DOCDEV"); "DOCDEV" in device_kinds()
    False
    """
    kind = kind.upper()
    if kind == "CPU":
        raise ValueError("unregister_device: the CPU kind cannot be removed")
    with _lock:
        _KINDS.pop(kind, None)
        _KIND_OF_TYPE.clear()
        _KIND_OF_TYPE[np.ndarray] = _KINDS["CPU"]


def device_kinds() -> list[str]:
    """The registered device kinds, CPU first.

    >>> device_kinds()[:2]
    ['CPU', 'GPU']
    """
    return list(_KINDS)


def device_count(kind: str) -> int:
    """How many devices of ``kind`` are present (0 for an unregistered kind).

    >>> device_count("CPU")
    1
    """
    entry = _KINDS.get(kind.upper())
    return 0 if entry is None else entry.count()


def _kind_of(array: Any) -> DeviceKind:
    """The device kind of ``array`` (by its type), or TypeError for an unknown type."""
    cls = type(array)
    entry = _KIND_OF_TYPE.get(cls)
    if entry is not None:
        return entry
    if isinstance(array, (np.ndarray, np.generic)):
        entry = _KINDS["CPU"]
    else:
        for candidate in _KINDS.values():
            if candidate.kind != "CPU" and candidate.owns(cls):
                entry = candidate
                break
        else:
            raise TypeError(
                f"{cls.__module__}.{cls.__qualname__} is not an array of a registered device "
                f"kind ({', '.join(_KINDS)}); register its kind with "
                f"retrograd.core.backends.register_device"
            )
    _KIND_OF_TYPE[cls] = entry
    return entry


def is_array(value: Any) -> bool:
    """Whether ``value`` is an array a tensor may hold: a NumPy array or scalar, or an array
    of a registered device kind.

    >>> import numpy as np
    >>> is_array(np.zeros(2)), is_array(np.float32(1)), is_array([1.0])
    (True, True, False)
    """
    if isinstance(value, (np.ndarray, np.generic)):
        return True
    try:
        _kind_of(value)
    except TypeError:
        return False
    return True


def namespace_of(array: Any) -> Any:
    """The module whose functions compute on ``array``: NumPy for NumPy arrays and scalars,
    CuPy for CuPy arrays, else its device kind's namespace (or ``__array_namespace__()``).

    >>> import numpy as np
    >>> namespace_of(np.float64(1.0)) is np
    True
    """
    if type(array) is np.ndarray or isinstance(array, np.generic):
        return np
    try:
        return _kind_of(array).namespace()
    except TypeError:
        declared = getattr(array, "__array_namespace__", None)
        if declared is None:
            raise
        return declared()


def to_host(array: Any) -> Any:
    """``array``'s values as NumPy: NumPy arrays and scalars as they are (no copy), arrays
    of other devices copied to the host. Python numbers and lists pass through unchanged.

    >>> import numpy as np
    >>> a = np.ones(2)
    >>> to_host(a) is a
    True
    """
    if type(array) is np.ndarray or isinstance(array, (np.generic, np.ndarray)):
        return array
    if isinstance(array, (int, float, complex, bool, list, tuple)):
        return array
    return _kind_of(array).to_host(array)


def device_of(array: Any) -> tuple[str, int]:
    """``(kind, index)`` of the device ``array`` lives on.

    >>> import numpy as np
    >>> device_of(np.zeros(3))
    ('CPU', 0)
    """
    if type(array) is np.ndarray or isinstance(array, np.generic):
        return ("CPU", 0)
    entry = _kind_of(array)
    return (entry.kind, entry.index_of(array))


def device_name(array: Any) -> str:
    """TensorFlow's full name of the device ``array`` lives on.

    >>> import numpy as np
    >>> device_name(np.zeros(3))
    '/job:localhost/replica:0/task:0/device:CPU:0'
    """
    kind, index = device_of(array)
    return f"{_HOST}{kind}:{index}"


# --- the thread's current device ------------------------------------------------------


class _Current(threading.local):
    """Per thread, as TensorFlow's device scopes: the device new tensors from host data go
    to (``entry`` None: the CPU)."""

    def __init__(self) -> None:
        self.entry: DeviceKind | None = None
        self.index = 0


_current = _Current()


class _Placing:
    """Process-wide: how many threads have a current device other than the CPU, so that
    ``place`` (and callers that test ``placing.count`` before calling it) reads no thread
    state while none does."""

    count = 0


placing = _Placing()


def current_device() -> tuple[str, int] | None:
    """``(kind, index)`` of the thread's current device; None: the CPU (the default).

    >>> current_device() is None
    True
    """
    entry = _current.entry
    return None if entry is None else (entry.kind, _current.index)


def current_namespace() -> Any:
    """The array namespace of the thread's current device: what kernels that make arrays
    from nothing (zeros, eye, ranges) create them with (NumPy on the CPU).

    >>> current_namespace().__name__
    'numpy'
    """
    if not placing.count:
        return np
    entry = _current.entry
    return np if entry is None else entry.namespace()


def set_current_device(kind: str | None, index: int | None = 0) -> tuple[str, int] | None:
    """Makes device ``index`` of ``kind`` current in this thread (None: the CPU) and returns
    the device current before, to restore it. A kind or index that is not present gives the
    CPU, as TensorFlow's soft placement does; an index of None is the kind's first.

    >>> set_current_device("GPU", 0) is None, current_device()  # (no GPU here: the CPU)
    (True, None)
    """
    before = current_device()
    entry = None if kind is None else _KINDS.get(kind.upper())
    index = 0 if index is None else int(index)
    if entry is not None and (entry.kind == "CPU" or not 0 <= index < entry.count()):
        entry = None  # the CPU: asked for, or soft placement of an absent device
    with _lock:
        placing.count += (entry is not None) - (_current.entry is not None)
    _current.entry = entry
    _current.index = index if entry is not None else 0
    return before


def from_host(array: Any, kind: str | None = None, index: int = 0) -> Any:
    """The NumPy value ``array`` made an array of device ``index`` of ``kind`` (default:
    the thread's current device). On the CPU it is returned as it is.

    >>> import numpy as np
    >>> a = np.ones(2)
    >>> from_host(a, "CPU") is a
    True
    """
    if kind is None:
        entry, index = _current.entry, _current.index
    else:
        entry = _KINDS[kind.upper()]
    if entry is None or entry.kind == "CPU":
        return array
    foreign.seen = True
    return entry.from_host(array, index)


def place(array: Any) -> Any:
    """``array`` (made from host data) on the thread's current device: what creating a
    tensor from Python or NumPy data does. NumPy-only threads pay one attribute read.

    >>> import numpy as np
    >>> a = np.ones(2)
    >>> place(a) is a
    True
    """
    if not placing.count:
        return array
    entry = _current.entry
    if entry is None:
        return array
    foreign.seen = True
    return entry.from_host(np.asarray(array), _current.index)


def zeros_like(value: Any, shape: Any = None) -> Any:
    """Zeros of ``value``'s dtype (and shape, unless ``shape``) on its device; NumPy's for a
    value that is no array (a graph tensor's shape and dtype).

    >>> import numpy as np
    >>> zeros_like(np.ones(2, np.float32), (3,)).tolist()
    [0.0, 0.0, 0.0]
    """
    shape = value.shape if shape is None else shape
    if type(value) is np.ndarray or isinstance(value, np.generic) or not is_array(value):
        return np.zeros(shape, value.dtype)
    return namespace_of(value).zeros(shape, value.dtype)


def on_device_of(array: Any, template: Any) -> Any:
    """``array`` on the device ``template`` lives on: as it is when it is there already,
    else copied there through the host (a NumPy scalar becomes a rank-0 array there) — an
    explicit copy, for values that must follow another's device (a variable's assigned
    value, random numbers drawn on the host). A template that is no array (a graph tensor's
    shape and dtype, while a graph is built) leaves ``array`` on the host.

    >>> import numpy as np
    >>> a = np.ones(2)
    >>> on_device_of(a, np.zeros(3)) is a
    True
    """
    if type(template) is np.ndarray or isinstance(template, np.generic):
        if isinstance(array, (np.ndarray, np.generic)):
            return array
        return to_host(array)
    if not is_array(template):
        return array
    kind, index = device_of(template)
    if isinstance(array, np.generic):
        array = np.asarray(array)  # (a rank-0 array there, as the template's library makes)
    elif not isinstance(array, np.ndarray):
        if device_of(array) == (kind, index):
            return array
        array = to_host(array)
    return from_host(array, kind, index)


def host_kernel(kernel: Callable[..., Any], makes_arrays: bool = False) -> Callable[..., Any]:
    """``kernel`` computed on the host, explicitly: arrays of another device among its
    arguments are copied to the host, and its results copied back to that device. With
    ``makes_arrays`` (random numbers: drawn on the host from seeds and shapes), results of
    host inputs go to the thread's current device, as new tensors do. On NumPy arrays, with
    no current device, it is ``kernel`` itself plus one check.

    For what only a host library computes (SciPy's special functions without a device
    counterpart, Python loops over elements, the Philox generator).

    >>> import numpy as np
    >>> host_kernel(lambda x: x + 1)(np.ones(2)).tolist()
    [2.0, 2.0]
    """

    def run(*arrays: Any, **attrs: Any) -> Any:
        where = None
        if foreign.seen:
            for a in arrays:
                if hasattr(a, "dtype") and not isinstance(a, (np.ndarray, np.generic)):
                    where = a
                    break
            if where is not None:
                arrays = tuple(to_host(a) if hasattr(a, "dtype") else a for a in arrays)
        out = kernel(*arrays, **attrs)
        if where is not None:
            move = lambda r: on_device_of(r, where)  # noqa: E731
        elif makes_arrays and placing.count and _current.entry is not None:
            move = place
        else:
            return out
        if isinstance(out, (tuple, list)):
            return type(out)(move(r) if hasattr(r, "dtype") else r for r in out)
        return move(out)

    run.__name__ = getattr(kernel, "__name__", "kernel")
    run.__doc__ = kernel.__doc__
    return run


def check_one_device(op_type: str, arrays: Any) -> None:
    """InvalidArgumentError when ``arrays`` live on more than one device, naming op
    ``op_type`` and both devices. NumPy scalars go with any device.

    >>> import numpy as np
    >>> check_one_device("AddV2", [np.ones(2), np.float32(1.0)])
    """
    first: tuple[str, int] | None = None
    for array in arrays:
        if isinstance(array, np.generic):
            continue
        where = ("CPU", 0) if type(array) is np.ndarray else device_of(array)
        if first is None:
            first = where
        elif where != first:
            raise InvalidArgumentError(
                f"{op_type}: inputs live on different devices, {_HOST}{first[0]}:{first[1]} "
                f"and {_HOST}{where[0]}:{where[1]}; copy one to the other's device (create "
                f"it inside `tf.device(...)`, or `.numpy()` to the host)"
            )


# --- the kinds every process has ------------------------------------------------------


register_device(
    "CPU",
    lambda: np,
    lambda array, index: array,
    lambda array: array,
    lambda: 1,
    lambda cls: issubclass(cls, (np.ndarray, np.generic)),
)
register_device("GPU", gpu.namespace, gpu.from_host, gpu.to_host, gpu.count, gpu.owns, gpu.index_of)
