"""``tf.keras.activations``: activation functions by name (``get``), with Keras 3's
signatures. Most are the ``keras.ops`` functions of the same name (so they also work on
symbolic tensors); ``relu`` takes Keras' slope, ceiling and threshold.

>>> import retrograd as rg
>>> rg.keras.activations.get("relu")(rg.constant([-1.0, 2.0])).numpy()
array([0., 2.], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.keras.src.ops import nn_activations as nn
from retrograd.keras.src.ops import numpy_unary, tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import activation_ops, clip_ops, comparison_ops, math_ops, nn_ops

__all__ = [
    "get",
    "serialize",
    "deserialize",
    "linear",
    "relu",
    "relu6",
    "sigmoid",
    "tanh",
    "softmax",
    "log_softmax",
    "softplus",
    "softsign",
    "elu",
    "selu",
    "celu",
    "gelu",
    "glu",
    "silu",
    "swish",
    "mish",
    "exponential",
    "leaky_relu",
    "log_sigmoid",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "hard_shrink",
    "soft_shrink",
    "tanh_shrink",
    "sparse_plus",
    "sparse_sigmoid",
    "sparsemax",
    "squareplus",
    "threshold",
]


def linear(x: Any) -> Any:
    """The identity.

    >>> import retrograd as rg
    >>> rg.keras.activations.linear([1.0, -2.0])
    [1.0, -2.0]
    """
    return x


def relu(x: Any, negative_slope: float = 0.0, max_value: Any = None, threshold: float = 0.0) -> Any:
    """``max(x, 0)``; with ``threshold``, values at or below it become 0 (or follow
    ``negative_slope`` times ``x - threshold``); ``max_value`` caps the output.

    >>> import retrograd as rg
    >>> rg.keras.activations.relu([-1.0, 2.0, 9.0], max_value=6.0).numpy().tolist()
    [0.0, 2.0, 6.0]
    """
    if any_symbolic(x):
        return symbolic_call(relu, x, negative_slope, max_value, threshold)
    t = tensors.convert(x)
    negative_part = None
    if negative_slope != 0.0:
        if max_value is None and threshold == 0:
            return activation_ops.leaky_relu(t, alpha=negative_slope)
        negative_part = nn_ops.relu(-t + threshold) if threshold != 0 else nn_ops.relu(-t)
    clip = max_value is not None
    if threshold != 0:
        above = comparison_ops.greater(t, tensors.convert(threshold, t.dtype))
        t = t * math_ops.cast(above, t.dtype)
    elif max_value == 6:
        t, clip = activation_ops.relu6(t), False
    else:
        t = nn_ops.relu(t)
    if clip:
        t = clip_ops.clip_by_value(
            t, tensors.convert(0.0, t.dtype), tensors.convert(max_value, t.dtype)
        )
    if negative_part is not None:
        t = t - negative_slope * negative_part
    return t


def sigmoid(x: Any) -> Any:
    """``1 / (1 + exp(-x))`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.sigmoid([0.0]).numpy().tolist()
    [0.5]
    """
    return nn.sigmoid(x)


def tanh(x: Any) -> Any:
    """The hyperbolic tangent, elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.tanh([0.0]).numpy().tolist()
    [0.0]
    """
    return numpy_unary.tanh(x)


def softmax(x: Any, axis: Any = -1) -> Any:
    """``exp(x) / sum(exp(x))`` along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.activations.softmax([[0.0, 0.0]]).numpy().tolist()
    [[0.5, 0.5]]
    """
    return nn.softmax(x, axis=axis)


def log_softmax(x: Any, axis: Any = -1) -> Any:
    """``x - log(sum(exp(x)))`` along ``axis``.

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.keras.activations.log_softmax([0.0, 0.0]).numpy().tolist()]
    [-0.6931, -0.6931]
    """
    return nn.log_softmax(x, axis=axis)


def softplus(x: Any) -> Any:
    """``log(1 + exp(x))``, computed stably.

    >>> import retrograd as rg
    >>> round(float(rg.keras.activations.softplus(0.0)), 4)
    0.6931
    """
    return nn.softplus(x)


def softsign(x: Any) -> Any:
    """``x / (1 + |x|)`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.softsign([1.0, -3.0]).numpy().tolist()
    [0.5, -0.75]
    """
    return nn.softsign(x)


def elu(x: Any, alpha: float = 1.0) -> Any:
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere.

    >>> import retrograd as rg
    >>> x = rg.constant([-1.0, 2.0])
    >>> [round(v, 4) for v in rg.keras.activations.elu(x, alpha=0.5).numpy().tolist()]
    [-0.3161, 2.0]
    """
    return nn.elu(x, alpha)


