"""Graphs: ops are added instead of run, to be run later by a Session or a ``function``.

While a graph is the current one (``with graph.as_default():``, or after
``compat.v1.disable_eager_execution()``), ``execute`` hands every op to
``Graph.create_op``, which infers the outputs' shapes and dtypes and returns symbolic
tensors. Graph operations have the same interface as eager records (``.type .name .inputs
.outputs .get_attr()``), so the same gradient functions and the same backward walk serve
both.

>>> import retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     x = rg.compat.v1.placeholder(rg.float32, [None, 3], name="x")
...     y = rg.reduce_sum(x * 2.0, axis=1)
>>> y
<retrograd.Tensor 'Sum:0' shape=(None,) dtype=float32>
>>> y.op.type, y.op.inputs[0].op.type, x.graph is g
('Sum', 'Mul', True)
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core import tensor as tensor_module
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import OpDef, Operation, context, define_op, observe_operation
from retrograd.core.registry import gradient_registry, no_gradient
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable

__all__ = [
    "Graph",
    "SymbolicTensor",
    "TensorMeta",
    "get_default_graph",
    "reset_default_graph",
    "executing_eagerly",
    "enable_eager_execution",
    "disable_eager_execution",
    "placeholder",
    "name_scope",
    "constant",
]


class TensorMeta:
    """What is known of a graph tensor before it runs: its shape (``None`` for an unknown
    dimension, or for an unknown rank) and its NumPy dtype.

    It stands where an eager tensor holds its array, so op functions that read
    ``x._value.shape``, ``.dtype`` or ``.ndim`` work on graph tensors unchanged.
    """

    __slots__ = ("shape", "dtype", "_tensor_name")

    def __init__(self, shape: tuple | None, dtype: np.dtype) -> None:
        self.shape = None if shape is None else tuple(None if d is None else int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self._tensor_name = "a graph tensor"

    @property
    def ndim(self) -> int:
        if self.shape is None:
            raise ValueError(
                f"The rank of {self._tensor_name} is unknown; this op needs it. Give the "
                f"placeholder a shape (None marks an unknown dimension)."
            )
        return len(self.shape)

    @property
    def size(self) -> int | None:
        if self.shape is None or None in self.shape:
            return None
        return int(np.prod(self.shape, dtype=np.int64))

    def __repr__(self) -> str:
        return f"TensorMeta(shape={self.shape}, dtype={self.dtype})"


class SymbolicTensor(Tensor):
    """A graph tensor: the output ``value_index`` of ``op``; its value exists only when run."""

    __slots__ = ("op", "value_index")

    def __init__(self, meta: TensorMeta, op: GraphOperation, value_index: int) -> None:
        self._value = meta
        self.op = op
        self.value_index = value_index
        meta._tensor_name = f"'{self.name}'"

    @property
    def graph(self) -> Graph:
        return self.op.graph

    @property
    def name(self) -> str:
        return f"{self.op.name}:{self.value_index}"

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._value.shape)

    def numpy(self):
        raise AttributeError(
            f"Symbolic tensor {self.name} has no value until it runs: use Session.run or "
            f"Tensor.eval(session=...), or run eagerly"
        )

    def eval(self, feed_dict: dict | None = None, session: Any = None) -> Any:
        """Runs the graph to compute this tensor (TF1): ``session.run(self, feed_dict)``."""
        from retrograd.graph.session import get_default_session

        session = session or get_default_session()
        if session is None:
            raise ValueError(
                "Cannot evaluate tensor using `eval()`: No default session is registered. Use "
                "`with compat.v1.Session():` or pass session=sess."
            )
        return session.run(self, feed_dict)

    def _refuse(self, what: str, instead: str) -> TypeError:
        return TypeError(
            f"Using a symbolic tensor ({self.name}) {what} is not allowed: its value is not "
            f"known while the graph is built. {instead}"
        )

    def __bool__(self) -> bool:
        raise self._refuse("as a Python bool", "Use retrograd.cond for a conditional, or "
                           "retrograd.while_loop for a loop.")  # fmt: skip

    def __iter__(self):
        raise self._refuse("as a Python iterable", "Use retrograd.unstack, or "
                           "retrograd.while_loop to loop over it.")  # fmt: skip

    def __len__(self) -> int:
        raise self._refuse("with len()", "Use x.shape for shape information.")

    def __index__(self) -> int:
        raise self._refuse("as a Python index", "Use it as a tensor argument instead.")

    def __float__(self) -> float:
        raise self._refuse("as a Python float", "Evaluate it with Session.run first.")

    def __int__(self) -> int:
        raise self._refuse("as a Python int", "Evaluate it with Session.run first.")

    def __array__(self, dtype: Any = None, copy: Any = None):
        raise self._refuse("as a NumPy array", "Evaluate it with Session.run first.")

    def __format__(self, format_spec: str) -> str:
        return format(repr(self), format_spec)

    def __repr__(self) -> str:
        return f"<retrograd.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"

    __str__ = __repr__

    def __reduce__(self):
        raise TypeError(f"Symbolic tensor {self.name} cannot be pickled")


class GraphOperation(Operation):
    """An operation in a graph: an eager record's interface plus ``graph`` and ``op_def``."""

    __slots__ = ("graph", "op_def", "_index")

    def run(self, feed_dict: dict | None = None, session: Any = None) -> None:
        """Runs this operation (and what it needs) in ``session`` (TF1's ``Operation.run``)."""
        from retrograd.graph.session import get_default_session

        (session or get_default_session()).run(self, feed_dict)

    def values(self) -> tuple:
        return self.outputs

    def __repr__(self) -> str:
        return f"<retrograd.Operation '{self.name}' type={self.type}>"


