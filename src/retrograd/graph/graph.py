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
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.autodiff.overrides import check_op_types
from retrograd.core import dtypes
from retrograd.core import tensor as tensor_module
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.errors import InaccessibleTensorError, InvalidArgumentError
from retrograd.core.execute import (
    OpDef,
    context,
    define_op,
    graph_mode_by_default,
    observe_operation,
)
from retrograd.core.names import check_name
from retrograd.core.registry import no_gradient
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.graph import captures
from retrograd.graph.device_spec import current_device
from retrograd.graph.graph_state import GraphState
from retrograd.graph.graph_tensors import GraphOperation, SymbolicTensor, TensorMeta
from retrograd.graph.name_scopes import name_scope

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


# Numbers graph operations in creation order across graphs (see creation_order).
_creation_counter = itertools.count()


class Graph(GraphState):
    """A dataflow graph of operations (TensorFlow's ``tf.Graph``); its TF1 state
    (control dependencies, collections) is in :class:`GraphState`.

    >>> import retrograd as rg
    >>> g = rg.Graph()
    >>> with g.as_default():
    ...     c = rg.constant(1.0)
    >>> c.graph is g, rg.executing_eagerly()
    (True, True)
    """

    def __init__(self, outer: Graph | None = None) -> None:
        # A function, branch or loop body traced inside another graph uses that graph's
        # tensors through placeholders of its own: `external_captures` pairs them.
        self.outer = outer
        self.external_captures: list[tuple[SymbolicTensor, SymbolicTensor]] = []
        self._operations: list[GraphOperation] = []
        self._by_name: dict[str, GraphOperation] = {}
        self._name_counts: dict[str, int] = {}
        self._captures: dict[int, tuple[Tensor, SymbolicTensor]] = {}
        # Several threads may build one graph: naming and adding ops is one step under this
        # lock; each thread has its own scope and gradient overrides (TensorFlow's too).
        self._lock = threading.RLock()
        self._per_thread = _GraphThreadState()
        # TF1 state kept per graph, as TensorFlow does: ops created inside
        # `control_dependencies` wait for these; named collections; the variable scope and
        # the variables `get_variable` made, by full name.
        self._control_dependencies: list[Any] = []
        self._collections: dict[str, list[Any]] = {}
        self._variable_scope: Any = None
        self._variables_by_name: dict[str, Any] = {}
        self._variable_scope_counts: dict[str, int] = {}
        # A function's graph takes the eager tensors its ops use as inputs (placeholders fed
        # at every call, so they stay differentiable), not as constants: `eager_captures`
        # pairs them, in order of first use. Graphs nested in it capture through it.
        self.captures_as_inputs = False
        self.eager_captures: list[tuple[Tensor, SymbolicTensor]] = []
        self.variables_made = 0  # tf.Variables made while this function graph was traced

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
        with self._lock:
            return self._unique_name(f"{self._per_thread.scope}{name}")

    def _unique_name(self, full: str) -> str:
        if full not in self._name_counts and full not in self._by_name:
            self._name_counts[full] = 1
            return full
        count = self._name_counts.get(full, 1)
        while f"{full}_{count}" in self._by_name:
            count += 1
        self._name_counts[full] = count + 1
        return f"{full}_{count}"

    @contextlib.contextmanager
    def name_scope(self, name: str | None) -> Iterator[str]:
        """Prefixes the names of ops created inside with ``name/`` (made unique); a name
        ending in ``/`` (a scope returned earlier) is used as it is; ``None`` returns to the
        top level."""
        previous = self._per_thread.scope
        if name is None:
            self._per_thread.scope = ""
        elif name and name.endswith("/"):  # a scope returned by an earlier name_scope: reused
            check_name(name.rstrip("/"), "name_scope", nested=True)
            self._per_thread.scope = name
        elif name:
            check_name(name, "name_scope", nested=bool(previous))
            self._per_thread.scope = self.unique_name(name) + "/"
        try:
            yield self._per_thread.scope
        finally:
            self._per_thread.scope = previous

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map: dict[str, str]) -> Iterator[None]:
        """Ops of the given types created inside use the gradient registered under the mapped
        name (``{"Relu": "GuidedRelu"}``) in ``tf.gradients``; as in TensorFlow, GradientTape
        ignores it (use ``retrograd.gradient_override`` under a tape). An unknown op type is
        a ValueError naming the closest known ones."""
        check_op_types(op_type_map, "gradient_override_map")
        previous = dict(self._per_thread.overrides)
        self._per_thread.overrides.update(op_type_map)
        try:
            yield
        finally:
            self._per_thread.overrides = previous

    def _op_name(self, name: str | None, op_type: str) -> str:
        """``name`` (else the op type) under the scope, made unique; a name ending in ``/``
        (a scope that ``name_scope`` returned) is the op's full name as it is, as in
        TensorFlow: ``x ^ y`` is the op ``xor`` whose inner ops are ``xor/LogicalOr``, ..."""
        if not (name and name.endswith("/")):
            return self.unique_name(name or op_type)
        full = name[:-1]
        if full in self._by_name:
            raise ValueError(f"Duplicate node name in graph: '{full}'")
        return full

    # -- building ------------------------------------------------------------------------
    def create_op(self, op_def: OpDef, inputs: Any, attrs: dict | None, name: str | None) -> Any:
        """Adds one op; returns its symbolic output (or a tuple for multi-output ops)."""
        op = self.create_operation(op_def, inputs, attrs, name)
        return op.outputs if op_def.multi_output else op.outputs[0]

    def create_operation(
        self, op_def: OpDef, inputs: Any, attrs: dict | None, name: str | None
    ) -> GraphOperation:
        """Adds one op and returns it (``create_op`` returns its outputs)."""
        from retrograd.graph.shape_inference import infer_outputs

        if name:
            check_name(name, f"{op_def.type}: name", nested=bool(self._per_thread.scope))
        inputs = tuple(self._as_input(t) for t in inputs)
        attrs = attrs or {}
        try:
            metas = infer_outputs(op_def, inputs, attrs)
        except InvalidArgumentError as e:
            op_name = f"{self._per_thread.scope}{name or op_def.type}"
            raise InvalidArgumentError(f"{e} [while building op '{op_name}']") from None
        with self._lock:
            op_name = self._op_name(name, op_def.type)
            op = GraphOperation(op_def, inputs, (), attrs, op_name, None)
            op.graph, op._index = self, next(_creation_counter)
            op.control_inputs = tuple(self._control_dependencies)
            op.device = current_device()
            overrides = self._per_thread.overrides
            op.gradient_override = overrides.get(op_def.type) if overrides else None
            op.outputs = tuple(SymbolicTensor(meta, op, i) for i, meta in enumerate(metas))
            self._operations.append(op)
            self._by_name[op_name] = op
        if context.recording:
            observe_operation(op)
        return op

    def input_for(self, value: Any) -> Any:
        """What stands for ``value`` (a tensor or variable) as an input of ops of this graph:
        a graph tensor of this graph, a capture of an enclosing graph's or an eager tensor
        (an input in a function's graph, else a constant), or the variable itself."""
        return self._as_input(value)

    def _as_input(self, value: Any) -> Any:
        if isinstance(value, SymbolicTensor):
            if value.op.graph is self:
                return value
            if self._encloses(value.op.graph):
                return self._capture_external(value)
            raise self.out_of_scope(value)
        if isinstance(value, Variable):
            return value  # read live when the graph runs (ReadVariableOp)
        return captures.eager_input(self, value)

    def traces_function(self) -> bool:
        """Whether this graph is (or is nested in) a function being traced."""
        return captures.function_graph(self) is not None

    def note_variable(self) -> None:
        """Counts a tf.Variable made while this graph is current on the function graph being
        traced, if any (TensorFlow traces a function again when its first trace made some)."""
        owner = captures.function_graph(self)
        if owner is not None:
            owner.variables_made += 1

    def literal(self, value: Tensor, live: Any = None) -> SymbolicTensor:
        """A value converted while a function is traced (see ``captures.literal``)."""
        return captures.literal(self, value, live)

    def capture(self, value: Tensor, name: str | None = None) -> SymbolicTensor:
        """An eager tensor as a constant of this graph (one Const op per captured tensor)."""
        with self._lock:
            found = self._captures.get(id(value))
            if found is not None:
                return found[1]
            const = self.create_op(
                _Const, (), {"value": value._value, "dtype": value.dtype}, name or "Const"
            )
            self._captures[id(value)] = (value, const)  # keeps `value` alive: its id stays its own
            return const

    def out_of_scope(self, value: SymbolicTensor) -> ValueError:
        """The error for ``value``, a tensor of another graph, used in this one: an
        InaccessibleTensorError when it was made in a branch, loop body or function traced
        in the same outermost graph (it leaked out of it: appended to a Python list there,
        say), else a ValueError."""
        if _outermost(value.op.graph) is _outermost(self):
            return InaccessibleTensorError(
                f"{value!r} is out of scope and cannot be used here: it was made inside a "
                f"cond branch, a loop body or a function traced within this one (stored in a "
                f"Python list, dict or object there, say). Return it from the branch or "
                f"function, or carry it as a loop variable (tf.TensorArray for a list)"
            )
        return ValueError(f"Tensor {value.name} must be from the same graph as the op that uses it")

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
        with self._lock:
            for external, internal in self.external_captures:
                if external is value:
                    return internal
            with self.as_default():
                internal = placeholder(value.dtype, value._value.shape, name="captured")
            self.external_captures.append((value, internal))
            return internal

    def captured(self, value: Tensor) -> Tensor:
        """The constant (or, in a function's graph, the input) that stands for eager tensor
        ``value`` in this graph (``value`` itself if it was never captured)."""
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


