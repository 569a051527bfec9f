"""``function``: a Python function traced into a graph once per input signature, then run
as compiled straight-line code (TensorFlow's ``tf.function``).

Before tracing, AutoGraph converts the function (``autograph=False`` keeps it as written):
``if``/``while``/``for`` on tensors become ``cond``/``while_loop``. Tensors, NumPy arrays
and variables the function closes over are inputs of its graph, passed at every call
(``ConcreteFunction.captured_inputs``), so gradients reach them. A trace serves every call
whose tensors match its specs: ``input_signature`` fixes them (None dimensions accept any
size), ``reduce_retracing=True`` relaxes the shapes that changed after a retrace.

>>> import retrograd as tf
>>> @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
... def total(x):
...     s = 0.0
...     for v in x:
...         if v > 0:
...             s += v
...     return s
>>> print(total(tf.constant([1.0, -2.0, 3.0])).numpy(), total(tf.constant([5.0, 1.0])).numpy())
4.0 6.0
>>> total.experimental_get_tracing_count()
1
"""

from __future__ import annotations

import collections
import functools
import operator
import threading
import weakref
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ParamSpec, TypeVar, overload

import numpy as np

from retrograd.autodiff.overrides import override_key
from retrograd.core import nest
from retrograd.core.execute import context
from retrograd.core.names import valid_name_from
from retrograd.core.sites import warn_at_user
from retrograd.core.tensor import Tensor
from retrograd.core.variables import INITIALIZE_ON_FIRST_RUN
from retrograd.graph.autograph.conversion import convert
from retrograd.graph.autograph.transformer import StagingError
from retrograd.graph.concrete_function import ConcreteFunction
from retrograd.graph.function_protocol import TracedFunction
from retrograd.graph.graph import Graph, placeholder
from retrograd.graph.signatures import (
    TensorSpec,
    argument_names,
    as_tensor,
    cast_to_spec,
    leaf_key,
    relaxed,
    signature_arguments,
    structured_input_signature,
    tensor_types,
)

__all__ = ["function", "Function", "ConcreteFunction", "TensorSpec", "functions_tracing"]


class _Tracing(threading.local):
    """What this thread is tracing now: ``(function, key)`` pairs (a recursion must change
    the key)."""

    def __init__(self) -> None:
        self.functions: list = []


_tracing = _Tracing()


def functions_tracing() -> list[Function]:
    """The functions this thread is tracing now, the innermost last.

    >>> functions_tracing()
    []
    """
    return [function for function, _ in _tracing.functions]


_P = ParamSpec("_P")
_Q = ParamSpec("_Q")
_R = TypeVar("_R", covariant=True)
_S = TypeVar("_S")

_RETRACES_BEFORE_WARNING = 5  # more traces of one function are worth a warning (TensorFlow's)
# The traces one function keeps: beyond this many, the least recently used is let go (else a
# function called with ever-new Python values keeps every trace); a later call retraces it.
MAX_TRACES = 256


class _RunEagerly:
    """Process-wide, as TensorFlow's setting: ``config.run_functions_eagerly(True)`` makes
    every ``function`` call run its Python function eagerly (to debug it)."""

    enabled = False


run_eagerly = _RunEagerly()


