"""Variable: mutable, trainable state. Reading one is a recorded op (``ReadVariableOp``).

>>> import retrograd as rg
>>> v = rg.Variable(1.0)
>>> v.assign_add(2.0)
<retrograd.Variable 'Variable:0' shape=() dtype=float32, numpy=3.0>
>>> with rg.GradientTape() as tape:
...     y = v * v
>>> tape.gradient(y, v)
<retrograd.Tensor: shape=(), dtype=float32, numpy=6.0>
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Literal, TypeVar, overload

import numpy as np

from retrograd.core import backends, display, dtypes, variable_options
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike, TensorOperators
from retrograd.core.dtypes import DType
from retrograd.core.execute import context, define_op, execute, variable_accessed
from retrograd.core.names import check_name
from retrograd.core.records import Operation
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.shapes import TensorShape, public_shape
from retrograd.core.tensor import (
    Reference,
    Tensor,
    _copy,
    constant,
    convert_to_tensor,
    next_id,
    numpy_text,
)
from retrograd.core.variable_options import VariableAggregation, VariableSynchronization

__all__ = ["Variable"]

_V = TypeVar("_V", bound="Variable")  # (assign returns the variable it is called on)

_ReadVariableOp = define_op(
    "ReadVariableOp", lambda value: value, batchable=True, passes_slices=True
)


@op_gradient("ReadVariableOp")
def _read_variable_grad(op: Operation, grad: Tensor) -> Tensor:
    return grad


def _assign_kernel(value: np.ndarray, variable: Variable) -> tuple[()]:
    variable._value = value
    return ()


# Assignments inside a graph happen when it runs, in program order (a stateful op).
_AssignVariableOp = define_op(
    "AssignVariableOp",
    _assign_kernel,
    multi_output=True,
    stateful=True,
    shape_fn=lambda metas, variable: [],
)
no_gradient("AssignVariableOp")


# Variables made inside a traced function from its tensors, by id: their first run
# assigns the initial value (Variable._initialized_when_run).
_awaiting_value: set[int] = set()
# The op type of that first-run assignment (a function whose trace holds one runs that trace
# on its first call: graph/function.py).
INITIALIZE_ON_FIRST_RUN = "InitializeVariableOnFirstRun"


def _initialize_kernel(value: np.ndarray, variable: Variable) -> tuple[()]:
    if variable._id in _awaiting_value:
        _awaiting_value.discard(variable._id)
        variable._value = value
    return ()


_InitializeVariableOp = define_op(
    INITIALIZE_ON_FIRST_RUN,
    _initialize_kernel,
    multi_output=True,
    stateful=True,
    shape_fn=lambda metas, variable: [],
)
no_gradient(INITIALIZE_ON_FIRST_RUN)


# The class of variables made while a TF1 graph is built (graph.variables.GraphVariable,
# which registers itself here: the core knows nothing of graphs).
_graph_variable: list = []


def graph_variable(
    initial_value: Any = None, trainable: Any = None, collections: Any = None,
    validate_shape: bool = True, name: Any = None, dtype: Any = None, shape: Any = None,
    constraint: Any = None, synchronization: Any = VariableSynchronization.AUTO,
    aggregation: Any = VariableAggregation.NONE, **ignored: Any,
) -> Any:  # fmt: skip
    """A TF1 graph's variable for ``Variable(...)``'s arguments (``caching_device``,
    ``use_resource``, ``expected_shape`` and the lifting flag change nothing here)."""
    trainable = variable_options.checked(
        trainable, True, ignored.get("variable_def"), ignored.get("import_scope"), None,
        synchronization, aggregation,
    )[0]  # fmt: skip
    if constraint is not None:
        raise ValueError(
            "Variable: `constraint` is not supported for variables of a TF1 graph (retrograd's "
            "graph optimizers apply none); got " + repr(constraint)
        )
    return _graph_variable[0](
        initial_value, trainable=trainable, name=name, dtype=dtype, shape=shape,
        collections=collections, validate_shape=validate_shape,
    )  # fmt: skip


def set_graph_variable_class(cls: type) -> None:
    """Called once by ``graph.variables``: what ``Variable(...)`` makes in a TF1 graph."""
    _graph_variable[:] = [cls]


# Called with each variable made eagerly (distribute's strategies register one that keeps
# the replicas' initial values equal); the core knows nothing of strategies.
_creation_hook: list = []


def set_creation_hook(hook: Callable[[Variable], None]) -> None:
    """Called once by ``distribute``: ``hook(variable)`` runs after each eager creation."""
    _creation_hook[:] = [hook]


class _VariableType(type):
    """``Variable(...)`` while a graph is built (TF2 code after ``disable_eager_execution``,
    or in ``Graph().as_default()``), not while a function is traced, makes a graph variable,
    as TensorFlow does: it has an initializer op and no value until that runs."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        graph = context.graph
        if cls is Variable and graph is not None and not graph.traces_function():
            given = inspect.signature(Variable.__init__).bind(None, *args, **kwargs).arguments
            return graph_variable(**{k: v for k, v in given.items() if k != "self"})
        return super().__call__(*args, **kwargs)


