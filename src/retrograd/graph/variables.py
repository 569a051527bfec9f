"""Variables in TF1 graphs: uninitialised until their initializer op runs, read once per use.

A :class:`GraphVariable` is created in a graph with an initial value (a tensor of that
graph, or a constant); it owns three ops, named as TensorFlow names them: the variable
``w`` itself (``variable.op``), ``w/Assign`` (``variable.initializer``) and one
``ReadVariableOp`` per use. Reading it in ``Session.run`` before the initializer has run
raises :class:`FailedPreconditionError` naming it.

>>> import retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     w = GraphVariable(rg.constant([1.0, 2.0]), name="w")
...     y = w * 3.0
>>> w.op.name, w.initializer.name, w.name
('w', 'w/Assign', 'w:0')
>>> with rg.compat.v1.Session(graph=g) as sess:
...     sess.run(w.initializer)
...     print(sess.run(y))
[3. 6.]
"""

from __future__ import annotations

from typing import Any

from retrograd.core import dtypes
from retrograd.core.errors import FailedPreconditionError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import convert_to_tensor, next_id, numpy_text
from retrograd.core.variables import Variable, _AssignVariableOp, set_graph_variable_class
from retrograd.graph.graph import GraphOperation, TensorMeta, get_default_graph

__all__ = ["GraphVariable", "GLOBAL_VARIABLES", "TRAINABLE_VARIABLES", "assign_op"]

GLOBAL_VARIABLES = "variables"
TRAINABLE_VARIABLES = "trainable_variables"

# The variable itself, as an op: it has no outputs and never runs (reads are ReadVariableOp).
_VarHandleOp = define_op(
    "VarHandleOp", lambda variable: (), multi_output=True, shape_fn=lambda metas, variable: []
)
no_gradient("VarHandleOp")