def selu(x: Any) -> Any:
    """The scaled exponential linear unit (self-normalising constants).

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.keras.activations.selu([-1.0, 1.0]).numpy().tolist()]
    [-1.1113, 1.0507]
    """
    return nn.selu(x)


def celu(x: Any, alpha: float = 1.0) -> Any:
    """The continuously differentiable ELU.

    >>> import retrograd as rg
    >>> rg.keras.activations.celu([2.0]).numpy().tolist()
    [2.0]
    """
    return nn.celu(x, alpha)


def gelu(x: Any, approximate: bool = False) -> Any:
    """The Gaussian error linear unit: ``x * Phi(x)`` (tanh approximation when
    ``approximate``).

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.keras.activations.gelu([-1.0, 0.0, 1.0]).numpy().tolist()]
    [-0.1587, 0.0, 0.8413]
    """
    return nn.gelu(x, approximate)


def glu(x: Any, axis: int = -1) -> Any:
    """The gated linear unit along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.activations.glu([[2.0, 0.0]]).numpy().tolist()
    [[1.0]]
    """
    return nn.glu(x, axis)


def silu(x: Any) -> Any:
    """``x * sigmoid(x)`` (also named ``swish``).

    >>> import retrograd as rg
    >>> [round(v, 4) for v in rg.keras.activations.silu([-1.0, 0.0, 1.0]).numpy().tolist()]
    [-0.2689, 0.0, 0.7311]
    """
    return nn.silu(x)


swish = silu


def mish(x: Any) -> Any:
    """``x * tanh(softplus(x))``.

    >>> import retrograd as rg
    >>> round(float(rg.keras.activations.mish(1.0)), 4)
    0.8651
    """
    if any_symbolic(x):
        return symbolic_call(mish, x)
    t = tensors.convert(x)
    return t * math_ops.tanh(nn_ops.softplus(t))


def exponential(x: Any) -> Any:
    """``exp(x)`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.exponential([0.0]).numpy().tolist()
    [1.0]
    """
    return numpy_unary.exp(x)


def leaky_relu(x: Any, negative_slope: float = 0.2) -> Any:
    """``x`` where positive, ``negative_slope * x`` elsewhere.

    >>> import retrograd as rg
    >>> rg.keras.activations.leaky_relu([-1.0, 2.0], negative_slope=0.5).numpy().tolist()
    [-0.5, 2.0]
    """
    return nn.leaky_relu(x, negative_slope)


def relu6(x: Any) -> Any:
    """``min(max(x, 0), 6)`` elementwise.

    >>> import retrograd as rg
    >>> rg.keras.activations.relu6([-1.0, 3.0, 9.0]).numpy().tolist()
    [0.0, 3.0, 6.0]
    """
    return nn.relu6(x)


def log_sigmoid(x: Any) -> Any:
    """``log(sigmoid(x))``, computed stably.

    >>> import retrograd as rg
    >>> round(float(rg.keras.activations.log_sigmoid(0.0)), 4)
    -0.6931
    """
    return nn.log_sigmoid(x)


def hard_sigmoid(x: Any) -> Any:
    """``relu6(x + 3) / 6``.

    >>> import retrograd as rg
    >>> rg.keras.activations.hard_sigmoid([0.0]).numpy().tolist()
    [0.5]
    """
    return nn.hard_sigmoid(x)


def hard_silu(x: Any) -> Any:
    """``x * hard_sigmoid(x)``.

    >>> import retrograd as rg
    >>> rg.keras.activations.hard_silu([4.0]).numpy().tolist()
    [4.0]
    """
    return nn.hard_silu(x)


hard_swish = hard_silu


