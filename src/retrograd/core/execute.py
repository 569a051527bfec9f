"""Op definitions and the single door every op goes through.

An op type is defined once, by an :class:`OpDef`: its TensorFlow name, its NumPy kernel, and
beside them everything the rest of the library needs to know about it — its gradient and
forward rules, which values its gradient reads (derived from the rule), whether a batch of
upstream gradients may go through its gradient, and so on.

``execute(op_def, inputs, attrs)`` runs the kernel on the inputs' arrays (all on one device:
inputs on two are an InvalidArgumentError naming both, see ``core.backends``), wraps the
result in fresh tensors and, while tapes or observers are active, records the op with
:func:`record_operation` — the one way an op reaches a tape. While a graph is being built,
the op is added to it instead.

>>> import retrograd as rg
>>> from retrograd.core.execute import OP_DEFS
>>> OP_DEFS["Exp"].type, OP_DEFS["Exp"].multi_output, OP_DEFS["Exp"].batchable
('Exp', False, True)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from retrograd.core.backends import check_one_device, foreign
from retrograd.core.context import Watching, context, graph_mode_by_default, thread_start
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.records import Operation, without_unread
from retrograd.core.tensor import Tensor

__all__ = [
    "OpDef",
    "RuleEntry",
    "Operation",
    "define_op",
    "execute",
    "execute_unary",
    "execute_binary",
    "record_operation",
    "observe_operation",
    "context",
    "graph_mode_by_default",
    "thread_start",
    "OP_DEFS",
    "KERNEL_ERRORS",
]

# What a kernel raises for bad input: `execute` turns it into InvalidArgumentError naming the
# op and its input shapes.
KERNEL_ERRORS = (ValueError, IndexError, TypeError, ArithmeticError)


class RuleEntry:
    """A rule registered for an op type: the function (None: declared not differentiable),
    where it was defined, and whether it is the op's own (``own``: defined with the op and
    verified by the op tables, so the backward walk need not check what it returns; a rule a
    user registers is checked at every call)."""

    __slots__ = ("fn", "location", "own")

    def __init__(self, fn: Callable[..., Any] | None, location: str, own: bool) -> None:
        self.fn = fn
        self.location = location
        self.own = own

    def __repr__(self) -> str:
        return f"RuleEntry({getattr(self.fn, '__qualname__', self.fn)!r}, {self.location!r})"


class OpDef:
    """Everything about one op type, in one place.

    - ``kernel(*arrays, **attrs)`` returns an array, or a sequence of arrays when
      ``multi_output``.
    - ``gradient`` / ``forward``: the :class:`RuleEntry` of its gradient function and of
      its forward-mode rule (None until one is registered: see ``core.registry``).
    - ``sparse_gradient``: a gradient function that may return ``IndexedSlices``, used where
      the caller accepts sparse gradients (``GradientTape.gradient``, ``tf.gradients``);
      ``passes_slices``: its gradient hands a sparse upstream gradient on as it is.
    - ``reads``: the inputs and outputs whose values its gradient reads, derived from the
      gradient function (``core.reads``); a tape's record keeps only those values.
    - ``batchable``: its gradient also works on upstream gradients with extra leading
      (batch) axes, as Jacobians' rows are computed (rules of the form ``grad * local``).
    - ``missing_upstream``: what a multi-output op's gradient is given for an output no
      gradient reached: ``"zeros"`` (TensorFlow's default) or ``"none"``.
    - ``fresh``: the kernel returns a new array that views nothing else, so a compiled
      plan may write into it once nothing needs it any more.
    - ``shape_only_inputs``: inputs of which the kernel reads only the shape and dtype.
    - ``host_inputs``: inputs whose values the kernel reads on the host (sizes, offsets,
      permutations: TensorFlow's host-memory inputs), copying them there explicitly
      (``core.backends.to_host``). With the shape-only ones they may live on any device
      (``off_device_inputs``); the other inputs must share one.
    - ``quiet``: the kernel computes infinities or NaNs on valid inputs by design, masking
      them (``where(y == 0, 0, x / y)``) as TensorFlow's kernels do silently: it runs with
      NumPy's floating-point warnings off. Other kernels warn as NumPy does.
    - For graphs: ``elementwise`` ops broadcast their inputs; ``shape_fn(input_metas,
      **attrs)`` gives ``[(shape, dtype), ...]`` where running the kernel on dummy inputs
      cannot; ``stateful`` ops run even when no output is needed; ``forwards_inputs`` ops
      output their last inputs unchanged (Identity); ``inplace(*arrays, out=array)``
      computes the kernel's result into ``out``.
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
        "batchable",
        "missing_upstream",
        "fresh",
        "shape_only_inputs",
        "host_inputs",
        "off_device_inputs",
        "gradient",
        "forward",
        "sparse_gradient",
        "passes_slices",
        "_reads",
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
        batchable: bool = False,
        missing_upstream: str = "zeros",
        fresh: bool = False,
        shape_only_inputs: tuple[int, ...] = (),
        host_inputs: tuple[int, ...] = (),
        passes_slices: bool = False,
        quiet: bool = False,
    ) -> None:
        if missing_upstream not in ("zeros", "none"):
            raise ValueError("define_op: missing_upstream must be 'zeros' or 'none'")
        self.type = type_name
        self.kernel = _quiet(kernel) if quiet else kernel
        self.multi_output = multi_output
        self.elementwise = elementwise
        self.shape_fn = shape_fn
        self.stateful = stateful
        self.forwards_inputs = forwards_inputs
        self.inplace = inplace
        self.batchable = batchable
        self.missing_upstream = missing_upstream
        self.fresh = fresh
        self.shape_only_inputs = frozenset(shape_only_inputs)
        self.host_inputs = frozenset(host_inputs)
        self.off_device_inputs = self.shape_only_inputs | self.host_inputs
        self.passes_slices = passes_slices
        self.gradient: RuleEntry | None = None
        self.forward: RuleEntry | None = None
        self.sparse_gradient: Callable[..., Any] | None = None
        self._reads: Any = None  # derived from the gradient when first needed

    @property
    def name(self) -> str:
        """The op type (TensorFlow's ``op.op_def.name``)."""
        return self.type

    @property
    def reads(self) -> tuple[frozenset | None, frozenset | None]:
        """``(inputs, outputs)``: the indices whose values the op's own gradient function
        may read (None: any); every value for a gradient a user registered."""
        found = self._reads
        if found is None:
            entry = self.gradient
            if entry is None or entry.fn is None:
                found = (frozenset(), frozenset())  # nothing is differentiated through it
            elif not entry.own:
                found = (None, None)
            else:
                from retrograd.core.reads import rule_reads

                found = rule_reads(entry.fn)
            self._reads = found
        return found

    def set_rule(self, kind: str, entry: RuleEntry | None) -> None:
        """Sets the gradient or forward rule (``core.registry`` does, under its lock)."""
        setattr(self, kind, entry)
        self._reads = None
        rule_changes.count += 1

    def __repr__(self) -> str:
        return f"OpDef({self.type!r})"


def _quiet(kernel: Callable[..., Any]) -> Callable[..., Any]:
    """``kernel`` run with NumPy's floating-point warnings off (see ``OpDef.quiet``)."""

    @functools.wraps(kernel)
    def quiet_kernel(*arrays: Any, **attrs: Any) -> Any:
        with np.errstate(all="ignore"):
            return kernel(*arrays, **attrs)

    return quiet_kernel


class _RuleChanges:
    """Process-wide: how many times an op's gradient or forward rule was set, so that what
    is worked out from the rules once for many walks (``backprop.Rules``) starts afresh
    when one changes."""

    count = 0


rule_changes = _RuleChanges()
OP_DEFS: dict[str, OpDef] = {}
_OP_TYPE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def define_op(type_name: str, kernel: Callable[..., Any], **properties: Any) -> OpDef:
    """Defines op ``type_name`` once (properties as in :class:`OpDef`); a second definition
    raises KeyError. A type name is an identifier (``MatMul``): compiled plans show it.

    >>> import numpy as np
    >>> define_op("DocSoftsign", lambda x: x / (1 + np.abs(x)), fresh=True)
    OpDef('DocSoftsign')
    """
    if not isinstance(type_name, str) or not _OP_TYPE.fullmatch(type_name):
        raise ValueError(
            f"define_op: op type must be an identifier like 'MatMul', got {type_name!r}"
        )
    if type_name in OP_DEFS:
        raise KeyError(f"Op type '{type_name}' is already defined")
    op = OP_DEFS[type_name] = OpDef(type_name, kernel, **properties)
    return op


def execute(
    op: OpDef, inputs: Sequence[Any], attrs: dict | None = None, name: str | None = None
) -> Any:
    """Runs ``op`` on ``inputs`` (tensors, or variables for ReadVariableOp); records it while
    tapes or observers are active.

    Returns a Tensor, or a tuple of tensors for multi-output ops. While a graph is current,
    the op is added to it instead and symbolic tensors come back.

    >>> import numpy as np, retrograd as rg
    >>> execute(OP_DEFS["Exp"], [rg.constant(0.0)])
    <retrograd.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    watching = context.active  # (None: no graph, nothing records; see _Context)
    if watching is not None:
        graph = watching.graph
        if graph is not None:
            return graph.create_op(op, inputs, attrs, name)
    if foreign.seen and len(inputs) > 1:  # (no op can mix devices before then)
        skip = op.off_device_inputs  # (shapes and sizes may live anywhere)
        check_one_device(op.type, [t._value for i, t in enumerate(inputs) if i not in skip])
    try:
        if attrs:
            result = op.kernel(*[t._value for t in inputs], **attrs)
        elif len(inputs) == 1:  # (the common arities, without building a list)
            result = op.kernel(inputs[0]._value)
        elif len(inputs) == 2:
            result = op.kernel(inputs[0]._value, inputs[1]._value)
        else:
            result = op.kernel(*[t._value for t in inputs])
    except InvalidArgumentError:
        raise
    except KERNEL_ERRORS as e:  # (OverflowError too)
        shapes = ", ".join(f"{t._value.dtype}{list(t._value.shape)}" for t in inputs)
        raise InvalidArgumentError(f"{op.type}: {e} (inputs: {shapes})") from None
    if op.multi_output:
        outputs = tuple([Tensor(r) for r in result])
        if watching is not None:
            _record(watching, op, inputs, outputs, attrs, name, None)
        return outputs
    out = Tensor(result)
    if watching is not None:
        _record(watching, op, inputs, (out,), attrs, name, None)
    return out


def execute_unary(op: OpDef, x: Any, name: str | None = None) -> Any:
    """``execute(op, (x,), None, name)`` for a single-output op of one tensor without
    attributes (the elementwise ops' door), in fewer steps: the kernel on ``x``'s array,
    recorded while something records; ``execute`` itself in a graph, or to word a kernel's
    error."""
    watching = context.active
    if watching is None or watching.graph is None:
        try:
            out = Tensor(op.kernel(x._value))
        except KERNEL_ERRORS:
            return execute(op, (x,), None, name)  # (raises, naming the op)
        if watching is not None:
            _record(watching, op, (x,), (out,), None, name, None)
        return out
    return execute(op, (x,), None, name)


def execute_binary(op: OpDef, x: Any, y: Any, name: str | None = None) -> Any:
    """``execute(op, (x, y), None, name)`` for a single-output op of two tensors without
    attributes, as ``execute_unary``. Inputs on two devices make the kernel refuse them (every
    array library refuses another's arrays as operands), and ``execute`` then names both."""
    watching = context.active
    if watching is None or watching.graph is None:
        try:
            out = Tensor(op.kernel(x._value, y._value))
        except KERNEL_ERRORS:
            return execute(op, (x, y), None, name)
        if watching is not None:
            _record(watching, op, (x, y), (out,), None, name, None)
        return out
    return execute(op, (x, y), None, name)


def record_operation(
    op: OpDef,
    inputs: Sequence[Any],
    outputs: tuple,
    attrs: dict | None = None,
    name: str | None = None,
    grad_fn: Callable[..., Any] | None = None,
) -> Operation | None:
    """Records one op on every active tape that tracks one of its inputs, and shows it to
    every observer. ``grad_fn`` replaces the op's gradient (custom gradients).

    Tapes share one record. It keeps the values the gradient reads; while no observer
    looks, large values the gradient does not read are kept as shape and dtype alone.
    Returns the record, or None when nothing wanted it.
    """
    watching = context.active
    if watching is None:
        return None
    return _record(watching, op, inputs, outputs, attrs, name, grad_fn)


def _record(
    watching: Watching,
    op: OpDef,
    inputs: Sequence[Any],
    outputs: tuple,
    attrs: dict | None,
    name: str | None,
    grad_fn: Callable[..., Any] | None,
) -> Operation | None:
    """``record_operation`` with the thread's watchers already read."""
    observers = watching.observers
    record = None
    for tape in watching.tapes:
        if tape.tracks_any(inputs):
            if record is None:
                # Lean unless an observer looks (it may show any value) or another gradient
                # than the op's own is in force for it (it may read any): large values the
                # op's own gradient does not read become stand-ins.
                overrides = watching.gradient_overrides
                if grad_fn is None and not observers and not (overrides and op.type in overrides):
                    read_inputs, read_outputs = op._reads or op.reads
                    if read_inputs is not None and len(read_inputs) < len(inputs):
                        inputs = without_unread(inputs, read_inputs)
                    if (
                        read_outputs is not None
                        and len(read_outputs) < len(outputs)
                        and (len(outputs) > 1 or type(outputs[0]._value) is np.ndarray)
                    ):  # (a single output that is no array, a NumPy scalar, stays)
                        outputs = without_unread(outputs, read_outputs)
                record = Operation(op, tuple(inputs), outputs, attrs, name, grad_fn)
            tape.record(record)
    if observers:
        if record is None:
            record = Operation(op, tuple(inputs), outputs, attrs, name, grad_fn)
        for observer in list(observers):
            observer.observe(record)
    return record


def observe_operation(op: Operation) -> None:
    """Offers a record that already exists (a graph operation) to the tapes that track its
    inputs and to every observer."""
    for tape in context.tapes:
        if tape.tracks_any(op.inputs):
            tape.record(op)
    for observer in list(context.observers):
        observer.observe(op)


def variable_accessed(variable: Any) -> None:
    """Called when a trainable variable is read: auto-watching tapes and watchers see it."""
    for tape in context.tapes:
        if tape.watches_accessed_variables:
            tape.watch_variable(variable)
    for watcher in context.variable_watchers:
        if not any(v is variable for v in watcher):
            watcher.append(variable)
