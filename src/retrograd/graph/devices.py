"""The machine as ``tf.config`` describes it: the CPU (NumPy), and the devices of the kinds
``core.backends`` knows that are present — GPUs where CuPy is installed and finds them, and
any kind a library registered — so ``list_physical_devices("GPU")`` is empty on a machine
without one, and every answer is true for this machine. The CPU may be split into logical
CPUs (as TensorFlow allows, to try distribution code); ``config.run_functions_eagerly``
switches ``function`` to running Python eagerly; the threading and optimizer settings are
kept and read back (NumPy's kernels choose their own threads; retrograd has no graph
optimizer or XLA to configure).

>>> import retrograd as rg
>>> rg.config.list_physical_devices("GPU")
[]
>>> rg.config.list_physical_devices()
[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
"""

from __future__ import annotations

import collections
from typing import Any

from retrograd.core import backends
from retrograd.graph import function as _function

__all__ = [
    "ClusterDeviceFilters", "LogicalDevice", "LogicalDeviceConfiguration", "PhysicalDevice",
    "disable_mlir_bridge", "enable_mlir_bridge", "enable_op_determinism",
    "enable_tensor_float_32_execution", "experimental_functions_run_eagerly",
    "experimental_run_functions_eagerly", "functions_run_eagerly",
    "get_device_policy", "get_experimental_options", "get_inter_op_parallelism_threads",
    "get_intra_op_parallelism_threads", "get_jit", "get_logical_device_configuration",
    "get_soft_device_placement",
    "get_synchronous_execution", "get_visible_devices", "list_logical_devices",
    "list_physical_devices", "run_functions_eagerly",
    "set_device_policy", "set_experimental_options", "set_inter_op_parallelism_threads",
    "set_intra_op_parallelism_threads", "set_jit", "set_logical_device_configuration",
    "set_soft_device_placement", "set_synchronous_execution",
    "set_visible_devices", "tensor_float_32_execution_enabled", "get_log_device_placement",
    "set_log_device_placement", "is_traceback_filtering_enabled", "enable_traceback_filtering",
    "disable_traceback_filtering",
]  # fmt: skip

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
PhysicalDevice.__doc__ = "A device of the machine: ``PhysicalDevice(name, device_type)``."
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
LogicalDevice.__doc__ = "A device ops run on: ``LogicalDevice(name, device_type)``."
LogicalDeviceConfiguration = collections.namedtuple(
    "LogicalDeviceConfiguration",
    ["memory_limit", "experimental_priority", "experimental_device_ordinal"],
    defaults=(None, None, None),
)
LogicalDeviceConfiguration.__doc__ = (
    "How a physical device is split into logical ones (``memory_limit`` is for GPUs)."
)


def _physical_devices() -> list:
    """The CPU, then every present device of the other registered kinds (CuPy's GPUs)."""
    found = [PhysicalDevice("/physical_device:CPU:0", "CPU")]
    for kind in backends.device_kinds():
        if kind != "CPU":
            found += [PhysicalDevice(f"/physical_device:{kind}:{i}", kind)
                      for i in range(backends.device_count(kind))]  # fmt: skip
    return found


class _Settings:
    """Process-wide, as TensorFlow's context: which devices are visible, how the CPU is
    split, whether the device list was read (after which it cannot change), and the
    settings read back by their getters."""

    def __init__(self) -> None:
        self.visible: list | None = None  # (None: every physical device)
        self.logical: dict[PhysicalDevice, list] = {}
        self.initialized = False
        self.soft_placement = True
        self.determinism = False
        self.tensor_float_32 = True
        self.synchronous = True
        self.device_policy = "silent"
        self.mlir_bridge = False
        self.threads = {"inter": 0, "intra": 0}
        self.jit = ""
        self.log_device_placement = False
        self.traceback_filtering = True
        self.options: dict[str, Any] = {
            "disable_model_pruning": False,
            "disable_meta_optimizer": False,
        }


_settings = _Settings()


class ClusterDeviceFilters:
    """Which remote devices each task of a cluster may see (kept; retrograd runs in one
    process, so no cluster is ever connected)."""

    def __init__(self) -> None:
        self._filters: dict[tuple[str, int], list[str]] = {}

    def set_device_filters(self, job_name: str, task_index: int, device_filters: Any) -> None:
        """The devices task ``task_index`` of ``job_name`` may see.

        >>> ClusterDeviceFilters().set_device_filters("worker", 0, ["/job:ps"])
        """
        self._filters[(job_name, task_index)] = list(device_filters)


def _of_type(devices: list, device_type: str | None) -> list:
    return [d for d in devices if device_type is None or d.device_type == device_type.upper()]


def list_physical_devices(device_type: str | None = None) -> list:
    """The devices of the machine (of ``device_type``): the CPU, and the GPUs CuPy finds.

    >>> list_physical_devices("CPU")
    [PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
    """
    return _of_type(_physical_devices(), device_type)


