"""``function``: a Python function traced into a graph once per input signature, then run
as compiled straight-line code (TensorFlow's ``tf.function``).

A call is one op (``PartitionedCall``) on the tapes that watch its inputs; its gradient is
another traced function — the symbolic gradient of the traced graph — called the same
way, so higher derivatives through calls work too. Variables are captured by reference:
reads and assignments inside happen when the function runs.

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

import functools
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from retrograd.autodiff.overrides import override_key
from retrograd.core import dtypes, nest
from retrograd.core.errors import UnimplementedError
from retrograd.core.execute import context, define_op, execute, variable_accessed
from retrograd.core.names import valid_name_from
from retrograd.core.registry import RegisterGradient, accepts_missing_upstream
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import Graph, SymbolicTensor, placeholder
from retrograd.graph.plan import Plan, ops_needed
from retrograd.graph.symbolic import gradients
from retrograd.ops import array_ops

__all__ = ["function", "Function", "ConcreteFunction", "TensorSpec"]


class TensorSpec:
    """The dtype and shape (None for an unknown dimension) a traced function accepts."""

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> None:
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> TensorSpec:
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, value: Any) -> bool:
        return value.dtype == self.dtype and self.shape.is_compatible_with(value.shape)

    def _key(self) -> tuple:
        return (self.dtype.name, None if self.shape.rank is None else tuple(self.shape))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorSpec) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={self.name!r})"


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
        self.captured_inputs = captured_inputs or []  # enclosing-graph tensors, passed in calls
        self.structured_outputs = outputs
        self.outputs = [t for t in nest.flatten(outputs) if isinstance(t, (Tensor, Variable))]
        self._single_output = isinstance(outputs, (Tensor, Variable))
        self._shallow_outputs = type(outputs) in (list, tuple) and not any(
            nest.is_nested(v) for v in outputs
        )
        self.name = name
        self.variables = _captured_variables(graph) if variables is None else variables
        self.reads = _saved_values(graph) if reads is None else reads
        self._stateful = stateful
        self._forward_ops = len(graph.get_operations())  # later ops belong to gradients
        self._plan = self._forward_plan([])
        self._backward: dict[Hashable, ConcreteFunction] = {}
        self._saved: list | None = None
        self._plan_saving: Plan | None = None

    def _forward_plan(self, saved: list) -> Plan:
        keep = self.graph if self._stateful else None
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
        inputs = [*args, *self.captured_inputs, *self.variables]
        attrs: dict[str, Any] = {"f": self}
        if context.recording and context.graph is None:  # a tape may differentiate this call
            attrs["residuals"] = Residuals()
        flat = execute(_PartitionedCall, inputs, attrs, self.name)
        return self._structured(flat)

    def _structured(self, flat: Any) -> Any:
        """The outputs in the structure the Python function returned them."""
        if self._single_output:
            return flat[0]
        leaves = iter(flat[: len(self.outputs)])
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
        callers that already hold values: the structured outputs, as tensors."""
        flat = self._plan(*values)  # variables are read inside the plan
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
                grads = [next(found) if w else None for w in wanted]
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


def _captured_variables(graph: Graph) -> list[Variable]:
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
)
accepts_missing_upstream("PartitionedCall")  # None marks an output unused


@RegisterGradient("PartitionedCall")
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
        fed = (t._value for t in (*inputs, *up_out, *reads))
        grads = f.saving_backward(wanted).call_on_values([*fed, *kept])
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


