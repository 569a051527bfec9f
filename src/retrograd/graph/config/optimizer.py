"""``retrograd.config.optimizer``: TensorFlow's graph-optimizer and XLA settings, kept and
read back (retrograd compiles traces to plans of its own)."""

from retrograd.graph.devices import (
    get_experimental_options,
    get_jit,
    set_experimental_options,
    set_jit,
)

__all__ = ["get_experimental_options", "get_jit", "set_experimental_options", "set_jit"]