class Function:
    """A Python function traced per input signature and run as a compiled graph."""

    def __init__(
        self,
        python_function: Callable,
        input_signature: Any = None,
        name: str | None = None,
        autograph: bool = True,
        reduce_retracing: bool = False,
        jit_compile: bool | None = None,
        instance: Any = None,
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
        self._autograph = autograph
        self._reduce_retracing = reduce_retracing
        self._jit_compile = jit_compile  # accepted; every trace is compiled to a plan anyway
        self._instance = instance  # a weak reference to the object of a method, or None
        self._converted: Callable | None = None
        self._traces: collections.OrderedDict[Hashable, ConcreteFunction] = (
            collections.OrderedDict()
        )  # least recently used first
        self._keys_of: dict[ConcreteFunction, int] = {}  # how many keys select each trace
        self._relaxed: list[tuple[list, ConcreteFunction]] = []  # reduce_retracing's traces
        # Calls whose arguments are all tensors, by their dtypes and shapes: the common call
        # finds its trace without flattening arguments or building specs.
        self._by_tensor_types: dict[tuple, ConcreteFunction] = {}
        self._tracing_count = 0
        self._initialized = False  # whether the first call (which may make variables) ran
        self._methods: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        # Held while a signature is looked up or a finished trace kept, never while a trace
        # runs: a trace never waits for another thread's. Two threads tracing one signature
        # at once both trace; the first to finish is kept and both use it.
        self._lock = threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if run_eagerly.enabled:
            return self._eager_call(args, kwargs)
        key = values = None
        if self._input_signature is None:
            # The gradient override scope is part of every key: a trace that takes gradients
            # inside is made again under a ``gradient_override`` block (outside one it is ()).
            if kwargs:  # tensors by keyword: the trace takes them in the order of their names
                names = tuple(sorted(kwargs))
                values = (*args, *[kwargs[k] for k in names])
                types = tensor_types(values)
                if types is not None:
                    key = (types, override_key(), names, len(args))
            else:
                values = args
                types = tensor_types(args)
                if types is not None:
                    key = (types, override_key())
            if key is not None:
                concrete = self._by_tensor_types.get(key)
                if concrete is not None:
                    return concrete(*values)
        concrete, tensors = self._concrete(args, kwargs)
        if (
            key is not None
            and len(tensors) == len(values)
            and all(map(operator.is_, tensors, values))
        ):
            self._by_tensor_types[key] = concrete
        return concrete(*tensors)  # (outside the lock: other threads run it at the same time)

    def _eager_call(self, args: tuple, kwargs: dict) -> Any:
        if self._instance is None:
            return self._python_function(*args, **kwargs)
        instance = self._instance()
        if instance is None:
            raise ReferenceError(f"{self._name}: the object of this method no longer exists")
        return self._python_function(instance, *args, **kwargs)

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        """On an instance, the method is a ``Function`` of its own (a trace per instance)."""
        if instance is None:
            return self
        try:
            bound = self._methods.get(instance)
        except TypeError:  # an object that cannot be weakly referenced: traced by identity
            return functools.partial(self.__call__, instance)
        if bound is not None:
            return bound
        with self._lock:  # one bound Function per instance, whichever thread asks first
            bound = self._methods.get(instance)
            if bound is None:
                bound = self._methods[instance] = self._bound(instance)
        return bound

    def _bound(self, instance: Any) -> Function:
        return Function(
            self._python_function,
            self._input_signature,
            self._name,
            self._autograph,
            self._reduce_retracing,
            self._jit_compile,
            instance=weakref.ref(instance),
        )

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        """The trace these arguments (tensors or TensorSpecs) use, tracing if needed; with no
        arguments, the trace of the ``input_signature``."""
        if not args and not kwargs and self._input_signature is not None:
            args = tuple(self._input_signature)
        return self._concrete(args, kwargs)[0]

    def experimental_get_tracing_count(self) -> int:
        """How many times the Python function has been traced."""
        return self._tracing_count

    @property
    def python_function(self) -> Callable:
        return self._python_function

    @property
    def name(self) -> str:
        """The function's name (the Python function's, or ``name=``), as its traces use it."""
        return self._name

    @property
    def input_signature(self) -> list | None:
        return self._input_signature

    def _concrete(self, args: tuple, kwargs: dict) -> tuple[ConcreteFunction, list]:
        if self._input_signature is not None:
            args = signature_arguments(self._input_signature, args)
        structure = (list(args), dict(kwargs))
        leaves = nest.flatten(structure)
        specs, tensors = self._specs(leaves)
        scope = override_key()
        key = (tuple(leaf_key(leaf, spec) for leaf, spec in zip(leaves, specs)), scope)
        covers = None  # reduce_retracing: what a new trace will cover
        with self._lock:
            concrete = self._traces.get(key)
            if concrete is None and self._reduce_retracing:
                concrete, covers = self._relaxed_trace(leaves, specs, scope)
            if concrete is not None:
                self._keep(key, concrete)
                return concrete, tensors
        specs = specs if covers is None else covers[0]
        traced = self._trace(structure, leaves, specs, key)
        run_now = None
        if not self._initialized:  # TensorFlow's first call: traced again if it made variables
            self._initialized = True
            if traced.graph.variables_made:
                first = traced
                self._tracing_count += 1
                traced = self._trace(structure, leaves, specs, key)
                if traced.graph.variables_made:
                    message = "only supports tf.Variables created on the first call"
                    raise ValueError(f"tf.function {self._name} {message}")
                if _initializes_on_run(first):
                    # variables whose initial value is the function's own: as TensorFlow, this
                    # call runs the first trace, which gives them their value; later calls the
                    # second
                    run_now = first
        with self._lock:
            concrete = self._traces.get(key)
            if concrete is None:  # (else another thread's trace was kept first)
                concrete = traced
                self._tracing_count += 1
                if covers is not None:
                    self._relaxed.append((covers, traced))
            self._keep(key, concrete)
        return (run_now or concrete), tensors

    def _keep(self, key: Hashable, concrete: ConcreteFunction) -> None:
        """Keeps ``concrete`` as the trace of ``key``, the most recently used; beyond
        ``MAX_TRACES`` the least recently used is let go (under the lock)."""
        if key not in self._traces:
            self._keys_of[concrete] = self._keys_of.get(concrete, 0) + 1
        self._traces[key] = concrete
        self._traces.move_to_end(key)
        if len(self._traces) > MAX_TRACES:
            self._forget(self._traces.popitem(last=False)[1])

    def _forget(self, concrete: ConcreteFunction) -> None:
        """Lets go of a trace no key selects any more (the fast path's and reduce_retracing's
        references to it too)."""
        self._keys_of[concrete] -= 1
        if self._keys_of[concrete]:
            return  # (reduce_retracing: other keys still select it)
        del self._keys_of[concrete]
        for key in [k for k, kept in self._by_tensor_types.items() if kept is concrete]:
            del self._by_tensor_types[key]
        self._relaxed = [entry for entry in self._relaxed if entry[1] is not concrete]

    def _relaxed_trace(self, leaves: list, specs: list, scope: tuple) -> tuple[Any, Any]:
        """``(trace, None)`` for a trace whose specs cover these; else ``(None, covers)``: the
        specs a new trace takes -- relaxed to cover the last related trace's and these (None
        where a dimension differs), or these when no trace is related -- with the Python
        values and gradient override scope (``scope``), which must match exactly."""
        others = (tuple(leaf_key(leaf, None) for leaf, s in zip(leaves, specs) if s is None), scope)
        for covered, concrete in reversed(self._relaxed):
            if covered[1] == others and all(
                (a is None) == (b is None) and (a is None or a.is_compatible_with(b))
                for a, b in zip(covered[0], specs)
            ):
                return concrete, None
        for covered, _ in reversed(self._relaxed):
            if covered[1] != others:
                continue
            wider = relaxed(covered[0], specs)
            if wider is not None:
                return None, (wider, covered[1])
        return None, (specs, others)

    def _specs(self, leaves: list) -> tuple[list, list]:
        specs: list[Any] = []
        tensors = []
        signature = (  # (nested specs: [[TensorSpec, TensorSpec]] for an argument pair)
            iter(nest.flatten(self._input_signature)) if self._input_signature is not None else None
        )
        for leaf in leaves:
            if isinstance(leaf, (Tensor, np.ndarray, TensorSpec)):
                declared = next(signature, None) if signature is not None else None
                leaf = cast_to_spec(leaf, declared)
                spec = (
                    leaf
                    if isinstance(leaf, TensorSpec)
                    else TensorSpec.from_tensor(as_tensor(leaf))
                )
                if signature is not None:
                    if declared is None or not declared.is_compatible_with(spec):
                        raise TypeError(
                            f"{self._name}: argument {spec} is incompatible with input_signature "
                            f"{self._input_signature}"
                        )
                    spec = declared
                specs.append(spec)
                if not isinstance(leaf, TensorSpec):
                    tensors.append(as_tensor(leaf))
            else:
                specs.append(None)
        return specs, tensors

    def _callable(self) -> Callable:
        if self._converted is None:
            self._converted = (
                convert(self._python_function) if self._autograph else self._python_function
            )
        if self._instance is None:
            return self._converted
        instance = self._instance()
        if instance is None:
            raise ReferenceError(f"{self._name}: the object of this method no longer exists")
        return functools.partial(self._converted, instance)

    def _trace(self, structure: tuple, leaves: list, specs: list, key: Hashable) -> Any:
        # A function may call itself while traced with other Python values (a recursion whose
        # depth Python values fix, each depth a trace of its own), not with the same ones:
        # that trace would wait for itself. Entries are (function, key) pairs, per thread.
        tracing = (self, key)
        if any(f is self and k == key for f, k in _tracing.functions):
            raise StagingError(
                f"function '{self._name}' calls itself while traced, with arguments of the "
                f"same signature: the recursion never ends while traced (recursion must stop "
                f"on Python values; use a while loop for a depth a tensor decides)"
            )
        _tracing.functions.append(tracing)
        try:
            return self._trace_once(structure, leaves, specs)
        finally:
            _tracing.functions.remove(tracing)

    def _trace_once(self, structure: tuple, leaves: list, specs: list) -> ConcreteFunction:
        count = self._tracing_count + 1  # (counted once kept, by ``_concrete``)
        if count > _RETRACES_BEFORE_WARNING:
            # Attributed to the user's line, with a text that stays the same: Python's
            # default filter shows it once per line of the program that retraces.
            warn_at_user(
                f"function '{self._name}' has been traced more than {_RETRACES_BEFORE_WARNING} "
                f"times. Tracing is slow; frequent retracing usually means (1) the function is "
                f"made anew in a loop (make it once, outside), (2) it is called with tensors of "
                f"changing shapes (give an input_signature with None dimensions, or "
                f"reduce_retracing=True), or (3) it is called with changing Python values "
                f"(pass tensors instead).",
                UserWarning,
            )
        python_function = self._callable()
        graph = Graph(outer=context.graph)
        graph.captures_as_inputs = True
        saved = (context.tapes, context.observers, context.recording)
        context.tapes, context.observers, context.recording = [], [], False  # records nothing
        try:
            with graph.as_default():
                names = argument_names(python_function, structure)  # (TensorFlow's names)
                inputs = [
                    placeholder(
                        s.dtype,
                        s.shape if s.shape.rank is not None else None,
                        name=valid_name_from(s.name or name, "input"),
                    )
                    for s, name in zip(specs, names, strict=True)
                    if s is not None
                ]
                fed = iter(inputs)
                arguments = [next(fed) if s is not None else leaf for leaf, s in zip(leaves, specs)]
                args, kwargs = nest.pack_sequence_as(structure, arguments)
                outputs = python_function(*args, **kwargs)
        finally:
            context.tapes, context.observers, context.recording = saved
            # Ops added later (gradients) take eager values as constants: the inputs are fixed.
            graph.captures_as_inputs = False
        captures = [*graph.external_captures, *graph.eager_captures]
        concrete = ConcreteFunction(
            graph,
            [*inputs, *(internal for _, internal in captures)],
            outputs,
            self._name,
            captured_inputs=[external for external, _ in captures],
        )
        given = [leaf if s is None else s for leaf, s in zip(leaves, specs)]
        concrete.structured_input_signature = structured_input_signature(
            python_function, *nest.pack_sequence_as(structure, given)
        )
        return concrete

    def __repr__(self) -> str:
        return f"<retrograd.Function {self._name} traced {self._tracing_count} time(s)>"


# The function attributes TensorFlow's ``experimental_attributes`` accepts (annotations for
# its graph runtime; retrograd checks the names and has no use for the values).
_ATTRIBUTES = frozenset({
    "api_implements", "api_preferred_device", "_disable_acd", "disable_summaries_at_runtime",
    "go_backwards", "_implements", "experimental_ints_on_device", "_noinline",
    "function_runs_at_most_once", "runtime_constant_optimization", "_tf_data_function",
    "time_major", "_OutputsOnOpDevice",
})  # fmt: skip


@overload
def function(
    func: Callable[_Q, _S], input_signature: Sequence[Any] | None = None, **options: Any
) -> TracedFunction[_Q, _S]: ...
@overload
def function(
    func: None = None, input_signature: Sequence[Any] | None = None, **options: Any
) -> Callable[[Callable[_Q, _S]], TracedFunction[_Q, _S]]: ...
def function(
    func: Callable[..., Any] | None = None,
    input_signature: Sequence[Any] | None = None,
    autograph: bool = True,
    jit_compile: bool | None = None,
    reduce_retracing: bool = False,
    experimental_implements: str | None = None,
    experimental_autograph_options: Any = None,
    experimental_attributes: dict | None = None,
    experimental_relax_shapes: bool | None = None,
    experimental_compile: bool | None = None,
    experimental_follow_type_hints: bool | None = None,
) -> Any:
    """Decorator tracing ``func`` into a graph per input signature (``tf.function``).

    Tensor arguments become graph inputs (their dtype and shape select the trace); Python
    values are fixed in the trace (each new value traces again); ``input_signature`` fixes
    the specs (None dimensions accept any size; nested lists of specs for nested
    arguments). ``autograph`` (default True) converts Python control flow on tensors;
    ``reduce_retracing`` (or ``experimental_relax_shapes``) relaxes shapes after a retrace.
    The other options change how TensorFlow compiles or annotates the graph, not what it
    computes, and are accepted: ``jit_compile`` (``experimental_compile``; retrograd
    compiles every trace to a plan, and has no XLA), ``experimental_implements`` and
    ``experimental_attributes`` (annotations for TensorFlow's graph runtime),
    ``experimental_autograph_options`` and ``experimental_follow_type_hints`` (conversion
    and retracing hints). Under
    ``config.run_functions_eagerly(True)`` calls run the Python function eagerly.

    >>> import retrograd as rg
    >>> @rg.function
    ... def f(x):
    ...     return x * x + 1.0
    >>> f(rg.constant(3.0)).numpy().tolist()
    10.0
    """

    for key in experimental_attributes or {}:
        if key not in _ATTRIBUTES:
            raise ValueError(f"`{key} is not supported by tf.function as an attribute.")

    def make(f: Callable) -> Function:
        return Function(
            f,
            input_signature,
            None,
            autograph=autograph,
            reduce_retracing=bool(reduce_retracing or experimental_relax_shapes),
            jit_compile=jit_compile if jit_compile is not None else experimental_compile,
        )

    return make if func is None else make(func)


def _initializes_on_run(concrete: ConcreteFunction) -> bool:
    """Whether ``concrete`` gives a variable made while it was traced its initial value when
    it first runs (an initializer TensorFlow cannot lift out of the function)."""
    return any(op.type == INITIALIZE_ON_FIRST_RUN for op in concrete.graph.get_operations())
