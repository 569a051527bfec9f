"""``tf.keras.optimizers`` (also ``tf.optimizers``): Keras 3's optimizers with their
options (weight decay, clipping, gradient accumulation, moving averages; see
optimizer_base) and update formulas, computed in each variable's dtype in Keras' order.
SGD, Adam, RMSprop and Adagrad use ``training.optimizers``' formulas; the others are written
as Keras writes them, in ``update_step``.

>>> import retrograd as rg
>>> w = rg.Variable(1.0)
>>> opt = rg.keras.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5)
>>> _ = opt.apply_gradients([(rg.constant(0.5), w)])
>>> round(float(w.numpy()), 4)
0.85
"""

from __future__ import annotations

from typing import Any

from retrograd.core.tensor import Reference
from retrograd.core.variables import Variable
from retrograd.keras.src.ops import core, tensors
from retrograd.keras.src.ops import numpy as knp
from retrograd.keras.src.optimizer_base import Optimizer
from retrograd.training import optimizers as training

__all__ = [
    "SGD",
    "Adam",
    "AdamW",
    "RMSprop",
    "Adagrad",
    "Adamax",
]

_OPTIONS = (
    "weight_decay",
    "clipnorm",
    "clipvalue",
    "global_clipnorm",
    "use_ema",
    "ema_momentum",
    "ema_overwrite_frequency",
    "loss_scale_factor",
    "gradient_accumulation_steps",
)


def _keras_init(self: Optimizer, options: dict, kwargs: dict) -> None:
    """The Keras part of a built-in optimizer's construction (after its formula's)."""
    self._init_options(**options, **kwargs)
    self._built_for, self._own_variables, self._index = set(), [], {}


