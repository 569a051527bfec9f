"""``tf.keras.optimizers``: Adafactor (written as Keras writes its ``update_step``), and
the optimizers by name: ``get``, ``serialize``, ``deserialize``.

>>> import retrograd as rg
>>> type(rg.keras.optimizers.get("lion")).__name__
'Lion'
"""

from __future__ import annotations

from typing import Any

from retrograd.core.tensor import Reference
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.optimizer_base import Optimizer

__all__ = ["Adafactor", "get", "serialize", "deserialize"]


class Adafactor(Optimizer):
    """Adafactor: second moments factored into row and column statistics for matrices, steps
    relative to the parameters' RMS.

    >>> import retrograd as rg
    >>> w = rg.Variable([[1.0, 2.0], [3.0, 4.0]])
    >>> _ = rg.keras.optimizers.Adafactor(0.1).apply_gradients([(rg.ones([2, 2]), w)])
    >>> w.shape
    TensorShape([2, 2])
    """

    def __init__(
        self,
        learning_rate: Any = 0.001,
        beta_2_decay: Any = -0.8,
        epsilon_1: Any = 1e-30,
        epsilon_2: Any = 0.001,
        clip_threshold: Any = 1.0,
        relative_step: Any = True,
        weight_decay: Any = None,
        clipnorm: Any = None,
        clipvalue: Any = None,
        global_clipnorm: Any = None,
        use_ema: Any = False,
        ema_momentum: Any = 0.99,
        ema_overwrite_frequency: Any = None,
        loss_scale_factor: Any = None,
        gradient_accumulation_steps: Any = None,
        name: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            learning_rate,
            weight_decay,
            clipnorm,
            clipvalue,
            global_clipnorm,
            use_ema,
            ema_momentum,
            ema_overwrite_frequency,
            loss_scale_factor,
            gradient_accumulation_steps,
            name or "adafactor",
            **kwargs,
        )
        self.beta_2_decay, self.epsilon_1, self.epsilon_2 = beta_2_decay, epsilon_1, epsilon_2
        self.clip_threshold, self.relative_step = clip_threshold, relative_step
        self._factors: dict[Reference, tuple] = {}

    def build(self, var_list):
        super().build(var_list)
        for variable in var_list:
            key = Reference(variable)
            if key in self._factors:
                continue
            shape = variable.shape.as_list()
            if len(shape) < 2:
                r = c = None
            else:
                r = self.add_variable(shape[:-1], dtype=variable.dtype, name=variable.name)
                c = self.add_variable(
                    shape[:-2] + shape[-1:], dtype=variable.dtype, name=variable.name
                )
            v = self.add_variable_from_reference(variable, "velocity")
            self._factors[key] = (r, c, v)

    @staticmethod
    def _rms(x: Any) -> Any:
        return knp.sqrt(knp.mean(knp.square(x)))

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype.name
        lr = learning_rate
        step = tensors.convert(int(self.iterations.numpy()) + 1, dtype)
        if not callable(self.learning_rate) and self.relative_step:
            lr = knp.minimum(lr, 1 / knp.sqrt(step))
        r, c, v = self._factors[Reference(variable)]
        rho = knp.minimum(lr, 1 / knp.sqrt(step))
        alpha = (
            knp.maximum(tensors.convert(self.epsilon_2, dtype), self._rms(variable.read_value()))
            * rho
        )
        squared = knp.add(knp.square(gradient), self.epsilon_1)
        beta_2_t = knp.subtract(1, knp.power(step, self.beta_2_decay))
        if len(variable.shape) >= 2:
            r.assign(
                knp.add(
                    knp.multiply(beta_2_t, r.value),
                    knp.multiply(knp.subtract(1, beta_2_t), knp.mean(squared, axis=-1)),
                )
            )
            c.assign(
                knp.add(
                    knp.multiply(beta_2_t, c.value),
                    knp.multiply(knp.subtract(1, beta_2_t), knp.mean(squared, axis=-2)),
                )
            )
            row = knp.expand_dims(
                knp.divide(r.value, knp.mean(r.value, axis=-1, keepdims=True)), -1
            )
            v.assign(knp.multiply(row, knp.expand_dims(c.value, -2)))
        else:
            v.assign(
                knp.add(
                    knp.multiply(beta_2_t, v.value),
                    knp.multiply(knp.subtract(1, beta_2_t), squared),
                )
            )
        u = knp.divide(gradient, knp.sqrt(v.value))
        u_hat = knp.divide(u, knp.maximum(1.0, knp.divide(self._rms(u), self.clip_threshold)))
        variable.assign_sub(knp.multiply(alpha, u_hat))


def _by_name() -> dict[str, type]:
    from retrograd.keras.src import optimizers, optimizers_more

    classes = [getattr(optimizers, n) for n in optimizers.__all__]
    classes += [getattr(optimizers_more, n) for n in optimizers_more.__all__]
    classes.append(Adafactor)
    return {cls.__name__.lower(): cls for cls in classes}


def get(identifier: Any) -> Any:
    """An optimizer from a name ('adam', 'AdamW', ...), a serialized dict, or itself.

    >>> import retrograd as rg
    >>> rg.keras.optimizers.get("adam").learning_rate
    0.001
    """
    if isinstance(identifier, Optimizer) or (
        identifier is not None
        and not isinstance(identifier, (str, dict))
        and hasattr(identifier, "apply_gradients")
    ):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        cls = _by_name().get(identifier.lower())
        if cls is None:
            raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
        return cls()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


def serialize(optimizer: Any) -> Any:
    """The optimizer as Keras' JSON-ready dict.

    >>> import retrograd as rg
    >>> rg.keras.optimizers.serialize(rg.keras.optimizers.SGD())["class_name"]
    'SGD'
    """
    from retrograd.keras.src import serialization

    return serialization.serialize_keras_object(optimizer)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The optimizer a serialized dict describes.

    >>> import retrograd as rg
    >>> o = rg.keras.optimizers
    >>> o.deserialize(o.serialize(o.Adam(0.01))).learning_rate
    0.01
    """
    from retrograd.keras.src import serialization

    return serialization.deserialize_keras_object(config, custom_objects)