def _visible() -> list:
    return _physical_devices() if _settings.visible is None else _settings.visible


def get_visible_devices(device_type: str | None = None) -> list:
    """The physical devices ops may use (of ``device_type``).

    >>> get_visible_devices("GPU")
    []
    """
    return _of_type(_visible(), device_type)


def _physical(device: Any) -> PhysicalDevice:
    if device not in _physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    return device


def set_visible_devices(devices: Any, device_type: str | None = None) -> None:
    """Makes ``devices`` (of ``device_type``) the visible ones; refused once the logical
    devices were listed, as TensorFlow refuses it after initialisation.

    >>> set_visible_devices(list_physical_devices("CPU"))
    """
    devices = [devices] if isinstance(devices, PhysicalDevice) or not isinstance(
        devices, (list, tuple)
    ) else list(devices)  # fmt: skip
    chosen = [_physical(d) for d in devices]
    physical = _physical_devices()
    kept = [d for d in _visible() if device_type is not None and d not in _of_type(
        physical, device_type
    )]  # fmt: skip
    visible = [d for d in physical if d in chosen or d in kept]
    if visible != _visible() and _settings.initialized:
        raise RuntimeError("Visible devices cannot be modified after being initialized")
    _settings.visible = visible


def get_logical_device_configuration(device: Any) -> list | None:
    """How ``device`` is split into logical devices, or None when it is not.

    >>> get_logical_device_configuration(list_physical_devices("CPU")[0]) is None
    True
    """
    return _settings.logical.get(_physical(device))


def set_logical_device_configuration(device: Any, logical_devices: Any) -> None:
    """Splits ``device`` into ``len(logical_devices)`` logical devices (CPUs take no memory
    limit); refused once the logical devices were listed.

    >>> cpu = list_physical_devices("CPU")[0]
    >>> set_logical_device_configuration(cpu, [LogicalDeviceConfiguration(memory_limit=64)])
    Traceback (most recent call last):
    ...
    ValueError: Setting memory limit on CPU virtual devices is currently not supported
    """
    device = _physical(device)
    configurations = None if logical_devices is None else list(logical_devices)
    for configuration in configurations or []:
        if not isinstance(configuration, LogicalDeviceConfiguration):
            raise ValueError(
                f"logical_devices must be LogicalDeviceConfigurations, got {configuration!r}"
            )
        if device.device_type == "CPU" and configuration.memory_limit is not None:
            raise ValueError(
                "Setting memory limit on CPU virtual devices is currently not supported"
            )
    if _settings.initialized and configurations != _settings.logical.get(device):
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    if configurations is None:
        _settings.logical.pop(device, None)
    else:
        _settings.logical[device] = configurations


def list_logical_devices(device_type: str | None = None) -> list:
    """The devices ops run on: the visible CPU, split as configured. Listing them fixes
    the configuration, as TensorFlow's initialisation does.

    >>> list_logical_devices()
    [LogicalDevice(name='/device:CPU:0', device_type='CPU')]
    """
    _settings.initialized = True
    devices = []
    for physical in _visible():
        count = len(_settings.logical.get(physical) or [None])
        devices += [LogicalDevice(f"/device:{physical.device_type}:{k}", physical.device_type)
                    for k in range(count)]  # fmt: skip
    return _of_type(devices, device_type)


