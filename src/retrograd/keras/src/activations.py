"""``tf.keras.activations``: activation functions by name.

>>> import retrograd as rg
>>> rg.keras.activations.get("relu")(rg.constant([-1.0, 2.0])).numpy()
array([0., 2.], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.keras.src import tf_ops
from retrograd.ops import activation_ops, nn_ops

__all__ = [
    "get",
    "serialize",
    "linear",
    "relu",
    "sigmoid",
    "tanh",
    "softmax",
    "softplus",
    "softsign",
    "elu",
    "selu",
    "gelu",
    "swish",
    "silu",
    "exponential",
    "log_softmax",
    "leaky_relu",
    "relu6",
]


def linear(x: Any) -> Any:
    """The identity."""
    return x


def relu(x: Any) -> Any:
    return tf_ops.relu(x)


def sigmoid(x: Any) -> Any:
    return tf_ops.sigmoid(x)


def tanh(x: Any) -> Any:
    return tf_ops.tanh(x)


def softmax(x: Any, axis: int = -1) -> Any:
    return nn_ops.softmax(x, axis=axis)


def log_softmax(x: Any, axis: int = -1) -> Any:
    return nn_ops.log_softmax(x, axis=axis)


def softplus(x: Any) -> Any:
    return tf_ops.softplus(x)


def softsign(x: Any) -> Any:
    return tf_ops.softsign(x)


def elu(x: Any, alpha: float = 1.0) -> Any:
    return activation_ops.elu(x) if alpha == 1.0 else _scaled_elu(x, alpha)


def _scaled_elu(x: Any, alpha: float) -> Any:
    return tf_ops.where(x > 0, x, alpha * (tf_ops.exp(x) - 1.0))


def selu(x: Any) -> Any:
    return activation_ops.selu(x)


def gelu(x: Any, approximate: bool = False) -> Any:
    return activation_ops.gelu(x, approximate=approximate)


def swish(x: Any) -> Any:
    return x * tf_ops.sigmoid(x)


silu = swish


def exponential(x: Any) -> Any:
    return tf_ops.exp(x)


def leaky_relu(x: Any, negative_slope: float = 0.2) -> Any:
    return activation_ops.leaky_relu(x, alpha=negative_slope)


def relu6(x: Any) -> Any:
    return activation_ops.relu6(x)


_BY_NAME = {name: globals()[name] for name in __all__ if name not in ("get", "serialize", "silu")}
_BY_NAME["silu"] = swish


def get(identifier: Any) -> Callable:
    """An activation from its name, a function, or None (linear)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(
                f"Could not interpret activation function identifier: {identifier!r} "
                f"(known: {sorted(_BY_NAME)})"
            )
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(activation: Callable) -> Any:
    """The name of a built-in activation (what ``get_config`` shows), else the function."""
    for name, fn in _BY_NAME.items():
        if fn is activation:
            return name
    return getattr(activation, "__name__", activation)