class Variable(TensorOperators, metaclass=_VariableType):
    """A mutable tensor-like value whose reads are recorded (TensorFlow's ResourceVariable).

    Its shape and dtype are fixed at creation. ``assign`` replaces the stored array, so
    tensors read earlier keep their values.

    >>> import retrograd as rg
    >>> v = rg.Variable([1.0, 2.0])
    >>> v.assign_add([1.0, 1.0]).numpy().tolist()
    [2.0, 3.0]
    >>> (v * 2).numpy().tolist(), v.trainable
    ([4.0, 6.0], True)
    """

    __slots__ = (
        "_value", "_id", "_name", "_trainable", "_constraint", "_synchronization",
        "_aggregation", "__weakref__",
    )  # fmt: skip
    __array_priority__ = 100

    def __init__(
        self,
        initial_value: TensorLike | Callable[[], TensorLike] | None = None,
        trainable: bool | None = None,
        validate_shape: bool = True,
        caching_device: Any = None,
        name: str | None = None,
        variable_def: Any = None,
        dtype: DTypeLike | None = None,
        import_scope: str | None = None,
        constraint: Callable[[Any], Any] | None = None,
        synchronization: VariableSynchronization = VariableSynchronization.AUTO,
        aggregation: Any = VariableAggregation.NONE,
        shape: ShapeLike | None = None,
        experimental_enable_variable_lifting: bool = True,
    ) -> None:
        # (caching_device places cached reads in a TF1 session and
        # experimental_enable_variable_lifting chooses whether a tf.function lifts the
        # initializer: neither changes a value retrograd computes)
        trainable, synchronization, aggregation = variable_options.checked(
            trainable, validate_shape, variable_def, import_scope, constraint, synchronization,
            aggregation,
        )  # fmt: skip
        self._constraint, self._synchronization = constraint, synchronization
        self._aggregation = aggregation
        if initial_value is None:
            raise ValueError("Variable: initial_value must be given")
        self._id = next_id()
        if name is not None and context.graph is not None:  # (TensorFlow checks graph names)
            check_name(name, "Variable: name")
        if callable(initial_value):
            initial_value = initial_value()
        initial = constant(initial_value, dtype=dtype)
        value = initial._value
        # (TensorShape iterates tensors and arrays too, which mypy does not see as iterables)
        known = None if shape is None else TensorShape(shape)  # type: ignore[arg-type]
        if known is not None and not known.is_compatible_with(value.shape):
            raise ValueError(f"Variable: initial value shape {value.shape} is not {tuple(known)}")
        if context.graph is not None and not backends.is_array(value):
            # a tensor of the function being traced (symbolic: no array of any device)
            value = self._initialized_when_run(initial, known)
        self._value = value
        scope = context.eager_scope if context.graph is None else ""
        self._name = scope + (name or "Variable") + ":0"
        self._trainable = bool(trainable)
        graph = context.graph
        if graph is not None and hasattr(graph, "add_to_collection"):
            # Made while a graph is built (TF2 code after disable_eager_execution): listed in
            # the graph's collections, as TensorFlow does ("variables", "trainable_variables").
            graph.add_to_collection("variables", self)
            if self._trainable:
                graph.add_to_collection("trainable_variables", self)
        if graph is not None and hasattr(graph, "note_variable"):
            graph.note_variable()
        if _creation_hook and graph is None:
            _creation_hook[0](self)

    def _initialized_when_run(self, initial: Tensor, known: TensorShape | None) -> np.ndarray:
        """A variable made while a function is traced (once, on its first trace, as
        TensorFlow allows) from a value of that function: as TensorFlow's variables whose
        initializer cannot be lifted out of the function, it takes the value the first time
        the function runs (an op of the function, in program order, that assigns only then).
        Until then it holds zeros of its shape."""
        dims = initial._value.shape if known is None else known.merge_with(initial._value.shape)
        dims = TensorShape(dims)
        if not dims.is_fully_defined():
            raise ValueError(
                f"Variable: the initial value made inside a tf.function has the shape {dims}, "
                "not fully known while the function is traced; pass `shape=` or an initial "
                "value of known shape"
            )
        _awaiting_value.add(self._id)
        execute(_InitializeVariableOp, (initial,), {"variable": self}, "VariableInitializer")
        zeros = np.zeros([d for d in dims.as_list() if d is not None], initial._value.dtype)
        return backends.place(zeros)  # (on the current device, as the value it will take)

    @property
    def constraint(self) -> Callable[[Any], Any] | None:
        """The projection optimizers apply after each update (None: none)."""
        return getattr(self, "_constraint", None)

    @constraint.setter
    def constraint(self, value: Callable[[Any], Any] | None) -> None:
        self._constraint = value

    @property
    def synchronization(self) -> Any:
        """How replicas' copies are kept in step (``VariableSynchronization``)."""
        return getattr(self, "_synchronization", VariableSynchronization.AUTO)

    @synchronization.setter
    def synchronization(self, value: Any) -> None:
        self._synchronization = value

    @property
    def aggregation(self) -> Any:
        """How replicas' updates are combined (``VariableAggregation``)."""
        return getattr(self, "_aggregation", VariableAggregation.NONE)

    @aggregation.setter
    def aggregation(self, value: Any) -> None:
        self._aggregation = value

    # -- reading -------------------------------------------------------------------------
    def read_value(self) -> Tensor:
        """The current value as a tensor; recorded on tapes that watch this variable."""
        if self._trainable and (context.recording or context.variable_watchers):
            variable_accessed(self)
        return execute(_ReadVariableOp, (self,))

    value = read_value

    def _as_tensor(self) -> Tensor:
        return self.read_value()

    def numpy(self) -> Any:
        """The current value: a NumPy scalar for rank 0, else a writable copy (TensorFlow's)."""
        return _copy(self._value)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return np.array(backends.to_host(self._value), dtype=dtype)

    @property
    def device(self) -> str:
        """The full name of the device the variable's value lives on (TensorFlow's)."""
        return backends.device_name(self._value)

    # -- writing -------------------------------------------------------------------------
    @overload
    def assign(
        self: _V,
        value: TensorLike,
        use_locking: bool = ...,
        name: str | None = ...,
        read_value: Literal[True] = ...,
    ) -> _V: ...
    @overload
    def assign(
        self,
        value: TensorLike,
        use_locking: bool = ...,
        name: str | None = ...,
        *,
        read_value: Literal[False],
    ) -> None: ...
    @overload
    def assign(
        self: _V,
        value: TensorLike,
        use_locking: bool = ...,
        name: str | None = ...,
        read_value: bool = ...,
    ) -> _V | None: ...
    def assign(
        self: _V,
        value: TensorLike,
        use_locking: bool = False,
        name: str | None = None,
        read_value: bool = True,
    ) -> _V | None:
        """Replaces the value; shape and dtype must match (ValueError otherwise).

        In a graph, adds an AssignVariableOp that assigns each time the graph runs.
        """
        if context.graph is not None:
            new = convert_to_tensor(value, dtype=self.dtype)
            if not new.shape.is_compatible_with(self._value.shape):
                raise self._shape_mismatch(new.shape)
            execute(_AssignVariableOp, (new,), {"variable": self}, name)
            return self if read_value else None
        new = self._on_my_device(value)
        if new.shape != self._value.shape:
            raise self._shape_mismatch(new.shape)
        self._value = new  # arrays are never mutated, so sharing one with a tensor is safe
        return self if read_value else None

    def _on_my_device(self, value: TensorLike) -> Any:
        """``value`` as an array of this variable's dtype on its device (a variable keeps its
        device, as TensorFlow's: host values assigned to it are copied there)."""
        return backends.on_device_of(convert_to_tensor(value, dtype=self.dtype)._value, self._value)

    def _shape_mismatch(self, shape: Any) -> ValueError:
        return ValueError(
            f"Cannot assign value to variable '{self._name}': Shape mismatch. The variable "
            f"shape {tuple(self._value.shape)}, and the assigned value shape {tuple(shape)} are "
            f"incompatible."
        )

    @overload
    def assign_add(
        self: _V,
        delta: TensorLike,
        use_locking: bool = ...,
        name: str | None = ...,
        read_value: Literal[True] = ...,
    ) -> _V: ...
    @overload
    def assign_add(
        self,
        delta: TensorLike,
        use_locking: bool = ...,
        name: str | None = ...,
        *,
        read_value: Literal[False],
    ) -> None: ...
    @overload
    def assign_add(
        self: _V,
        delta: TensorLike,
        use_locking: bool = ...,
        name: str | None = ...,
        read_value: bool = ...,
    ) -> _V | None: ...
    def assign_add(
        self: _V,
        delta: TensorLike,
        use_locking: bool = False,
        name: str | None = None,
        read_value: bool = True,
    ) -> _V | None:
        """Adds ``delta`` to the value."""
        if context.graph is not None:
            return self.assign(self.read_value() + delta, read_value=read_value)
        return self.assign(self._value + self._on_my_device(delta), read_value=read_value)

    @overload
    def assign_sub(
        self: _V,
        delta: TensorLike,
        use_locking: bool = ...,
        name: str | None = ...,
        read_value: Literal[True] = ...,
    ) -> _V: ...
    @overload
    def assign_sub(
        self,
        delta: TensorLike,
        use_locking: bool = ...,
        name: str | None = ...,
        *,
        read_value: Literal[False],
    ) -> None: ...
    @overload
    def assign_sub(
        self: _V,
        delta: TensorLike,
        use_locking: bool = ...,
        name: str | None = ...,
        read_value: bool = ...,
    ) -> _V | None: ...
    def assign_sub(
        self: _V,
        delta: TensorLike,
        use_locking: bool = False,
        name: str | None = None,
        read_value: bool = True,
    ) -> _V | None:
        """Subtracts ``delta`` from the value."""
        if context.graph is not None:
            return self.assign(self.read_value() - delta, read_value=read_value)
        return self.assign(self._value - self._on_my_device(delta), read_value=read_value)

    # -- description ---------------------------------------------------------------------
    @property
    def dtype(self) -> DType:
        return dtypes.from_numpy(self._value.dtype)

    @property
    def shape(self) -> TensorShape:
        return public_shape(self._value.shape)

    def get_shape(self) -> TensorShape:
        return public_shape(self._value.shape)

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def name(self) -> str:
        return self._name

    @property
    def trainable(self) -> bool:
        return self._trainable

    def ref(self) -> Reference:
        return Reference(self)

    __hash__ = object.__hash__

    def __len__(self) -> int:
        if self._value.ndim == 0:
            raise TypeError("Scalar variable has no `len()`")
        return self._value.shape[0]

    def __bool__(self) -> bool:
        return bool(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __int__(self) -> int:
        return int(self._value)

    def __format__(self, format_spec: str) -> str:
        return format(self.read_value(), format_spec)

    def __repr__(self) -> str:
        return (
            f"<retrograd.Variable '{self._name}' shape={self.shape} dtype={self.dtype.name}, "
            f"numpy={numpy_text(self._value)}>"
        )

    __str__ = __repr__

    def _repr_html_(self) -> str:
        """Jupyter's view: name, shape, dtype and the values, summarised when there are many."""
        return display.value_html("retrograd.Variable", self._value, self._name)
