"""Limits on what building a model from a file may allocate, checked before each
allocation (``keras.models.load_model`` sets them; nothing else does).

A model rebuilt from a ``.keras`` file creates its weights, then calls each layer on zeros
of batch size 1 to find its output shapes. While a file is loaded:

- the weights created may total at most the bytes the file's weights hold (every weight is
  in it, so a config asking for more, ``Dense(units=1e11)``, is refused before the kernel is
  allocated);
- each input and each output of a layer call may be at most ``MAX_ACTIVATION_BYTES`` at
  batch size 1; an output's shape is found by tracing the call in a graph first (no value is
  computed), so ``RepeatVector(n=10**12)`` is refused before its output is allocated.

Exceeding either is a ValueError naming the layer.

>>> with limits(weight_bytes=16, label="'m.keras'"):
...     check_weight("dense", (2, 2), "float32")
...     try:
...         check_weight("dense", (10, 10), "float32")
...     except ValueError as error:
...         print(str(error).split(" a weight")[0])
load_model: 'm.keras' asks layer 'dense' for
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.shapes import TensorShape
from retrograd.graph import graph as graph_module

__all__ = [
    "MAX_ACTIVATION_BYTES",
    "limits",
    "active",
    "check_weight",
    "check_activation",
    "check_call_outputs",
]

MAX_ACTIVATION_BYTES = 256 * 2**20
_state = threading.local()  # (per thread: a load in one thread limits only that thread)


@contextlib.contextmanager
def limits(weight_bytes: int, label: str) -> Iterator[None]:
    """Within this block, weights may total ``weight_bytes`` and activations are limited."""
    previous = getattr(_state, "budget", None)
    _state.budget = {"left": int(weight_bytes), "label": label}
    try:
        yield
    finally:
        _state.budget = previous


def active() -> bool:
    return getattr(_state, "budget", None) is not None


def _nbytes(shape: Any, dtype: Any) -> int:
    count = 1
    for d in shape:
        count *= max(int(d), 0)
    return count * np.dtype(getattr(dtype, "as_numpy_dtype", dtype)).itemsize


def check_weight(layer: str, shape: Any, dtype: Any) -> None:
    """Counts a weight about to be created against the budget (a ValueError beyond it)."""
    budget = getattr(_state, "budget", None)
    if budget is None:
        return
    size = _nbytes(shape, dtype)
    if size > budget["left"]:
        raise ValueError(
            f"load_model: {budget['label']} asks layer {layer!r} for a weight of shape "
            f"{tuple(int(d) for d in shape)} ({size} bytes), more than the weights the file "
            f"holds ({budget['left']} bytes left): the config does not match its weights"
        )
    budget["left"] -= size


def check_activation(layer: str, shape: Any, dtype: Any, what: str) -> None:
    """Refuses an input or output of a layer call larger than ``MAX_ACTIVATION_BYTES``."""
    budget = getattr(_state, "budget", None)
    if budget is None or any(d is None for d in shape):
        return
    size = _nbytes(shape, dtype)
    if size > MAX_ACTIVATION_BYTES:
        raise ValueError(
            f"load_model: {budget['label']} makes layer {layer!r} {what} a tensor of shape "
            f"{tuple(shape)} ({size} bytes at batch size 1), more than the "
            f"{MAX_ACTIVATION_BYTES} bytes a loaded model's layer may produce"
        )


def check_call_outputs(layer: Any, args: tuple, kwargs: dict, symbolic: type) -> None:
    """Traces ``layer.call`` in a graph on placeholders for the ``symbolic`` (KerasTensor)
    arguments, at batch size 1, to find its output shapes without computing anything, and
    refuses outputs beyond the limit before the real call allocates them. A call that cannot
    be traced is left to the real call (which reports its own errors)."""

    def placeholder(t: Any) -> Any:
        if not isinstance(t, symbolic):
            return t
        shape = [1 if d is None else d for d in t.shape]
        return graph_module.placeholder(t.dtype, shape)

    try:
        with graph_module.Graph().as_default():
            g_args, g_kwargs = nest.map_structure(placeholder, (args, kwargs))
            if layer._accepts("training"):
                g_kwargs["training"] = False
            outputs = layer.call(*g_args, **g_kwargs)
    except Exception:  # noqa: BLE001 (only a pre-check: the real call reports errors)
        return
    for out in nest.flatten(outputs):
        shape = getattr(out, "shape", None)
        if isinstance(shape, TensorShape) and shape.rank is not None:
            check_activation(layer.name, shape.as_list(), out.dtype, "give")
