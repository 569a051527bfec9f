"""``retrograd.config``: TensorFlow's ``tf.config``, answered truthfully for this machine
(the CPU, and GPUs where CuPy finds them; see graph/devices.py).

>>> import retrograd as tf
>>> tf.config.list_physical_devices("GPU")
[]
"""

from retrograd.graph.config import experimental, optimizer, threading
from retrograd.graph.devices import (
    LogicalDevice,
    LogicalDeviceConfiguration,
    PhysicalDevice,
    experimental_functions_run_eagerly,
    experimental_run_functions_eagerly,
    functions_run_eagerly,
    get_logical_device_configuration,
    get_soft_device_placement,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    run_functions_eagerly,
    set_logical_device_configuration,
    set_soft_device_placement,
    set_visible_devices,
)

__all__ = [
    "LogicalDevice", "LogicalDeviceConfiguration", "PhysicalDevice", "experimental",
    "experimental_functions_run_eagerly", "experimental_run_functions_eagerly",
    "functions_run_eagerly", "get_logical_device_configuration", "get_soft_device_placement",
    "get_visible_devices", "list_logical_devices", "list_physical_devices", "optimizer",
    "run_functions_eagerly", "set_logical_device_configuration", "set_soft_device_placement",
    "set_visible_devices", "threading",
]  # fmt: skip
