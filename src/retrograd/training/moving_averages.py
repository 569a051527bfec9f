"""``tf.train.ExponentialMovingAverage``: shadow copies of variables that follow them with
exponential decay, ``shadow -= (1 - decay) * (shadow - variable)`` at each ``apply``.

With ``num_updates`` the decay is ``min(decay, (1 + num_updates) / (10 + num_updates))``
(faster at the start). The average of a variable starts at its value; that of a tensor at
zero, and with ``zero_debias`` the bias of starting from zero is divided out, as
TensorFlow's (Adam's) correction.

>>> import retrograd as tf
>>> v = tf.Variable(1.0, name="v")
>>> ema = tf.train.ExponentialMovingAverage(decay=0.5)
>>> ema.apply([v])
>>> _ = v.assign(3.0)
>>> ema.apply([v])
>>> float(ema.average(v)), ema.average_name(v)
(2.0, 'v/ExponentialMovingAverage')
"""

from __future__ import annotations

from typing import Any

from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph.control_ops import init_scope
from retrograd.ops import math_ops

__all__ = ["ExponentialMovingAverage"]


def _op_name(var: Any) -> str:
    name = getattr(var, "name", None) or "Variable"
    return name[:-2] if name.endswith(":0") else name


class ExponentialMovingAverage:
    """Maintains moving averages of variables (see the module docstring).

    >>> import retrograd as tf
    >>> ema = tf.train.ExponentialMovingAverage(0.9, num_updates=0)
    >>> ema.name
    'ExponentialMovingAverage'
    """

    def __init__(
        self,
        decay: Any,
        num_updates: Any = None,
        zero_debias: bool = False,
        name: str = "ExponentialMovingAverage",
    ) -> None:
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages: dict[int, Variable] = {}
        self._biased: dict[int, tuple[Variable, Variable]] = {}

    @property
    def name(self) -> str:
        return self._name

    def _effective_decay(self, dtype: Any) -> Tensor:
        decay = math_ops.cast(convert_to_tensor(self._decay), dtype)
        if self._num_updates is not None:
            n = math_ops.cast(convert_to_tensor(self._num_updates), dtype)
            decay = math_ops.minimum(decay, (1.0 + n) / (10.0 + n))
        return decay

    def apply(self, var_list: Any = None) -> None:
        """Creates the shadow variables of ``var_list`` (at the variables' values) if needed,
        then moves each average toward its variable."""
        if var_list is None:
            raise ValueError("var_list must be given (retrograd has no trainable collection)")
        for var in var_list:
            dtype = var.dtype
            if not (dtype.is_floating or dtype.is_complex):
                raise TypeError(
                    "The variables must be half, float, or double: "
                    f"{_op_name(var)}, got {dtype.name}"
                )
            if id(var) not in self._averages:
                with init_scope():  # created once, outside any function being traced
                    self._create(var)
        for var in var_list:
            average = self._averages[id(var)]
            decay = self._effective_decay(var.dtype)
            value = convert_to_tensor(var)
            if id(var) in self._biased:
                biased, steps = self._biased[id(var)]
                biased.assign_sub((biased - value) * (1.0 - decay))
                steps.assign_add(1.0)
                average.assign(biased / (1.0 - math_ops.pow(decay, steps)))
            else:
                average.assign_sub((average - value) * (1.0 - decay))

    def _create(self, var: Any) -> None:
        is_variable = isinstance(var, Variable)
        initial = var.read_value() if is_variable else convert_to_tensor(var)
        start = initial if is_variable else math_ops.multiply(initial, 0)
        name = self.average_name(var)
        self._averages[id(var)] = Variable(start, trainable=False, name=name)
        if self._zero_debias and not is_variable:
            biased = Variable(math_ops.multiply(initial, 0), trainable=False)
            steps = Variable(0.0, trainable=False, dtype=initial.dtype)
            self._biased[id(var)] = (biased, steps)

    def average(self, var: Any) -> Variable | None:
        """The shadow variable of ``var`` (None if ``apply`` has not seen it)."""
        return self._averages.get(id(var))

    def average_name(self, var: Any) -> str:
        """The name the shadow variable of ``var`` has: ``<var name>/<ema name>``."""
        return f"{_op_name(var)}/{self._name}"

    def variables_to_restore(self, moving_avg_variables: Any = None) -> dict[str, Any]:
        """For restoring the averages into the variables: ``{average name: variable}``."""
        variables = list(moving_avg_variables or [])
        out = {self.average_name(v): v for v in variables}
        return out
