"""``tf.keras.optimizers.Optimizer``: what every Keras 3 optimizer adds around its update
formula, in Keras' order — gradients unscaled (``loss_scale_factor``), accumulated over
``gradient_accumulation_steps``, clipped (``clipnorm``, ``clipvalue`` or
``global_clipnorm``), decoupled ``weight_decay`` applied to the variables, the update, and
an exponential moving average of the variables (``use_ema``).

A subclass either gives the formulas of ``training.optimizers`` (``_update``), or, as a
Keras 3 program does, ``build`` (``add_variable_from_reference``) and
``update_step(gradient, variable, learning_rate)``.

>>> import retrograd as rg
>>> w = rg.Variable([3.0, 4.0])
>>> opt = rg.keras.optimizers.SGD(learning_rate=1.0, clipnorm=1.0)
>>> _ = opt.apply_gradients([(rg.constant([3.0, 4.0]), w)])
>>> [round(v, 4) for v in w.numpy().tolist()]
[2.4, 3.2]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from retrograd.core.execute import context
from retrograd.core.tensor import Reference, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.distribute.strategy import summed_gradients
from retrograd.ops import array_ops, clip_ops, comparison_ops, math_ops
from retrograd.training import optimizer_arguments as arguments
from retrograd.training import optimizers as training

__all__ = ["Optimizer", "KerasOptions"]


class KerasOptions:
    """The options of Keras 3's optimizers around ``training.Optimizer``'s update."""

    def _init_options(
        self,
        weight_decay: Any = None,
        clipnorm: Any = None,
        clipvalue: Any = None,
        global_clipnorm: Any = None,
        use_ema: bool = False,
        ema_momentum: float = 0.99,
        ema_overwrite_frequency: Any = None,
        loss_scale_factor: Any = None,
        gradient_accumulation_steps: Any = None,
        **kwargs: Any,
    ) -> None:
        kwargs.pop("decay", None)  # (Keras 2's name: ignored by Keras 3 with a warning)
        if "lr" in kwargs:
            raise ValueError("Argument `lr` is no longer supported. Use `learning_rate` instead.")
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        if sum(v is not None for v in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(
                "Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. "
                f"Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                f"global_clipnorm={global_clipnorm}"
            )
        if gradient_accumulation_steps is not None and (
            not isinstance(gradient_accumulation_steps, int) or gradient_accumulation_steps < 2
        ):
            raise ValueError(
                "`gradient_accumulation_steps` must be an integer >= 2. Received: "
                f"gradient_accumulation_steps={gradient_accumulation_steps}"
            )
        if use_ema and not 0 <= ema_momentum <= 1:
            raise ValueError(
                f"`ema_momentum` must be in the range [0, 1]. Received: ema_momentum={ema_momentum}"
            )
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self.use_ema, self.ema_momentum = use_ema, ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self._excluded_variables: set[Reference] = set()
        self._excluded_names: list[str] = []
        self._accumulated: dict[Reference, Variable] = {}
        self._averages: dict[Reference, Variable] = {}

    # -- the options ---------------------------------------------------------------------
    def exclude_from_weight_decay(self, var_list: Any = None, var_names: Any = None) -> None:
        """Leaves ``var_list`` (and variables whose name contains one of ``var_names``) out of
        the weight decay."""
        self._excluded_variables |= {Reference(v) for v in var_list or ()}
        self._excluded_names += list(var_names or ())

    def _decays(self, variable: Variable) -> bool:
        if Reference(variable) in self._excluded_variables:
            return False
        return not any(name in variable.name for name in self._excluded_names)

    def scale_loss(self, loss: Any) -> Any:
        """``loss * loss_scale_factor`` (the gradients are divided by it when applied)."""
        return loss if self.loss_scale_factor is None else loss * self.loss_scale_factor

    def _clip(self, grads: list[Any]) -> list[Any]:
        if self.clipnorm and self.clipnorm > 0:
            return [None if g is None else _clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            present = [g for g in grads if g is not None]
            clipped, _ = clip_ops.clip_by_global_norm(present, self.global_clipnorm)
            found = iter(clipped)
            return [None if g is None else next(found) for g in grads]
        if self.clipvalue and self.clipvalue > 0:
            v = self.clipvalue
            return [None if g is None else clip_ops.clip_by_value(g, -v, v) for g in grads]
        return grads

    def _apply_weight_decay(self, variables: list[Variable]) -> None:
        if self.weight_decay is None:
            return
        lr = self._current_learning_rate()
        for variable in variables:
            if self._decays(variable):
                dt = variable.dtype.as_numpy_dtype
                rate = arguments.rate_as(lr, variable.dtype)
                decay = variable.read_value() * dt(np.float32(self.weight_decay)) * rate
                variable.assign(variable.read_value() - decay)

    def _accumulate(self, pairs: list[tuple[Any, Variable]]) -> list[tuple[Any, Variable]] | None:
        """The averaged gradients on an update step; None (after adding them up) otherwise."""
        steps = self.gradient_accumulation_steps
        if context.graph is not None:
            raise ValueError(
                f"{self.name}: gradient_accumulation_steps runs eagerly only (not inside a "
                "traced tf.function)"
            )
        # `iterations` counts the updates (Keras: the calls floor-divided by the steps)
        self._calls = getattr(self, "_calls", 0) + 1
        update = self._calls % steps == 0
        result = []
        for g, variable in pairs:
            key = Reference(variable)
            store = self._accumulated.get(key)
            if store is None:
                store = self._accumulated[key] = Variable(
                    np.zeros_like(variable._value), trainable=False, name="accumulator"
                )
            if g is None:
                result.append((None, variable))
                continue
            g = math_ops.cast(convert_to_tensor(g), variable.dtype)
            if update:
                result.append(((g + store.read_value()) / steps, variable))
                store.assign(np.zeros_like(variable._value))
            else:
                store.assign_add(g)
        return result if update else None

    def _update_averages(self, variables: list[Variable]) -> None:
        # Computed from ``iterations`` as tensors, so that a traced step reads the step it
        # runs at (the first step, as Keras counts, starts each average at its variable).
        iterations = self.iterations.read_value()
        first = comparison_ops.equal(iterations, 1)
        frequency = self.ema_overwrite_frequency
        overwrite = comparison_ops.equal(iterations % int(frequency), 0) if frequency else None
        for variable in variables:
            key = Reference(variable)
            average = self._averages.get(key)
            if average is None:
                average = self._averages[key] = Variable(
                    np.copy(variable._value),  # (a copy on the variable's device)
                    trainable=False,
                    name="average",
                )
            dtype = variable.dtype
            momentum = math_ops.cast(
                comparison_ops.logical_not(first), dtype
            ) * dtype.as_numpy_dtype(self.ema_momentum)
            average.assign(momentum * average.read_value() + (1 - momentum) * variable.read_value())
        if overwrite is not None:
            for variable in variables:
                chosen = array_ops.where(
                    overwrite,
                    self._averages[Reference(variable)].read_value(),
                    variable.read_value(),
                )
                variable.assign(chosen)

    def average_of(self, variable: Variable) -> Variable | None:
        """The moving average kept for ``variable`` with ``use_ema`` (None before its first
        update or without ``use_ema``)."""
        return self._averages.get(Reference(variable))

    def finalize_variable_values(self, var_list: Iterable[Variable]) -> None:
        """With ``use_ema``, sets the variables to their moving averages (Keras does this at
        the end of ``fit``)."""
        if self.use_ema:
            for variable in var_list:
                average = self._averages.get(Reference(variable))
                if average is not None:
                    variable.assign(average.read_value())

    def apply_gradients(
        self, grads_and_vars: Iterable[tuple[Any, Variable]], name: str | None = None
    ) -> Variable:
        """Applies the gradients with the options (see the module docstring)."""
        pairs = list(grads_and_vars)
        if self.loss_scale_factor is not None:
            pairs = [(None if g is None else g / self.loss_scale_factor, v) for g, v in pairs]
        if self.gradient_accumulation_steps:
            accumulated = self._accumulate(pairs)
            if accumulated is None:
                return self.iterations
            pairs = accumulated
        grads = self._clip([g for g, _ in pairs])
        variables = [v for _, v in pairs]
        self._apply_weight_decay([v for g, v in zip(grads, variables) if g is not None])
        result = self._apply_update(list(zip(grads, variables)))
        if self.use_ema:
            self._update_averages([v for v in variables if getattr(v, "trainable", True)])
        return result

    def _apply_update(self, pairs: list[tuple[Any, Variable]]) -> Variable:
        return training.Optimizer.apply_gradients(self, pairs)

    @property
    def variables(self) -> list[Any]:
        """``iterations``, the slots, then accumulators and moving averages."""
        extra = list(self._accumulated.values()) + list(self._averages.values())
        return training.Optimizer.variables.fget(self) + extra


def _clip_by_norm(g: Any, clipnorm: float) -> Any:
    """Keras' ``clip_by_norm``: ``g * clipnorm / max(norm(g), clipnorm)``."""
    g = convert_to_tensor(g)
    squares = math_ops.square(g)
    from retrograd.ops import array_ops, comparison_ops, reduction_ops

    total = reduction_ops.reduce_sum(squares)
    positive = comparison_ops.greater(total, math_ops.cast(0, total.dtype))
    safe = array_ops.where(positive, total, array_ops.ones_like(total))
    norm = array_ops.where(positive, math_ops.sqrt(safe), total)
    limit = math_ops.cast(clipnorm, g.dtype)
    return g * limit / math_ops.maximum(norm, limit)


