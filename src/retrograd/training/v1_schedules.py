"""TensorFlow 1's learning-rate schedules (``compat.v1.train``): functions of the global
step returning a tensor (an op in a graph, re-evaluated each run).

>>> exponential_decay(0.1, 20, decay_steps=10, decay_rate=0.5).numpy()
np.float32(0.025)
>>> piecewise_constant(15, boundaries=[10, 20], values=[1.0, 0.5, 0.1]).numpy()
np.float32(0.5)
"""

from __future__ import annotations

from typing import Any

from retrograd.core import dtypes
from retrograd.core.tensor import convert_to_tensor
from retrograd.ops import array_ops, math_ops, rounding_ops

__all__ = ["exponential_decay", "inverse_time_decay", "piecewise_constant", "polynomial_decay"]


def _step_and_rate(learning_rate: Any, global_step: Any, who: str) -> tuple:
    if global_step is None:
        raise ValueError(f"{who}: global_step is required")
    rate = convert_to_tensor(learning_rate)
    if not rate.dtype.is_floating:
        rate = math_ops.cast(rate, dtypes.float32)
    step = global_step.read_value() if hasattr(global_step, "read_value") else global_step
    return rate, math_ops.cast(step, rate.dtype)


def exponential_decay(
    learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None
):
    """``learning_rate * decay_rate ** (global_step / decay_steps)`` (the exponent floored
    with ``staircase``)."""
    rate, step = _step_and_rate(learning_rate, global_step, "exponential_decay")
    p = step / math_ops.cast(convert_to_tensor(decay_steps), rate.dtype)
    if staircase:
        p = rounding_ops.floor(p)
    return math_ops.multiply(
        rate, math_ops.pow(math_ops.cast(convert_to_tensor(decay_rate), rate.dtype), p), name=name
    )


def inverse_time_decay(
    learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None
):
    """``learning_rate / (1 + decay_rate * global_step / decay_steps)``."""
    rate, step = _step_and_rate(learning_rate, global_step, "inverse_time_decay")
    p = step / math_ops.cast(convert_to_tensor(decay_steps), rate.dtype)
    if staircase:
        p = rounding_ops.floor(p)
    decay = math_ops.cast(convert_to_tensor(decay_rate), rate.dtype)
    return math_ops.divide(rate, 1.0 + decay * p, name=name)


def polynomial_decay(
    learning_rate,
    global_step,
    decay_steps,
    end_learning_rate=0.0001,
    power=1.0,
    cycle=False,
    name=None,
):
    """From ``learning_rate`` to ``end_learning_rate`` over ``decay_steps`` steps along
    ``(1 - step / decay_steps) ** power`` (then constant; with ``cycle``, the span grows)."""
    rate, step = _step_and_rate(learning_rate, global_step, "polynomial_decay")
    steps = math_ops.cast(convert_to_tensor(decay_steps), rate.dtype)
    if cycle:
        multiple = rounding_ops.ceil(step / steps)
        steps = steps * math_ops.maximum(multiple, math_ops.cast(1.0, rate.dtype))
    else:
        step = math_ops.minimum(step, steps)
    end = math_ops.cast(convert_to_tensor(end_learning_rate), rate.dtype)
    fraction = math_ops.pow(1.0 - step / steps, math_ops.cast(convert_to_tensor(power), rate.dtype))
    return math_ops.add((rate - end) * fraction, end, name=name)


def piecewise_constant(x, boundaries, values, name=None):
    """``values[i]`` where ``boundaries[i-1] < x <= boundaries[i]`` (``values`` has one more
    entry than ``boundaries``)."""
    if len(values) != len(boundaries) + 1:
        raise ValueError(
            f"piecewise_constant: values needs len(boundaries) + 1 = {len(boundaries) + 1} "
            f"entries, got {len(values)}"
        )
    x = x.read_value() if hasattr(x, "read_value") else convert_to_tensor(x)
    out = convert_to_tensor(values[-1])
    for bound, value in zip(reversed(boundaries), reversed(values[:-1])):
        below = math_ops.cast(x, dtypes.float64) <= float(bound)
        out = array_ops.where(below, convert_to_tensor(value, out.dtype), out)
    return out if name is None else array_ops.identity(out, name=name)
