"""More of ``tf.keras.optimizers.schedules``: ``PolynomialDecay``, ``CosineDecayRestarts``
(SGDR), and ``serialize``/``deserialize``. Computed in float32 in Keras' order.

>>> import retrograd as rg
>>> s = rg.keras.optimizers.schedules.PolynomialDecay(1.0, 10, end_learning_rate=0.0)
>>> round(float(s(5)), 4)
0.5
"""

from __future__ import annotations

import math
from typing import Any

from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.schedules import LearningRateSchedule

__all__ = ["PolynomialDecay", "CosineDecayRestarts", "serialize", "deserialize"]


class PolynomialDecay(LearningRateSchedule):
    """``(initial - end) * (1 - step / decay_steps) ** power + end`` (with ``cycle``, the
    decay restarts every ``decay_steps`` multiple).

    >>> import retrograd as rg
    >>> s = rg.keras.optimizers.schedules.PolynomialDecay(0.1, 4, end_learning_rate=0.02)
    >>> [round(float(s(t)), 4) for t in (0, 2, 9)]
    [0.1, 0.06, 0.02]
    """

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        end_learning_rate=0.0001,
        power=1.0,
        cycle=False,
        name="PolynomialDecay",
    ):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle, self.name = (
            end_learning_rate,
            power,
            cycle,
            name,
        )

    def __call__(self, step):
        initial = tensors.convert(self.initial_learning_rate)
        dtype = initial.dtype.name
        end = tensors.convert(self.end_learning_rate, dtype)
        power = tensors.convert(self.power, dtype)
        step = tensors.convert(step, dtype)
        steps = tensors.convert(self.decay_steps, dtype)
        if self.cycle:
            multiplier = knp.where(knp.equal(step, 0), 1.0, knp.ceil(step / self.decay_steps))
            steps = knp.multiply(steps, multiplier)
        else:
            step = knp.minimum(step, steps)
        p = knp.divide(step, steps)
        return knp.add(knp.multiply(initial - end, knp.power(1 - p, power)), end)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "end_learning_rate": self.end_learning_rate,
            "power": self.power,
            "cycle": self.cycle,
            "name": self.name,
        }


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts: periods grow by ``t_mul``, peaks shrink by
    ``m_mul``, each decaying to ``alpha`` times the peak.

    >>> import retrograd as rg
    >>> s = rg.keras.optimizers.schedules.CosineDecayRestarts(1.0, 2)
    >>> [round(float(s(t)), 4) for t in (0, 1, 2)]
    [1.0, 0.5, 1.0]
    """

    def __init__(
        self,
        initial_learning_rate,
        first_decay_steps,
        t_mul=2.0,
        m_mul=1.0,
        alpha=0.0,
        name="SGDRDecay",
    ):
        if initial_learning_rate <= 0:
            raise ValueError(
                "Argument `initial_learning_rate` must be > 0. Received: "
                f"initial_learning_rate={initial_learning_rate}"
            )
        if first_decay_steps <= 0:
            raise ValueError(
                "Argument `first_decay_steps` must be > 0. Received: "
                f"first_decay_steps={first_decay_steps}"
            )
        self.initial_learning_rate, self.first_decay_steps = (
            initial_learning_rate,
            first_decay_steps,
        )
        self._t_mul, self._m_mul, self.alpha, self.name = t_mul, m_mul, alpha, name

    def __call__(self, step):
        initial = tensors.convert(self.initial_learning_rate)
        dtype = initial.dtype.name
        first = tensors.convert(self.first_decay_steps, dtype)
        alpha = tensors.convert(self.alpha, dtype)
        t_mul = tensors.convert(self._t_mul, dtype)
        m_mul = tensors.convert(self._m_mul, dtype)
        fraction = tensors.convert(step, dtype) / first
        if self._t_mul == 1.0:
            restart = knp.floor(fraction)
            fraction = fraction - restart
        else:
            ratio = knp.log(tensors.convert(1.0 - fraction * (1.0 - t_mul), dtype))
            restart = knp.floor(ratio / knp.log(t_mul))
            done = knp.divide(1.0 - knp.power(t_mul, restart), 1.0 - t_mul)
            fraction = knp.divide(knp.subtract(fraction, done), knp.power(t_mul, restart))
        peak = knp.power(m_mul, restart)
        cosine = (
            0.5 * peak * (1.0 + knp.cos(knp.multiply(tensors.convert(math.pi, dtype), fraction)))
        )
        return knp.multiply(initial, knp.add(knp.multiply(1 - alpha, cosine), alpha))

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "first_decay_steps": self.first_decay_steps,
            "t_mul": self._t_mul,
            "m_mul": self._m_mul,
            "alpha": self.alpha,
            "name": self.name,
        }


def serialize(learning_rate_schedule: Any) -> Any:
    """The schedule as Keras' JSON-ready dict.

    >>> import retrograd as rg
    >>> s = rg.keras.optimizers.schedules
    >>> s.serialize(s.PolynomialDecay(0.1, 10))["class_name"]
    'PolynomialDecay'
    """
    from retrograd.keras.src import serialization

    return serialization.serialize_keras_object(learning_rate_schedule)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The schedule a serialized dict describes.

    >>> import retrograd as rg
    >>> s = rg.keras.optimizers.schedules
    >>> type(s.deserialize(s.serialize(s.ExponentialDecay(0.1, 10, 0.5)))).__name__
    'ExponentialDecay'
    """
    from retrograd.keras.src import serialization

    return serialization.deserialize_keras_object(config, custom_objects)
