"""More of TensorFlow 1's optimizers (``compat.v1.train``), with TensorFlow 1's update
formulas (those of its ``Apply*`` kernels), defaults and slot names: Adadelta, FTRL-proximal,
and the proximal (FOBOS) gradient descent and Adagrad.

>>> import retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     w = rg.compat.v1.Variable(1.0, name="w")
...     sgd = ProximalGradientDescentOptimizer(0.25, l1_regularization_strength=0.4)
...     step = sgd.minimize(w * w)
...     init = rg.compat.v1.global_variables_initializer()
>>> with rg.compat.v1.Session(graph=g) as sess:
...     sess.run(init)
...     sess.run(step)
...     print(sess.run(w))  # 1 - 0.25 * 2 = 0.5, shrunk by 0.25 * 0.4
0.4
"""

from __future__ import annotations

from typing import Any

from retrograd.core.tensor import convert_to_tensor
from retrograd.ops import array_ops, comparison_ops, math_ops
from retrograd.training.v1_optimizers import Optimizer, _after, _assign, _check_not_none, _group

__all__ = [
    "AdadeltaOptimizer",
    "FtrlOptimizer",
    "ProximalAdagradOptimizer",
    "ProximalGradientDescentOptimizer",
]


def _filled(var: Any, value: float) -> Any:
    return array_ops.fill(var.shape.as_list(), convert_to_tensor(value, var.dtype))


def _shrink(prox: Any, lr: Any, l1: Any, l2: Any) -> Any:
    """FOBOS' proximal step: ``sign(prox) / (1 + lr l2) * max(|prox| - lr l1, 0)``."""
    kept = math_ops.maximum(math_ops.abs(prox) - lr * l1, 0.0)
    return math_ops.sign(prox) * kept / (1.0 + lr * l2)


class AdadeltaOptimizer(Optimizer):
    """``accum = rho accum + (1 - rho) g²``; ``update = sqrt(accum_update + eps) /
    sqrt(accum + eps) g``; ``accum_update = rho accum_update + (1 - rho) update²``;
    ``var -= lr update`` (slots ``accum`` and ``accum_update``)."""

    def __init__(
        self,
        learning_rate: Any = 0.001,
        rho: Any = 0.95,
        epsilon: Any = 1e-8,
        use_locking: bool = False,
        name: str = "Adadelta",
    ) -> None:
        super().__init__(use_locking, name)
        _check_not_none(name, learning_rate=learning_rate, rho=rho, epsilon=epsilon)
        self._lr, self._rho, self._epsilon = learning_rate, rho, epsilon

    def _create_slots(self, variables: list) -> None:
        for var in variables:
            self._zeros_slot(var, "accum", self._name)
            self._zeros_slot(var, "accum_update", self._name)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        rho, eps = self._hyper(self._rho, var), self._hyper(self._epsilon, var)
        accum, accum_update = self.get_slot(var, "accum"), self.get_slot(var, "accum_update")
        accum_new = rho * accum.read_value() + (1.0 - rho) * math_ops.square(grad)
        update_read = accum_update.read_value()
        update = math_ops.sqrt(update_read + eps) * math_ops.rsqrt(accum_new + eps) * grad
        update_new = rho * update_read + (1.0 - rho) * math_ops.square(update)
        slots = [_assign(accum, accum_new), _assign(accum_update, update_new)]
        with _after(slots):
            new = var.read_value() - update * self._hyper(self._lr, var)
            return _group([_assign(var, new), *slots], "update")


class ProximalGradientDescentOptimizer(Optimizer):
    """``prox = var - lr grad``, then FOBOS' shrinkage by ``l1`` and ``l2``:
    ``var = sign(prox) / (1 + lr l2) * max(|prox| - lr l1, 0)``."""

    def __init__(
        self,
        learning_rate: Any,
        l1_regularization_strength: float = 0.0,
        l2_regularization_strength: float = 0.0,
        use_locking: bool = False,
        name: str = "ProximalGradientDescent",
    ) -> None:
        super().__init__(use_locking, name)
        _check_not_none(name, learning_rate=learning_rate)
        self._lr = learning_rate
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        lr = self._hyper(self._lr, var)
        prox = var.read_value() - lr * grad
        new = _shrink(prox, lr, self._hyper(self._l1, var), self._hyper(self._l2, var))
        return _assign(var, new)


