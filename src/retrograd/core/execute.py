"""The single door every op goes through, and the records that tapes keep.

``execute(op_def, inputs, attrs)`` runs the op's NumPy kernel and, only when a tape is
recording, lets each tape that watches one of the inputs record an :class:`Operation`.
With no tape active the path is: unwrap arrays, call the kernel, wrap the result.

>>> import retrograd as rg
>>> from retrograd.core.execute import OP_DEFS
>>> OP_DEFS["Exp"].type, OP_DEFS["Exp"].multi_output
('Exp', False)
"""

from __future__ import annotations

import re
import threading
import warnings
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from retrograd.core.errors import InvalidArgumentError
from retrograd.core.tensor import Tensor

# Kernels follow IEEE arithmetic silently, as TensorFlow does: exp(100.0) in float32 is inf,
# not a warning. NumPy's floating-point warnings are ignored only when raised from retrograd's
# own modules (a filter costs nothing until a warning fires; np.errstate per op would cost
# microseconds). debugging.check_numerics finds non-finite values explicitly.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"retrograd\.")

__all__ = [
    "OpDef",
    "Operation",
    "define_op",
    "execute",
    "record_operation",
    "observe_operation",
    "context",
    "OP_DEFS",
]


class OpDef:
    """One op type: its TensorFlow name and its NumPy kernel.

    ``kernel(*arrays, **attrs)`` returns an array, or a sequence of arrays when
    ``multi_output``. The gradient is registered under the same name beside it. For
    graphs, ``elementwise`` ops broadcast their inputs and keep one output shape;
    ``shape_fn(input_metas, **attrs)`` returns ``[(shape, dtype), ...]`` for ops whose
    output shapes cannot be found by running the kernel on dummy inputs (value-dependent
    shapes) or would be costly to find that way; ``stateful`` ops (assignments, printing)
    run even when no output of theirs is needed; ``forwards_inputs`` ops output their last
    inputs unchanged (Identity, StopGradient), which compiled plans turn into assignments.
    ``inplace(*arrays, out=array, **attrs)``, when given, computes the kernel's result into
    ``out`` (shaped and typed like the result): compiled plans use it to write into the
    buffer of an input that nothing needs afterwards.
    """

    __slots__ = (
        "type",
        "kernel",
        "multi_output",
        "elementwise",
        "shape_fn",
        "stateful",
        "forwards_inputs",
        "inplace",
        "unread",
    )

    def __init__(
        self,
        type_name: str,
        kernel: Callable[..., Any],
        multi_output: bool = False,
        elementwise: bool = False,
        shape_fn: Callable[..., Any] | None = None,
        stateful: bool = False,
        forwards_inputs: bool = False,
        inplace: Callable[..., Any] | None = None,
    ) -> None:
        self.type = type_name
        self.kernel = kernel
        self.multi_output = multi_output
        self.elementwise = elementwise
        self.shape_fn = shape_fn
        self.stateful = stateful
        self.forwards_inputs = forwards_inputs
        self.inplace = inplace
        # (input indices, output indices) whose values the gradient function never reads
        # (see core.released_values); None: it may read every one.
        self.unread: tuple[frozenset, frozenset] | None = None

    @property
    def name(self) -> str:
        """The op type (TensorFlow's ``op.op_def.name``)."""
        return self.type

    def __repr__(self) -> str:
        return f"OpDef({self.type!r})"


OP_DEFS: dict[str, OpDef] = {}


def writable_buffer(value: Any) -> bool:
    """Whether ``value`` is an array owning its memory (not a view) that may be written: what
    an in-place kernel may target once nothing else holds it (callers count references)."""
    return type(value) is np.ndarray and value.base is None and value.flags.writeable


_OP_TYPE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def define_op(type_name: str, kernel: Callable[..., Any], **properties: Any) -> OpDef:
    """Defines op ``type_name`` once (properties as in :class:`OpDef`); a second definition
    raises KeyError. A type name is an identifier (``MatMul``): compiled plans show it."""
    if not isinstance(type_name, str) or not _OP_TYPE.fullmatch(type_name):
        raise ValueError(
            f"define_op: op type must be an identifier like 'MatMul', got {type_name!r}"
        )
    if type_name in OP_DEFS:
        raise KeyError(f"Op type '{type_name}' is already defined")
    op = OP_DEFS[type_name] = OpDef(type_name, kernel, **properties)
    return op


