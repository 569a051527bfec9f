"""TensorFlow 1's optimizers (``compat.v1.train``): ``minimize`` = ``compute_gradients`` +
``apply_gradients``, with TensorFlow 1's update formulas, defaults and slot names
(``w/Momentum``, ``w/Adam``, ``w/Adam_1``, ``beta1_power`` ...), and the global step.

In a graph, ``minimize`` returns an op that applies one step each time it runs (the slots
are graph variables: run ``global_variables_initializer()`` after creating the optimizer's
ops). Eagerly, ``minimize`` takes a callable loss and steps at once.

>>> import retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     w = rg.compat.v1.Variable(1.0, name="w")
...     step = GradientDescentOptimizer(0.25).minimize(w * w)
...     init = rg.compat.v1.global_variables_initializer()
>>> with rg.compat.v1.Session(graph=g) as sess:
...     sess.run(init)
...     sess.run(step)
...     print(sess.run(w))
0.5
"""

from __future__ import annotations

import contextlib
import numbers
from typing import Any

from retrograd.autodiff.tape import GradientTape
from retrograd.core import dtypes
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import get_default_graph
from retrograd.graph.symbolic import gradients
from retrograd.graph.variables import (
    GLOBAL_VARIABLES,
    TRAINABLE_VARIABLES,
    GraphVariable,
    assign_op,
)
from retrograd.ops import array_ops, math_ops
from retrograd.ops.gather_ops import unsorted_segment_sum
from retrograd.ops.indexed_slices import IndexedSlices

__all__ = [
    "Optimizer",
    "GradientDescentOptimizer",
    "MomentumOptimizer",
    "AdamOptimizer",
    "RMSPropOptimizer",
    "AdagradOptimizer",
    "GLOBAL_STEP",
    "create_global_step",
    "get_global_step",
    "get_or_create_global_step",
]

GLOBAL_STEP = "global_step"

_NoOp = define_op("TrainNoOp", lambda: (), multi_output=True, shape_fn=lambda metas: [])
no_gradient("TrainNoOp")


def _new_variable(initial: Any, name: str, trainable: bool = False, collections=None) -> Any:
    if context.graph is None:
        return Variable(initial, trainable=trainable, name=name)
    graph = get_default_graph()
    with graph.name_scope(None):
        return GraphVariable(initial, trainable=trainable, name=name, collections=collections)


def _group(ops: list, name: str) -> Any:
    """In a graph, one op that waits for ``ops``; eagerly nothing (they have run)."""
    if context.graph is None:
        return None
    graph = get_default_graph()
    with graph.control_dependencies([op for op in ops if op is not None]):
        execute(_NoOp, (), None, name)
        return graph._operations[-1]


def _check_not_none(owner: str, **values: Any) -> None:
    """TensorFlow 1 fails on a None hyperparameter ("None values not supported.") when the
    update is built; this fails at construction, with the argument named."""
    for name, value in values.items():
        if value is None:
            raise ValueError(f"{owner}: None values not supported (argument `{name}` is None).")


def _base_name(var: Any) -> str:
    return var.name.rpartition(":")[0] or var.name


