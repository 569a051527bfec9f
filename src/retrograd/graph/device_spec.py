"""Device names: ``DeviceSpec`` (TensorFlow's ``/job:<name>/replica:<i>/task:<i>/device:
<TYPE>:<i>`` strings, parsed, merged and printed as TensorFlow does) and ``device`` (the
block that asks ops to run on a device). Inside it, tensors made from host data (constants,
converted Python and NumPy values, variables' initial values, zeros, random numbers) are
placed on that device (``core.backends``: CuPy arrays on a GPU, or a registered device
kind); ops then compute where their inputs live. As TensorFlow with soft placement (its
default), a device that is absent gives the CPU: ``tf.device("/GPU:0")`` on a machine
without a GPU computes on the CPU. The name is checked as TensorFlow checks it.

>>> import retrograd as tf
>>> spec = tf.DeviceSpec.from_string("/job:worker/task:1/device:GPU:2")
>>> spec.to_string(), spec.task, spec.replace(device_type="CPU").to_string()
('/job:worker/task:1/device:GPU:2', 1, '/job:worker/task:1/device:CPU:2')
>>> with tf.device("/GPU:0"):
...     y = tf.constant(2.0) * 3.0
>>> float(y)
6.0
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from retrograd.core import backends

__all__ = ["DeviceSpec", "current_device", "device"]

_scope = threading.local()

_DEVICE_TYPES = ("CPU", "GPU", "TPU")


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


class DeviceSpec:
    """A (possibly partial) device: ``job``, ``replica``, ``task``, ``device_type`` and
    ``device_index`` (None: any). Immutable; ``replace`` and ``make_merged_spec`` give new
    ones, the second's fields winning.

    >>> DeviceSpec(job="ps", device_type="cpu", device_index=0)
    <DeviceSpec(job=ps, replica=None, task=None, device_type=CPU, device_index=0)>
    """

    __slots__ = ("_job", "_replica", "_task", "_device_type", "_device_index")

    def __init__(
        self,
        job: str | None = None,
        replica: int | None = None,
        task: int | None = None,
        device_type: str | None = None,
        device_index: int | None = None,
    ) -> None:
        self._job = _text(job)
        self._replica = _int(replica)
        self._task = _int(task)
        self._device_type = (
            device_type.upper() if device_type in ("cpu", "gpu") else _text(device_type)
        )
        self._device_index = _int(device_index)

    @classmethod
    def from_string(cls, spec: str | None) -> DeviceSpec:
        """Parses ``/job:<name>/replica:<i>/task:<i>/device:<TYPE>:<i>`` (every part
        optional; ``/GPU:0`` and ``/cpu:0`` are accepted for the device; ``*`` is any index).

        >>> DeviceSpec.from_string("/cpu:0").to_string()
        '/device:CPU:0'
        """
        job = replica = task = device_type = device_index = None
        for part in (spec or "").split("/"):
            fields = part.split(":")
            if fields[0] == "":
                continue
            if len(fields) == 2 and fields[0] in ("job", "replica", "task"):
                job, replica, task = (
                    fields[1] if fields[0] == "job" else job,
                    fields[1] if fields[0] == "replica" else replica,
                    fields[1] if fields[0] == "task" else task,
                )
                continue
            if len(fields) in (1, 2) and fields[0].upper() in _DEVICE_TYPES:
                kind, index = fields[0].upper(), fields[1] if len(fields) == 2 else "*"
            elif len(fields) == 3 and fields[0] == "device":
                kind, index = fields[1], fields[2]
            else:
                raise ValueError(
                    f"Unknown attribute '{fields[0]}' is encountered while parsing the device "
                    f"spec: '{spec}'."
                )
            if device_type is not None:
                raise ValueError(
                    f"Multiple device types are not allowed while parsing the device spec: {spec}."
                )
            device_type, device_index = kind, None if index == "*" else int(index)
        return cls(job, replica, task, device_type, device_index)

    def parse_from_string(self, spec: str | None) -> DeviceSpec:
        """A new spec parsed from ``spec`` (this one is unchanged, as in TensorFlow 2).

        >>> DeviceSpec().parse_from_string("/GPU:1").device_index
        1
        """
        return self.from_string(spec)

    def to_string(self) -> str:
        """The spec as TensorFlow writes it (``/job:w/replica:0/task:1/device:GPU:*``).

        >>> DeviceSpec(device_type="GPU").to_string()
        '/device:GPU:*'
        """
        parts = []
        if self._job is not None:
            parts.append(f"/job:{self._job}")
        if self._replica is not None:
            parts.append(f"/replica:{self._replica}")
        if self._task is not None:
            parts.append(f"/task:{self._task}")
        if self._device_type is not None:
            index = "*" if self._device_index is None else str(self._device_index)
            parts.append(f"/device:{self._device_type}:{index}")
        return "".join(parts)

    def replace(self, **kwargs: Any) -> DeviceSpec:
        """A copy with the given fields replaced.

        >>> DeviceSpec(job="a", task=1).replace(task=2).to_string()
        '/job:a/task:2'
        """
        fields = dict(
            job=self.job,
            replica=self.replica,
            task=self.task,
            device_type=self.device_type,
            device_index=self.device_index,
        )
        unknown = sorted(set(kwargs) - set(fields))
        if unknown:
            raise TypeError(f"replace() got unexpected keyword argument(s) {unknown}")
        fields.update(kwargs)
        return DeviceSpec(**fields)

    def make_merged_spec(self, dev: DeviceSpec) -> DeviceSpec:
        """This spec with every field that ``dev`` sets taken from ``dev``.

        >>> DeviceSpec(job="w", device_type="CPU").make_merged_spec(DeviceSpec(device_type="GPU"))
        <DeviceSpec(job=w, replica=None, task=None, device_type=GPU, device_index=None)>
        """
        pick = lambda mine, theirs: mine if theirs is None else theirs  # noqa: E731
        return DeviceSpec(
            pick(self.job, dev.job),
            pick(self.replica, dev.replica),
            pick(self.task, dev.task),
            pick(self.device_type, dev.device_type),
            pick(self.device_index, dev.device_index),
        )

    @property
    def job(self) -> str | None:
        return self._job

    @property
    def replica(self) -> int | None:
        return self._replica

    @property
    def task(self) -> int | None:
        return self._task

    @property
    def device_type(self) -> str | None:
        return self._device_type

    @property
    def device_index(self) -> int | None:
        return self._device_index

    def _fields(self) -> tuple:
        return (self._job, self._replica, self._task, self._device_type, self._device_index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DeviceSpec) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"<DeviceSpec(job={self.job}, replica={self.replica}, task={self.task}, "
            f"device_type={self.device_type}, device_index={self.device_index})>"
        )


@contextlib.contextmanager
def device(device_name: str | DeviceSpec | None) -> Iterator[None]:
    """Places the tensors created inside from host data on ``device_name`` (a string or
    ``DeviceSpec``; None or ``""``: no preference, the CPU); a device that is absent gives
    the CPU, as TensorFlow's soft placement does; a malformed name is a ValueError.

    >>> with device("/device:GPU:0"):
    ...     pass
    >>> with device("nonsense"):  # doctest: +ELLIPSIS
    ...     pass
    Traceback (most recent call last):
    ...
    ValueError: Unknown attribute 'nonsense' is encountered while parsing the device spec: ...
    """
    if callable(device_name) and not isinstance(device_name, DeviceSpec):
        raise RuntimeError("tf.device does not support functions when eager execution is enabled.")
    spec = device_name if isinstance(device_name, DeviceSpec) else DeviceSpec.from_string(
        device_name
    )  # fmt: skip
    outer = getattr(_scope, "spec", None)
    if device_name is None or device_name == "":
        inner = None  # as TensorFlow: None clears the enclosing request
    else:
        inner = spec if outer is None else outer.make_merged_spec(spec)
    _scope.spec = inner
    kind = None if inner is None else inner.device_type
    before = backends.set_current_device(kind, None if inner is None else inner.device_index)
    try:
        yield
    finally:
        _scope.spec = outer
        backends.set_current_device(*(before or (None,)))


def current_device() -> str:
    """The device the enclosing ``device`` blocks ask for ("" when none), as graph ops record
    it in their ``device``.

    >>> with device("/job:w"), device("/GPU:1"):
    ...     current_device()
    '/job:w/device:GPU:1'
    """
    spec = getattr(_scope, "spec", None)
    return "" if spec is None else spec.to_string()