_NO_ATTRS = MappingProxyType({})  # shared by records without attributes (read-only)


class Operation:
    """A recorded op, with TensorFlow's Operation interface.

    ``type`` is the op type (``"MatMul"``), ``inputs``/``outputs`` tuples of tensors (a
    variable appears as the input of the op that read it), ``get_attr(name)`` its attributes.
    ``grad_fn`` overrides the registry (custom gradients carry their own).
    ``skip_input_indices``: while its gradient function runs, the inputs whose gradient is
    not needed (the rule may return None for them).
    """

    __slots__ = (
        "type",
        "inputs",
        "outputs",
        "_attrs",
        "_name",
        "grad_fn",
        "skip_input_indices",
        "__weakref__",
    )

    graph = None

    def __init__(
        self,
        op_type: str,
        inputs: tuple,
        outputs: tuple,
        attrs: dict | None,
        name: str | None = None,
        grad_fn: Callable[..., Any] | None = None,
    ) -> None:
        self.type = op_type
        self.inputs = inputs
        self.outputs = outputs
        self._attrs = attrs or _NO_ATTRS
        self._name = name
        self.grad_fn = grad_fn
        # Set by the backward walk while the gradient function runs: the inputs whose
        # gradient nobody needs, which a rule may skip computing (TensorFlow's attribute).
        self.skip_input_indices: tuple = ()

    @property
    def name(self) -> str:
        return self._name or self.type

    def get_attr(self, name: str) -> Any:
        """The attribute ``name`` (``op.get_attr("transpose_a")``)."""
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError(
                f"Operation '{self.name}' (type {self.type}) has no attr named '{name}'; "
                f"it has {sorted(self._attrs)}"
            ) from None

    @property
    def attrs(self) -> dict:
        return dict(self._attrs)

    def __repr__(self) -> str:
        return f"<retrograd.Operation '{self.name}' type={self.type}>"


