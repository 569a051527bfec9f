"""The autodiff layer's per-thread state (as TensorFlow keeps it: each thread its own).

``backward_observers``: objects told about every gradient rule a backward pass calls
(``observe_backward(op, rule, upstream, grads)``: traces, checks, explanations).
``backward_pass``: the number of the backward walk running now (from 1; 0: none), so that
tools can tell which pass an op belongs to.
``strict_custom_gradients``: a custom gradient capturing a differentiated tensor raises
instead of warning. ``op_sites``: the lines of the user's code that ran each op, while the
debugging switch records them (``explain.SiteLog``; None: not recorded).
``explain_none``: every None gradient comes with its explanation (a warning).
``none_gradients``: ``variable id -> (variable, why its last gradient was None)``, for
optimizers' errors. ``gradient_request``: what the custom gradient's ``grad_fn`` running
now is asked for (``gradient_request()``).

>>> from retrograd.autodiff.state import state
>>> state.backward_pass
0
"""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["state"]


class _AutodiffState(threading.local):
    def __init__(self) -> None:
        self.backward_observers: list = []
        self.backward_pass = 0
        self.strict_custom_gradients = False
        self.op_sites: Any = None
        self.explain_none = False
        self.none_gradients: dict | None = None
        self.gradient_request: Any = None


state = _AutodiffState()
