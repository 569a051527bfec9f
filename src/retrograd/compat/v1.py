"""``retrograd.compat.v1``: the TensorFlow 1 graph-mode API.

>>> import retrograd as rg
>>> rg.compat.v1.placeholder is rg.compat.v1.placeholder
True
"""

from retrograd.graph.graph import (
    disable_eager_execution,
    enable_eager_execution,
    executing_eagerly,
    get_default_graph,
    placeholder,
    reset_default_graph,
)
from retrograd.graph.session import Session, get_default_session
from retrograd.graph.symbolic import gradients

__all__ = [
    "Session",
    "disable_eager_execution",
    "enable_eager_execution",
    "executing_eagerly",
    "get_default_graph",
    "get_default_session",
    "gradients",
    "placeholder",
    "reset_default_graph",
]