class _Context(threading.local):
    """What is watching execution right now, per thread (as TensorFlow keeps it): each thread
    sees its own attributes, initialised by ``__init__`` the first time it looks.

    ``graph``: while not None, ops are added to this graph instead of run.
    ``default_graph``: this thread's global default graph (made by the graph layer when first
    asked for; None until then).
    ``tapes``: recording GradientTapes, innermost last.
    ``observers``: objects told about every op that runs (``observe(operation)``: forward
    accumulators, traces, numeric checks).
    ``plain``: True while neither a graph is current nor anything records: op functions
    then call their kernels directly (kept by the setters of ``graph`` and ``recording``;
    the hot paths read the attributes behind them, ``_graph`` and ``_recording``, directly).
    ``recording``: true while tapes or observers are active — the one flag the lean path
    tests; the tape itself when one tape and no observer is active (recorded for inline).
    ``backward_observers``: objects told about every gradient rule called during a backward
    pass (``observe_backward(op, rule, upstream, grads)``).
    ``variable_watchers``: lists collecting the trainable variables read (custom_gradient).
    ``rule_depth`` and ``backward_pass``: whether a gradient function is running, and which
    backward walk (numbered from 1) is, so tools can tell gradient work from the program.
    ``gradient_overrides``, ``strict_custom_gradients``, ``op_sites``, ``explain_none``: the
    gradient override scope and the debugging switches of custom gradients and None
    explanations (see where they are set).
    ``gradient_batch_dims``: how many leading axes of the gradients in flight index a batch
    of backward passes (rows of a Jacobian computed at once).
    ``sessions``: the sessions entered with ``with``, innermost last.
    ``functions_tracing``: the ``retrograd.function`` objects being traced (no recursion).
    ``gradient_checkers`` and ``numerics_checkers``: the checks that
    ``enable_gradient_checks`` and ``enable_check_numerics`` installed in this thread.
    ``eager_scope``: the name scope entered in eager mode, which prefixes variable names.
    ``layer_training``: the ``training=`` of the outermost Keras layer call running now,
    which inner layers called without one inherit (None outside any call).
    ``keras_symbolic``: True while a Keras layer is called on symbolic inputs (Keras' random
    seed generators do not advance there).

    A thread started after ``disable_eager_execution`` starts in graph mode, on a default
    graph of its own (``graph_mode_by_default``, the one process-wide setting).
    """

    def __init__(self) -> None:
        self.tapes: list = []
        self.observers: list = []
        self._recording: Any = False
        self._graph: Any = None
        self.plain = True  # eager, and nothing records: ops only run their kernels
        self.backward_observers: list = []
        self.variable_watchers: list[list] = []
        self.rule_depth = 0  # gradient functions running now (nested walks count again)
        self.backward_pass = 0  # the number of the backward walk running now; 0: none
        self.gradient_batch_dims = 0
        self.sessions: list = []
        self.gradient_checkers: list = []
        self.numerics_checkers: list = []
        self.functions_tracing: list = []  # retrograd.function objects tracing now
        self.default_graph: Any = None
        factory = graph_mode_by_default.factory
        if factory is not None:
            self.default_graph = self.graph = factory()
        # Gradient functions by op type that replace the registered ones (the innermost
        # `retrograd.gradient_override` block's map, merged with the outer ones); None: none.
        self.gradient_overrides: dict | None = None
        # Custom gradients capturing differentiated tensors: an error instead of a warning.
        self.strict_custom_gradients = False
        # The lines of the user's code that ran each op, while the debugging switch records
        # them (autodiff.explain.SiteLog: .get(op) -> "file:line"); None: not recorded.
        self.op_sites: Any = None
        # Every None gradient comes with its explanation (a warning), when True.
        self.explain_none = False
        # id(variable) -> (variable, why its last gradient was None): for optimizers' errors.
        self.none_gradients: dict | None = None
        # What the custom gradient's grad_fn running now is asked for (gradient_request()).
        self.gradient_request: Any = None
        self.eager_scope = ""  # the eager name scope ("outer/inner/"), prefixing variable names
        self.layer_training: Any = None  # the `training` flag of the Keras layer call running
        self.keras_symbolic = False  # in a Keras layer's symbolic (functional API) call
        for hook in list(thread_start.hooks):  # tools that follow a program into its threads
            hook(self)

    @property
    def graph(self) -> Any:
        """The Graph ops are added to; None: eager execution."""
        return self._graph

    @graph.setter
    def graph(self, graph: Any) -> None:
        self._graph = graph
        self.plain = graph is None and not self._recording

    @property
    def recording(self) -> Any:
        return self._recording

    @recording.setter
    def recording(self, recording: Any) -> None:
        self._recording = recording
        self.plain = self._graph is None and not recording

    def push_tape(self, tape: Any) -> None:
        self.tapes.append(tape)
        self._set_recording()

    def pop_tape(self, tape: Any) -> None:
        self.tapes.remove(tape)
        self._set_recording()

    def push_observer(self, observer: Any) -> None:
        """Adds an object whose ``observe(operation)`` sees every op until it is popped."""
        self.observers.append(observer)
        self._set_recording()

    def pop_observer(self, observer: Any) -> None:
        self.observers.remove(observer)
        self._set_recording()

    def _set_recording(self) -> None:
        # The one tape when it is all that watches (execute records for it inline), True when
        # several tapes or observers do, False when nothing does.
        if self.observers or len(self.tapes) > 1:
            self.recording = True
            for tape in self.tapes:  # several record: nothing is freed (released_values)
                tape._candidates.clear()
        else:
            self.recording = self.tapes[0] if self.tapes else False


class _GraphModeByDefault:
    """Process-wide: ``factory`` makes a new thread's default graph and puts the thread in
    graph mode (set by ``disable_eager_execution``, cleared by ``enable_eager_execution``,
    as TensorFlow's default execution mode); None: threads start eager."""

    factory: Callable[[], Any] | None = None


graph_mode_by_default = _GraphModeByDefault()


class _ThreadStart:
    """Process-wide: ``hooks`` are called with each thread's context when that thread first
    uses retrograd (``retrograd trace`` adds its observers to the threads a script starts)."""

    hooks: list = []


