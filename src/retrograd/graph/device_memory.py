"""GPU memory and device details for ``tf.config.experimental``: memory growth (kept and
read back: CuPy's memory pool grows as needed anyway), a GPU's name and compute capability,
and the allocator statistics the CPU does not keep.

>>> import retrograd as tf
>>> [tf.config.experimental.get_memory_growth(g) for g in tf.config.list_physical_devices("GPU")]
[]
"""

from __future__ import annotations

import importlib
from typing import Any

from retrograd.graph.devices import PhysicalDevice, _physical

__all__ = [
    "get_device_details", "get_memory_growth", "get_memory_info", "get_memory_usage",
    "reset_memory_stats", "set_memory_growth",
]  # fmt: skip

_memory_growth: dict[PhysicalDevice, bool] = {}  # (process-wide, as TensorFlow's context)


def _gpu_only(device: Any, what: str) -> None:
    if _physical(device).device_type not in ("GPU",):
        raise ValueError(f"Cannot {what} on non-GPU and non-Pluggable devices")


def set_memory_growth(device: Any, enable: bool) -> None:
    """Lets a GPU's memory grow as needed (kept and read back: CuPy's memory pool grows as
    needed anyway); the CPU refuses it (ValueError), as in TensorFlow. Programs call it for
    each of ``list_physical_devices("GPU")``, an empty list on a machine without a GPU.

    >>> from retrograd.graph.devices import list_physical_devices
    >>> for gpu in list_physical_devices("GPU"):
    ...     set_memory_growth(gpu, True)
    >>> set_memory_growth(list_physical_devices("CPU")[0], True)
    Traceback (most recent call last):
    ...
    ValueError: Cannot set memory growth on non-GPU and non-Pluggable devices
    """
    _gpu_only(device, "set memory growth")
    _memory_growth[device] = bool(enable)


def get_memory_growth(device: Any) -> bool:
    """Whether memory growth is on for a GPU (False until set); a KeyError for the CPU, as
    TensorFlow gives.

    >>> from retrograd.graph.devices import list_physical_devices
    >>> get_memory_growth(list_physical_devices("CPU")[0])
    Traceback (most recent call last):
    ...
    KeyError: PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')
    """
    if _physical(device).device_type != "GPU":
        raise KeyError(device)
    return _memory_growth.get(device, False)


def get_device_details(device: Any) -> dict:
    """Details of a device: none for the CPU (TensorFlow's answer too); a GPU's name and
    compute capability, as CUDA reports them.

    >>> from retrograd.graph.devices import list_physical_devices
    >>> get_device_details(list_physical_devices("CPU")[0])
    {}
    """
    if _physical(device).device_type != "GPU":
        return {}
    cupy = importlib.import_module("cupy")  # (present: the GPU was listed)
    index = int(device.name.rsplit(":", 1)[1])
    properties = cupy.cuda.runtime.getDeviceProperties(index)
    name = properties["name"]
    return {
        "device_name": name.decode() if isinstance(name, bytes) else str(name),
        "compute_capability": (int(properties["major"]), int(properties["minor"])),
    }


def get_memory_info(device: str) -> dict:
    """The memory an accelerator uses; the CPU keeps no allocator statistics (ValueError).

    >>> get_memory_info("CPU:0")
    Traceback (most recent call last):
    ...
    ValueError: Allocator stats not available for device 'CPU:0'
    """
    raise ValueError(f"Allocator stats not available for device '{device}'")


def get_memory_usage(device: str) -> int:
    """The memory an accelerator uses, in bytes; not for the CPU (ValueError).

    >>> get_memory_usage("CPU:0")
    Traceback (most recent call last):
    ...
    ValueError: Allocator stats not available for device 'CPU:0'
    """
    raise ValueError(f"Allocator stats not available for device '{device}'")


def reset_memory_stats(device: str) -> None:
    """Resets an accelerator's peak memory; not for the CPU (ValueError).

    >>> reset_memory_stats("CPU:0")
    Traceback (most recent call last):
    ...
    ValueError: Cannot reset memory stats for device 'CPU:0'
    """
    raise ValueError(f"Cannot reset memory stats for device '{device}'")
