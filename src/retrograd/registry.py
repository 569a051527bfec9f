"""The gradient registry: op type → gradient function (TensorFlow's ``RegisterGradient``).

A gradient function has TensorFlow's signature ``fn(op, *grads)``: ``op`` is the recorded
operation (``.type .name .inputs .outputs .get_attr()``), ``grads`` one upstream gradient per
output. It returns one gradient per input (``None`` where an input gets none), written with
retrograd ops so that it can itself be differentiated. The same functions serve eager tapes
and graphs.

>>> import retrograd as rg
>>> rg.gradient_registry.lookup("MatMul").__name__
'_matmul_grad'
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

__all__ = ["RegisterGradient", "no_gradient", "NotDifferentiable", "gradient_registry", "Registry"]

GradientFunction = Callable[..., Any]


class Registry:
    """A name → function table that refuses to register a name twice."""

    def __init__(self, kind: str) -> None:
        self._kind = kind
        self._entries: dict[str, tuple[GradientFunction | None, str]] = {}

    def register(self, fn: GradientFunction | None, name: str) -> None:
        if not isinstance(name, str):
            raise TypeError(f"{self._kind} name must be a string, got {name!r}")
        if name in self._entries:
            raise KeyError(
                f"Registering two {self._kind} with name '{name}'! "
                f"(Previous registration was at {self._entries[name][1]})"
            )
        self._entries[name] = (fn, _location(fn))

    def unregister(self, name: str) -> None:
        """Removes ``name`` (for tests and for replacing a rule deliberately)."""
        del self._entries[name]

    def lookup(self, name: str) -> GradientFunction | None:
        """The function registered for ``name``; None when it was declared non-differentiable.

        Raises LookupError when ``name`` was never registered.
        """
        try:
            return self._entries[name][0]
        except KeyError:
            raise LookupError(
                f"No gradient defined for operation type '{name}'. Register one with "
                f"@retrograd.RegisterGradient({name!r}) or declare it with "
                f"retrograd.no_gradient({name!r})."
            ) from None

    def location(self, name: str) -> str:
        """Where the function for ``name`` was defined (``file:line``)."""
        return self._entries[name][1]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def list(self) -> list[str]:
        return sorted(self._entries)


def _location(fn: Any) -> str:
    if fn is None:
        return "no_gradient"
    return function_location(fn)


def function_location(fn: Any) -> str:
    """``file:line`` where a Python function was defined (its qualified name otherwise)."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    if code is None:
        return getattr(fn, "__qualname__", repr(fn))
    return f"{code.co_filename}:{code.co_firstlineno}"


gradient_registry = Registry("gradient")


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
    """Declares that ops of ``op_type`` have no gradient: their inputs get ``None``."""
    gradient_registry.register(None, op_type)


NotDifferentiable = no_gradient