thread_start = _ThreadStart()
context = _Context()


def execute(
    op: OpDef, inputs: Sequence[Tensor], attrs: dict | None = None, name: str | None = None
) -> Any:
    """Runs ``op`` on ``inputs`` (tensors, or variables for ReadVariableOp); records if watched.

    Returns a Tensor, or a tuple of tensors for multi-output ops. While a graph is current,
    the op is added to it instead and symbolic tensors come back.
    """
    plain = context.plain
    if not plain:
        graph = context._graph  # (the attribute behind the `graph` property: read per op)
        if graph is not None:
            return graph.create_op(op, inputs, attrs, name)
        recording = context._recording  # (behind the `recording` property)
        if (
            recording is not True
            and recording._candidates
            and inputs
            and inputs[0]._value.nbytes >= released_values.LARGE
        ):  # before a large allocation: free what the program dropped
            released_values.release_dropped(recording._candidates)
    try:
        if attrs:
            result = op.kernel(*[t._value for t in inputs], **attrs)
        elif len(inputs) == 1:  # the common arities without building a list
            result = op.kernel(inputs[0]._value)
        elif len(inputs) == 2:
            result = op.kernel(inputs[0]._value, inputs[1]._value)
        else:
            result = op.kernel(*[t._value for t in inputs])
    except InvalidArgumentError:
        raise
    except (ValueError, IndexError, TypeError, ArithmeticError) as e:  # (OverflowError too)
        shapes = ", ".join(f"{t._value.dtype}{list(t._value.shape)}" for t in inputs)
        raise InvalidArgumentError(f"{op.type}: {e} (inputs: {shapes})") from None
    if op.multi_output:
        outputs = tuple([Tensor(r) for r in result])
        if not plain:
            record_operation(op.type, inputs, outputs, attrs, name)
        return outputs
    out = Tensor(result)
    if not plain:
        if recording is True:
            record_operation(op.type, inputs, (out,), attrs, name)
        else:  # one tape (GradientTape._should_record and _record, inlined: once per op)
            tracked = recording._tracked
            for value in inputs:
                if id(value) in tracked:
                    record = Operation(op.type, tuple(inputs), (out,), attrs, name)
                    if result.dtype.kind in "fc":
                        tracked[id(out)] = record
                    else:
                        recording._record(record)
                    if recording._candidates or (
                        op.unread is not None and result.nbytes >= released_values.LARGE
                    ):
                        released_values.note_record(recording, op, record)
                    break
    return out


def record_operation(
    op_type: str,
    inputs: Sequence[Any],
    outputs: tuple,
    attrs: dict | None = None,
    name: str | None = None,
    grad_fn: Callable[..., Any] | None = None,
) -> Operation | None:
    """Records one op on every active tape that watches one of its inputs, and shows it to
    every observer.

    The record is shared. Returns it, or None when no tape or observer wanted it.
    """
    record = None
    for tape in context.tapes:
        tracked = tape._tracked  # (GradientTape._should_record, inlined: once per op)
        for value in inputs:
            if id(value) in tracked:
                break
        else:
            continue
        if record is None:
            record = Operation(op_type, tuple(inputs), outputs, attrs, name, grad_fn)
        tape._record(record)
    if context.observers:
        if record is None:
            record = Operation(op_type, tuple(inputs), outputs, attrs, name, grad_fn)
        for observer in list(context.observers):
            observer.observe(record)
    return record


def observe_operation(op: Operation) -> None:
    """Offers a record that already exists (a graph operation) to the tapes that watch its
    inputs and to every observer."""
    for tape in context.tapes:
        if tape._should_record(op.inputs):
            tape._record(op)
    for observer in list(context.observers):
        observer.observe(op)


def variable_accessed(variable: Any) -> None:
    """Called when a trainable variable is read: auto-watching tapes and watchers see it."""
    for tape in context.tapes:
        if tape._watch_accessed_variables:
            tape._watch_one(variable)
    for watcher in context.variable_watchers:
        if not any(v is variable for v in watcher):
            watcher.append(variable)


from retrograd.core import released_values  # noqa: E402  (it reads OP_DEFS, defined above)