def _outermost(graph: Graph) -> Graph:
    while graph.outer is not None:
        graph = graph.outer
    return graph


def _unfed_placeholder(dtype, shape, value=None):
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
    shape_fn=lambda metas, dtype, shape, value=None: [(shape, dtype.as_numpy_dtype)],
)
no_gradient("Const")
no_gradient("Placeholder")


class _GraphThreadState(threading.local):
    """One graph's state that belongs to the thread building it: its name scope and its
    gradient overrides."""

    def __init__(self) -> None:
        self.scope = ""
        self.overrides: dict[str, str] = {}


# --- the default graph and eager/graph switching ---------------------------------------------
# Per thread, as TensorFlow's: each thread has its own global default graph (made when first
# asked for) and its own current graph.


def _thread_default_graph() -> Graph:
    graph = context.default_graph
    if graph is None:
        graph = context.default_graph = Graph()
    return graph


def get_default_graph() -> Graph:
    """The graph ops are added to: the current one, else this thread's global default graph.

    >>> import retrograd as rg
    >>> g = rg.Graph()
    >>> with g.as_default():
    ...     print(rg.get_default_graph() is g)
    True
    """
    return context.graph if context.graph is not None else _thread_default_graph()


def reset_default_graph() -> None:
    """Replaces this thread's global default graph by an empty one (TF1).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.reset_default_graph()
    >>> len(rg.get_default_graph().get_operations())
    0
    """
    in_use = context.graph is not None and context.graph is context.default_graph
    context.default_graph = Graph()
    if in_use:
        context.graph = context.default_graph