class Optimizer(KerasOptions, training.Optimizer):
    """The base class of Keras optimizers. A Keras 3 subclass creates its state in
    ``build(var_list)`` with ``add_variable_from_reference`` and updates each variable in
    ``update_step(gradient, variable, learning_rate)``.

    >>> import retrograd as rg
    >>> class SignSGD(rg.keras.optimizers.Optimizer):
    ...     def update_step(self, gradient, variable, learning_rate):
    ...         variable.assign_sub(learning_rate * rg.sign(gradient))
    >>> w = rg.Variable([1.0, -1.0])
    >>> _ = SignSGD(learning_rate=0.5).apply_gradients([(rg.constant([2.0, -3.0]), w)])
    >>> w.numpy().tolist()
    [0.5, -0.5]
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # (Keras' Optimizer takes its base optimizer's arguments as *args, **kwargs)
        self._setup(*args, **kwargs)

    def _setup(
        self,
        learning_rate: Any,
        weight_decay: Any = None,
        clipnorm: Any = None,
        clipvalue: Any = None,
        global_clipnorm: Any = None,
        use_ema: bool = False,
        ema_momentum: float = 0.99,
        ema_overwrite_frequency: Any = None,
        loss_scale_factor: Any = None,
        gradient_accumulation_steps: Any = None,
        name: Any = None,
        **kwargs: Any,
    ) -> None:
        """Keras' BaseOptimizer arguments (``learning_rate`` is required, as there)."""
        training.Optimizer.__init__(self, learning_rate, name or "optimizer")
        self._init_options(
            weight_decay,
            clipnorm,
            clipvalue,
            global_clipnorm,
            use_ema,
            ema_momentum,
            ema_overwrite_frequency,
            loss_scale_factor,
            gradient_accumulation_steps,
            **kwargs,
        )
        self._built_for: set[Reference] = set()
        self.built = False
        self._own_variables: list[Variable] = []
        self._index: dict[Reference, int] = {}

    # -- Keras 3's API for optimizers written as update_step ------------------------------
    def add_variable(
        self,
        shape: Any,
        initializer: Any = "zeros",
        dtype: Any = None,
        aggregation="none",
        name=None,
    ) -> Variable:
        """A new state variable of the optimizer."""
        from retrograd.keras.src import initializers
        from retrograd.keras.src.variables import Variable as KerasVariable

        value = initializers.get(initializer)(tuple(shape), dtype=dtype or "float32")
        name = name or "variable"
        variable = KerasVariable(value, trainable=False, name=name, path=f"{self.name}/{name}")
        self._own_variables.append(variable)
        return variable

    def add_variable_from_reference(
        self, reference_variable: Variable, name: Any = None, initializer: Any = "zeros"
    ) -> Variable:
        """A state variable shaped like ``reference_variable`` (a slot)."""
        base = getattr(reference_variable, "path", None) or reference_variable.name
        name = f"{base.split(':')[0].replace('/', '_')}_{name}"  # Keras' slot names
        return self.add_variable(
            reference_variable.shape.as_list(), initializer, reference_variable.dtype, name=name
        )

    def _get_variable_index(self, variable: Variable) -> int:
        return self._index[Reference(variable)]

    def assign(self, variable: Variable, value: Any) -> None:
        variable.assign(value)

    def assign_add(self, variable: Variable, value: Any) -> None:
        variable.assign_add(value)

    def assign_sub(self, variable: Variable, value: Any) -> None:
        variable.assign_sub(value)

    def build(self, var_list: Iterable[Variable]) -> None:
        """Creates the optimizer's state for ``var_list`` (slots, for the built-in ones)."""
        var_list = list(var_list)
        for i, variable in enumerate(var_list):
            self._index.setdefault(Reference(variable), i)
        self._trainable_variables = var_list
        if not self._keras_style():
            training.Optimizer.build(self, var_list)
        self.built = True

    def _keras_style(self) -> bool:
        return type(self).update_step is not Optimizer.update_step

    def update_step(self, gradient: Any, variable: Variable, learning_rate: Any) -> None:
        """One variable's update (Keras 3's hook); the built-in optimizers use ``_update``."""
        raise NotImplementedError(f"{type(self).__name__} must define `update_step`")

    def _update(self, value, g, lr, step, slots, dt, xp):
        raise NotImplementedError(f"{type(self).__name__} must define `update_step`")

    def _update_arrays(self, value, g, squared, lr, step, slots):
        return self._update(value, g, lr, step, slots, value.dtype.type, training._NUMPY)

    def _apply_update(self, pairs: list[tuple[Any, Variable]]) -> Variable:
        if not self._keras_style():
            return KerasOptions._apply_update(self, pairs)
        pairs = summed_gradients(pairs)
        present = [(g, v) for g, v in pairs if g is not None]
        if not present:
            raise ValueError(f"{self.name}.apply_gradients: no gradients provided for any variable")
        fresh = [v for _, v in present if Reference(v) not in self._built_for]
        if fresh:
            self._index.update({Reference(v): len(self._index) + i for i, v in enumerate(fresh)})
            self.build([v for _, v in present])
            self._built_for |= {Reference(v) for v in fresh}
        lr = self._current_learning_rate()
        for g, variable in present:
            g = math_ops.cast(convert_to_tensor(g), variable.dtype)
            self.update_step(g, variable, arguments.rate_as(lr, variable.dtype))
        self.iterations.assign_add(1)
        return self.iterations

    @property
    def variables(self) -> list[Any]:
        return KerasOptions.variables.fget(self) + list(self._own_variables)

    def get_config(self) -> dict:
        learning_rate = self.learning_rate
        if hasattr(learning_rate, "get_config"):
            from retrograd.keras.src import serialization

            learning_rate = serialization.serialize_keras_object(learning_rate)
        return {
            "name": self.name,
            "learning_rate": learning_rate,
            "weight_decay": self.weight_decay,
            "clipnorm": self.clipnorm,
            "global_clipnorm": self.global_clipnorm,
            "clipvalue": self.clipvalue,
            "use_ema": self.use_ema,
            "ema_momentum": self.ema_momentum,
            "ema_overwrite_frequency": self.ema_overwrite_frequency,
            "loss_scale_factor": self.loss_scale_factor,
            "gradient_accumulation_steps": self.gradient_accumulation_steps,
        }

    @classmethod
    def from_config(cls, config: dict, custom_objects: Any = None) -> Optimizer:
        return cls(**config)
