"""TensorFlow 1's learning-rate schedules (``compat.v1.train``): functions of the global
step returning a tensor (an op in a graph, re-evaluated each run).

>>> exponential_decay(0.1, 20, decay_steps=10, decay_rate=0.5).numpy()
np.float32(0.025)
>>> piecewise_constant(15, boundaries=[10, 20], values=[1.0, 0.5, 0.1]).numpy()
np.float32(0.5)
"""

from __future__ import annotations

import math
from typing import Any

from retrograd.core import dtypes
from retrograd.core.tensor import convert_to_tensor
from retrograd.ops import array_ops, comparison_ops, math_ops, random_ops, rounding_ops

__all__ = [
    "cosine_decay",
    "cosine_decay_restarts",
    "exponential_decay",
    "inverse_time_decay",
    "linear_cosine_decay",
    "natural_exp_decay",
    "noisy_linear_cosine_decay",
    "piecewise_constant",
    "polynomial_decay",
]


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


def _cast(value: Any, like: Any) -> Any:
    return math_ops.cast(convert_to_tensor(value), like.dtype)


def natural_exp_decay(
    learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None
):
    """``learning_rate * exp(-decay_rate * global_step / decay_steps)`` (the exponent's
    ratio floored with ``staircase``).

    >>> round(float(natural_exp_decay(0.1, 10, 10, 0.5)), 6)
    0.060653
    """
    rate, _ = _step_and_rate(learning_rate, global_step, "natural_exp_decay")
    natural = math_ops.exp(math_ops.negative(_cast(decay_rate, rate)))
    return exponential_decay(rate, global_step, decay_steps, natural, staircase, name)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """Half a cosine from ``learning_rate`` down to ``alpha * learning_rate`` over
    ``decay_steps`` steps, then constant.

    >>> round(float(cosine_decay(0.1, 5, 10)), 6)
    0.05
    """
    rate, step = _step_and_rate(learning_rate, global_step, "cosine_decay")
    steps = _cast(decay_steps, rate)
    fraction = math_ops.minimum(step, steps) / steps
    cosine = 0.5 * (1.0 + math_ops.cos(_cast(math.pi, rate) * fraction))
    return math_ops.multiply(rate, (1 - alpha) * cosine + alpha, name=name)


def _restart(fraction: Any, t_mul: Any, geometric: bool) -> tuple:
    if not geometric:
        i_restart = rounding_ops.floor(fraction)
        return i_restart, fraction - i_restart
    i_restart = rounding_ops.floor(
        math_ops.log(1.0 - fraction * (1.0 - t_mul)) / math_ops.log(t_mul)
    )
    sum_r = (1.0 - t_mul**i_restart) / (1.0 - t_mul)
    return i_restart, (fraction - sum_r) / t_mul**i_restart


def cosine_decay_restarts(
    learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0, name=None
):
    """Cosine decay restarted after ``first_decay_steps``, each period ``t_mul`` times longer
    and starting ``m_mul`` times lower (SGDR).

    >>> round(float(cosine_decay_restarts(0.1, 10, 10)), 6)
    0.1
    """
    rate, step = _step_and_rate(learning_rate, global_step, "cosine_decay_restarts")
    t_mul_t, m_mul_t, alpha_t = _cast(t_mul, rate), _cast(m_mul, rate), _cast(alpha, rate)
    fraction = step / _cast(first_decay_steps, rate)
    flat, geometric = _restart(fraction, t_mul_t, False), _restart(fraction, t_mul_t, True)
    same = comparison_ops.equal(t_mul_t, 1.0)
    i_restart = array_ops.where(same, flat[0], geometric[0])
    fraction = array_ops.where(same, flat[1], geometric[1])
    cosine = 0.5 * m_mul_t**i_restart * (1.0 + math_ops.cos(_cast(math.pi, rate) * fraction))
    return math_ops.multiply(rate, (1 - alpha_t) * cosine + alpha_t, name=name)


def _linear_cosine(rate, step, decay_steps, num_periods, alpha, beta, noise_stddev=None):
    steps = _cast(decay_steps, rate)
    step = math_ops.minimum(step, steps)
    linear = (steps - step) / steps
    if noise_stddev is not None:
        linear = linear + random_ops.normal(linear.shape.as_list(), 0.0, noise_stddev(step))
    fraction = 2.0 * _cast(num_periods, rate) * (step / steps)
    cosine = 0.5 * (1.0 + math_ops.cos(_cast(math.pi, rate) * fraction))
    return (_cast(alpha, rate) + linear) * cosine + _cast(beta, rate)


def linear_cosine_decay(
    learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0, beta=0.001, name=None
):
    """``learning_rate * ((alpha + linear) * cosine + beta)``: a linear decay times
    ``num_periods`` cosine periods over ``decay_steps`` steps.

    >>> round(float(linear_cosine_decay(0.1, 5, 10)), 6)
    0.0251
    """
    rate, step = _step_and_rate(learning_rate, global_step, "linear_cosine_decay")
    decayed = _linear_cosine(rate, step, decay_steps, num_periods, alpha, beta)
    return math_ops.multiply(rate, decayed, name=name)


def noisy_linear_cosine_decay(
    learning_rate,
    global_step,
    decay_steps,
    initial_variance=1.0,
    variance_decay=0.55,
    num_periods=0.5,
    alpha=0.0,
    beta=0.001,
    name=None,
):
    """``linear_cosine_decay`` with Gaussian noise on the linear part, of variance
    ``initial_variance / (1 + step) ** variance_decay``.

    >>> float(noisy_linear_cosine_decay(0.1, 10, 10, initial_variance=0.0))
    0.00010000000474974513
    """
    rate, step = _step_and_rate(learning_rate, global_step, "noisy_linear_cosine_decay")

    def stddev(step: Any) -> Any:
        variance = _cast(initial_variance, rate) / math_ops.pow(
            1.0 + step, _cast(variance_decay, rate)
        )
        return math_ops.sqrt(variance)

    decayed = _linear_cosine(rate, step, decay_steps, num_periods, alpha, beta, stddev)
    return math_ops.multiply(rate, decayed, name=name)
