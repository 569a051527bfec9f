"""``retrograd.config.experimental``: TensorFlow's ``tf.config.experimental`` (memory
growth, device details, determinism, ... answered for this machine)."""

from retrograd.graph.device_memory import (
    get_device_details,
    get_memory_growth,
    get_memory_info,
    get_memory_usage,
    reset_memory_stats,
    set_memory_growth,
)
from retrograd.graph.devices import (
    ClusterDeviceFilters,
    disable_mlir_bridge,
    enable_mlir_bridge,
    enable_op_determinism,
    enable_tensor_float_32_execution,
    get_device_policy,
    get_synchronous_execution,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    set_device_policy,
    set_synchronous_execution,
    set_visible_devices,
    tensor_float_32_execution_enabled,
)
from retrograd.graph.devices import (
    LogicalDeviceConfiguration as VirtualDeviceConfiguration,
)
from retrograd.graph.devices import (
    get_logical_device_configuration as get_virtual_device_configuration,
)
from retrograd.graph.devices import (
    set_logical_device_configuration as set_virtual_device_configuration,
)

__all__ = [
    "ClusterDeviceFilters", "VirtualDeviceConfiguration", "disable_mlir_bridge",
    "enable_mlir_bridge", "enable_op_determinism", "enable_tensor_float_32_execution",
    "get_device_details", "get_device_policy", "get_memory_growth", "get_memory_info",
    "get_memory_usage", "get_synchronous_execution", "get_virtual_device_configuration",
    "get_visible_devices", "list_logical_devices", "list_physical_devices",
    "reset_memory_stats", "set_device_policy", "set_memory_growth",
    "set_synchronous_execution", "set_virtual_device_configuration", "set_visible_devices",
    "tensor_float_32_execution_enabled",
]  # fmt: skip
