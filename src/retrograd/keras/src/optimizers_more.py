"""More of ``tf.keras.optimizers``: Nadam, Adadelta, Ftrl, Lamb and Lion, each written as
Keras writes its ``update_step``.

>>> import retrograd as rg
>>> rg.keras.optimizers.Lion().beta_2
0.99
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src.ops import core, tensors
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.optimizers import _options, _Slots

__all__ = ["Nadam", "Adadelta", "Ftrl", "Lamb", "Lion"]


class Nadam(_Slots):
    """Adam with Nesterov momentum (Dozat's schedule of the momentum).

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> _ = rg.keras.optimizers.Nadam(0.1).apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4)
    0.8937
    """

    _slot_kinds = ("momentum", "velocity")

    def __init__(
        self,
        learning_rate: Any = 0.001,
        beta_1: Any = 0.9,
        beta_2: Any = 0.999,
        epsilon: Any = 1e-07,
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
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        options = _options(
            weight_decay,
            clipnorm,
            clipvalue,
            global_clipnorm,
            use_ema,
            ema_momentum,
            ema_overwrite_frequency,
            loss_scale_factor,
            gradient_accumulation_steps,
        )
        super().__init__(learning_rate, name or "nadam", options, kwargs)
        self._u_product = None

    def _apply_update(self, pairs):
        present = [v for g, v in pairs if g is not None]
        if self._u_product is None:
            dtype = present[0].dtype.name if present else "float32"
            self._u_product = self.add_variable((), "ones", dtype, name="u_product")
        dtype = self._u_product.dtype.name
        step = tensors.convert(int(self.iterations.numpy()) + 1, dtype)
        decay = 1.0 - 0.5 * knp.power(tensors.convert(0.96, dtype), step)
        self._u_product.assign(self._u_product.value * self.beta_1 * decay)
        return super()._apply_update(pairs)

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype.name
        local_step = self._step(variable)
        next_step = local_step + 1
        decay = core.cast(0.96, dtype)
        beta_1, beta_2 = core.cast(self.beta_1, dtype), core.cast(self.beta_2, dtype)
        u_t = beta_1 * (1.0 - 0.5 * knp.power(decay, local_step))
        u_t_1 = beta_1 * (1.0 - 0.5 * knp.power(decay, next_step))
        u_product_t = tensors.convert(self._u_product.value, dtype)
        u_product_t_1 = u_product_t * u_t_1
        beta_2_power = knp.power(beta_2, local_step)
        m, v = self._slot("momentum", variable), self._slot("velocity", variable)
        m.assign_add(knp.multiply(knp.subtract(gradient, m.value), 1 - beta_1))
        v.assign_add(knp.multiply(knp.subtract(knp.square(gradient), v.value), 1 - beta_2))
        m_hat = knp.add(
            knp.divide(knp.multiply(u_t_1, m.value), 1 - u_product_t_1),
            knp.divide(knp.multiply(1 - u_t, gradient), 1 - u_product_t),
        )
        v_hat = knp.divide(v.value, 1 - beta_2_power)
        variable.assign_sub(
            knp.divide(knp.multiply(m_hat, learning_rate), knp.add(knp.sqrt(v_hat), self.epsilon))
        )


class Adadelta(_Slots):
    """Adadelta: steps scaled by the ratio of running RMS of updates and gradients.

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> _ = rg.keras.optimizers.Adadelta(1.0).apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4)
    0.9986
    """

    _slot_kinds = ("accumulated_grad", "accumulated_delta_var")

    def __init__(
        self,
        learning_rate: Any = 0.001,
        rho: Any = 0.95,
        epsilon: Any = 1e-07,
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
        self.rho, self.epsilon = rho, epsilon
        options = _options(
            weight_decay,
            clipnorm,
            clipvalue,
            global_clipnorm,
            use_ema,
            ema_momentum,
            ema_overwrite_frequency,
            loss_scale_factor,
            gradient_accumulation_steps,
        )
        super().__init__(learning_rate, name or "adadelta", options, kwargs)

    def update_step(self, gradient, variable, learning_rate):
        rho = self.rho
        grads = self._slot("accumulated_grad", variable)
        deltas = self._slot("accumulated_delta_var", variable)

        def rms(x: Any) -> Any:
            return knp.sqrt(knp.add(x, self.epsilon))

        grads.assign(knp.add(rho * grads.value, knp.multiply(1 - rho, knp.square(gradient))))
        delta = knp.negative(
            knp.divide(knp.multiply(rms(deltas.value), gradient), rms(grads.value))
        )
        deltas.assign(
            knp.add(knp.multiply(rho, deltas.value), knp.multiply(1 - rho, knp.square(delta)))
        )
        variable.assign_add(knp.multiply(learning_rate, delta))


class Ftrl(_Slots):
    """Follow-the-regularized-leader, with L1/L2 (and L2 shrinkage) regularisation.

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> _ = rg.keras.optimizers.Ftrl(0.1).apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4)
    0.381
    """

    _slot_kinds = ("accumulator", "linear")

    def __init__(
        self,
        learning_rate: Any = 0.001,
        learning_rate_power: Any = -0.5,
        initial_accumulator_value: Any = 0.1,
        l1_regularization_strength: Any = 0.0,
        l2_regularization_strength: Any = 0.0,
        l2_shrinkage_regularization_strength: Any = 0.0,
        beta: Any = 0.0,
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
        for arg, value, floor in (
            ("initial_accumulator_value", initial_accumulator_value, 0),
            ("learning_rate_power", -learning_rate_power, 0),
            ("l1_regularization_strength", l1_regularization_strength, 0),
            ("l2_regularization_strength", l2_regularization_strength, 0),
            ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength, 0),
        ):
            if value < floor:
                raise ValueError(
                    f"`{arg}` needs to be {'<= 0' if arg == 'learning_rate_power' else '>= 0'}. "
                    f"Received: {arg}={value if arg != 'learning_rate_power' else -value}."
                )
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta
        options = _options(
            weight_decay,
            clipnorm,
            clipvalue,
            global_clipnorm,
            use_ema,
            ema_momentum,
            ema_overwrite_frequency,
            loss_scale_factor,
            gradient_accumulation_steps,
        )
        super().__init__(learning_rate, name or "ftrl", options, kwargs)

    def _slot_initializer(self, kind):
        from retrograd.keras.src import initializers

        if kind == "accumulator":
            return initializers.Constant(self.initial_accumulator_value)
        return "zeros"

    def update_step(self, gradient, variable, learning_rate):
        accum, linear = self._slot("accumulator", variable), self._slot("linear", variable)
        power = self.learning_rate_power
        l2 = self.l2_regularization_strength + self.beta / (2.0 * learning_rate)
        grad = knp.add(
            gradient,
            knp.multiply(2 * self.l2_shrinkage_regularization_strength, variable.read_value()),
        )
        new_accum = knp.add(accum.value, knp.square(gradient))
        growth = knp.subtract(knp.power(new_accum, -power), knp.power(accum.value, -power))
        linear.assign_add(
            knp.subtract(
                grad, knp.multiply(knp.divide(growth, learning_rate), variable.read_value())
            )
        )
        quadratic = knp.add(knp.divide(knp.power(new_accum, -power), learning_rate), 2 * l2)
        l1 = self.l1_regularization_strength
        clipped = knp.clip(linear.value, -l1, l1)
        variable.assign(knp.divide(knp.subtract(clipped, linear.value), quadratic))
        accum.assign(new_accum)


class Lamb(_Slots):
    """LAMB: Adam steps rescaled layer-wise by the trust ratio ``|w| / |step|``.

    >>> import retrograd as rg
    >>> w = rg.Variable([3.0, 4.0])
    >>> _ = rg.keras.optimizers.Lamb(0.1).apply_gradients([(rg.constant([1.0, 1.0]), w)])
    >>> [round(v, 4) for v in w.numpy().tolist()]
    [2.6464, 3.6464]
    """

    _slot_kinds = ("momentum", "velocity")

    def __init__(
        self,
        learning_rate: Any = 0.001,
        beta_1: Any = 0.9,
        beta_2: Any = 0.999,
        epsilon: Any = 1e-07,
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
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        options = _options(
            weight_decay,
            clipnorm,
            clipvalue,
            global_clipnorm,
            use_ema,
            ema_momentum,
            ema_overwrite_frequency,
            loss_scale_factor,
            gradient_accumulation_steps,
        )
        super().__init__(learning_rate, name or "lamb", options, kwargs)

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype.name
        step = self._step(variable)
        beta_1_power = knp.power(core.cast(self.beta_1, dtype), step)
        beta_2_power = knp.power(core.cast(self.beta_2, dtype), step)
        m, v = self._slot("momentum", variable), self._slot("velocity", variable)
        m.assign_add(knp.multiply(knp.subtract(gradient, m.value), 1 - self.beta_1))
        v.assign_add(knp.multiply(knp.subtract(knp.square(gradient), v.value), 1 - self.beta_2))
        m_hat = knp.divide(m.value, 1.0 - beta_1_power)
        v_sqrt = knp.add(knp.sqrt(knp.divide(v.value, 1.0 - beta_2_power)), self.epsilon)
        update = knp.divide(m_hat, v_sqrt)
        w_norm = knp.sqrt(knp.sum(knp.power(variable.read_value(), 2)))
        g_norm = knp.sqrt(knp.sum(knp.power(update, 2)))
        inner = knp.where(knp.greater(g_norm, 0), w_norm / g_norm, 1.0)
        ratio = knp.where(knp.greater(w_norm, 0), inner, 1.0)
        variable.assign_sub(ratio * learning_rate * update)


class Lion(_Slots):
    """Lion: the sign of an interpolation of momentum and gradient.

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> _ = rg.keras.optimizers.Lion(0.1).apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4)
    0.9
    """

    _slot_kinds = ("momentum",)

    def __init__(
        self,
        learning_rate: Any = 0.001,
        beta_1: Any = 0.9,
        beta_2: Any = 0.99,
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
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError(
                f"Argument for `beta_1` must be in range (0, 1]. Received: beta_1={beta_1}."
            )
        self.beta_1, self.beta_2 = beta_1, beta_2
        options = _options(
            weight_decay,
            clipnorm,
            clipvalue,
            global_clipnorm,
            use_ema,
            ema_momentum,
            ema_overwrite_frequency,
            loss_scale_factor,
            gradient_accumulation_steps,
        )
        super().__init__(learning_rate, name or "lion", options, kwargs)

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype.name
        beta_1, beta_2 = core.cast(self.beta_1, dtype), core.cast(self.beta_2, dtype)
        m = self._slot("momentum", variable)
        direction = knp.sign(
            knp.add(knp.multiply(m.value, beta_1), knp.multiply(gradient, 1.0 - beta_1))
        )
        variable.assign_sub(knp.multiply(learning_rate, direction))
        m.assign(knp.add(knp.multiply(m.value, beta_2), knp.multiply(gradient, 1.0 - beta_2)))
