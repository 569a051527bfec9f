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
    """The identity.

    >>> import retrograd as rg
    >>> rg.keras.activations.linear([1.0, -2.0])
    [1.0, -2.0]
    """
    return x


def relu(x: Any) -> Any:
    """``max(x, 0)`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.relu([-1.0, 2.0]).numpy().tolist()
    [0.0, 2.0]
    """
    return tf_ops.relu(x)


def sigmoid(x: Any) -> Any:
    """``1 / (1 + exp(-x))`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.sigmoid([0.0]).numpy().tolist()
    [0.5]
    """
    return tf_ops.sigmoid(x)


def tanh(x: Any) -> Any:
    """The hyperbolic tangent, elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.tanh([0.0]).numpy().tolist()
    [0.0]
    """
    return tf_ops.tanh(x)


def softmax(x: Any, axis: int = -1) -> Any:
    """``exp(x) / sum(exp(x))`` along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.activations.softmax([[0.0, 0.0]]).numpy().tolist()
    [[0.5, 0.5]]
    """
    return nn_ops.softmax(x, axis=axis)


def log_softmax(x: Any, axis: int = -1) -> Any:
    """``x - log(sum(exp(x)))`` along ``axis``.

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.keras.activations.log_softmax([0.0, 0.0]).numpy().tolist()]
    [-0.6931, -0.6931]
    """
    return nn_ops.log_softmax(x, axis=axis)


def softplus(x: Any) -> Any:
    """``log(1 + exp(x))``, computed stably.

    >>> import retrograd as rg
    >>> round(float(rg.keras.activations.softplus(0.0)), 4)
    0.6931
    """
    return tf_ops.softplus(x)


def softsign(x: Any) -> Any:
    """``x / (1 + |x|)`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.softsign([1.0, -3.0]).numpy().tolist()
    [0.5, -0.75]
    """
    return tf_ops.softsign(x)


def elu(x: Any, alpha: float = 1.0) -> Any:
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere.

    >>> import retrograd as rg
    >>> x = rg.constant([-1.0, 2.0])
    >>> [round(v, 4) for v in rg.keras.activations.elu(x, alpha=0.5).numpy().tolist()]
    [-0.3161, 2.0]
    """
    return activation_ops.elu(x) if alpha == 1.0 else _scaled_elu(x, alpha)


def _scaled_elu(x: Any, alpha: float) -> Any:
    return tf_ops.where(x > 0, x, alpha * (tf_ops.exp(x) - 1.0))


def selu(x: Any) -> Any:
    """The scaled exponential linear unit (self-normalising constants).

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.keras.activations.selu([-1.0, 1.0]).numpy().tolist()]
    [-1.1113, 1.0507]
    """
    return activation_ops.selu(x)


def gelu(x: Any, approximate: bool = False) -> Any:
    """The Gaussian error linear unit: ``x * Phi(x)`` (tanh approximation when ``approximate``).

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.keras.activations.gelu([-1.0, 0.0, 1.0]).numpy().tolist()]
    [-0.1587, 0.0, 0.8413]
    """
    return activation_ops.gelu(x, approximate=approximate)


def swish(x: Any) -> Any:
    """``x * sigmoid(x)`` (also named ``silu``).

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.keras.activations.swish([-1.0, 0.0, 1.0]).numpy().tolist()]
    [-0.2689, 0.0, 0.7311]
    """
    return x * tf_ops.sigmoid(x)


silu = swish


def exponential(x: Any) -> Any:
    """``exp(x)`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.exponential([0.0]).numpy().tolist()
    [1.0]
    """
    return tf_ops.exp(x)


def leaky_relu(x: Any, negative_slope: float = 0.2) -> Any:
    """``x`` where positive, ``negative_slope * x`` elsewhere.

    >>> import retrograd as rg
    >>> rg.keras.activations.leaky_relu([-1.0, 2.0], negative_slope=0.5).numpy().tolist()
    [-0.5, 2.0]
    """
    return activation_ops.leaky_relu(x, alpha=negative_slope)


def relu6(x: Any) -> Any:
    """``min(max(x, 0), 6)`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.relu6([-1.0, 3.0, 9.0]).numpy().tolist()
    [0.0, 3.0, 6.0]
    """
    return activation_ops.relu6(x)


_BY_NAME = {name: globals()[name] for name in __all__ if name not in ("get", "serialize", "silu")}
_BY_NAME["silu"] = swish


def get(identifier: Any) -> Callable:
    """An activation from its name, a function, or None (linear).

    >>> import retrograd as rg
    >>> activations = rg.keras.activations
    >>> activations.get('relu') is activations.relu, activations.get(None) is activations.linear
    (True, True)
    """
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(
                f"Could not interpret activation function identifier: {identifier!r} "
                f"(known: {sorted(_BY_NAME)})"
            )
        return _BY_NAME[identifier]
    if isinstance(identifier, dict):  # a serialized object (a saved model's config)
        from retrograd.keras.src import serialization

        return serialization.deserialize_keras_object(identifier)
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(activation: Callable) -> Any:
    """The name of a built-in activation (what ``get_config`` shows), else the function.

    >>> import retrograd as rg
    >>> rg.keras.activations.serialize(rg.keras.activations.relu)
    'relu'
    """
    for name, fn in _BY_NAME.items():
        if fn is activation:
            return name
    return getattr(activation, "__name__", activation)