def run_functions_eagerly(run_eagerly: bool) -> None:
    """From now on, calls of ``function``-decorated functions run their Python eagerly (to
    debug them), or are traced again (False).

    >>> run_functions_eagerly(False)
    """
    _function.run_eagerly.enabled = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether ``run_functions_eagerly(True)`` is in effect.

    >>> functions_run_eagerly()
    False
    """
    return _function.run_eagerly.enabled


experimental_run_functions_eagerly = run_functions_eagerly
experimental_functions_run_eagerly = functions_run_eagerly


def get_soft_device_placement() -> bool:
    """Whether an op placed on a device that cannot run it runs elsewhere (True).

    >>> get_soft_device_placement()
    True
    """
    return _settings.soft_placement


def set_soft_device_placement(enabled: bool) -> None:
    """Kept and read back: every op runs on the CPU either way.

    >>> set_soft_device_placement(True)
    """
    _settings.soft_placement = bool(enabled)


def enable_op_determinism() -> None:
    """Makes ops deterministic: retrograd's NumPy kernels already are (kept and read by
    nothing else).

    >>> enable_op_determinism()
    """
    _settings.determinism = True


def enable_tensor_float_32_execution(enabled: bool) -> None:
    """TensorFloat-32 matmuls on Ampere GPUs: kept; the CPU computes in float32 anyway.

    >>> enable_tensor_float_32_execution(True)
    """
    _settings.tensor_float_32 = bool(enabled)


def tensor_float_32_execution_enabled() -> bool:
    """The setting of ``enable_tensor_float_32_execution`` (True by default).

    >>> tensor_float_32_execution_enabled()
    True
    """
    return _settings.tensor_float_32


def get_synchronous_execution() -> bool:
    """Whether eager ops finish before returning: always true here.

    >>> get_synchronous_execution()
    True
    """
    return _settings.synchronous


def set_synchronous_execution(enable: bool) -> None:
    """Kept and read back (retrograd's eager ops always finish before returning).

    >>> set_synchronous_execution(True)
    """
    _settings.synchronous = bool(enable)


def get_device_policy() -> str:
    """How tensors move between devices: ``"silent"`` (TensorFlow's default).

    >>> get_device_policy()
    'silent'
    """
    return _settings.device_policy


def set_device_policy(device_policy: str | None) -> None:
    """``"silent"``, ``"silent_for_int32"``, ``"warn"``, ``"explicit"`` or None (the
    default): kept and read back (one device: nothing moves).

    >>> set_device_policy(None)
    """
    policies = ("silent", "silent_for_int32", "warn", "explicit")
    if device_policy is not None and device_policy not in policies:
        raise ValueError(
            f"Not a valid device policy: {device_policy!r}; expected one of {policies} or None"
        )
    _settings.device_policy = device_policy or "silent"


def enable_mlir_bridge() -> None:
    """TensorFlow's MLIR-based TPU bridge: kept (there is no TPU).

    >>> enable_mlir_bridge(); disable_mlir_bridge()
    """
    _settings.mlir_bridge = True


def disable_mlir_bridge() -> None:
    """See ``enable_mlir_bridge``.

    >>> disable_mlir_bridge()
    """
    _settings.mlir_bridge = False


def _thread_count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{what}: num_threads must be an int >= 0 (0: the system picks)")
    return value


def get_inter_op_parallelism_threads() -> int:
    """Threads for independent ops (0: the system picks).

    >>> get_inter_op_parallelism_threads()
    0
    """
    return _settings.threads["inter"]


def set_inter_op_parallelism_threads(num_threads: int) -> None:
    """Kept and read back (retrograd runs ops one after another).

    >>> set_inter_op_parallelism_threads(0)
    """
    _settings.threads["inter"] = _thread_count(num_threads, "set_inter_op_parallelism_threads")


def get_intra_op_parallelism_threads() -> int:
    """Threads inside one op (0: the system picks).

    >>> get_intra_op_parallelism_threads()
    0
    """
    return _settings.threads["intra"]


def set_intra_op_parallelism_threads(num_threads: int) -> None:
    """Kept and read back (NumPy's BLAS picks its own threads).

    >>> set_intra_op_parallelism_threads(0)
    """
    _settings.threads["intra"] = _thread_count(num_threads, "set_intra_op_parallelism_threads")


def get_jit() -> str:
    """XLA auto-clustering: ``"autoclustering"`` after ``set_jit(True)``, else ``""``.

    >>> get_jit()
    ''
    """
    return _settings.jit


def set_jit(enabled: Any) -> None:
    """Kept and read back (retrograd has no XLA; traces are compiled to plans anyway).

    >>> set_jit(False)
    """
    _settings.jit = "autoclustering" if enabled in (True, "autoclustering") else ""


def get_experimental_options() -> dict:
    """The graph optimizer's options that were set.

    >>> get_experimental_options()["disable_meta_optimizer"]
    False
    """
    return dict(_settings.options)


def set_experimental_options(options: dict) -> None:
    """Kept and read back (retrograd's plans have no configurable optimizer).

    >>> set_experimental_options({})
    """
    _settings.options.update(dict(options))


def get_log_device_placement() -> bool:
    """Whether ``set_log_device_placement(True)`` asked for each op's device to be logged.

    >>> get_log_device_placement()
    False
    """
    return _settings.log_device_placement


def set_log_device_placement(enabled: bool) -> None:
    """Kept and read back: every op runs on the CPU (``/job:localhost/replica:0/task:0/
    device:CPU:0``), so retrograd logs nothing per op.

    >>> set_log_device_placement(False)
    """
    _settings.log_device_placement = bool(enabled)


def is_traceback_filtering_enabled() -> bool:
    """Whether tracebacks hide the library's frames (TensorFlow's default: True; retrograd's
    errors are raised where the user's call is, with nothing to hide).

    >>> is_traceback_filtering_enabled()
    True
    """
    return _settings.traceback_filtering


def enable_traceback_filtering() -> None:
    """See ``is_traceback_filtering_enabled``.

    >>> enable_traceback_filtering()
    """
    _settings.traceback_filtering = True


def disable_traceback_filtering() -> None:
    """See ``is_traceback_filtering_enabled``.

    >>> disable_traceback_filtering(); enable_traceback_filtering()
    """
    _settings.traceback_filtering = False
