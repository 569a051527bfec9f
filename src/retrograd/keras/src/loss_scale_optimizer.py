"""``tf.keras.optimizers.LossScaleOptimizer`` (also ``keras.mixed_precision``): dynamic
loss scaling around another optimizer. ``scale_loss`` multiplies the loss by the scale; the
gradients are divided by it before the inner optimizer applies them; a step whose gradients
are not all finite is skipped and halves the scale, and ``dynamic_growth_steps`` finite
steps in a row double it.

>>> import retrograd as rg
>>> opt = rg.keras.optimizers.LossScaleOptimizer(rg.keras.optimizers.SGD(0.5), initial_scale=4.0)
>>> w = rg.Variable(1.0)
>>> _ = opt.apply_gradients([(rg.constant(4.0), w)])  # the gradient of 4 * loss
>>> float(w.numpy()), float(opt.dynamic_scale)
(0.5, 4.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.tensor import convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.keras.src.optimizer_base import Optimizer
from retrograd.ops import comparison_ops, reduction_ops

__all__ = ["LossScaleOptimizer"]


class LossScaleOptimizer(Optimizer):
    """Dynamic loss scaling around ``inner_optimizer`` (see the module docstring).

    >>> import retrograd as rg
    >>> opt = rg.keras.optimizers.LossScaleOptimizer(rg.keras.optimizers.SGD(), initial_scale=8.0)
    >>> float(opt.scale_loss(rg.constant(0.5)))
    4.0
    """

    def __init__(
        self,
        inner_optimizer: Any,
        initial_scale: float = 32768.0,
        dynamic_growth_steps: int = 2000,
        name: Any = None,
        **kwargs: Any,
    ) -> None:
        if not hasattr(inner_optimizer, "apply_gradients"):
            raise ValueError(
                "Argument `inner_optimizer` must be an optimizer. Received: "
                f"inner_optimizer={inner_optimizer}"
            )
        super().__init__(
            learning_rate=inner_optimizer.learning_rate,
            name=name or f"loss_scale_optimizer_{inner_optimizer.name}",
            **kwargs,
        )
        self.inner_optimizer = inner_optimizer
        self.initial_scale, self.dynamic_growth_steps = initial_scale, dynamic_growth_steps
        self.step_counter = Variable(0, trainable=False, dtype="int64", name="step_counter")
        self.dynamic_scale = Variable(
            np.float32(initial_scale), trainable=False, dtype="float32", name="dynamic_scale"
        )

    @property
    def iterations(self) -> Variable:
        return self.inner_optimizer.iterations

    @iterations.setter
    def iterations(self, value: Variable) -> None:  # (set once by the base constructor)
        self.__dict__["_own_iterations"] = value

    @property
    def learning_rate(self) -> Any:
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        if "inner_optimizer" in self.__dict__:
            self.inner_optimizer.learning_rate = value

    def scale_loss(self, loss: Any) -> Any:
        """``loss`` times the current dynamic scale."""
        return loss * self.dynamic_scale.read_value()

    def apply_gradients(self, grads_and_vars, name=None):
        pairs = list(grads_and_vars)
        scale = self.dynamic_scale.read_value()
        unscaled = [(None if g is None else convert_to_tensor(g) / scale, v) for g, v in pairs]
        finite = all(
            bool(reduction_ops.reduce_all(comparison_ops.is_finite(g)))
            for g, _ in unscaled
            if g is not None
        )
        if not finite:
            self.dynamic_scale.assign(self.dynamic_scale.read_value() / 2.0)
            self.step_counter.assign(0)
            return self.iterations
        result = self.inner_optimizer.apply_gradients(unscaled)
        if int(self.step_counter.numpy()) + 1 >= self.dynamic_growth_steps:
            self.step_counter.assign(0)
            self.dynamic_scale.assign(self.dynamic_scale.read_value() * 2.0)
        else:
            self.step_counter.assign_add(1)
        return result

    def apply(self, grads, trainable_variables=None):
        return self.apply_gradients(zip(list(grads), list(trainable_variables)))

    def finalize_variable_values(self, var_list):
        finalize = getattr(self.inner_optimizer, "finalize_variable_values", None)
        if finalize is not None:
            finalize(var_list)

    @property
    def variables(self) -> list[Any]:
        return [self.step_counter, self.dynamic_scale, *self.inner_optimizer.variables]

    def get_config(self) -> dict:
        from retrograd.keras.src import serialization

        return {
            "name": self.name,
            "inner_optimizer": serialization.serialize_keras_object(self.inner_optimizer),
            "initial_scale": self.initial_scale,
            "dynamic_growth_steps": self.dynamic_growth_steps,
        }