_creation_counter = itertools.count()


def creation_order(op: GraphOperation) -> int:
    """Orders graph operations by creation, across graphs: an op comes after its inputs'."""
    return op._index


class _OverriddenGradient:
    """The gradient of an op created inside ``gradient_override_map``: looked up when used."""

    __slots__ = ("op_type",)

    def __init__(self, op_type: str) -> None:
        self.op_type = op_type

    @property
    def describe(self) -> str:
        return (
            f"the gradient function '{self.op_type}' (overriding by gradient_override_map, "
            f"registered at {gradient_registry.location(self.op_type)})"
        )

    def __call__(self, op: Operation, *grads: Any) -> Any:
        rule = gradient_registry.lookup(self.op_type)
        return None if rule is None else rule(op, *grads)


class Graph:
    """A dataflow graph of operations (TensorFlow's ``tf.Graph``)."""

    def __init__(self, outer: Graph | None = None) -> None:
        # A function, branch or loop body traced inside another graph uses that graph's
        # tensors through placeholders of its own: `external_captures` pairs them.
        self.outer = outer
        self.external_captures: list[tuple[SymbolicTensor, SymbolicTensor]] = []
        self._operations: list[GraphOperation] = []
        self._by_name: dict[str, GraphOperation] = {}
        self._name_counts: dict[str, int] = {}
        self._scope = ""
        self._overrides: dict[str, str] = {}
        self._captures: dict[int, tuple[Tensor, SymbolicTensor]] = {}

    # -- being the current graph -----------------------------------------------------------
    @contextlib.contextmanager
    def as_default(self) -> Iterator[Graph]:
        """Within this block, ops are added to this graph."""
        previous = context.graph
        context.graph = self
        try:
            yield self
        finally:
            context.graph = previous

    # -- names ---------------------------------------------------------------------------
    def unique_name(self, name: str) -> str:
        """``name`` under the current scope, made unique with ``_1``, ``_2``, ..."""
        full = f"{self._scope}{name}"
        if full not in self._name_counts and full not in self._by_name:
            self._name_counts[full] = 1
            return full
        count = self._name_counts.get(full, 1)
        while f"{full}_{count}" in self._by_name:
            count += 1
        self._name_counts[full] = count + 1
        return f"{full}_{count}"

    @contextlib.contextmanager
    def name_scope(self, name: str) -> Iterator[str]:
        """Prefixes the names of ops created inside with ``name/``."""
        previous = self._scope
        if name:
            self._scope = self.unique_name(name.rstrip("/")) + "/"
        try:
            yield self._scope
        finally:
            self._scope = previous

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map: dict[str, str]) -> Iterator[None]:
        """Ops of the given types created inside use the gradient registered under the mapped
        name (``{"Relu": "GuidedRelu"}``)."""
        previous = dict(self._overrides)
        self._overrides.update(op_type_map)
        try:
            yield
        finally:
            self._overrides = previous

    # -- building ------------------------------------------------------------------------
    def create_op(self, op_def: OpDef, inputs: Any, attrs: dict | None, name: str | None) -> Any:
        """Adds one op; returns its symbolic output (or a tuple for multi-output ops)."""
        from retrograd.graph.shape_inference import infer_outputs

        inputs = tuple(self._as_input(t) for t in inputs)
        attrs = attrs or {}
        op_name = self.unique_name(name or op_def.type)
        try:
            metas = infer_outputs(op_def, inputs, attrs)
        except InvalidArgumentError as e:
            raise InvalidArgumentError(f"{e} [while building op '{op_name}']") from None
        op = GraphOperation(op_def.type, inputs, (), attrs, op_name, None)
        op.graph, op.op_def, op._index = self, op_def, next(_creation_counter)
        if op_def.type in self._overrides:
            op.grad_fn = _OverriddenGradient(self._overrides[op_def.type])
        op.outputs = tuple(SymbolicTensor(meta, op, i) for i, meta in enumerate(metas))
        self._operations.append(op)
        self._by_name[op_name] = op
        if context.recording:
            observe_operation(op)
        return op.outputs if op_def.multi_output else op.outputs[0]

    def _as_input(self, value: Any) -> Any:
        if isinstance(value, SymbolicTensor):
            if value.op.graph is self:
                return value
            if self._encloses(value.op.graph):
                return self._capture_external(value)
            raise ValueError(
                f"Tensor {value.name} must be from the same graph as the op that uses it"
            )
        if isinstance(value, Variable):
            return value  # read live when the graph runs (ReadVariableOp)
        return self.capture(value)

    def capture(self, value: Tensor, name: str | None = None) -> SymbolicTensor:
        """An eager tensor as a constant of this graph (one Const op per captured tensor)."""
        found = self._captures.get(id(value))
        if found is not None:
            return found[1]
        const = self.create_op(
            _Const, (), {"value": value._value, "dtype": value.dtype}, name or "Const"
        )
        self._captures[id(value)] = (value, const)  # keeps `value` alive, so its id stays its own
        return const

    def _encloses(self, graph: Graph) -> bool:
        outer = self.outer
        while outer is not None:
            if outer is graph:
                return True
            outer = outer.outer
        return False

    def _capture_external(self, value: SymbolicTensor) -> SymbolicTensor:
        if value.op.graph is not self.outer:
            value = self.outer._capture_external(value)  # through each enclosing graph
        for external, internal in self.external_captures:
            if external is value:
                return internal
        with self.as_default():
            internal = placeholder(value.dtype, value._value.shape, name="captured")
        self.external_captures.append((value, internal))
        return internal

    def captured(self, value: Tensor) -> Tensor:
        """The constant that stands for eager tensor ``value`` in this graph (``value`` itself
        if it was never captured)."""
        found = self._captures.get(id(value))
        return value if found is None else found[1]

    # -- reading -------------------------------------------------------------------------
    def get_operations(self) -> list[GraphOperation]:
        return list(self._operations)

    def get_operation_by_name(self, name: str) -> GraphOperation:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"The name '{name}' refers to an Operation not in the graph.") from None

    def get_tensor_by_name(self, name: str) -> SymbolicTensor:
        op_name, _, index = name.rpartition(":")
        if not op_name or not index.isdigit():
            raise ValueError(f"The name '{name}' looks like an operation name, not a tensor 'op:0'")
        outputs = self.get_operation_by_name(op_name).outputs
        if int(index) >= len(outputs):
            raise KeyError(f"The name '{name}' refers to a Tensor which does not exist.")
        return outputs[int(index)]

    def as_graph_element(self, obj: Any) -> Any:
        """A tensor, operation or name ("MatMul:0", "MatMul") as this graph's element."""
        if isinstance(obj, str):
            return self.get_tensor_by_name(obj) if ":" in obj else self.get_operation_by_name(obj)
        return obj

    def __repr__(self) -> str:
        return f"<retrograd.Graph with {len(self._operations)} operations>"


