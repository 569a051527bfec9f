"""The GPU device kind: CuPy's arrays. CuPy is imported only when a GPU is first asked about,
and a machine where ``import cupy`` fails, or CuPy finds no device, has no GPU (``count``
is 0): retrograd never needs CuPy. ``core.backends`` registers these functions as its
``GPU`` kind.

>>> owns(type(1.0)), count() >= 0
(False, True)
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["count", "from_host", "index_of", "namespace", "owns", "to_host"]


def namespace() -> Any:
    """The CuPy module (its functions mirror NumPy's).

    >>> callable(namespace)
    True
    """
    return importlib.import_module("cupy")


def count() -> int:
    """How many GPUs CuPy finds (0 without CuPy or without a driver).

    >>> count() >= 0
    True
    """
    try:
        cupy = namespace()
    except ImportError:
        return 0
    return int(cupy.cuda.runtime.getDeviceCount())


def from_host(array: Any, index: int) -> Any:
    """A NumPy array copied to GPU ``index``.

    >>> callable(from_host)
    True
    """
    cupy = namespace()
    with cupy.cuda.Device(index):
        return cupy.asarray(array)


def to_host(array: Any) -> Any:
    """A CuPy array copied to a NumPy array.

    >>> callable(to_host)
    True
    """
    return array.get()


def owns(cls: type) -> bool:
    """Whether ``cls`` is one of CuPy's array types (by its module, without importing CuPy).

    >>> owns(float)
    False
    """
    return cls.__module__.split(".", 1)[0] == "cupy"


def index_of(array: Any) -> int:
    """The GPU a CuPy array lives on.

    >>> callable(index_of)
    True
    """
    return int(array.device.id)
