"""``custom_gradient``: a function whose gradient is the one you write.

``f(*x)`` returns ``(y, grad_fn)``; ``grad_fn(*upstream)`` returns one gradient per tensor
argument — the upstream gradient times the local derivative (a vector-Jacobian product).

How it composes (as in TensorFlow): ``f`` runs with tapes recording, so what ``grad_fn``
captures stays connected to ``x``; the outputs are fresh tensors produced by one recorded
op whose gradient is ``grad_fn``; and ``grad_fn`` runs while outer tapes record, so a custom
gradient used inside ``grad_fn`` defines the second derivative.

In forward mode (``ForwardAccumulator``, ``jvp``) the tangents of the outputs are derived
from ``grad_fn`` (so ``grad_fn`` then runs during the forward pass), or computed by a forward
rule given with ``f.defjvp(jvp_fn)``, which then takes precedence. Neither changes how the
gradient is computed, so Hessians work in every combination of modes.

>>> import retrograd as rg
>>> @rg.custom_gradient
... def log1pexp(x):
...     e = rg.exp(x)
...     def grad(upstream):
...         return upstream * (1 - 1 / (1 + e))
...     return rg.math.log(1 + e), grad
>>> x = rg.constant(100.0)
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = log1pexp(x)
>>> tape.gradient(y, x)
<retrograd.Tensor: shape=(), dtype=float32, numpy=1.0>
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar, overload

import numpy as np

from retrograd.autodiff.captures import report_captures, tape_sizes
from retrograd.autodiff.custom_arguments import Arguments
from retrograd.autodiff.custom_jvp import ForwardRule
from retrograd.autodiff.gradient_request import GradientRequest
from retrograd.autodiff.state import state as autodiff_state
from retrograd.core import nest
from retrograd.core.execute import context, define_op, execute, record_operation
from retrograd.core.names import valid_name_from
from retrograd.core.registry import function_location, no_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.ops import array_ops
from retrograd.ops.indexed_slices import IndexedSlices

if TYPE_CHECKING:
    from retrograd.core.annotations import CustomGradientFunction

__all__ = ["custom_gradient"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


@overload
def custom_gradient(
    f: Callable[_P, tuple[_R, Callable[..., Any]]],
) -> CustomGradientFunction[_P, _R]: ...
@overload
def custom_gradient(
    f: None = None,
) -> Callable[[Callable[_P, tuple[_R, Callable[..., Any]]]], CustomGradientFunction[_P, _R]]: ...
def custom_gradient(f: Callable[..., Any] | None = None) -> Any:
    """Decorates ``f(*x) -> (y, grad_fn)`` so that its gradient is computed by ``grad_fn``.

    Every positional argument is an input, as in TensorFlow: tensors and variables (also
    inside lists, tuples and dicts), and Python numbers and NumPy arrays (converted);
    ``grad_fn`` returns one gradient per input, in the structure of the arguments (dicts by
    key), None where there is none; integer inputs get None. Functions, strings and other
    objects are passed through and get no gradient. Keyword arguments are not inputs (a
    warning says so when a tape differentiates one). If ``f`` reads trainable
    variables that are not arguments, ``grad_fn(*upstream, variables=None)`` must return
    ``(input_grads, variable_grads)`` with one gradient per variable in ``variables``.

    >>> import retrograd as rg
    >>> @rg.custom_gradient
    ... def log1pexp(x):
    ...     e = rg.exp(x)
    ...     return rg.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))
    >>> x = rg.constant(100.0)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = log1pexp(x)
    >>> tape.gradient(y, x).numpy().tolist()
    1.0
    """
    if f is None:
        return custom_gradient
    forward: list[Callable[..., Any]] = []  # the defjvp rule, once given

    @functools.wraps(f)
    def decorated(*args: Any, **kwargs: Any) -> Any:
        return _call(f, args, kwargs, forward[0] if forward else None)

    def defjvp(jvp_fn: Callable[..., Any]) -> Callable[..., Any]:
        """Gives ``f`` a forward-mode rule: ``jvp_fn(primals, tangents, outputs)``.

        ``primals`` is the tuple of positional arguments of the call, ``tangents`` the same
        structure with a tangent for each tensor or variable (zeros where it has none, None
        for other arguments), ``outputs`` what the call returned. It returns the tangents
        of the outputs in their structure (the Jacobian-vector product), written with
        retrograd ops. Usable as a decorator; the gradient is still ``grad_fn``'s.

        >>> import retrograd as rg
        >>> @rg.custom_gradient
        ... def softplus(x):
        ...     return rg.math.log(1 + rg.exp(x)), lambda dy: dy * rg.sigmoid(x)
        >>> @softplus.defjvp
        ... def _(primals, tangents, outputs):
        ...     return tangents[0] * rg.sigmoid(primals[0])
        >>> x = rg.constant(0.0)
        >>> with rg.autodiff.ForwardAccumulator(x, rg.constant(1.0)) as acc:
        ...     y = softplus(x)
        >>> acc.jvp(y)
        <retrograd.Tensor: shape=(), dtype=float32, numpy=0.5>
        """
        if not callable(jvp_fn):
            raise TypeError(f"{_describe(f)}: defjvp expects a function, got {jvp_fn!r}")
        try:
            inspect.signature(jvp_fn).bind(None, None, None)
        except TypeError:
            raise TypeError(
                f"{_describe(f)}: the forward rule must accept (primals, tangents, outputs); "
                f"{getattr(jvp_fn, '__qualname__', jvp_fn)} has signature "
                f"{inspect.signature(jvp_fn)}"
            ) from None
        except ValueError:  # no signature to inspect (a builtin): trust it
            pass
        forward[:] = [jvp_fn]
        return jvp_fn

    decorated.defjvp = defjvp  # type: ignore[attr-defined]
    return decorated


def _describe(f: Callable[..., Any]) -> str:
    return f"custom_gradient function '{f.__qualname__}' (defined at {function_location(f)})"


def _call(f: Callable[..., Any], args: tuple, kwargs: dict, jvp_fn: Callable | None) -> Any:
    read: list[Variable] = []
    plain = not kwargs
    for a in args:  # (a loop: the common call, every argument a tensor, kept cheap)
        if type(a) is not Tensor:
            plain = False
            break
    arguments = None if plain else Arguments(f, args, kwargs)
    watching = context.active  # (None: no graph, nothing records)
    taped = watching is not None and watching.tapes
    sizes = tape_sizes() if taped and not context.rule_depth else None
    watchers = context.variable_watchers
    watchers.append(read)
    try:
        returned = f(*args, **kwargs)
    finally:
        watchers.pop()
    if (
        plain
        and not read
        and type(returned) is tuple
        and len(returned) == 2
        and type(returned[0]) is Tensor
        and callable(returned[1])
    ):  # the common call: tensors in, one tensor out, no variable read
        return _record_call(f, args, jvp_fn, sizes, returned[0], returned[1])
    return _finish(f, args, kwargs, jvp_fn, read, sizes, returned, arguments)


def _record_call(
    f: Callable[..., Any],
    args: tuple,
    jvp_fn: Callable | None,
    sizes: list | None,
    result: Tensor,
    grad_fn: Callable[..., Any],
) -> Tensor:
    """What ``_finish`` does for the common call (every argument a tensor passed
    positionally, one tensor returned, no variable read), in fewer steps."""
    if sizes is not None:
        report_captures(sizes, f, grad_fn, _describe, args, ())
    watching = context.active
    if watching is None:  # eager, and nothing records: the output as it is
        return result
    if watching.graph is not None:
        return _graph_op(f, grad_fn, list(args), [], [result], (args, {}), None)[0]
    inputs = list(args)
    for tape in watching.tapes:
        if tape.tracks_any(inputs):
            fresh = Tensor(result._value)
            break
    else:  # no tape records the rule (an output that is an input is copied, as in _finish)
        fresh = Tensor(result._value) if any(result is a for a in inputs) else result
    rule = _Rule(f, grad_fn, inputs, [], (args, {}))
    if jvp_fn is not None:
        rule.forward_rule = ForwardRule(jvp_fn, args, fresh, rule.describe)
    record_operation(_CustomGradient, inputs, (fresh,), None, f.__name__, rule)
    return fresh


def _finish(
    f: Callable[..., Any],
    args: tuple,
    kwargs: dict,
    jvp_fn: Callable | None,
    read: list,
    sizes: list | None,
    returned: Any,
    arguments: Arguments | None,
) -> Any:
    """The rest of ``_call`` once ``f`` ran: checks what it returned and the tensors it
    captured, and records the call with its rule (``arguments``: None when every argument
    is a tensor passed positionally)."""
    flat_args: list = list(args) if arguments is None else [leaf.value for leaf in arguments.inputs]
    if not (isinstance(returned, (tuple, list)) and len(returned) == 2 and callable(returned[1])):
        raise TypeError(
            f"{_describe(f)} must return a pair (outputs, grad_fn) with grad_fn callable; "
            f"got {type(returned).__name__}"
        )
    result, grad_fn = returned
    if sizes is not None:
        keyword = [v for _, v in arguments.keyword_tensors] if arguments is not None else ()
        report_captures(sizes, f, grad_fn, _describe, flat_args, keyword)
    variables = [v for v in read if not any(v is a for a in flat_args)] if read else []
    if variables and not _accepts_variables(grad_fn):
        raise TypeError(
            f"{_describe(f)} reads the variables {[v.name for v in variables]}, so its grad_fn "
            f"must accept the keyword argument 'variables' and return (input_grads, variable_grads)"
        )
    if arguments is not None and arguments.keyword_tensors and _keywords_only(f, arguments):
        return result  # differentiated through its forward computation, as in TensorFlow
    single = type(result) is Tensor
    outputs = (
        [result] if single else [_as_output(f, i, y) for i, y in enumerate(nest.flatten(result))]
    )
    watching = context.active
    if watching is None:  # eager, and nothing records: the outputs as they are
        return result if single else nest.pack_sequence_as(result, outputs)
    if watching.graph is not None:
        symbolic = _graph_op(f, grad_fn, flat_args, variables, outputs, (args, kwargs), arguments)
        return nest.pack_sequence_as(result, symbolic)
    # A variable argument is read (recorded) by the conversion.
    inputs = [a if type(a) is Tensor else convert_to_tensor(a) for a in flat_args]
    recorded = [*inputs, *variables] if variables else inputs
    for tape in watching.tapes:
        if tape.tracks_any(recorded):
            fresh = tuple([Tensor(y._value) for y in outputs])
            break
    else:  # no tape records the rule: tapes see the forward's own ops, as in TensorFlow
        # (an output that is an input is copied: the record must not make it its own output)
        fresh = tuple([Tensor(y._value) if any(y is a for a in inputs) else y for y in outputs])
    packed = fresh[0] if single else nest.pack_sequence_as(result, list(fresh))
    rule = _Rule(f, grad_fn, inputs, variables, (args, kwargs), arguments=arguments)
    if jvp_fn is not None:
        rule.forward_rule = ForwardRule(jvp_fn, args, packed, rule.describe)
    record_operation(_CustomGradient, recorded, fresh, None, f.__name__, rule)
    return packed


def _keywords_only(f: Callable, arguments: Arguments) -> bool:
    """Warns about tensors passed by keyword, which are not inputs (as in TensorFlow); True
    when no positional argument is a tensor being differentiated, so that the call is
    differentiated through its forward computation instead of by ``grad_fn``."""
    keyword = sorted({k for k, v in arguments.keyword_tensors if _differentiated(v)})
    if not keyword and context.graph is None:
        return False
    if not keyword:
        keyword = sorted({k for k, _ in arguments.keyword_tensors})
    positional = [leaf.path for leaf in arguments.inputs if _differentiated(leaf.value)]
    if positional:
        warnings.warn(
            f"{_describe(f)} was called with the tensor(s) {keyword} passed by keyword: keyword "
            f"arguments are not inputs of a custom gradient (as in TensorFlow), so they get no "
            f"gradient from it. Pass them positionally, and return their gradients from grad_fn.",
            stacklevel=5,
        )
        return False
    warnings.warn(
        f"{_describe(f)} was called with its tensor(s) {keyword} passed by keyword only: keyword "
        f"arguments are not inputs of a custom gradient (as in TensorFlow), so grad_fn is not "
        f"used and the gradient is computed by differentiating the forward computation. Pass "
        f"them positionally to use grad_fn.",
        stacklevel=5,
    )
    return True


def _differentiated(value: Any) -> bool:
    """Whether an active tape tracks ``value`` (in a graph: whether it could be differentiated)."""
    if context.graph is not None and not context.tapes:
        return type(value) is not Tensor and value._value.dtype.kind in "fc"
    return any(tape.tracks(value) for tape in context.tapes)


# In a graph, the custom op also takes the forward results as inputs and passes them through:
# the graph then computes them before it, and its gradient goes to the arguments only.
_CustomGradient = define_op(
    "CustomGradient",
    lambda *values, forwarded: tuple(values[len(values) - forwarded :]),
    multi_output=True,
    shape_fn=lambda metas, forwarded: [(m.shape, m.dtype) for m in metas[len(metas) - forwarded :]],
    forwards_inputs=True,
    missing_upstream="none",
)


no_gradient("CustomGradient")  # never looked up: each CustomGradient op carries its own rule
# Outputs no gradient reached come as None: the rule fills zeros and tells grad_fn which.


def _graph_op(
    f: Callable,
    grad_fn: Callable,
    flat_args: list,
    variables: list,
    outputs: list,
    call: tuple,
    arguments: Arguments | None,
) -> list:
    inputs = [convert_to_tensor(a) for a in flat_args]
    rule = _Rule(f, grad_fn, inputs, variables, call, len(outputs), arguments)
    fresh = execute(
        _CustomGradient,
        [*inputs, *variables, *outputs],
        {"forwarded": len(outputs)},
        valid_name_from(getattr(f, "__name__", ""), "CustomGradient"),  # never the raw text
    )
    fresh[0].op.grad_fn = rule
    return list(fresh)


def _accepts_variables(grad_fn: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(grad_fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in params)


def _as_output(f: Callable[..., Any], i: int, y: Any) -> Tensor:
    if isinstance(y, Tensor):
        return y
    try:
        return convert_to_tensor(y)
    except (TypeError, ValueError) as e:
        raise TypeError(
            f"{_describe(f)} returned output {i} of type {type(y).__name__}, which is not a "
            f"tensor ({e})"
        ) from None


class _Rule:
    """The gradient function of one custom-gradient call: runs ``grad_fn`` and checks it.

    ``call`` keeps the call's ``(args, kwargs)`` so that checkers can run ``f`` again;
    ``forwarded`` counts the forward results a graph op passes through (no gradient);
    ``forward_rule`` is the ``defjvp`` rule, when one was given.
    """

    __slots__ = (
        "_f",
        "_grad_fn",
        "_inputs",
        "_variables",
        "_forwarded",
        "_arguments",
        "_all_float",
        "call",
        "forward_rule",
    )

    def __init__(
        self,
        f: Callable,
        grad_fn: Callable,
        inputs: list,
        variables: list,
        call: tuple,
        forwarded: int = 0,
        arguments: Arguments | None = None,
    ) -> None:
        self._f = f
        self._arguments = arguments  # None: every argument is a tensor, matched by position
        self._all_float = True
        for x in inputs:
            if x._value.dtype.kind not in "fc":
                self._all_float = False
        self._grad_fn = grad_fn
        self._inputs = inputs
        self._variables = variables
        self._forwarded = forwarded  # graph ops: forward results passed through, no gradient
        self.call = call
        self.forward_rule: ForwardRule | None = None

    @property
    def describe(self) -> str:
        """How errors name this rule: the custom-gradient function and where it is defined."""
        return _describe(self._f)

    @property
    def argument_count(self) -> int:
        """How many of the op's inputs are arguments (the rest are variables read inside)."""
        return len(self._inputs)

    def jvp(self, tangents: list) -> list:
        """The tangents of the outputs by the ``defjvp`` rule, from the arguments' tangents."""
        assert self.forward_rule is not None, "jvp of a rule without a defjvp rule"
        return self.forward_rule(self._inputs, tangents)

    def __call__(self, op: Any, *upstream: Any) -> list:
        n = len(upstream)
        missing = upstream[0] is None if n == 1 else any(g is None for g in upstream)
        zero: Any = False
        if missing:  # outputs no gradient reached: zeros, and grad_fn can ask which
            zero = tuple(g is None for g in upstream)
            upstream = tuple(
                array_ops.zeros_like(y) if g is None and y._value.dtype.kind in "fc" else g
                for g, y in zip(upstream, op.outputs)
            )
        outer = autodiff_state.gradient_request
        # What grad_fn may ask (gradient_request()), worked out only if it asks.
        autodiff_state.gradient_request = (self, op, zero)
        try:
            return self._gradients(upstream)
        finally:
            autodiff_state.gradient_request = outer

    def request(self, op: Any, zero: Any) -> GradientRequest:
        """What ``grad_fn`` is asked for in the call on ``op`` (``gradient_request()``)."""
        skip = op.skip_input_indices
        n = len(self._inputs)
        needs = [i not in skip and x._value.dtype.kind in "fc" for i, x in enumerate(self._inputs)]
        variables = [n + j not in skip for j in range(len(self._variables))]
        if zero is False:
            zero = (False,) * len(op.outputs)
        return GradientRequest(tuple(needs), tuple(variables), zero)

    def _gradients(self, upstream: tuple) -> list:
        if self._variables:
            returned = self._grad_fn(*upstream, variables=self._variables)
            if not (isinstance(returned, (tuple, list)) and len(returned) == 2):
                raise TypeError(
                    f"{self.describe}: grad_fn was called with variables, so it must return a pair "
                    f"(input_grads, variable_grads); got {type(returned).__name__}"
                )
            input_grads, variable_grads = returned
            variable_grads = nest.flatten(variable_grads)
            if len(variable_grads) != len(self._variables):
                raise ValueError(
                    f"{self.describe}: grad_fn must return one gradient per variable: got "
                    f"{len(variable_grads)} for {len(self._variables)} variable(s) "
                    f"{[v.name for v in self._variables]}"
                )
        else:
            input_grads, variable_grads = self._grad_fn(*upstream), []
        if self._arguments is not None:
            flat = self._arguments.match(input_grads, self.describe)
        elif type(input_grads) is Tensor:
            flat = [input_grads]
        else:
            flat = nest.flatten(input_grads)
        if len(flat) != len(self._inputs):
            raise ValueError(
                f"{self.describe}: grad_fn returned {len(flat)} gradient(s) but the function has "
                f"{len(self._inputs)} tensor input(s); return one per input (None for no gradient)"
            )
        if not variable_grads and not self._forwarded and self._all_float:
            for g in flat:  # (a loop: cheaper than all() on a generator, once per call)
                if type(g) is not Tensor:
                    break
            else:
                return flat  # tensors for the arguments: nothing to convert
        targets = [*self._inputs, *self._variables]
        grads = [*flat, *variable_grads]
        converted = [self._as_gradient(i, g, x) for i, (g, x) in enumerate(zip(grads, targets))]
        return converted + [None] * self._forwarded

    def _as_gradient(self, i: int, g: Any, x: Any) -> Tensor | None:
        if g is None:
            return None
        if x._value.dtype.kind not in "fc":
            return None  # integer and bool inputs get no gradient, as in TensorFlow
        if isinstance(g, Tensor):
            return g
        if callable(g):
            raise TypeError(
                f"{self.describe}: grad_fn returned a function for input {i}. To define a second "
                f"derivative, decorate an inner function with @custom_gradient inside grad_fn and "
                f"call it (the first_order_custom pattern), rather than returning a function."
            )
        if isinstance(g, IndexedSlices):  # a sparse gradient, as TensorFlow allows: dense here
            return convert_to_tensor(g)
        if isinstance(g, (int, float, complex, np.ndarray, np.generic)):
            return convert_to_tensor(
                g, dtype=x.dtype
            )  # a Python number or array, as TensorFlow allows
        raise TypeError(
            f"{self.describe}: grad_fn returned a {type(g).__name__} for input {i}; gradients must "
            f"be tensors (or None)"
        )