def hard_tanh(x: Any) -> Any:
    """``x`` clipped to ``[-1, 1]``.

    >>> import retrograd as rg
    >>> rg.keras.activations.hard_tanh([-3.0, 0.5]).numpy().tolist()
    [-1.0, 0.5]
    """
    return nn.hard_tanh(x)


def hard_shrink(x: Any, threshold: float = 0.5) -> Any:
    """``x`` where ``|x| > threshold``, 0 elsewhere.

    >>> import retrograd as rg
    >>> rg.keras.activations.hard_shrink([0.25, 2.0]).numpy().tolist()
    [0.0, 2.0]
    """
    return nn.hard_shrink(x, threshold)


def soft_shrink(x: Any, threshold: float = 0.5) -> Any:
    """``x`` moved ``threshold`` toward 0 (0 within it).

    >>> import retrograd as rg
    >>> rg.keras.activations.soft_shrink([0.25, 2.0]).numpy().tolist()
    [0.0, 1.5]
    """
    return nn.soft_shrink(x, threshold)


def tanh_shrink(x: Any) -> Any:
    """``x - tanh(x)``.

    >>> import retrograd as rg
    >>> rg.keras.activations.tanh_shrink([0.0]).numpy().tolist()
    [0.0]
    """
    return nn.tanh_shrink(x)


def sparse_plus(x: Any) -> Any:
    """0 below -1, ``(x + 1)**2 / 4`` on [-1, 1), ``x`` above.

    >>> import retrograd as rg
    >>> rg.keras.activations.sparse_plus([0.0]).numpy().tolist()
    [0.25]
    """
    return nn.sparse_plus(x)


def sparse_sigmoid(x: Any) -> Any:
    """0 below -1, ``(x + 1) / 2`` between, 1 above.

    >>> import retrograd as rg
    >>> rg.keras.activations.sparse_sigmoid([0.0]).numpy().tolist()
    [0.5]
    """
    return nn.sparse_sigmoid(x)


def sparsemax(x: Any, axis: int = -1) -> Any:
    """The projection onto the simplex along ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.activations.sparsemax([[2.0, 0.0]]).numpy().tolist()
    [[1.0, 0.0]]
    """
    return nn.sparsemax(x, axis)


def squareplus(x: Any, b: float = 4) -> Any:
    """``(x + sqrt(x**2 + b)) / 2``.

    >>> import retrograd as rg
    >>> rg.keras.activations.squareplus([0.0]).numpy().tolist()
    [1.0]
    """
    return nn.squareplus(x, b)


def threshold(x: Any, threshold: float, default_value: float) -> Any:
    """``x`` where ``x > threshold``, ``default_value`` elsewhere.

    >>> import retrograd as rg
    >>> rg.keras.activations.threshold([0.5, 2.0], 1.0, 0.0).numpy().tolist()
    [0.0, 2.0]
    """
    return nn.threshold(x, threshold, default_value)


_BY_NAME = {
    name: globals()[name]
    for name in __all__
    if name not in ("get", "serialize", "deserialize", "swish", "hard_swish")
}
_NAMES = {fn: name for name, fn in _BY_NAME.items()}
_BY_NAME["swish"], _BY_NAME["hard_swish"] = silu, hard_silu


def get(identifier: Any) -> Callable:
    """An activation from its name, a serialized dict, a function, or None (linear).

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
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(activation: Callable) -> Any:
    """The name of a built-in activation (what ``get_config`` shows), else the function.

    >>> import retrograd as rg
    >>> rg.keras.activations.serialize(rg.keras.activations.swish)
    'silu'
    """
    if activation in _NAMES:
        return _NAMES[activation]
    return getattr(activation, "__name__", activation)


def deserialize(config: Any, custom_objects: dict | None = None) -> Callable:
    """The activation a name or a serialized dict describes.

    >>> import retrograd as rg
    >>> rg.keras.activations.deserialize("tanh") is rg.keras.activations.tanh
    True
    """
    if isinstance(config, str):
        if custom_objects and config in custom_objects:
            return custom_objects[config]
        return get(config)
    from retrograd.keras.src import serialization

    return serialization.deserialize_keras_object(config, custom_objects)