class ProximalAdagradOptimizer(Optimizer):
    """Adagrad's step (``accum += g²``, rate ``lr / sqrt(accum)``) followed by FOBOS'
    shrinkage with that rate (slot ``accumulator``)."""

    def __init__(
        self,
        learning_rate: Any,
        initial_accumulator_value: float = 0.1,
        l1_regularization_strength: float = 0.0,
        l2_regularization_strength: float = 0.0,
        use_locking: bool = False,
        name: str = "ProximalAdagrad",
    ) -> None:
        super().__init__(use_locking, name)
        _check_not_none(name, learning_rate=learning_rate)
        if initial_accumulator_value <= 0.0:
            raise ValueError(
                f"initial_accumulator_value must be positive: {initial_accumulator_value}"
            )
        self._lr, self._initial = learning_rate, initial_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _create_slots(self, variables: list) -> None:
        for var in variables:
            self._slot(var, "accumulator", self._name, _filled(var, self._initial))

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        accum = self.get_slot(var, "accumulator")
        accum_new = accum.read_value() + math_ops.square(grad)
        update = _assign(accum, accum_new)
        with _after(update):
            lr = self._hyper(self._lr, var) * math_ops.rsqrt(accum_new)
            prox = var.read_value() - lr * grad
            new = _shrink(prox, lr, self._hyper(self._l1, var), self._hyper(self._l2, var))
            return _group([_assign(var, new), update], "update")


class FtrlOptimizer(Optimizer):
    """FTRL-proximal (McMahan et al.), as TensorFlow's ``ApplyFtrl``/``ApplyFtrlV2``:
    ``accum_new = accum + g²``; ``linear += g' - (accum_new^-p - accum^-p) / lr * var``
    (``g' = g + 2 l2_shrinkage var``, ``p`` = ``learning_rate_power``); ``var =
    (sign(linear) l1 - linear) / (accum_new^-p / lr + 2 l2)`` where ``|linear| > l1``, else 0.
    ``beta`` adds ``beta / (2 lr)`` to ``l2``. Slots ``accum`` (starting at
    ``initial_accumulator_value``) and ``linear``."""

    def __init__(
        self,
        learning_rate: Any,
        learning_rate_power: float = -0.5,
        initial_accumulator_value: float = 0.1,
        l1_regularization_strength: float = 0.0,
        l2_regularization_strength: float = 0.0,
        use_locking: bool = False,
        name: str = "Ftrl",
        accum_name: str | None = None,
        linear_name: str | None = None,
        l2_shrinkage_regularization_strength: float = 0.0,
        beta: float | None = None,
    ) -> None:
        super().__init__(use_locking, name)
        _check_not_none(name, learning_rate=learning_rate)
        checks = [
            (initial_accumulator_value < 0.0, "initial_accumulator_value", "positive or zero"),
            (learning_rate_power > 0.0, "learning_rate_power", "negative or zero"),
            (l1_regularization_strength < 0.0, "l1_regularization_strength", "positive or zero"),
            (l2_regularization_strength < 0.0, "l2_regularization_strength", "positive or zero"),
            (
                l2_shrinkage_regularization_strength < 0.0,
                "l2_shrinkage_regularization_strength",
                "positive or zero",
            ),
        ]
        values = locals()
        for bad, argument, wanted in checks:
            if bad:
                raise ValueError(f"{argument} {values[argument]:f} needs to be {wanted}")
        self._lr, self._power = learning_rate, learning_rate_power
        self._initial = initial_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._shrinkage = l2_shrinkage_regularization_strength
        self._beta = 0.0 if beta is None else beta
        self._accum_name, self._linear_name = accum_name, linear_name

    def _create_slots(self, variables: list) -> None:
        for var in variables:
            start = math_ops.multiply(array_ops.ones(var.shape.as_list(), var.dtype), self._initial)
            self._slot(var, "accum", self._accum_name or self._name, start)
            self._zeros_slot(var, "linear", self._linear_name or self._name)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        lr = self._hyper(self._lr, var)
        power = self._hyper(self._power, var)
        l1 = self._hyper(self._l1, var)
        l2 = self._hyper(self._l2, var) + self._hyper(self._beta, var) / (
            2.0 * math_ops.maximum(lr, 1e-36)
        )
        accum, linear = self.get_slot(var, "accum"), self.get_slot(var, "linear")
        var_read, accum_read = var.read_value(), accum.read_value()
        accum_new = accum_read + math_ops.square(grad)
        shrunk = grad + 2.0 * self._hyper(self._shrinkage, var) * var_read
        if isinstance(self._power, (int, float)) and self._power == -0.5:
            scale_new, scale_old = math_ops.sqrt(accum_new), math_ops.sqrt(accum_read)
        else:  # (TensorFlow's kernel takes square roots for the usual power, -1/2)
            scale_new, scale_old = math_ops.pow(accum_new, -power), math_ops.pow(accum_read, -power)
        linear_new = linear.read_value() + shrunk - (scale_new - scale_old) / lr * var_read
        quadratic = scale_new / lr + 2.0 * l2
        outside = comparison_ops.greater(math_ops.abs(linear_new), l1)
        value = (math_ops.sign(linear_new) * l1 - linear_new) / quadratic
        new = array_ops.where(outside, value, array_ops.zeros_like(value))
        slots = [_assign(accum, accum_new), _assign(linear, linear_new)]
        return _group([_assign(var, new), *slots], "update")
