"""``ConcreteFunction``: one trace of a ``function`` — a graph with placeholder inputs, its
captured values and variables, and a compiled plan — and ``PartitionedCall``, the op that
calls it (one op on the tapes that watch its inputs). Its gradient is another traced
function — the symbolic gradient of the traced graph — called the same way, so higher
derivatives through calls work too. Variables are captured by reference: reads and
assignments inside happen when the function runs.

>>> import retrograd as rg
>>> @rg.function
... def f(x):
...     return rg.reduce_sum(x * x)
>>> x = rg.constant([1.0, 2.0])
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = f(x)
>>> y, tape.gradient(y, x).numpy().tolist(), f.experimental_get_tracing_count()
(<retrograd.Tensor: shape=(), dtype=float32, numpy=5.0>, [2.0, 4.0], 1)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from retrograd.autodiff.overrides import override_key
from retrograd.core import nest
from retrograd.core.execute import context, define_op, execute, variable_accessed
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import Graph, SymbolicTensor, placeholder
from retrograd.graph.plan import Plan, ops_needed
from retrograd.graph.symbolic import gradients
from retrograd.ops import array_ops
from retrograd.ops.indexed_slices import IndexedSlices

__all__ = ["ConcreteFunction", "Residuals", "captured_variables"]


class ConcreteFunction:
    """One trace: a graph with placeholder inputs, captured variables and a compiled plan.

    A call returns, after the outputs, the value each variable read and each stateful op (a
    random draw) produced (``reads``): the gradient is computed from those values rather than
    from the variables as they are later (the function may have assigned them) or from new
    draws (dropout's gradient must use the mask of its forward pass). A call that a tape may
    differentiate also keeps the forward values its gradient needs (``saved``) in its record,
    so a first-order gradient does not compute the forward pass again.
    """

    def __init__(
        self,
        graph: Graph,
        inputs: list,
        outputs: Any,
        name: str,
        stateful: bool = True,
        reads: list | None = None,
        variables: list | None = None,
        captured_inputs: list | None = None,
    ) -> None:
        self.graph = graph
        self.inputs = inputs  # placeholders: one per tensor argument, then one per capture
        # Values from outside passed in every call: enclosing-graph tensors and eager tensors.
        self._captured = captured_inputs or []
        self.structured_outputs = outputs
        self.outputs = [t for t in nest.flatten(outputs) if isinstance(t, (Tensor, Variable))]
        for t in self.outputs:
            made_in = getattr(getattr(t, "op", None), "graph", None)
            if made_in is not None and made_in is not graph and not graph._encloses(made_in):
                raise graph.out_of_scope(t)  # made in a branch or body inside: leaked
        self._single_output = isinstance(outputs, (Tensor, Variable))
        self._shallow_outputs = type(outputs) in (list, tuple) and not any(
            nest.is_nested(v) for v in outputs
        )
        # An IndexedSlices returned (a tape's gradient of a gather) is returned as one: its
        # parts are outputs of their own.
        self._slices = any(type(v) is IndexedSlices for v in nest.flatten(outputs))
        if self._slices:
            self._single_output = self._shallow_outputs = False
            self.outputs = [t for v in nest.flatten(outputs) for t in _output_parts(v)]
        self.name = name
        # The specs and Python values it was traced for, ``(args, kwargs)`` (set by the
        # ``function`` that traced it).
        self.structured_input_signature: tuple = ((), {})
        self.variables = captured_variables(graph) if variables is None else variables
        self.reads = _saved_values(graph) if reads is None else reads
        self._stateful = stateful
        self._forward_ops = len(graph.get_operations())  # later ops belong to gradients
        self._plan_plain: Plan | None = None  # compiled at the first call, as TensorFlow does
        self._backward: dict[Hashable, ConcreteFunction] = {}
        self._saved: list | None = None
        self._plan_saving: Plan | None = None

    @property
    def forward_operations(self) -> list:
        """The ops its trace created; those added to its graph later compute its gradients."""
        return self.graph.get_operations()[: self._forward_ops]

    @property
    def captured_inputs(self) -> list:
        """The values from outside the function that every call passes in: the tensors it
        closes over (fed as inputs, so gradients reach them), then the variables it uses."""
        return [*self._captured, *self.variables]

    @property
    def _plan(self) -> Plan:
        if self._plan_plain is None:
            self._plan_plain = self._forward_plan([])
        return self._plan_plain

    def _forward_plan(self, saved: list) -> Plan:
        # The stateful ops of the forward pass run at every call; those of gradients added to
        # the graph later (a print in a gradient function) run only when their gradient does.
        keep = _ForwardOps(self.graph, self._forward_ops) if self._stateful else None
        return Plan.for_outputs(
            [*self.outputs, *self.reads, *saved], self.inputs, keep_stateful_of=keep
        )

    def output_specs(self) -> list[tuple]:
        return [(t._value.shape, t._value.dtype) for t in (*self.outputs, *self.reads)]

    def __call__(self, *args: Tensor) -> Any:
        """Runs the graph on tensors matching ``inputs``; returns the structured outputs."""
        for v in self.variables:  # a call reads its variables: watching tapes see that
            if v.trainable and (context.recording or context.variable_watchers):
                variable_accessed(v)
        inputs = [*args, *self._captured, *self.variables]
        attrs: dict[str, Any] = {"f": self}
        if context.recording and context.graph is None:  # a tape may differentiate this call
            attrs["residuals"] = Residuals()
        # In a graph the call op is named as TensorFlow names it (PartitionedCall, ...): the
        # function's own name ('<lambda>', '_helper') need not be a valid op name.
        name = self.name if context.graph is None else None
        flat = execute(_PartitionedCall, inputs, attrs, name)
        return self._structured(flat)

    def _structured(self, flat: Any) -> Any:
        """The outputs in the structure the Python function returned them."""
        if self._single_output:
            return flat[0]
        leaves = iter(flat[: len(self.outputs)])
        if self._slices:
            return nest.pack_sequence_as(
                self.structured_outputs,
                [_filled(v, leaves) for v in nest.flatten(self.structured_outputs)],
            )
        if self._shallow_outputs:  # a list or tuple of values: no nest needed
            filled = [
                next(leaves) if isinstance(v, (Tensor, Variable)) else v
                for v in self.structured_outputs
            ]
            return filled if type(self.structured_outputs) is list else tuple(filled)
        return nest.pack_sequence_as(
            self.structured_outputs,
            [
                next(leaves) if isinstance(v, (Tensor, Variable)) else v
                for v in nest.flatten(self.structured_outputs)
            ],
        )

    def _run(self, values: tuple, residuals: Residuals | None = None) -> tuple:
        """The outputs and reads computed from ``values``; ``residuals`` receives the saved
        forward values."""
        values = values[: len(self.inputs)]
        if residuals is None:
            return self._plan(*values)
        if self._plan_saving is None:
            self._plan_saving = self._forward_plan(self.saved())
        results = self._plan_saving(*values)
        returned = len(self.outputs) + len(self.reads)
        residuals.values = results[returned:]
        return results[:returned]

    def call_on_values(self, values: list) -> Any:
        """Runs the plan on NumPy values (one per input) without recording anything, for
        callers that already hold values: the structured outputs, as tensors. The plan takes
        the list (``Plan.take``: it is emptied), so a value only it held is freed early."""
        flat = self._plan.take(values)  # variables are read inside the plan
        return self._structured([Tensor(v) for v in flat])

    def backward_function(self, wanted: tuple = ()) -> ConcreteFunction:
        """The gradient as a traced function of (inputs..., upstream per output..., values
        read...): one gradient per input and per variable (None for those not ``wanted``, a
        tuple of flags; all by default). It computes the forward pass again; see
        ``saving_backward``."""
        targets = [*self.inputs, *self.variables]
        wanted = wanted or (True,) * len(targets)
        key = ("plain", wanted, override_key())  # traced under the override scope of now
        if key not in self._backward:
            with self.graph.as_default():
                upstream = [
                    placeholder(t.dtype, t._value.shape, name="upstream") for t in self.outputs
                ]
                # The inputs are leaves: values fed to this function (saved forward values
                # among them) are not differentiated through the ops that made them here.
                found = iter(
                    gradients(
                        self.outputs,
                        [t for t, w in zip(targets, wanted) if w],
                        grad_ys=upstream,
                        stop_gradients=self.inputs,
                    )
                )
                # (a sparse gradient, gather's, is an output like any: made dense)
                grads = [_dense_or_none(next(found)) if w else None for w in wanted]
            self._backward[key] = self._gradient_function(
                [*self.inputs, *upstream, *self.reads], grads
            )
        return self._backward[key]

    def saving_backward(self, wanted: tuple = ()) -> ConcreteFunction:
        """The gradient fed the saved forward values: (inputs..., upstream per output...,
        values read..., saved values...) -> as ``backward_function``."""
        key = ("saving", wanted, override_key())
        if key not in self._backward:
            plain = self.backward_function(wanted=wanted)
            self._backward[key] = self._gradient_function(
                [*plain.inputs, *self.saved()], plain.structured_outputs
            )
        return self._backward[key]

    def _gradient_function(self, inputs: list, grads: Any) -> ConcreteFunction:
        # Fed the forward call's read values if it returns them (then it reads no variable
        # itself, and its gradient reaches the variables through those reads), and without
        # the stateful ops: assignments and prints ran in the forward call.
        return ConcreteFunction(
            self.graph,
            inputs,
            grads,
            f"{self.name}_grad",
            stateful=False,
            reads=[],
            variables=[] if any(_is_variable_read(r) for r in self.reads) else self.variables,
        )

    def saved(self) -> list:
        """The forward values the gradient ops use (besides inputs, reads and constants)."""
        if self._saved is None:
            plain = self.backward_function()
            order = {id(op): i for i, op in enumerate(self.graph.get_operations())}
            fed = {id(t) for t in plain.inputs}

            def forward_value(v: Any) -> bool:
                return (
                    isinstance(v, SymbolicTensor)
                    and id(v) not in fed
                    and order[id(v.op)] < self._forward_ops
                    and v.op.type != "Const"
                )

            found: dict[int, Any] = {}
            for op in ops_needed(plain.outputs, fed):
                if order[id(op)] >= self._forward_ops:  # a gradient op
                    found.update((id(v), v) for v in op.inputs if forward_value(v))
            found.update((id(t), t) for t in plain.outputs if forward_value(t))
            self._saved = list(found.values())
        return self._saved

    def __repr__(self) -> str:
        return (
            f"<ConcreteFunction {self.name} inputs={len(self.inputs)} outputs={len(self.outputs)}>"
        )


class _ForwardOps:
    """The first ``count`` operations of ``graph``: the ops of a trace, without gradients
    added to its graph afterwards."""

    __slots__ = ("graph", "count")

    def __init__(self, graph: Graph, count: int) -> None:
        self.graph, self.count = graph, count

    def get_operations(self) -> list:
        return self.graph.get_operations()[: self.count]


class Residuals:
    """The forward values one call keeps for its gradient, held by the call's record.

    They are a cache, not outputs: a first-order gradient computed while nothing records
    uses them; a gradient that is itself differentiated computes them again from the inputs,
    so that higher derivatives flow through them.
    """

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: tuple | None = None

    def __repr__(self) -> str:
        kept = "none yet" if self.values is None else len(self.values)
        return f"<Residuals: {kept}>"


def _saved_values(graph: Graph) -> list:
    """Values a call returns for its gradient: variable reads and stateful ops' outputs."""
    return [
        out
        for op in graph.get_operations()
        if op.type == "ReadVariableOp" or op.op_def.stateful
        for out in op.outputs
    ]


def _is_variable_read(value: Any) -> bool:
    return value.op.type == "ReadVariableOp"


def captured_variables(graph: Graph) -> list[Variable]:
    found: dict[int, Variable] = {}
    for op in graph.get_operations():
        for value in op.inputs:
            if isinstance(value, Variable):
                found.setdefault(id(value), value)
        variable = op._attrs.get("variable") if op.type == "AssignVariableOp" else None
        if variable is not None:
            found.setdefault(id(variable), variable)
    return list(found.values())


def _call_kernel(*values: Any, f: ConcreteFunction, residuals: Residuals | None = None) -> tuple:
    return tuple(f._run(values, residuals))


_PartitionedCall = define_op(
    "PartitionedCall",
    _call_kernel,
    multi_output=True,
    shape_fn=lambda metas, f, **_: f.output_specs(),
    missing_upstream="none",
)


@op_gradient("PartitionedCall")
def _call_grad(op, *upstream):
    f = op._attrs["f"]
    n, n_out, n_reads = len(f.inputs), len(f.outputs), len(f.reads)
    inputs = op.inputs[:n]
    up_out = [array_ops.zeros_like(y) if g is None else g for g, y in zip(upstream, op.outputs)]
    up_out = up_out[:n_out]
    reads = op.outputs[n_out : n_out + n_reads]
    skip = op.skip_input_indices  # the call's inputs are the function's, then its variables
    wanted = tuple(i not in skip for i in range(len(op.inputs))) if skip else ()
    residuals = op._attrs.get("residuals")
    kept = None if residuals is None else residuals.values
    if kept is not None and not context.recording:
        # First order, and nothing records the gradient: run it on the kept forward values.
        fed = [t._value for t in (*inputs, *up_out, *reads)]
        fed += kept
        if op.released:  # the record's last use: the plan frees each value after its last use
            residuals.values = kept = None
        grads = f.saving_backward(wanted).call_on_values(fed)
    else:  # a gradient that may be differentiated again computes the forward values anew
        grads = f.backward_function(wanted=wanted)(*inputs, *up_out, *reads)
    grads = list(grads)
    if not n_reads:
        return grads
    # A read value used by a higher-order gradient passes its gradient on to its variable.
    position = {id(v): n + i for i, v in enumerate(f.variables)}
    for read, g in zip(f.reads, upstream[n_out : n_out + n_reads]):
        if g is not None and _is_variable_read(read) and read._value.dtype.kind in "fc":
            i = position[id(read.op.inputs[0])]
            grads[i] = g if grads[i] is None else grads[i] + g
    return grads


def _dense_or_none(g: Any) -> Any:
    """A gradient as a tensor (an IndexedSlices made dense), or None."""
    return None if g is None else convert_to_tensor(g)


def _output_parts(value: Any) -> list:
    """The tensors a returned value gives the function's outputs: itself, an IndexedSlices'
    parts, or nothing (a Python value is returned as it is)."""
    if type(value) is IndexedSlices:
        shape = [] if value.dense_shape is None else [value.dense_shape]
        return [value.values, value.indices, *shape]
    return [value] if isinstance(value, (Tensor, Variable)) else []


def _filled(value: Any, leaves: Any) -> Any:
    """A returned value rebuilt from the function's computed outputs ``leaves``."""
    if type(value) is IndexedSlices:
        values, indices = next(leaves), next(leaves)
        shape = None if value.dense_shape is None else next(leaves)
        rebuilt = IndexedSlices(values, indices, shape)
        rebuilt._static_shape = value._static_shape
        return rebuilt
    return next(leaves) if isinstance(value, (Tensor, Variable)) else value
