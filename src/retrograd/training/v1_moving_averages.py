"""TensorFlow 1's ``train.ExponentialMovingAverage``: shadow variables that follow
variables (or tensors) by ``shadow -= (1 - decay) * (shadow - value)`` each time the op
that ``apply`` returns runs.

>>> import retrograd as rg, retrograd.compat.v1 as tf1
>>> g = rg.Graph()
>>> with g.as_default():
...     w = tf1.Variable(1.0, name="w")
...     ema = ExponentialMovingAverage(0.5)
...     update = ema.apply([w])
...     step = tf1.assign(w, 3.0).op
>>> with tf1.Session(graph=g) as sess:
...     sess.run(tf1.global_variables_initializer())
...     sess.run(step)
...     sess.run(update)
...     print(ema.average(w).name, sess.run(ema.average(w)))
w/ExponentialMovingAverage:0 2.0
"""

from __future__ import annotations

import contextlib
from typing import Any

from retrograd.core import dtypes
from retrograd.core.execute import context
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph.control_flow import cond
from retrograd.graph.graph import get_default_graph
from retrograd.graph.variables import GLOBAL_VARIABLES, TRAINABLE_VARIABLES, GraphVariable
from retrograd.ops import array_ops, math_ops
from retrograd.training.v1_optimizers import _after, _assign, _group, _new_variable
from retrograd.training.v1_variable_state import is_variable_initialized

__all__ = ["ExponentialMovingAverage", "MOVING_AVERAGE_VARIABLES"]

MOVING_AVERAGE_VARIABLES = "moving_average_variables"
_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _op_name(value: Any) -> str:
    return value.name.rpartition(":")[0] or value.name


def _collection(key: str) -> list:
    return [] if context.graph is None else get_default_graph().get_collection(key)


class ExponentialMovingAverage:
    """Moving averages of variables: ``apply(var_list)`` makes a shadow variable per
    variable (``<name>/ExponentialMovingAverage``, starting at the variable's value; zeros
    for a tensor) and returns the op updating them; ``average(var)`` is the shadow. With
    ``num_updates``, the decay is ``min(decay, (1 + n) / (10 + n))``; ``zero_debias``
    removes the zero start's bias of tensors' averages (variables' averages start at their
    value, as in TensorFlow)."""

    def __init__(
        self,
        decay: Any,
        num_updates: Any = None,
        zero_debias: bool = False,
        name: str = "ExponentialMovingAverage",
    ) -> None:
        self._decay, self._num_updates = decay, num_updates
        self._zero_debias, self._name = zero_debias, name
        self._averages: dict[Any, Any] = {}  # value -> shadow
        self._debiased: set[Any] = set()

    @property
    def name(self) -> str:
        """The name of this ExponentialMovingAverage object."""
        return self._name

    def _shadow_start(self, var: Any) -> Any:
        if context.graph is None or not isinstance(var, GraphVariable):
            return var.read_value()
        initial = var.initializer.inputs[0]
        return cond(is_variable_initialized(var), var.read_value, lambda: initial)

    def apply(self, var_list: Any = None) -> Any:
        """Makes the shadow variables of ``var_list`` (the trainable variables by default)
        and returns the op that updates them (eagerly: updates them now)."""
        if var_list is None:
            var_list = _collection(TRAINABLE_VARIABLES)
        for var in var_list:
            if isinstance(var, Tensor) and not isinstance(var, Variable) and context.graph is None:
                raise TypeError(
                    "tf.train.ExponentialMovingAverage does not support non-Variable tensors "
                    "when eager execution is enabled."
                )
            if var.dtype not in _FLOATS:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
        for var in var_list:
            if var.ref() in self._averages:
                continue
            name = f"{_op_name(var)}/{self._name}"
            if isinstance(var, Variable):
                with _outside_control_dependencies():
                    shadow = _new_variable(self._shadow_start(var), name)
                if context.graph is not None:
                    get_default_graph().add_to_collection(MOVING_AVERAGE_VARIABLES, var)
            else:
                with _outside_control_dependencies():
                    zeros = array_ops.zeros(var.shape.as_list(), var.dtype)
                    shadow = _new_variable(zeros, name)
                if self._zero_debias:
                    self._debiased.add(shadow.ref())
            self._averages[var.ref()] = shadow
        decay = convert_to_tensor(self._decay, dtype=dtypes.float32)
        if self._num_updates is not None:
            n = math_ops.cast(self._num_updates, dtypes.float32)
            decay = math_ops.minimum(decay, (1.0 + n) / (10.0 + n))
        updates = [self._update(self._averages[var.ref()], var, decay) for var in var_list]
        return _group(updates, self._name)

    def _update(self, shadow: Any, value: Any, decay: Any) -> Any:
        rate = 1.0 - math_ops.cast(decay, shadow.dtype)
        value = value.read_value() if isinstance(value, Variable) else value
        if shadow.ref() not in self._debiased:
            return _assign(shadow, shadow.read_value() - (shadow.read_value() - value) * rate)
        name = _op_name(shadow)
        with _outside_control_dependencies():
            biased = _new_variable(
                array_ops.zeros(shadow.shape.as_list(), shadow.dtype), f"{name}/biased"
            )
            local_step = _new_variable(convert_to_tensor(0.0, shadow.dtype), f"{name}/local_step")
        biased_new = biased.read_value() - (biased.read_value() - value) * rate
        step_new = local_step.read_value() + 1.0
        steps = [_assign(biased, biased_new), _assign(local_step, step_new)]
        with _after(steps):
            factor = 1.0 - math_ops.exp(math_ops.log1p(-rate) * step_new)
            return _group([_assign(shadow, biased_new / factor), *steps], "update")

    def average(self, var: Any) -> Any:
        """The shadow variable of ``var`` (None if ``apply`` did not see it)."""
        return self._averages.get(var.ref())

    def average_name(self, var: Any) -> str:
        """The name of ``var``'s shadow variable (existing or to be made)."""
        if var.ref() in self._averages:
            return _op_name(self._averages[var.ref()])
        return f"{_op_name(var)}/{self._name}"

    def variables_to_restore(self, moving_avg_variables: Any = None) -> dict:
        """A Saver's ``var_list`` restoring each averaged variable from its shadow's saved
        value (and the other global variables from their own)."""
        if moving_avg_variables is None:
            moving_avg_variables = _collection(TRAINABLE_VARIABLES) + _collection(
                MOVING_AVERAGE_VARIABLES
            )
        names: dict[str, Any] = {}
        for var in {v.ref(): v for v in moving_avg_variables}.values():
            names[self.average_name(var)] = var
        averaged = {var.name for var in moving_avg_variables}
        for var in {v.ref(): v for v in _collection(GLOBAL_VARIABLES)}.values():
            if var.name not in averaged and _op_name(var) not in names:
                names[_op_name(var)] = var
        return names


def _outside_control_dependencies() -> Any:
    """Shadow variables are made outside the caller's control dependencies (TensorFlow's
    ``init_scope``)."""
    if context.graph is None:
        return contextlib.nullcontext()
    return get_default_graph().control_dependencies(None)