class Optimizer:
    """Base of the TF1 optimizers: subclasses give ``_create_slots``, ``_apply_dense`` (one
    variable's update, returning the assign op) and optionally ``_finish``."""

    def __init__(
        self, use_locking: bool, name: str, use_own_namescope_for_non_slot_vars: bool = False
    ) -> None:
        self._name = name
        self._own_scope = use_own_namescope_for_non_slot_vars  # beta1_power -> Adam/beta1_power
        self._slots: dict[str, dict[int, Any]] = {}
        self._non_slots: dict[str, Any] = {}

    def get_name(self) -> str:
        return self._name

    # -- the TF1 interface ----------------------------------------------------------------
    def minimize(
        self,
        loss: Any,
        global_step: Any = None,
        var_list: Any = None,
        gate_gradients: int = 1,
        aggregation_method: Any = None,
        colocate_gradients_with_ops: bool = False,
        name: str | None = None,
        grad_loss: Any = None,
    ) -> Any:
        """``apply_gradients(compute_gradients(loss, var_list), global_step)``."""
        pairs = self.compute_gradients(loss, var_list, grad_loss=grad_loss)
        if not any(g is not None for g, _ in pairs):
            names = [v.name for _, v in pairs]
            raise ValueError(
                f"No gradients provided for any variable, check your graph for ops that do not "
                f"support gradients, between variables {names} and loss {loss}."
            )
        return self.apply_gradients(pairs, global_step=global_step, name=name)

    def compute_gradients(
        self,
        loss: Any,
        var_list: Any = None,
        gate_gradients: int = 1,
        aggregation_method: Any = None,
        colocate_gradients_with_ops: bool = False,
        grad_loss: Any = None,
    ) -> list[tuple[Any, Any]]:
        """``[(gradient, variable), ...]`` of ``loss`` for ``var_list`` (default: the
        trainable variables of the graph); a gradient is None where ``loss`` does not
        depend on the variable. Eagerly, ``loss`` must be a callable."""
        if context.graph is None:
            if not callable(loss):
                raise RuntimeError(
                    "compute_gradients: with eager execution, loss must be a callable"
                )
            if var_list is None:
                raise ValueError("compute_gradients: eagerly, give var_list")
            with GradientTape() as tape:
                value = loss()
            grads = tape.gradient(value, list(var_list), output_gradients=grad_loss)
            return list(zip(grads, var_list))
        if callable(loss):
            loss = loss()
        if var_list is None:
            var_list = get_default_graph().get_collection(TRAINABLE_VARIABLES)
        var_list = list(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients(loss, var_list, grad_ys=grad_loss)
        return list(zip(grads, var_list))

    def apply_gradients(
        self, grads_and_vars: Any, global_step: Any = None, name: str | None = None
    ) -> Any:
        """One update of each variable with a gradient; then ``global_step += 1``. In a graph,
        returns the op doing it."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError(
                f"No gradients provided for any variable: {[v.name for _, v in grads_and_vars]}"
            )
        variables = [v for _, v in pairs]
        self._create_slots(variables)
        self._prepare()
        updates = [
            self._apply_sparse(g, v)
            if isinstance(g, IndexedSlices)
            else self._apply_dense(convert_to_tensor(g), v)
            for g, v in pairs
        ]
        finish = self._finish(updates)
        if global_step is None:
            return _group(finish, name or self._name)
        if context.graph is None:
            global_step.assign_add(1)
            return None
        graph = get_default_graph()
        with graph.control_dependencies(finish):
            return global_step.assign_add(
                convert_to_tensor(1, dtype=global_step.dtype), read_value=False
            )

    def get_slot_names(self) -> list[str]:
        return sorted(self._slots)

    def get_slot(self, var: Any, name: str) -> Any:
        return self._slots.get(name, {}).get(id(var))

    def variables(self) -> list[Any]:
        """The optimizer's own variables (slots and non-slot ones)."""
        found = list(self._non_slots.values())
        for table in self._slots.values():
            found += list(table.values())
        return found

    # -- helpers for subclasses -------------------------------------------------------------
    def _zeros_slot(self, var: Any, slot: str, op_name: str) -> Any:
        return self._slot(var, slot, op_name, array_ops.zeros(var.shape.as_list(), var.dtype))

    def _slot(self, var: Any, slot: str, op_name: str, initial: Any) -> Any:
        table = self._slots.setdefault(slot, {})
        if id(var) not in table:
            table[id(var)] = _new_variable(initial, f"{_base_name(var)}/{op_name}")
        return table[id(var)]

    def _non_slot(self, name: str, initial: float, dtype: Any) -> Any:
        if name not in self._non_slots:
            full = f"{self._name}/{name}" if self._own_scope else name
            self._non_slots[name] = _new_variable(convert_to_tensor(initial, dtype=dtype), full)
        return self._non_slots[name]

    def _create_slots(self, variables: list) -> None:
        pass

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        """A sparse gradient's update: TF1 first adds up the slices of repeated rows; for
        GradientDescent, Adagrad and Adam its sparse kernels then give the dense update of
        that sum (an untouched row's gradient is zero). Momentum and RMSProp update only the
        touched rows (``_touched_rows``)."""
        return self._apply_dense(convert_to_tensor(grad), var)

    def _prepare(self) -> None:
        pass

    def _finish(self, updates: list) -> list:
        return updates

    def _hyper(self, value: Any, var: Any) -> Any:
        value = value() if callable(value) else value
        return math_ops.cast(convert_to_tensor(value), var.dtype)


def _assign(var: Any, value: Any) -> Any:
    """Assigns; in a graph, returns the assign op."""
    if context.graph is None:
        return var.assign(value, read_value=False)
    return assign_op(var, value)


class GradientDescentOptimizer(Optimizer):
    """``var -= learning_rate * grad``."""

    def __init__(self, learning_rate: Any, use_locking: bool = False, name="GradientDescent"):
        super().__init__(use_locking, name)
        _check_not_none(name, learning_rate=learning_rate)
        self._learning_rate = learning_rate

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return _assign(var, var.read_value() - grad * self._hyper(self._learning_rate, var))


class MomentumOptimizer(Optimizer):
    """``accum = momentum * accum + grad; var -= lr * accum`` (Nesterov:
    ``var -= lr * grad + lr * momentum * accum``)."""

    def __init__(
        self,
        learning_rate: Any,
        momentum: Any,
        use_locking: bool = False,
        name: str = "Momentum",
        use_nesterov: bool = False,
    ) -> None:
        super().__init__(use_locking, name)
        _check_not_none(name, learning_rate=learning_rate, momentum=momentum)
        self._learning_rate, self._momentum, self._nesterov = learning_rate, momentum, use_nesterov

    def _create_slots(self, variables: list) -> None:
        for var in variables:
            self._zeros_slot(var, "momentum", self._name)

    def _apply_dense(self, grad: Any, var: Any, touched: Any = None) -> Any:
        lr, momentum = self._hyper(self._learning_rate, var), self._hyper(self._momentum, var)
        accum = self.get_slot(var, "momentum")
        accum_read = accum.read_value()
        new_accum = _only(touched, accum_read * momentum + grad, accum_read)
        update = _assign(accum, new_accum)
        with _after(update):
            step = grad * lr + new_accum * momentum * lr if self._nesterov else new_accum * lr
            var_read = var.read_value()
            return _group(
                [_assign(var, _only(touched, var_read - step, var_read)), update], "update"
            )

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        return self._apply_dense(convert_to_tensor(grad), var, _touched_rows(grad, var))


class AdamOptimizer(Optimizer):
    """Adam as TensorFlow 1 applies it: ``lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)``,
    ``m += (g - m)(1 - beta1)``, ``v += (g² - v)(1 - beta2)``,
    ``var -= lr_t m / (sqrt(v) + epsilon)``; ``beta1_power``/``beta2_power`` advance after."""

    def __init__(
        self,
        learning_rate: Any = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        use_locking: bool = False,
        name: str = "Adam",
        use_own_namescope_for_non_slot_vars: bool = False,
    ) -> None:
        super().__init__(use_locking, name, use_own_namescope_for_non_slot_vars)
        _check_not_none(
            name, learning_rate=learning_rate, beta1=beta1, beta2=beta2, epsilon=epsilon
        )
        self._lr, self._beta1, self._beta2, self._epsilon = learning_rate, beta1, beta2, epsilon

    def _create_slots(self, variables: list) -> None:
        first = min(variables, key=lambda v: v.name)
        self._non_slot("beta1_power", self._beta1, first.dtype)
        self._non_slot("beta2_power", self._beta2, first.dtype)
        for var in variables:
            self._zeros_slot(var, "m", self._name)
            self._zeros_slot(var, "v", self._name + "_1")

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        b1p = math_ops.cast(self._non_slots["beta1_power"].read_value(), var.dtype)
        b2p = math_ops.cast(self._non_slots["beta2_power"].read_value(), var.dtype)
        lr, beta1 = self._hyper(self._lr, var), self._hyper(self._beta1, var)
        beta2, eps = self._hyper(self._beta2, var), self._hyper(self._epsilon, var)
        one = math_ops.cast(convert_to_tensor(1.0), var.dtype)
        alpha = lr * math_ops.sqrt(one - b2p) / (one - b1p)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_read, v_read = m.read_value(), v.read_value()
        m_new = m_read + (grad - m_read) * (one - beta1)
        v_new = v_read + (math_ops.square(grad) - v_read) * (one - beta2)
        updates = [_assign(m, m_new), _assign(v, v_new)]
        with _after(updates):
            step = (m_new * alpha) / (math_ops.sqrt(v_new) + eps)
            return _group([_assign(var, var.read_value() - step), *updates], "update")

    def _finish(self, updates: list) -> list:
        with _after(updates):
            b1, b2 = self._non_slots["beta1_power"], self._non_slots["beta2_power"]
            return [
                *updates,
                _assign(b1, b1.read_value() * self._hyper(self._beta1, b1)),
                _assign(b2, b2.read_value() * self._hyper(self._beta2, b2)),
            ]


class RMSPropOptimizer(Optimizer):
    """``ms += (g² - ms)(1 - decay)``; ``mom = momentum mom + lr g / sqrt(ms + epsilon)``;
    ``var -= mom`` (centered: the denominator is ``sqrt(ms - mg² + epsilon)``); ``ms``
    starts at ones, as in TensorFlow 1."""

    def __init__(
        self,
        learning_rate: Any,
        decay: float = 0.9,
        momentum: float = 0.0,
        epsilon: float = 1e-10,
        use_locking: bool = False,
        centered: bool = False,
        name: str = "RMSProp",
    ) -> None:
        super().__init__(use_locking, name)
        _check_not_none(
            name, learning_rate=learning_rate, decay=decay, momentum=momentum, epsilon=epsilon
        )
        self._lr, self._decay, self._momentum = learning_rate, decay, momentum
        self._epsilon, self._centered = epsilon, centered

    def _create_slots(self, variables: list) -> None:
        for var in variables:
            ones = array_ops.ones(var.shape.as_list(), var.dtype)
            self._slot(var, "rms", self._name, ones)
            if self._centered:
                self._zeros_slot(var, "mg", self._name + "_mg")
            self._zeros_slot(var, "momentum", self._name + "_1")

    def _apply_dense(self, grad: Any, var: Any, touched: Any = None) -> Any:
        lr, decay = self._hyper(self._lr, var), self._hyper(self._decay, var)
        momentum, eps = self._hyper(self._momentum, var), self._hyper(self._epsilon, var)
        one = math_ops.cast(convert_to_tensor(1.0), var.dtype)
        ms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        ms_read = ms.read_value()
        ms_new = _only(
            touched, ms_read + (math_ops.square(grad) - ms_read) * (one - decay), ms_read
        )
        updates = [_assign(ms, ms_new)]
        denom = ms_new + eps
        if self._centered:
            mg = self.get_slot(var, "mg")
            mg_read = mg.read_value()
            mg_new = _only(touched, mg_read + (grad - mg_read) * (one - decay), mg_read)
            updates.append(_assign(mg, mg_new))
            denom = ms_new - math_ops.square(mg_new) + eps
        mom_read = mom.read_value()
        mom_new = _only(touched, mom_read * momentum + lr * grad / math_ops.sqrt(denom), mom_read)
        updates.append(_assign(mom, mom_new))
        with _after(updates):
            var_read = var.read_value()
            new = _only(touched, var_read - mom_new, var_read)
            return _group([_assign(var, new), *updates], "update")

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        return self._apply_dense(convert_to_tensor(grad), var, _touched_rows(grad, var))


class AdagradOptimizer(Optimizer):
    """``accum += g²; var -= lr g / sqrt(accum)`` (``accum`` starts at
    ``initial_accumulator_value``)."""

    def __init__(
        self,
        learning_rate: Any,
        initial_accumulator_value: float = 0.1,
        use_locking: bool = False,
        name: str = "Adagrad",
    ) -> None:
        super().__init__(use_locking, name)
        _check_not_none(name, learning_rate=learning_rate)
        if not isinstance(initial_accumulator_value, numbers.Real):  # (TensorFlow: TypeError)
            raise TypeError(
                f"{name}: initial_accumulator_value must be a number, got "
                f"{initial_accumulator_value!r}"
            )
        if initial_accumulator_value <= 0.0:
            raise ValueError(
                f"initial_accumulator_value must be positive: {initial_accumulator_value}"
            )
        self._lr, self._initial = learning_rate, initial_accumulator_value

    def _create_slots(self, variables: list) -> None:
        for var in variables:
            start = array_ops.fill(var.shape.as_list(), convert_to_tensor(self._initial, var.dtype))
            self._slot(var, "accumulator", self._name, start)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        accum = self.get_slot(var, "accumulator")
        accum_new = accum.read_value() + math_ops.square(grad)
        update = _assign(accum, accum_new)
        with _after(update):
            step = grad * self._hyper(self._lr, var) * math_ops.rsqrt(accum_new)
            return _group([_assign(var, var.read_value() - step), update], "update")


def _touched_rows(grad: IndexedSlices, var: Any) -> Any:
    """A boolean tensor shaped ``[rows, 1, ...]`` (broadcasting like ``var``): whether a
    sparse gradient has a slice for each row of ``var``."""
    rows = var.shape.as_list()[0]
    ones = array_ops.ones_like(math_ops.cast(grad.indices, var.dtype))
    counts = unsorted_segment_sum(ones, grad.indices, rows)
    return array_ops.reshape(counts > 0, [rows] + [1] * (len(var.shape.as_list()) - 1))


def _only(touched: Any, new: Any, old: Any) -> Any:
    """``new`` in the touched rows and ``old`` elsewhere (all of ``new`` when dense)."""
    return new if touched is None else array_ops.where(touched, new, old)


def _after(ops: Any) -> Any:
    """A block whose ops run after ``ops`` (in a graph; eagerly, they already ran)."""
    if context.graph is None:
        return contextlib.nullcontext()
    ops = ops if isinstance(ops, list) else [ops]
    return get_default_graph().control_dependencies([op for op in ops if op is not None])


# -- the global step -----------------------------------------------------------------------


def get_global_step(graph: Any = None) -> Any:
    """The global step variable of ``graph`` (the default graph), or None."""
    graph = graph or get_default_graph()
    found = graph.get_collection(GLOBAL_STEP)
    if len(found) > 1:
        raise TypeError("There are multiple items in collection global_step")
    return found[0] if found else None


def create_global_step(graph: Any = None) -> Any:
    """A new int64 scalar variable ``global_step`` (0), not trainable."""
    graph = graph or get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    with graph.as_default(), graph.name_scope(None):
        step = GraphVariable(
            convert_to_tensor(0, dtype=dtypes.int64),
            trainable=False,
            name="global_step",
            collections=[GLOBAL_VARIABLES, GLOBAL_STEP],
        )
    return step


def get_or_create_global_step(graph: Any = None) -> Any:
    """The global step of ``graph``, created first if it has none."""
    step = get_global_step(graph)
    return create_global_step(graph) if step is None else step
