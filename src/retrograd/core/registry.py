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

Some gradient functions also work unchanged when the upstream gradients carry extra
leading (batch) axes; ``mark_batchable`` declares them, and ``GradientTape.jacobian`` then
computes all rows of a Jacobian in one backward pass.

>>> import retrograd as rg
>>> rg.gradient_registry.lookup("MatMul").__name__
'_matmul_grad'
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from typing import Any

from retrograd.core.display import source_location
from retrograd.core.execute import OP_DEFS

__all__ = [
    "RegisterGradient",
    "RegisterForward",
    "no_gradient",
    "NotDifferentiable",
    "gradient_registry",
    "forward_registry",
    "Registry",
    "mark_batchable",
    "is_batchable",
]

GradientFunction = Callable[..., Any]


class Registry:
    """A name → function table that refuses to register a name twice for different
    functions (the same function defined again, by a reloaded module or a notebook cell run
    again, replaces the old one)."""

    def __init__(self, kind: str, how_to_register: str = "") -> None:
        self._kind = kind
        self._how_to_register = how_to_register  # "{name!r}" is replaced in messages
        self._entries: dict[str, tuple[GradientFunction | None, str]] = {}
        # Names whose function is retrograd's own: verified by the op tables, so the backward
        # walk need not check what they return (users' functions are checked every call).
        self.builtin: set[str] = set()
        self._lock = threading.Lock()  # shared by all threads: the check and the write are one

    def register(self, fn: GradientFunction | None, name: str) -> None:
        if not isinstance(name, str):
            raise TypeError(f"{self._kind} name must be a string, got {name!r}")
        location = _location(fn)
        with self._lock:
            if name in self._entries:
                if _same_function(self._entries[name][0], fn):
                    # The same code registered again (a module reloaded, a notebook cell run
                    # again): the new function object replaces the old one.
                    self._entries[name] = (fn, location)
                    return
                raise KeyError(
                    f"Registering two {self._kind} with name '{name}'! "
                    f"(Previous registration was at {self._entries[name][1]})"
                )
            self._entries[name] = (fn, location)
            if _is_builtin(fn):
                self.builtin.add(name)
            elif name in OP_DEFS:  # another function: what retrograd's did not read, it may
                OP_DEFS[name].unread = None

    def unregister(self, name: str) -> None:
        """Removes ``name`` (for tests and for replacing a rule deliberately)."""
        del self._entries[name]
        self.builtin.discard(name)

    def lookup(self, name: str) -> GradientFunction | None:
        """The function registered for ``name``; None when it was declared non-differentiable.

        Raises LookupError when ``name`` was never registered.
        """
        try:
            return self._entries[name][0]
        except KeyError:
            raise LookupError(
                f"No {self._kind} defined for operation type '{name}'."
                + self._how_to_register.replace("{name!r}", repr(name))
            ) from None

    @property
    def entries(self) -> dict[str, tuple[GradientFunction | None, str]]:
        """name -> (function, where it was defined): read by the backward walk's loop."""
        return self._entries

    def location(self, name: str) -> str:
        """Where the function for ``name`` was defined (``file:line``)."""
        return self._entries[name][1]

    def find(self, name: str) -> GradientFunction | None:
        """The function registered for ``name``, or None when there is none."""
        entry = self._entries.get(name)
        return None if entry is None else entry[0]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def list(self) -> list[str]:
        return sorted(self._entries)


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


def _is_builtin(fn: Any) -> bool:
    """Whether ``fn`` is one of retrograd's own functions (defined in its package)."""
    module = getattr(fn, "__module__", None) or ""
    return fn is not None and module.startswith("retrograd.")


def _location(fn: Any) -> str:
    if fn is None:
        return "no_gradient"
    return function_location(fn)


def function_location(fn: Any) -> str:
    """``file:line`` where a Python function was defined (``In [3], line 2`` in a notebook;
    its qualified name when it has no code)."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    if code is None:
        return getattr(fn, "__qualname__", repr(fn))
    return source_location(code.co_filename, code.co_firstlineno)


gradient_registry = Registry(
    "gradient",
    " Register one with @retrograd.RegisterGradient({name!r}) or declare it with "
    "retrograd.no_gradient({name!r}).",
)
forward_registry = Registry(
    "forward rule",
    " Register one with @retrograd.RegisterForward({name!r}); forward mode derives one from "
    "the gradient function otherwise.",
)
_batchable: set[str] = set()


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


def no_gradient(op_type: str) -> None:
    """Declares that ops of ``op_type`` have no gradient: their inputs get ``None``.

    >>> import retrograd as rg
    >>> rg.no_gradient('MyOpWithoutGradient')
    """
    gradient_registry.register(None, op_type)


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


def mark_batchable(*op_types: str) -> None:
    """Declares that the gradient functions of ``op_types`` accept batched upstream gradients.

    A batchable rule, given upstream gradients with extra leading axes (one row of a
    Jacobian per index), returns input gradients with the same leading axes; reductions
    back to a broadcast input's shape go through ``broadcast.unbroadcast``, which keeps
    them. Elementwise rules written as ``grad * local_derivative`` are batchable; rules
    that reshape, transpose or reduce the gradient along attribute axes are not.
    """
    _batchable.update(op_types)


def is_batchable(op_type: str) -> bool:
    """Whether ``op_type``'s gradient function was declared batchable."""
    return op_type in _batchable


_none_upstream: set[str] = set()


def accepts_missing_upstream(*op_types: str) -> None:
    """Declares that the gradient functions of ``op_types`` take None for an output that no
    gradient reached (instead of zeros), so they can tell "unused" from "zero"."""
    _none_upstream.update(op_types)


def takes_missing_upstream(op_type: str) -> bool:
    return op_type in _none_upstream