class SGD(Optimizer, training.SGD):
    """Gradient descent, with optional (Nesterov) momentum.

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> _ = rg.keras.optimizers.SGD(0.1, momentum=0.9).apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4)
    0.95
    """

    _update = training.SGD._update
    _update_arrays = vars(training.SGD).get("_update_arrays", Optimizer._update_arrays)

    def __init__(
        self,
        learning_rate: Any = 0.01,
        momentum: Any = 0.0,
        nesterov: Any = False,
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
        training.SGD.__init__(self, learning_rate, momentum, nesterov, name or "SGD")
        options = dict(
            zip(
                _OPTIONS,
                (
                    weight_decay,
                    clipnorm,
                    clipvalue,
                    global_clipnorm,
                    use_ema,
                    ema_momentum,
                    ema_overwrite_frequency,
                    loss_scale_factor,
                    gradient_accumulation_steps,
                ),
            )
        )
        _keras_init(self, options, kwargs)


class Adam(Optimizer, training.Adam):
    """Adam (and AMSGrad).

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> _ = rg.keras.optimizers.Adam(0.1).apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4)
    0.9
    """

    _update = training.Adam._update
    _update_arrays = vars(training.Adam).get("_update_arrays", Optimizer._update_arrays)

    def __init__(
        self,
        learning_rate: Any = 0.001,
        beta_1: Any = 0.9,
        beta_2: Any = 0.999,
        epsilon: Any = 1e-07,
        amsgrad: Any = False,
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
        training.Adam.__init__(
            self, learning_rate, beta_1, beta_2, epsilon, amsgrad, name or "adam"
        )
        options = dict(
            zip(
                _OPTIONS,
                (
                    weight_decay,
                    clipnorm,
                    clipvalue,
                    global_clipnorm,
                    use_ema,
                    ema_momentum,
                    ema_overwrite_frequency,
                    loss_scale_factor,
                    gradient_accumulation_steps,
                ),
            )
        )
        _keras_init(self, options, kwargs)


class AdamW(Adam):
    """Adam with decoupled weight decay (0.004 by default).

    >>> import retrograd as rg
    >>> rg.keras.optimizers.AdamW().weight_decay
    0.004
    """

    def __init__(
        self,
        learning_rate: Any = 0.001,
        weight_decay: Any = 0.004,
        beta_1: Any = 0.9,
        beta_2: Any = 0.999,
        epsilon: Any = 1e-07,
        amsgrad: Any = False,
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
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: weight_decay=None")
        super().__init__(
            learning_rate,
            beta_1,
            beta_2,
            epsilon,
            amsgrad,
            weight_decay,
            clipnorm,
            clipvalue,
            global_clipnorm,
            use_ema,
            ema_momentum,
            ema_overwrite_frequency,
            loss_scale_factor,
            gradient_accumulation_steps,
            name or "adamw",
            **kwargs,
        )


class RMSprop(Optimizer, training.RMSprop):
    """RMSprop (optionally centred, with momentum).

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> _ = rg.keras.optimizers.RMSprop(0.1).apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4)
    0.6838
    """

    _update = training.RMSprop._update
    _update_arrays = vars(training.RMSprop).get("_update_arrays", Optimizer._update_arrays)

    def __init__(
        self,
        learning_rate: Any = 0.001,
        rho: Any = 0.9,
        momentum: Any = 0.0,
        epsilon: Any = 1e-07,
        centered: Any = False,
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
        training.RMSprop.__init__(
            self, learning_rate, rho, momentum, epsilon, centered, name or "rmsprop"
        )
        options = dict(
            zip(
                _OPTIONS,
                (
                    weight_decay,
                    clipnorm,
                    clipvalue,
                    global_clipnorm,
                    use_ema,
                    ema_momentum,
                    ema_overwrite_frequency,
                    loss_scale_factor,
                    gradient_accumulation_steps,
                ),
            )
        )
        _keras_init(self, options, kwargs)


class Adagrad(Optimizer, training.Adagrad):
    """Adagrad.

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> _ = rg.keras.optimizers.Adagrad(0.1).apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4)
    0.9155
    """

    _update = training.Adagrad._update
    _update_arrays = vars(training.Adagrad).get("_update_arrays", Optimizer._update_arrays)
    _initial_slot = training.Adagrad._initial_slot

    def __init__(
        self,
        learning_rate: Any = 0.001,
        initial_accumulator_value: Any = 0.1,
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
        training.Adagrad.__init__(
            self, learning_rate, initial_accumulator_value, epsilon, name or "adagrad"
        )
        options = dict(
            zip(
                _OPTIONS,
                (
                    weight_decay,
                    clipnorm,
                    clipvalue,
                    global_clipnorm,
                    use_ema,
                    ema_momentum,
                    ema_overwrite_frequency,
                    loss_scale_factor,
                    gradient_accumulation_steps,
                ),
            )
        )
        _keras_init(self, options, kwargs)


class _Slots(Optimizer):
    """An optimizer written as Keras writes it: named slots per variable (made in
    ``build``), ``update_step`` with Keras' operations."""

    _slot_kinds: tuple[str, ...] = ()

    def __init__(self, learning_rate, name, options: dict, kwargs: dict) -> None:
        super().__init__(learning_rate, name=name, **options, **kwargs)
        self._slot_variables: dict[str, dict[Reference, Variable]] = {
            kind: {} for kind in self._slot_kinds
        }

    def _slot_initializer(self, kind: str) -> Any:
        return "zeros"

    def build(self, var_list):
        super().build(var_list)
        for variable in var_list:
            for kind in self._slot_kinds:
                table = self._slot_variables[kind]
                if Reference(variable) not in table:
                    table[Reference(variable)] = self.add_variable_from_reference(
                        variable, kind, self._slot_initializer(kind)
                    )

    def _slot(self, kind: str, variable: Variable) -> Variable:
        return self._slot_variables[kind][Reference(variable)]

    def _step(self, variable: Variable) -> Any:
        return tensors.convert(int(self.iterations.numpy()) + 1, variable.dtype.name)


def _options(*values: Any) -> dict:
    return dict(zip(_OPTIONS, values))


class Adamax(_Slots):
    """Adamax: Adam with the infinity norm of past gradients.

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> _ = rg.keras.optimizers.Adamax(0.1).apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4)
    0.9
    """

    _slot_kinds = ("momentum", "norm")

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
        super().__init__(learning_rate, name or "adamax", options, kwargs)

    def update_step(self, gradient, variable, learning_rate):
        power = knp.power(core.cast(self.beta_1, variable.dtype.name), self._step(variable))
        m, u = self._slot("momentum", variable), self._slot("norm", variable)
        m.assign_add(knp.multiply(knp.subtract(gradient, m.value), 1 - self.beta_1))
        u.assign(knp.maximum(knp.multiply(self.beta_2, u.value), knp.abs(gradient)))
        step = knp.divide(
            knp.multiply(learning_rate, m.value),
            knp.multiply(1 - power, knp.add(u.value, self.epsilon)),
        )
        variable.assign_sub(step)
