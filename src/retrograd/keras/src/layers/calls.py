"""What a layer says when a call goes wrong: the layer, by type and name.

``check_input_rank`` compares the first input's rank with the layer's ``input_rank``
(``(lowest, highest)``, ``None`` for no bound: Keras' ``InputSpec(ndim=...)`` and
``min_ndim``) before the layer builds or runs, and raises Keras' ValueError naming the
layer: ``Conv2D 'conv2d_1' expects rank 4 or more, got rank 3``. ``named_error`` gives an
error raised inside a layer's ``call`` the layer's name, as Keras 3 does ("Exception
encountered when calling ..."): the same type, the original message kept, only the
innermost layer adding itself.

>>> import retrograd as tf
>>> try:
...     tf.keras.layers.Conv2D(2, 3, name="conv2d_1")(tf.ones((2, 5, 3)))
... except ValueError as error:
...     print(str(error).split(":")[0])
Conv2D 'conv2d_1' expects rank 4 or more, got rank 3
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.errors import OpError
from retrograd.core.tensor import is_tensor
from retrograd.keras.src.keras_tensor import KerasTensor

__all__ = ["check_input_rank", "check_positional_tensors", "named_error"]

_NAMED = "Exception encountered when calling layer"


def _rank(value: Any) -> int | None:
    inner = getattr(value, "_value", None)  # a tensor's array (or a graph tensor's meta)
    dims = getattr(inner, "shape", None)
    if isinstance(dims, tuple):
        return len(dims)
    shape = getattr(value, "shape", None)
    rank = getattr(shape, "rank", None)
    if rank is None and isinstance(shape, tuple):
        rank = len(shape)
    return rank


def check_positional_tensors(layer: Any, args: tuple) -> None:
    """Keras 3's rule: a layer's positional arguments hold tensors (or arrays, or None) only;
    anything else must be passed by keyword. Layers that take other values positionally (the
    preprocessing layers) set ``_allow_non_tensor_positional_args``.

    >>> import retrograd as tf
    >>> try:
    ...     tf.keras.layers.Dense(2)([[1.0, 2.0]])
    ... except ValueError as error:
    ...     print(str(error)[:49])
    Only input tensors may be passed as positional ar
    """
    if getattr(layer, "_allow_non_tensor_positional_args", False):
        return
    for value in nest.flatten(args):
        if value is None or isinstance(value, (np.ndarray, KerasTensor)) or is_tensor(value):
            continue
        raise ValueError(
            "Only input tensors may be passed as positional arguments. The following "
            f"argument value should be passed as a keyword argument: {value!r} "
            f"(of type {type(value)})"
        )


def check_input_rank(layer: Any, value: Any) -> None:
    """ValueError naming ``layer`` when ``value`` (its first input) has a rank it refuses."""
    bounds = layer.input_rank
    if bounds is None:
        return
    rank = _rank(value)
    if rank is None:
        return
    low, high = bounds
    if low <= rank and (high is None or rank <= high):
        return
    if low == high:
        wanted, keras = f"rank {low}", f"ndim={low}"
    elif high is None:
        wanted, keras = f"rank {low} or more", f"min_ndim={low}"
    else:
        wanted, keras = f"rank {low} to {high}", f"min_ndim={low}, max_ndim={high}"
    shape = tuple(getattr(value.shape, "as_list", lambda: value.shape)())
    raise ValueError(
        f"{type(layer).__name__} '{layer.name}' expects {wanted}, got rank {rank}: input 0 "
        f"of layer '{layer.name}' is incompatible with the layer (expected {keras}, found "
        f"ndim={rank}; full shape received: {shape})"
    )


def named_error(layer: Any, error: BaseException) -> BaseException:
    """``error`` as raised from ``layer.call``, with the layer named (``error`` itself when
    an inner layer already named itself, or its type cannot be rebuilt from a message)."""
    if not isinstance(error, (ValueError, TypeError, OpError)) or not error.args:
        return error
    message = str(error.args[0])
    if message.startswith(_NAMED) or getattr(error, "_keras_layer_named", False):
        return error
    try:
        named = type(error)(
            f"{_NAMED} '{layer.name}' (type {type(layer).__name__}): {message}",
            *error.args[1:],
        )
    except Exception:  # an error type with a constructor of its own: left as it is
        return error
    named._keras_layer_named = True  # type: ignore[attr-defined]
    return named
