"""The rule registries: op type → gradient function (TensorFlow's ``RegisterGradient``) and
op type → forward-mode rule (``RegisterForward``).

A gradient function has TensorFlow's signature ``fn(op, *grads)``: ``op`` is the recorded
operation (``.type .name .inputs .outputs .get_attr()``), ``grads`` one upstream gradient per
output. It returns one gradient per input (``None`` where an input gets none), written with
retrograd ops so that it can itself be differentiated. The same functions serve eager tapes
and graphs.

A forward rule has the signature ``fn(op, *tangents)``: one tangent per input (``None``
where an input has none) in, one tangent per output (``None`` for no tangent) out — the
Jacobian-vector product. Op types without one get their forward rule derived from the
gradient function (see :mod:`retrograd.autodiff.forward`).

The rules of an op type that retrograd defines live in its ``OpDef`` (``OpDef.gradient``):
the op files define them with :func:`op_gradient` beside the op, and the op tables verify
them. ``RegisterGradient`` (TensorFlow's API) is for users: their rules are checked at
every call. Names that are no op type (gradients registered for
``gradient_override_map``) are kept here.

>>> import retrograd as rg
>>> rg.gradient_registry.lookup("MatMul").__name__
'_matmul_grad'
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from retrograd.core.display import source_location
from retrograd.core.execute import OP_DEFS, RuleEntry

__all__ = [
    "RegisterGradient",
    "RegisterForward",
    "no_gradient",
    "NotDifferentiable",
    "op_gradient",
    "op_forward",
    "gradient_registry",
    "forward_registry",
    "Registry",
    "function_location",
]

GradientFunction = Callable[..., Any]
_F = TypeVar("_F", bound=Callable[..., Any])


class Registry:
    """A name → function table that refuses to register a name twice for different
    functions (the same function defined again, by a reloaded module or a notebook cell run
    again, replaces the old one). For a defined op type the entry is the OpDef's attribute
    ``kind`` (``"gradient"`` or ``"forward"``)."""

    def __init__(self, kind: str, what: str, how_to_register: str = "") -> None:
        self._kind = kind
        self._what = what
        self._how_to_register = how_to_register  # "{name!r}" is replaced in messages
        self._others: dict[str, RuleEntry] = {}  # names that are no op type
        self._lock = threading.Lock()  # shared by all threads: the check and the write are one

    def _entry(self, name: str) -> RuleEntry | None:
        op_def = OP_DEFS.get(name)
        if op_def is not None:
            entry = getattr(op_def, self._kind)
            if entry is not None or name not in self._others:
                return entry
            # registered before the op type was defined: the op's record takes it now
            op_def.set_rule(self._kind, self._others.pop(name))
            return getattr(op_def, self._kind)
        return self._others.get(name)

    def _set(self, name: str, entry: RuleEntry | None) -> None:
        op_def = OP_DEFS.get(name)
        if op_def is not None:
            self._others.pop(name, None)
            op_def.set_rule(self._kind, entry)
        elif entry is None:
            self._others.pop(name, None)
        else:
            self._others[name] = entry

    def register(self, fn: GradientFunction | None, name: str, own: bool = False) -> None:
        """Registers ``fn`` for ``name`` (``own``: the op's own rule, defined with it)."""
        if not isinstance(name, str):
            raise TypeError(f"{self._what} name must be a string, got {name!r}")
        entry = RuleEntry(fn, "no_gradient" if fn is None else function_location(fn), own)
        with self._lock:
            found = self._entry(name)
            if found is not None and not _same_function(found.fn, fn):
                raise KeyError(
                    f"Registering two {self._what} with name '{name}'! "
                    f"(Previous registration was at {found.location})"
                )
            if found is not None:  # the same code again: the new function replaces the old
                entry.own = found.own
            self._set(name, entry)

    def unregister(self, name: str) -> None:
        """Removes ``name`` (for tests and for replacing a rule deliberately)."""
        with self._lock:
            if self._entry(name) is None:
                raise KeyError(name)
            self._set(name, None)

    def lookup(self, name: str) -> GradientFunction | None:
        """The function registered for ``name``; None when it was declared non-differentiable.

        Raises LookupError when ``name`` was never registered.
        """
        entry = self._entry(name)
        if entry is None:
            raise LookupError(
                f"No {self._what} defined for operation type '{name}'."
                + self._how_to_register.replace("{name!r}", repr(name))
            )
        return entry.fn

    def location(self, name: str) -> str:
        """Where the function for ``name`` was defined (``file:line``)."""
        entry = self._entry(name)
        if entry is None:
            raise KeyError(name)
        return entry.location

    def find(self, name: str) -> GradientFunction | None:
        """The function registered for ``name``, or None when there is none."""
        entry = self._entry(name)
        return None if entry is None else entry.fn

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._entry(name) is not None

    def list(self) -> list[str]:
        """Every registered name, sorted."""
        defined = [n for n, d in OP_DEFS.items() if getattr(d, self._kind) is not None]
        return sorted([*defined, *self._others])


def _same_function(old: Any, new: Any) -> bool:
    """Whether ``new`` is ``old`` defined again: the same qualified name, module and code."""
    if old is None or new is None:
        return old is new
    if old is new:
        return True
    a, b = getattr(old, "__code__", None), getattr(new, "__code__", None)
    return (
        a is not None
        and b is not None
        and getattr(old, "__qualname__", None) == getattr(new, "__qualname__", None)
        and getattr(old, "__module__", None) == getattr(new, "__module__", None)
        and a.co_code == b.co_code
        and a.co_consts == b.co_consts
        and a.co_names == b.co_names
    )


def function_location(fn: Any) -> str:
    """``file:line`` where a Python function was defined (``In [3], line 2`` in a notebook;
    its qualified name when it has no code)."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    if code is None:
        return getattr(fn, "__qualname__", repr(fn))
    return source_location(code.co_filename, code.co_firstlineno)


gradient_registry = Registry(
    "gradient",
    "gradient",
    " Register one with @retrograd.RegisterGradient({name!r}) or declare it with "
    "retrograd.no_gradient({name!r}).",
)
forward_registry = Registry(
    "forward",
    "forward rule",
    " Register one with @retrograd.RegisterForward({name!r}); forward mode derives one from "
    "the gradient function otherwise.",
)


class RegisterGradient:
    """Decorator registering the gradient function of an op type.

    >>> import retrograd as rg
    >>> @rg.RegisterGradient("MyIdentityDoc")
    ... def _my_identity_grad(op, grad):
    ...     return grad
    >>> rg.gradient_registry.lookup("MyIdentityDoc") is _my_identity_grad
    True
    """

    def __init__(self, op_type: str) -> None:
        if not isinstance(op_type, str):
            raise TypeError(f"RegisterGradient: op_type must be a string, got {op_type!r}")
        self._op_type = op_type

    def __call__(self, fn: GradientFunction) -> GradientFunction:
        gradient_registry.register(fn, self._op_type)
        return fn


def op_gradient(op_type: str) -> Callable[[_F], _F]:
    """Decorator defining the gradient function of one of retrograd's own op types, beside
    the op (``OpDef.gradient``): verified by the op tables, so the backward walk calls it
    without checking what it returns.

    >>> import numpy as np
    >>> from retrograd.core.execute import define_op, OP_DEFS
    >>> _ = define_op("DocNegate", np.negative)
    >>> @op_gradient("DocNegate")
    ... def _doc_negate_grad(op, grad):
    ...     return -grad
    >>> OP_DEFS["DocNegate"].gradient.fn is _doc_negate_grad
    True
    """
    if op_type not in OP_DEFS:
        raise KeyError(f"op_gradient: op type {op_type!r} is not defined (define_op first)")

    def register(fn: _F) -> _F:
        gradient_registry.register(fn, op_type, own=True)
        return fn

    return register


def op_forward(op_type: str) -> Callable[[_F], _F]:
    """Decorator defining the forward-mode rule of one of retrograd's own op types."""

    def register(fn: _F) -> _F:
        forward_registry.register(fn, op_type, own=True)
        return fn

    return register


def no_gradient(op_type: str) -> None:
    """Declares that ops of ``op_type`` have no gradient: their inputs get ``None``.

    >>> import retrograd as rg
    >>> rg.no_gradient('MyOpWithoutGradient')
    """
    gradient_registry.register(None, op_type, own=True)


NotDifferentiable = no_gradient


class RegisterForward:
    """Decorator registering the forward-mode rule (Jacobian-vector product) of an op type.

    ``fn(op, *tangents)`` gets one tangent per input of the recorded ``op`` (None where an
    input has none) and returns one tangent per output, written with retrograd ops.

    >>> import retrograd as rg
    >>> @rg.RegisterForward("MyIdentityDoc")
    ... def _my_identity_jvp(op, tangent):
    ...     return tangent
    >>> rg.forward_registry.lookup("MyIdentityDoc") is _my_identity_jvp
    True
    """

    def __init__(self, op_type: str) -> None:
        if not isinstance(op_type, str):
            raise TypeError(f"RegisterForward: op_type must be a string, got {op_type!r}")
        self._op_type = op_type

    def __call__(self, fn: GradientFunction) -> GradientFunction:
        forward_registry.register(fn, self._op_type)
        return fn