class GraphVariable(Variable):
    """A TF1 variable of a graph (``compat.v1.Variable`` while building a graph)."""

    __slots__ = ("_array", "_static_shape", "_static_dtype", "op", "initializer", "graph")

    def __init__(
        self,
        initial_value: Any = None,
        trainable: bool = True,
        name: str | None = None,
        dtype: Any = None,
        shape: Any = None,
        collections: Any = None,
        validate_shape: bool = True,
    ) -> None:
        if initial_value is None:
            raise ValueError("Variable: initial_value must be given")
        self._id = next_id()
        graph = self.graph = get_default_graph()
        self._array = None
        with graph.control_dependencies(None):
            graph.create_op(_VarHandleOp, (), {"variable": self}, name or "Variable")
            self.op = graph._operations[-1]
            with graph.name_scope(self.op.name + "/"):
                if callable(initial_value):
                    initial_value = initial_value()
                value = convert_to_tensor(initial_value, dtype=dtype)
                static = value.shape if shape is None else TensorShape(shape)
                if validate_shape and not static.is_fully_defined():
                    raise ValueError(
                        f"Variable '{self.op.name}': the initial value's shape {value.shape} "
                        f"is not fully defined; give shape= or validate_shape=False"
                    )
                if not static.is_compatible_with(value.shape):
                    raise ValueError(
                        f"Variable '{self.op.name}': initial value shape {value.shape} is not "
                        f"{static}"
                    )
                self._static_shape = static
                self._static_dtype = value.dtype
                self._name = self.op.name + ":0"
                self._trainable = bool(trainable)
                execute(_AssignVariableOp, (value,), {"variable": self}, "Assign")
                self.initializer = graph._operations[-1]
        if collections is None:
            collections = [GLOBAL_VARIABLES]
        if trainable and TRAINABLE_VARIABLES not in collections:
            collections = [*collections, TRAINABLE_VARIABLES]
        for key in collections:
            graph.add_to_collection(key, self)

    # The stored array; before the initializer ran, what is known of it (shape and dtype, as
    # a graph tensor has), so that building ops and gradients reads it as it reads a tensor.
    # Session.run refuses to run ops reading it (FailedPreconditionError) until it is set.
    def _get_value(self) -> Any:
        if self._array is None:
            return TensorMeta(
                tuple(self._static_shape.as_list()), self._static_dtype.as_numpy_dtype
            )
        return self._array

    def _set_value(self, array: Any) -> None:
        self._array = array

    _value = property(_get_value, _set_value)

    def uninitialized_error(self) -> FailedPreconditionError:
        return FailedPreconditionError(
            f"Attempting to use uninitialized value {self.op.name}: run its initializer "
            f"(variable.initializer, or compat.v1.global_variables_initializer()) first"
        )

    @property
    def is_initialized_now(self) -> bool:
        """Whether a value has been assigned (by the initializer or an assignment)."""
        return self._array is not None

    @property
    def dtype(self) -> dtypes.DType:
        return self._static_dtype

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._static_shape)

    @property
    def ndim(self) -> int:
        return self._static_shape.rank

    def numpy(self) -> Any:
        if self._array is None:
            raise self.uninitialized_error()
        return super().numpy()

    def initialized_value(self) -> Any:
        """The value, initialising first if needed (reads after the initializer)."""
        with self.graph.control_dependencies([self.initializer]):
            return self.read_value()

    def assign(
        self,
        value: Any,
        use_locking: bool = False,
        name: str | None = None,
        read_value: bool = True,
    ) -> Any:
        """An op assigning ``value`` when run; with ``read_value``, the tensor of the new value
        (running it assigns)."""
        new = convert_to_tensor(value, dtype=self.dtype)
        if not new.shape.is_compatible_with(self._static_shape):
            raise ValueError(
                f"Cannot assign value to variable '{self.op.name}': shape {new.shape} is not "
                f"the variable's {self._static_shape}"
            )
        execute(_AssignVariableOp, (new,), {"variable": self}, name or "AssignVariableOp")
        op = self.graph._operations[-1]
        if not read_value:
            return op
        with self.graph.control_dependencies([op]):
            return self.read_value()

    def assign_add(
        self,
        delta: Any,
        use_locking: bool = False,
        name: str | None = None,
        read_value: bool = True,
    ) -> Any:
        return self.assign(self.read_value() + delta, name=name, read_value=read_value)

    def assign_sub(
        self,
        delta: Any,
        use_locking: bool = False,
        name: str | None = None,
        read_value: bool = True,
    ) -> Any:
        return self.assign(self.read_value() - delta, name=name, read_value=read_value)

    def eval(self, session: Any = None) -> Any:
        from retrograd.graph.session import get_default_session

        return (session or get_default_session()).run(self)

    def get_shape(self) -> TensorShape:
        return TensorShape(self._static_shape)

    def __bool__(self) -> bool:
        raise TypeError(f"Using graph variable {self.op.name} as a Python bool is not allowed")

    def __len__(self) -> int:
        if not self._static_shape.rank:
            raise TypeError("Scalar variable has no `len()`")
        return self._static_shape[0]

    def __format__(self, format_spec: str) -> str:
        return format(repr(self), format_spec)

    def __repr__(self) -> str:
        value = "" if self._array is None else f", numpy={numpy_text(self._array)}"
        return (
            f"<retrograd.Variable '{self._name}' shape={self._static_shape} "
            f"dtype={self.dtype.name}{value}>"
        )

    __str__ = __repr__


set_graph_variable_class(GraphVariable)  # `retrograd.Variable(...)` in a TF1 graph is one


def assign_op(variable: Variable, value: Any, name: str | None = None) -> GraphOperation:
    """The graph op assigning ``value`` to any variable (a graph variable, or an eager one
    a graph uses) each time it runs."""
    if isinstance(variable, GraphVariable):
        return variable.assign(value, name=name, read_value=False)
    graph = get_default_graph()
    new = convert_to_tensor(value, dtype=variable.dtype)
    if not new.shape.is_compatible_with(variable.shape):
        raise ValueError(
            f"Cannot assign value to variable '{variable.name}': shape {new.shape} is not the "
            f"variable's {variable.shape}"
        )
    execute(_AssignVariableOp, (new,), {"variable": variable}, name or "AssignVariableOp")
    return graph._operations[-1]


def variables_read(ops: list[GraphOperation]) -> list[GraphVariable]:
    """The graph variables that ``ops`` read, each once."""
    found: dict[int, GraphVariable] = {}
    for op in ops:
        for value in op.inputs:
            if isinstance(value, GraphVariable):
                found[id(value)] = value
    return list(found.values())


def variables_assigned(ops: list[GraphOperation]) -> set[int]:
    """Ids of the variables that ``ops`` assign."""
    return {id(op.get_attr("variable")) for op in ops if op.type == "AssignVariableOp"}
