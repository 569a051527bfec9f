"""``tf.keras.optimizers.schedules``: learning rates as functions of the step (the
optimizer's ``iterations`` before the update), with Keras' formulas in float32 ops, so a
schedule also works on the symbolic step of a traced function.

>>> import retrograd as rg
>>> schedule = rg.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
>>> round(float(schedule(10)), 6), round(float(schedule(5)), 6)
(0.05, 0.070711)
"""

from __future__ import annotations

import math
from typing import Any

from retrograd.core import dtypes
from retrograd.core.tensor import convert_to_tensor
from retrograd.ops import array_ops, math_ops, rounding_ops

__all__ = [
    "LearningRateSchedule",
    "ExponentialDecay",
    "PiecewiseConstantDecay",
    "CosineDecay",
    "InverseTimeDecay",
]


class LearningRateSchedule:
    """Base class: ``schedule(step)`` returns the learning rate at that step.

    >>> import retrograd as rg
    >>> class Halving(rg.keras.optimizers.schedules.LearningRateSchedule):
    ...     def __call__(self, step):
    ...         return 1.0 / 2 ** step
    >>> Halving()(3)
    0.125
    """

    def __call__(self, step: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.__call__")

    def get_config(self) -> dict:
        return {}


def _f32(value: Any) -> Any:
    """A float32 tensor of ``value`` (a number, an integer step, or a step tensor)."""
    return math_ops.cast(convert_to_tensor(value), dtypes.float32)


class ExponentialDecay(LearningRateSchedule):
    """``initial * decay_rate ** (step / decay_steps)`` (the exponent floored when
    ``staircase``).

    >>> import retrograd as rg
    >>> round(float(rg.keras.optimizers.schedules.ExponentialDecay(1.0, 2, 0.5)(2)), 4)
    0.5
    """

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        decay_rate,
        staircase=False,
        name="ExponentialDecay",
    ):
        if decay_steps <= 0:
            raise ValueError(f"ExponentialDecay: decay_steps must be positive, got {decay_steps}")
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.decay_rate, self.staircase, self.name = decay_rate, staircase, name

    def __call__(self, step):
        p = _f32(step) / _f32(self.decay_steps)
        if self.staircase:
            p = rounding_ops.floor(p)
        return _f32(self.initial_learning_rate) * math_ops.pow(_f32(self.decay_rate), p)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "decay_rate": self.decay_rate,
            "staircase": self.staircase,
            "name": self.name,
        }


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[i]`` while ``boundaries[i-1] < step <= boundaries[i]``.

    >>> import retrograd as rg
    >>> s = rg.keras.optimizers.schedules.PiecewiseConstantDecay([2], [0.5, 0.1])
    >>> [round(float(s(t)), 4) for t in (1, 3)]
    [0.5, 0.1]
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(values) != len(boundaries) + 1:
            raise ValueError(
                f"PiecewiseConstantDecay: the length of boundaries should be 1 less than the "
                f"length of values, got {len(boundaries)} and {len(values)}"
            )
        self.boundaries, self.values, self.name = list(boundaries), list(values), name

    def __call__(self, step):
        step = _f32(step)
        value = _f32(self.values[-1])
        for boundary, candidate in reversed(list(zip(self.boundaries, self.values))):
            value = array_ops.where(step <= _f32(boundary), _f32(candidate), value)
        return value

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Cosine decay from ``initial_learning_rate`` to ``alpha`` times it over
    ``decay_steps`` (after an optional linear warm-up to ``warmup_target``).

    >>> import retrograd as rg
    >>> round(float(rg.keras.optimizers.schedules.CosineDecay(1.0, 4)(2)), 4)
    0.5
    """

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        alpha=0.0,
        name="CosineDecay",
        warmup_target=None,
        warmup_steps=0,
    ):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.alpha, self.name = alpha, name
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps

    def _decay(self, step, start):
        completed = math_ops.minimum(step, _f32(self.decay_steps)) / _f32(self.decay_steps)
        cosine = 0.5 * (1.0 + math_ops.cos(_f32(math.pi) * completed))
        return _f32(start) * ((1.0 - _f32(self.alpha)) * cosine + _f32(self.alpha))

    def __call__(self, step):
        step = _f32(step)
        if self.warmup_target is None:
            return self._decay(step, self.initial_learning_rate)
        start, target = _f32(self.initial_learning_rate), _f32(self.warmup_target)
        warm = start + step / _f32(self.warmup_steps) * (target - start)
        decayed = self._decay(step - _f32(self.warmup_steps), self.warmup_target)
        return array_ops.where(step < _f32(self.warmup_steps), warm, decayed)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "alpha": self.alpha,
            "name": self.name,
            "warmup_target": self.warmup_target,
            "warmup_steps": self.warmup_steps,
        }


class InverseTimeDecay(LearningRateSchedule):
    """``initial / (1 + decay_rate * step / decay_steps)``.

    >>> import retrograd as rg
    >>> round(float(rg.keras.optimizers.schedules.InverseTimeDecay(1.0, 1, 1.0)(1)), 4)
    0.5
    """

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        decay_rate,
        staircase=False,
        name="InverseTimeDecay",
    ):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.decay_rate, self.staircase, self.name = decay_rate, staircase, name

    def __call__(self, step):
        p = _f32(step) / _f32(self.decay_steps)
        if self.staircase:
            p = rounding_ops.floor(p)
        return _f32(self.initial_learning_rate) / (_f32(1) + _f32(self.decay_rate) * p)
