"""What a custom gradient's ``grad_fn`` is asked for: which inputs need a gradient, and which
upstream gradients are structurally zero (an output nobody used), so it can skip work.

Inside ``grad_fn``, ``retrograd.autodiff.gradient_request()`` answers for the call that is
running: ``needs_input_grad`` has one flag per input (the flattened positional arguments'
tensors and numbers, in order; PyTorch's name), ``needs_variable_grad`` one per variable
read inside, and ``zero_upstream`` one per output, True where no gradient reached that
output (the upstream gradient ``grad_fn`` receives there is zeros it need not multiply).
A gradient returned for an input that does not need one is ignored, so a rule may return
None there. Built-in gradient functions read the same facts as ``op.skip_input_indices``
(TensorFlow's attribute) and the None upstream of ops declared with
``accepts_missing_upstream``.

>>> import retrograd as rg
>>> @rg.custom_gradient
... def mul(a, b):
...     def grad(dy):
...         need_a, need_b = rg.autodiff.gradient_request().needs_input_grad
...         return (dy * b if need_a else None), (dy * a if need_b else None)
...     return a * b, grad
>>> a, b = rg.constant(2.0), rg.constant(3.0)
>>> with rg.GradientTape() as tape:
...     tape.watch(a)
...     y = mul(a, b)
>>> tape.gradient(y, a)
<retrograd.Tensor: shape=(), dtype=float32, numpy=3.0>
"""

from __future__ import annotations

from typing import NamedTuple

from retrograd.autodiff.state import state as autodiff_state

__all__ = ["GradientRequest", "gradient_request"]


class GradientRequest(NamedTuple):
    """The gradients one ``grad_fn`` call is asked for (see the module's docstring).

    >>> import retrograd as rg
    >>> rg.autodiff.GradientRequest((True, False), (), (False,)).needs_input_grad
    (True, False)
    """

    needs_input_grad: tuple[bool, ...]
    needs_variable_grad: tuple[bool, ...]
    zero_upstream: tuple[bool, ...]


def gradient_request() -> GradientRequest:
    """Inside a custom gradient's ``grad_fn``: which inputs need gradients, which upstream
    gradients are zero because no gradient reached their output.

    >>> import retrograd as rg
    >>> @rg.custom_gradient
    ... def scale(x, k):
    ...     def grad(dy):
    ...         print(rg.autodiff.gradient_request().needs_input_grad)
    ...         return dy * k, dy * x
    ...     return x * k, grad
    >>> x, k = rg.constant(2.0), rg.constant(3.0)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = scale(x, k)
    >>> tape.gradient(y, x).numpy().tolist()
    (True, False)
    3.0
    """
    running = autodiff_state.gradient_request  # (rule, op, zero flags or False), set by the rule
    if running is None:
        raise RuntimeError(
            "retrograd.autodiff.gradient_request() answers only inside a custom gradient's "
            "grad_fn while it runs"
        )
    rule, op, zero = running
    return rule.request(op, zero)