def _unfed_placeholder(dtype, shape):
    raise InvalidArgumentError(
        f"You must feed a value for a placeholder tensor with dtype {dtype.name} and shape {shape}"
    )


_Const = define_op(
    "Const",
    lambda value, dtype: value,
    shape_fn=lambda metas, value, dtype: [(np.shape(value), dtype.as_numpy_dtype)],
)
_Placeholder = define_op(
    "Placeholder",
    _unfed_placeholder,
    shape_fn=lambda metas, dtype, shape: [(shape, dtype.as_numpy_dtype)],
)
no_gradient("Const")
no_gradient("Placeholder")

# --- the default graph and eager/graph switching ---------------------------------------------

_default_graph = Graph()


def get_default_graph() -> Graph:
    """The graph ops are added to: the current one, else the global default graph."""
    return context.graph if context.graph is not None else _default_graph


def reset_default_graph() -> None:
    """Replaces the global default graph by an empty one (TF1)."""
    global _default_graph
    in_use = context.graph is _default_graph
    _default_graph = Graph()
    if in_use:
        context.graph = _default_graph


def executing_eagerly() -> bool:
    """True unless a graph is being built."""
    return context.graph is None


def disable_eager_execution() -> None:
    """From now on, ops are added to the default graph and run by a Session (TF1 style)."""
    context.graph = _default_graph


