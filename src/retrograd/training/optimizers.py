"""Optimizers with Keras's defaults and update formulas: SGD, Adam, RMSprop, Adagrad.

Updates are computed in each variable's dtype, in the order Keras computes them, so
float32 training follows Keras step for step.

Eagerly, an update writes each new state array once into a fresh buffer with ``out=``, and
flushes slots that fall below the smallest normal number to zero, as TensorFlow's
flush-to-zero kernels do (``update_kernels``).

>>> import retrograd as rg
>>> w = rg.Variable(1.0)
>>> opt = rg.optimizers.SGD(learning_rate=0.1)
>>> _ = opt.minimize(lambda: w * w, [w])
>>> print(w.numpy())
0.8
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import Any

import numpy as np

from retrograd.autodiff.explain import none_gradient_reasons
from retrograd.autodiff.tape import GradientTape
from retrograd.core import dtypes
from retrograd.core.execute import context
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Reference, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.distribute.strategy import summed_gradients
from retrograd.graph.control_ops import init_scope
from retrograd.ops import math_ops
from retrograd.ops.indexed_slices import IndexedSlices, densify, slices_like
from retrograd.training import optimizer_arguments as arguments
from retrograd.training import update_kernels

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "Adagrad"]

_OPS = SimpleNamespace(
    sqrt=math_ops.sqrt, square=math_ops.square, maximum=math_ops.maximum, pow=math_ops.pow
)


def _squaring_to(xp: Any, g: Any, squared: Any) -> Any:
    """``xp`` whose ``square(g)`` is ``squared``: for a sparse gradient, Keras 3 squares each
    slice and then adds up the slices of a repeated row (the sum of squares, not the square
    of the sum); every other use of the gradient sees the summed, dense one."""
    square = xp.square
    return SimpleNamespace(**{**vars(xp), "square": lambda x: squared if x is g else square(x)})


def _apply_constraint(variable: Variable) -> None:
    """Projects a variable made with a ``constraint`` (Keras' weights) after its update."""
    constraint = getattr(variable, "constraint", None)
    if constraint is not None:
        variable.assign(constraint(variable))


class Optimizer(abc.ABC):
    """Base class: validates gradients, keeps per-variable slots, counts ``iterations``.

    Slots (Adam's moments, momentum) are non-trainable variables keyed by the variable they
    belong to (its identity, not its ``id()``), so a copied optimizer keeps them with its
    copied variables, and a checkpoint saves and restores them by the variable's path.

    >>> import retrograd as rg
    >>> w = rg.Variable([1.0, 2.0])
    >>> opt = rg.keras.optimizers.SGD(learning_rate=0.1)
    >>> with rg.GradientTape() as tape:
    ...     loss = rg.reduce_sum(w * w)
    >>> _ = opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
    >>> [round(v, 4) for v in w.numpy().tolist()], int(opt.iterations.numpy())
    ([0.8, 1.6], 1)
    """

    _slot_names: tuple[str, ...] = ()

    def __init__(self, learning_rate: float | Callable[[], float], name: str) -> None:
        arguments.check_learning_rate(learning_rate)
        self.learning_rate = learning_rate
        self.name = name
        self.iterations = Variable(0, trainable=False, dtype=dtypes.int64, name="iteration")
        self._slots: dict[Reference, dict[str, Variable]] = {}
        # Slot values restored from a checkpoint before the slot existed (created on the
        # variable's first update), keyed like ``_slots``.
        self._pending_slots: dict[Reference, dict[str, np.ndarray]] = {}

    @property
    def learning_rate(self) -> Any:
        """A number, a callable of no argument, or a schedule of the step. A number set
        later (a callback lowering it between epochs) reaches traced steps too: they read it
        from a variable made on their first trace."""
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        self._learning_rate = value
        rate = self.__dict__.get("_rate")
        if rate is not None and not callable(value):
            rate.assign(float(value))

    def _current_learning_rate(self) -> Any:
        """The learning rate of this step: a float, or (inside a traced function) a tensor
        read when the graph runs. As Keras' float32 learning-rate variable, a number is
        rounded to float32 before each variable's update casts it to the variable's dtype
        (a float64 variable gets float32's 0.1, as in Keras)."""
        lr = self.learning_rate
        if context.graph is None:
            if callable(lr):
                lr = lr(self.iterations.numpy()) if arguments.takes_step(lr) else lr()
            return arguments.keras_number(lr)
        if callable(lr):  # a schedule sees the step as a tensor
            return lr(self.iterations.read_value()) if arguments.takes_step(lr) else lr()
        rate = self.__dict__.get("_rate")
        if rate is None:  # (Keras' learning rate is a float32 variable, cast per variable)
            with init_scope():  # (Keras makes it with the optimizer: not a function's variable)
                rate = self._rate = Variable(np.float32(lr), trainable=False, name="learning_rate")
        return rate.read_value()

    def _initial_slot(self, name: str, value: np.ndarray) -> np.ndarray:
        return np.zeros_like(value)

    def _slots_for(self, variable: Variable) -> dict[str, Variable]:
        key = Reference(variable)
        slots = self._slots.get(key)
        if slots is None:
            pending = self._pending_slots.pop(key, {})
            base = variable.name.split(":")[0].replace("/", "_")
            slots = self._slots[key] = {
                n: Variable(
                    pending[n] if n in pending else self._initial_slot(n, variable._value),
                    trainable=False,
                    name=f"{self.name}/{base}_{n}",
                )
                for n in self._slot_names
            }
        return slots

    def slot_variables(self) -> list[tuple[Variable, str, Variable]]:
        """``(variable, slot name, slot variable)`` for every slot created so far."""
        return [
            (key.deref(), name, slot)
            for key, slots in self._slots.items()
            for name, slot in slots.items()
        ]

    def restore_slot(self, variable: Variable, name: str, value: np.ndarray, path: str) -> None:
        """Sets ``variable``'s slot ``name`` (now, or when the slot is created); ``path``
        names the slot in errors."""
        self.check_slot_value(variable, name, value, path)
        slots = self._slots.get(Reference(variable))
        if slots is not None:
            slots[name].assign(value)
        else:
            self._pending_slots.setdefault(Reference(variable), {})[name] = value

    def check_slot_value(self, variable: Variable, name: str, value: Any, path: str) -> None:
        """Raises ValueError unless ``value`` (an array, or anything with ``shape`` and
        ``dtype``) can be ``variable``'s slot ``name``: what a restore checks before it
        assigns anything."""
        if name not in self._slot_names:
            raise ValueError(
                f"{self.name}: checkpoint value {path!r} is a {name!r} slot, but this "
                f"optimizer keeps only {list(self._slot_names)}"
            )
        if tuple(value.shape) != variable._value.shape or value.dtype != variable._value.dtype:
            raise ValueError(
                f"{self.name}: checkpoint value {path!r} is {value.dtype}{list(value.shape)} but "
                f"its variable '{variable.name}' is {variable._value.dtype}"
                f"{list(variable._value.shape)}"
            )

    def apply_gradients(
        self, grads_and_vars: Iterable[tuple[Any, Variable]], name: str | None = None
    ) -> Variable:
        """Applies one update per (gradient, variable) pair; a None gradient skips its variable.

        Every pair is checked before any variable changes.
        """
        updates = []
        pairs = summed_gradients(list(grads_and_vars))
        if context.graph is not None:
            return self._apply_in_graph(pairs)
        for i, (grad, variable) in enumerate(pairs):
            if not isinstance(variable, Variable):
                raise TypeError(
                    f"{self.name}.apply_gradients: pair {i} has a "
                    f"{type(variable).__name__}, not a Variable"
                )
            if grad is None:
                continue
            squared = None
            if isinstance(grad, IndexedSlices):
                grad, squared = arguments.sparse_arrays(self.name, i, grad, variable)
            g = convert_to_tensor(grad)
            if g._value.dtype.kind != "f" or variable.dtype.is_integer or variable.dtype.is_bool:
                raise TypeError(
                    f"{self.name}.apply_gradients: gradient {i} ({g.dtype.name}) cannot update "
                    f"variable '{variable.name}' ({variable.dtype.name})"
                )
            if g._value.shape != variable._value.shape:
                raise ValueError(
                    f"{self.name}.apply_gradients: gradient {i} has shape "
                    f"{plain_dims(g.shape)} but variable '{variable.name}' has shape "
                    f"{plain_dims(variable.shape)}"
                )
            dtype = variable._value.dtype
            if squared is not None:
                squared = squared.astype(dtype, copy=False)
            updates.append((g._value.astype(dtype, copy=False), variable, squared))
        if not updates:  # (nothing to apply: iterations must not advance; TF raises too)
            raise ValueError(
                f"{self.name}.apply_gradients: no gradients provided for any variable "
                f"{[v.name for _, v in pairs]}" + none_gradient_reasons([v for _, v in pairs])
            )
        lr = self._current_learning_rate()
        step = int(self.iterations.numpy()) + 1
        for g, variable, squared in updates:
            dt = variable._value.dtype.type
            slots = self._slots_for(variable)
            arrays = {n: slot._value for n, slot in slots.items()}
            new = self._update_arrays(variable._value, g, squared, dt(lr), dt(step), arrays)
            if type(variable) is Variable:  # (a fresh array of its shape and dtype)
                variable._value = new
            else:
                variable.assign(new)
            _apply_constraint(variable)
            for n, slot in slots.items():
                slot._value = update_kernels.flush_subnormals(
                    arrays[n], n
                )  # fresh too: nothing else holds it
        self.iterations.assign_add(1)
        return self.iterations

    def _apply_in_graph(self, pairs: list[tuple[Any, Variable]]) -> Variable:
        """``apply_gradients`` while a function is traced: the same formulas as graph ops,
        assigned each time the function runs."""
        lr = self._current_learning_rate()
        present = [(g, v) for g, v in pairs if g is not None]
        if pairs and not present:
            raise ValueError(
                f"{self.name}.apply_gradients: no gradients provided for any variable "
                f"{[v.name for _, v in pairs]}"
            )
        step_value = math_ops.cast(self.iterations.read_value() + 1, dtypes.float32)
        for i, (grad, variable) in enumerate(present):
            if not isinstance(variable, Variable):
                raise TypeError(
                    f"{self.name}.apply_gradients: pair {i} has a "
                    f"{type(variable).__name__}, not a Variable"
                )
            dtype = variable._value.dtype
            squared = None
            if isinstance(grad, IndexedSlices):
                squares = slices_like(grad, math_ops.square(grad.values))
                squared = math_ops.cast(densify(squares), variable.dtype)
            g = math_ops.cast(convert_to_tensor(grad), variable.dtype)
            if not g.shape.is_compatible_with(variable._value.shape):
                raise ValueError(
                    f"{self.name}.apply_gradients: gradient {i} has shape {g.shape} but "
                    f"variable '{variable.name}' has shape {plain_dims(variable.shape)}"
                )
            slots = self._slots_for(variable)
            values = {n: slot.read_value() for n, slot in slots.items()}

            def dt(value: Any, dtype: Any = dtype) -> Any:
                return convert_to_tensor(np.asarray(value, dtype))

            step = math_ops.cast(step_value, variable.dtype)
            rate = arguments.rate_as(lr, variable.dtype)
            xp = _OPS if squared is None else _squaring_to(_OPS, g, squared)
            new = self._update(variable.read_value(), g, rate, step, values, dt, xp)
            variable.assign(new)
            _apply_constraint(variable)
            for n, slot in slots.items():
                slot.assign(values[n])
        self.iterations.assign_add(1)
        return self.iterations

    def minimize(
        self, loss: Any, var_list: list[Variable], tape: GradientTape | None = None
    ) -> Variable:
        """Computes the gradients of ``loss`` and applies them.

        ``loss`` is a callable of no argument, or a tensor together with the ``tape`` that
        recorded it.
        """
        var_list = list(var_list)
        if callable(loss):
            with GradientTape() as tape:
                value = loss()
        elif tape is None:
            raise ValueError(
                f"{self.name}.minimize: `tape` is required when a tensor loss is passed"
            )
        else:
            value = loss
        grads = tape.gradient(value, var_list)
        return self.apply_gradients(zip(grads, var_list))

    @abc.abstractmethod
    def _update(
        self, value: Any, g: Any, lr: Any, step: Any, slots: dict, dt: Callable, xp: Any
    ) -> Any:
        """The variable's new value from its gradient ``g`` (``slots`` updated in place),
        as retrograd ops: used inside a traced function, where ``dt`` makes constants and
        ``xp`` holds the ops."""

    @abc.abstractmethod
    def _update_arrays(
        self, value: Any, g: Any, squared: Any, lr: Any, step: Any, slots: dict
    ) -> Any:
        """The eager update on arrays: the same formulas as :meth:`_update`, operation for
        operation (the same roundings), each new state array written once into a fresh
        buffer with ``out=`` (``slots`` gets the new slot arrays; ``squared``, when not
        None, is what ``square(g)`` is for a sparse gradient). Returns the new value."""

    @property
    def variables(self) -> list[Any]:
        """The optimizer's state: ``iterations``, then every slot variable (a property, as
        in Keras 3)."""
        return [self.iterations] + [slot for _, _, slot in self.slot_variables()]

    def build(self, var_list: Iterable[Variable]) -> None:
        """Creates the slots of ``var_list`` now rather than on their first update."""
        for variable in var_list:
            self._slots_for(variable)

    def apply(self, grads: Iterable[Any], trainable_variables: Iterable[Variable]) -> Variable:
        """Keras 3's ``apply(grads, trainable_variables)``: ``apply_gradients`` of the pairs."""
        return self.apply_gradients(zip(list(grads), list(trainable_variables)))


class SGD(Optimizer):
    """Gradient descent, with optional (Nesterov) momentum.

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> opt = rg.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    >>> _ = opt.apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4), int(opt.iterations.numpy())
    (0.95, 1)
    """

    def __init__(
        self,
        learning_rate: float = 0.01,
        momentum: float = 0.0,
        nesterov: bool = False,
        name: str = "SGD",
    ) -> None:
        super().__init__(learning_rate, name)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:  # (Keras' test)
            raise ValueError(
                f"`momentum` must be a float between [0, 1]. Received: momentum={momentum!r}"
            )
        self.momentum, self.nesterov = momentum, nesterov
        self._slot_names = ("momentum",) if momentum else ()

    def _update_arrays(self, value, g, squared, lr, step, slots):
        return update_kernels.sgd(value, g, lr, slots, self.momentum, self.nesterov)

    def _update(self, value, g, lr, step, slots, dt, xp):
        if not self.momentum:
            return value - g * lr
        momentum = dt(np.float32(self.momentum))  # (Keras casts it through float32)
        m = slots["momentum"] = slots["momentum"] * momentum - g * lr
        if self.nesterov:
            return value + (m * momentum - g * lr)
        return value + m


class Adam(Optimizer):
    """Adam (and AMSGrad): bias-corrected moving averages of the gradient and its square.

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> opt = rg.keras.optimizers.Adam(learning_rate=0.1)
    >>> _ = opt.apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4), int(opt.iterations.numpy())
    (0.9, 1)
    """

    def __init__(
        self,
        learning_rate: float = 0.001,
        beta_1: float = 0.9,
        beta_2: float = 0.999,
        epsilon: float = 1e-7,
        amsgrad: bool = False,
        name: str = "adam",
    ) -> None:
        super().__init__(learning_rate, name)
        arguments.check_hyperparameters(name, beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad
        self._slot_names = ("m", "v", "v_hat") if amsgrad else ("m", "v")

    def _update_arrays(self, value, g, squared, lr, step, slots):
        betas = (self.beta_1, self.beta_2)
        return update_kernels.adam(value, g, squared, lr, step, slots, betas, self.epsilon)

    def _update(self, value, g, lr, step, slots, dt, xp):
        alpha = (
            lr
            * xp.sqrt(dt(1) - xp.pow(dt(np.float32(self.beta_2)), step))
            / (dt(1) - xp.pow(dt(np.float32(self.beta_1)), step))
        )
        m = slots["m"] = slots["m"] + (g - slots["m"]) * dt(1 - self.beta_1)
        v = slots["v"] = slots["v"] + (xp.square(g) - slots["v"]) * dt(1 - self.beta_2)
        if self.amsgrad:
            v = slots["v_hat"] = xp.maximum(slots["v_hat"], v)
        return value - m * alpha / (xp.sqrt(v) + dt(self.epsilon))


class RMSprop(Optimizer):
    """RMSprop: divides by a moving root-mean-square of gradients (optionally centred).

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> opt = rg.keras.optimizers.RMSprop(learning_rate=0.1)
    >>> _ = opt.apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4), int(opt.iterations.numpy())
    (0.6838, 1)
    """

    def __init__(
        self,
        learning_rate: float = 0.001,
        rho: float = 0.9,
        momentum: float = 0.0,
        epsilon: float = 1e-7,
        centered: bool = False,
        name: str = "rmsprop",
    ) -> None:
        super().__init__(learning_rate, name)
        arguments.check_hyperparameters(name, rho=rho, momentum=momentum, epsilon=epsilon)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered
        self._slot_names = (
            ("velocity",)
            + (("momentum",) if momentum > 0 else ())
            + (("average_gradient",) if centered else ())
        )

    def _update_arrays(self, value, g, squared, lr, step, slots):
        rho, momentum, epsilon = self.rho, self.momentum, self.epsilon
        return update_kernels.rmsprop(value, g, squared, lr, slots, rho, momentum, epsilon)

    def _update(self, value, g, lr, step, slots, dt, xp):
        rho = dt(self.rho)
        velocity = slots["velocity"] = rho * slots["velocity"] + dt(1 - self.rho) * xp.square(g)
        if self.centered:
            average = slots["average_gradient"] = (
                rho * slots["average_gradient"] + dt(1 - self.rho) * g
            )
            denominator = velocity - xp.square(average) + dt(self.epsilon)
        else:
            denominator = velocity + dt(self.epsilon)
        increment = lr * g / xp.sqrt(denominator)
        if self.momentum > 0:
            increment = slots["momentum"] = dt(self.momentum) * slots["momentum"] + increment
        return value - increment


class Adagrad(Optimizer):
    """Adagrad: divides by the root of the running sum of squared gradients.

    >>> import retrograd as rg
    >>> w = rg.Variable(1.0)
    >>> opt = rg.keras.optimizers.Adagrad(learning_rate=0.1)
    >>> _ = opt.apply_gradients([(rg.constant(0.5), w)])
    >>> round(float(w.numpy()), 4), int(opt.iterations.numpy())
    (0.9155, 1)
    """

    def __init__(
        self,
        learning_rate: float = 0.001,
        initial_accumulator_value: float = 0.1,
        epsilon: float = 1e-7,
        name: str = "adagrad",
    ) -> None:
        super().__init__(learning_rate, name)
        arguments.check_hyperparameters(
            name, initial_accumulator_value=initial_accumulator_value, epsilon=epsilon
        )
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon
        self._slot_names = ("accumulator",)

    def _initial_slot(self, name, value):
        # (Keras' Constant initializer: the value reaches the variable's dtype through float32)
        return np.full_like(value, np.float32(self.initial_accumulator_value))

    def _update_arrays(self, value, g, squared, lr, step, slots):
        return update_kernels.adagrad(value, g, squared, lr, slots, self.epsilon)

    def _update(self, value, g, lr, step, slots, dt, xp):
        accumulator = slots["accumulator"] = slots["accumulator"] + xp.square(g)
        return value - lr * g / xp.sqrt(accumulator + dt(self.epsilon))
