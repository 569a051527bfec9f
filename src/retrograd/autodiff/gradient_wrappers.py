"""Function wrappers that change how a gradient is computed, not the values:
``recompute_grad`` (keep less in memory, recompute in the backward pass) and
``grad_pass_through`` (differentiate as if the function were the identity).

Both are custom gradients, so they compose with every mode: nested tapes, forward mode and
the function transforms.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any, ParamSpec, TypeVar

from retrograd.autodiff.custom_gradient import custom_gradient
from retrograd.autodiff.tape import GradientTape
from retrograd.core import nest
from retrograd.core.execute import context, variable_accessed
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.ops.indexed_slices import dense_gradients

__all__ = ["recompute_grad", "grad_pass_through"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


@contextlib.contextmanager
def _tapes_paused() -> Iterator[None]:
    """No tape records inside this block (accumulators and other observers still see ops).

    Trainable variables read inside still count as accessed: once the tapes resume, those
    that watch accessed variables watch them.
    """
    read: list[Variable] = []
    context.variable_watchers.append(read)
    try:
        with contextlib.ExitStack() as stack:
            for tape in reversed(context.tapes):  # resumed in their original order
                stack.enter_context(tape.stop_recording())
            yield
    finally:
        context.variable_watchers.remove(read)
    for variable in read:
        variable_accessed(variable)


def recompute_grad(f: Callable[_P, _R]) -> Callable[_P, _R]:
    """``f`` whose intermediate values are not kept for the backward pass but recomputed there.

    The forward pass runs ``f`` with tapes paused, so only its inputs and outputs are
    recorded; the backward pass runs ``f`` again under a tape and differentiates that. It
    trades one more forward pass of ``f`` for the memory of its activations (see
    ``benchmarks/recompute_memory.py``). ``f`` must compute the same values when run again.
    Trainable variables read by ``f`` get gradients too. Unlike TensorFlow's, it also works
    in forward mode and to any order.

    >>> import retrograd as rg
    >>> block = rg.recompute_grad(lambda x: rg.tanh(x) * 2.0)
    >>> x = rg.constant(0.5)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = block(x)
    >>> round(float(tape.gradient(y, x)), 5)  # 2 (1 - tanh(x)^2)
    1.5729
    """

    @functools.wraps(f)
    def recomputing(*args: Any, **kwargs: Any) -> Any:
        @custom_gradient
        def recompute(*inner_args: Any) -> tuple:
            with _tapes_paused():
                result = f(*inner_args, **kwargs)

            def grad_fn(*upstream: Any, variables: Any = None) -> Any:
                sources = [a for a in nest.flatten(inner_args) if isinstance(a, (Tensor, Variable))]
                with GradientTape() as tape:
                    tape.watch(sources)
                    recomputed = f(*inner_args, **kwargs)
                grads = dense_gradients(
                    tape.gradient(
                        nest.flatten(recomputed),
                        [*sources, *(variables or [])],
                        output_gradients=list(upstream),
                    )
                )
                if variables is None:
                    return grads
                return grads[: len(sources)], grads[len(sources) :]

            return result, grad_fn

        return recompute(*args)

    return recomputing


def grad_pass_through(f: Callable[_P, _R]) -> Callable[_P, _R]:
    """``f`` in the forward pass, the identity in the backward pass (TensorFlow's
    ``grad_pass_through``): each output's gradient goes to the matching input unchanged,
    so ``f`` needs as many tensor inputs as outputs, of the same shapes. Variables read
    inside ``f`` get no gradient.

    A straight-through estimator: ``sign`` forward, gradient 1 backward.

    >>> import retrograd as rg
    >>> x = rg.constant(1.3)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = rg.grad_pass_through(rg.sign)(x * 3.0)
    >>> float(y), float(tape.gradient(y, x))
    (1.0, 3.0)
    """
    name = getattr(f, "__qualname__", repr(f))

    @functools.wraps(f)
    def passing_through(*args: Any, **kwargs: Any) -> Any:
        @custom_gradient
        def pass_through(*inner_args: Any) -> tuple:
            inputs = [a for a in nest.flatten(inner_args) if isinstance(a, (Tensor, Variable))]

            def grad_fn(*upstream: Any, variables: Any = None) -> Any:
                if len(upstream) != len(inputs):
                    raise ValueError(
                        f"grad_pass_through({name}): the function has {len(inputs)} tensor "
                        f"input(s) and {len(upstream)} output(s); passing gradients through "
                        f"needs one output per input"
                    )
                if variables is None:
                    return list(upstream)
                return list(upstream), [None] * len(variables)

            return f(*inner_args, **kwargs), grad_fn

        return pass_through(*args)

    return passing_through