def enable_eager_execution() -> None:
    """From now on, ops run immediately."""
    context.graph = None


def placeholder(dtype: Any, shape: Any = None, name: str | None = None) -> SymbolicTensor:
    """A graph input whose value is fed when the graph runs (``shape`` may hold None)."""
    graph = get_default_graph()
    if context.graph is None:
        raise RuntimeError(
            "placeholder() is not compatible with eager execution: call it inside "
            "`with graph.as_default():` or after compat.v1.disable_eager_execution()"
        )
    dtype = dtypes.as_dtype(dtype)
    dims = None if shape is None else TensorShape(shape)
    return graph.create_op(_Placeholder, (), {"dtype": dtype, "shape": dims}, name or "Placeholder")


@contextlib.contextmanager
def name_scope(name: str) -> Iterator[str]:
    """Prefixes graph op names with ``name/``; in eager mode it prefixes variable names.

    A name ending in ``/`` is taken as a whole scope, as in TensorFlow.

    >>> import retrograd as rg
    >>> with rg.name_scope("outer") as scope:
    ...     v = rg.Variable(1.0, name="v")
    >>> scope, v.name
    ('outer/', 'outer/v:0')
    """
    if context.graph is None:
        previous = context.eager_scope
        if not name:
            scope = ""
        elif name.endswith("/"):
            scope = name
        else:
            scope = previous + name + "/"
        context.eager_scope = scope
        try:
            yield scope
        finally:
            context.eager_scope = previous
        return
    with context.graph.name_scope(name) as scope:
        yield scope


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = None) -> Tensor:
    """Creates a constant tensor from a Python or NumPy value (a ``Const`` op in a graph).

    NumPy arrays keep their dtype unless ``dtype`` is given (then they are cast); Python
    values must fit ``dtype`` exactly. ``shape`` broadcasts a single value or reshapes.

    >>> import retrograd as rg
    >>> rg.constant(1.0, shape=[2])
    <retrograd.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """
    value = tensor_module.constant(value, dtype, shape)
    return value if context.graph is None else context.graph.capture(value, name or "Const")