def executing_eagerly() -> bool:
    """True unless a graph is being built.

    >>> import retrograd as rg
    >>> rg.executing_eagerly()
    True
    >>> with rg.Graph().as_default():
    ...     print(rg.executing_eagerly())
    False
    """
    return context.graph is None


def disable_eager_execution() -> None:
    """From now on, ops are added to the default graph and run by a Session (TF1 style); threads
    started later begin in graph mode too, each on a default graph of its own.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.disable_eager_execution()
    >>> rg.executing_eagerly()
    False
    >>> tf1.enable_eager_execution()
    >>> rg.executing_eagerly()
    True
    """
    graph_mode_by_default.factory = Graph
    context.graph = _thread_default_graph()


def enable_eager_execution() -> None:
    """From now on, ops run immediately (in threads started later too).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.disable_eager_execution()
    >>> tf1.enable_eager_execution()
    >>> rg.executing_eagerly()
    True
    """
    graph_mode_by_default.factory = None
    context.graph = None


def placeholder(
    dtype: DTypeLike, shape: ShapeLike | None = None, name: str | None = None
) -> SymbolicTensor:
    """A graph input whose value is fed when the graph runs (``shape`` may hold None).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     x = tf1.placeholder(rg.float32, [None, 2])
    ...     y = rg.reduce_sum(x, axis=1)
    ...     with tf1.Session() as sess:
    ...         print(sess.run(y, {x: [[1.0, 2.0], [3.0, 4.0]]}).tolist())
    [3.0, 7.0]
    """
    graph = get_default_graph()
    if context.graph is None:
        raise RuntimeError(
            "placeholder() is not compatible with eager execution: call it inside "
            "`with graph.as_default():` or after compat.v1.disable_eager_execution()"
        )
    dtype = dtypes.as_dtype(dtype)
    dims = None if shape is None else TensorShape(shape)
    return graph.create_op(_Placeholder, (), {"dtype": dtype, "shape": dims}, name or "Placeholder")


def constant(
    value: TensorLike,
    dtype: DTypeLike | None = None,
    shape: ShapeLike | None = None,
    name: str = "Const",
) -> Tensor:
    """Creates a constant tensor from a Python or NumPy value (a ``Const`` op in a graph).

    NumPy arrays keep their dtype unless ``dtype`` is given (then they are cast); Python
    values must fit ``dtype`` exactly. ``shape`` broadcasts a single value or reshapes.

    >>> import retrograd as rg
    >>> rg.constant(1.0, shape=[2])
    <retrograd.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """
    value = tensor_module.constant(value, dtype, shape)
    return value if context.graph is None else context.graph.capture(value, name or "Const")