class Function:
    """A Python function traced per input signature and run as a compiled graph."""

    def __init__(
        self, python_function: Callable, input_signature: Any = None, name: str | None = None
    ) -> None:
        functools.update_wrapper(self, python_function)
        self._python_function = python_function
        if input_signature is not None and not (
            isinstance(input_signature, (list, tuple))
            and all(isinstance(s, TensorSpec) for s in nest.flatten(list(input_signature)))
        ):
            raise TypeError(
                f"input_signature must be either a tuple or a list (of TensorSpecs), got "
                f"{type(input_signature)}: {input_signature!r}"
            )
        self._input_signature = None if input_signature is None else list(input_signature)
        self._name = name or getattr(python_function, "__name__", "function")
        self._traces: dict[Hashable, ConcreteFunction] = {}
        # Calls whose arguments are all tensors, by their dtypes and shapes: the common call
        # finds its trace without flattening arguments or building specs.
        self._by_tensor_types: dict[tuple, ConcreteFunction] = {}
        self._tracing_count = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        key = None
        if not kwargs and self._input_signature is None:
            key = _tensor_types(args)
            concrete = self._by_tensor_types.get(key)
            if concrete is not None:
                return concrete(*args)
        concrete, tensors = self._concrete(args, kwargs)
        if key is not None:
            self._by_tensor_types[key] = concrete
        return concrete(*tensors)

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        return functools.partial(self.__call__, instance)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        """The trace these arguments (tensors or TensorSpecs) use, tracing if needed."""
        return self._concrete(args, kwargs)[0]

    def experimental_get_tracing_count(self) -> int:
        """How many times the Python function has been traced."""
        return self._tracing_count

    def _concrete(self, args: tuple, kwargs: dict) -> tuple[ConcreteFunction, list]:
        structure = (list(args), dict(kwargs))
        leaves = nest.flatten(structure)
        specs, tensors = self._specs(leaves)
        key = tuple(_leaf_key(leaf, spec) for leaf, spec in zip(leaves, specs))
        concrete = self._traces.get(key)
        if concrete is None:
            concrete = self._traces[key] = self._trace(structure, leaves, specs)
        return concrete, tensors

    def _specs(self, leaves: list) -> tuple[list, list]:
        specs: list[Any] = []
        tensors = []
        signature = iter(self._input_signature) if self._input_signature is not None else None
        for leaf in leaves:
            if isinstance(leaf, (Tensor, np.ndarray, TensorSpec)):
                spec = (
                    leaf
                    if isinstance(leaf, TensorSpec)
                    else TensorSpec.from_tensor(_as_tensor(leaf))
                )
                if signature is not None:
                    declared = next(signature, None)
                    if declared is None or not declared.is_compatible_with(spec):
                        raise TypeError(
                            f"{self._name}: argument {spec} is incompatible with input_signature "
                            f"{self._input_signature}"
                        )
                    spec = declared
                specs.append(spec)
                if not isinstance(leaf, TensorSpec):
                    tensors.append(_as_tensor(leaf))
            else:
                specs.append(None)
        return specs, tensors

    def _trace(self, structure: tuple, leaves: list, specs: list) -> ConcreteFunction:
        if self in context.functions_tracing:  # (per thread)
            raise UnimplementedError(f"function '{self._name}' calls itself while traced")
        context.functions_tracing.append(self)
        try:
            return self._trace_once(structure, leaves, specs)
        finally:
            context.functions_tracing.remove(self)

    def _trace_once(self, structure: tuple, leaves: list, specs: list) -> ConcreteFunction:
        self._tracing_count += 1
        graph = Graph(outer=context.graph)
        saved = (context.tapes, context.observers, context.recording)
        context.tapes, context.observers, context.recording = (
            [],
            [],
            False,
        )  # tracing records nothing
        try:
            with graph.as_default():
                inputs = [
                    placeholder(
                        s.dtype,
                        s.shape if s.shape.rank is not None else None,
                        name=valid_name_from(s.name, "input") if s.name else "input",
                    )
                    for s in specs
                    if s is not None
                ]
                fed = iter(inputs)
                arguments = [next(fed) if s is not None else leaf for leaf, s in zip(leaves, specs)]
                args, kwargs = nest.pack_sequence_as(structure, arguments)
                outputs = self._python_function(*args, **kwargs)
        finally:
            context.tapes, context.observers, context.recording = saved
        captures = graph.external_captures
        return ConcreteFunction(
            graph,
            [*inputs, *(internal for _, internal in captures)],
            outputs,
            self._name,
            captured_inputs=[external for external, _ in captures],
        )

    def __repr__(self) -> str:
        return f"<retrograd.Function {self._name} traced {self._tracing_count} time(s)>"


def _tensor_types(args: tuple) -> tuple | None:
    """(dtype, shape) of each argument when all are tensors; else None."""
    key = []
    for a in args:
        if type(a) is not Tensor:
            return None
        value = a._value
        key.append((value.dtype, value.shape))
    return tuple(key)


def _as_tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(np.array(value))


def _leaf_key(leaf: Any, spec: TensorSpec | None) -> Hashable:
    if spec is not None:
        return ("tensor", spec._key())
    if isinstance(leaf, Variable):
        return ("variable", id(leaf))
    try:
        hash(leaf)
    except TypeError:
        return ("object", id(leaf))
    return ("python", type(leaf).__name__, leaf)


def function(func: Callable | None = None, input_signature: Any = None, **kwargs: Any) -> Any:
    """Decorator tracing ``func`` into a graph per input signature (``tf.function``).

    Tensor arguments become graph inputs (their dtype and shape select the trace); Python
    values become constants (each new value traces again); ``input_signature`` fixes the
    specs (None dimensions accept any size). Python control flow on tensors is not
    possible while tracing: use ``cond`` and ``while_loop``.
    """
    if func is None:
        return lambda f: Function(f, input_signature, kwargs.get("name"))
    return Function(func, input_signature, kwargs.get("name"))
