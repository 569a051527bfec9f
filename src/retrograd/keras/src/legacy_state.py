"""``tf.keras.backend``'s variable, value, random and dtype helpers (Keras 2's backend, kept
by TF 2.21), with ``dropout``, ``l2_normalize``, ``in_top_k`` and the image resizes.

>>> import retrograd as rg
>>> K = rg.keras.backend
>>> v = K.variable([1.0, 2.0])
>>> K.set_value(v, [3.0, 4.0])
>>> K.get_value(v).tolist()
[3.0, 4.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.compat.graph_ops import gradients as v1_gradients
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import name_scope as tf_name_scope
from retrograd.keras.src import backend as keras_backend
from retrograd.keras.src.dtype_rules import result_type as keras_result_type
from retrograd.keras.src.dtype_rules import standardize_dtype as keras_standardize_dtype
from retrograd.keras.src.keras_tensor import is_keras_tensor as _is_keras_tensor
from retrograd.keras.src.layers.reshaping import UpSampling2D
from retrograd.keras.src.legacy_tensors import repeat_elements, variable
from retrograd.keras.src.ops import math as kmath
from retrograd.ops import array_ops, math_ops, nn_layer_ops, random_ops, statistics_ops

__all__ = [
    "backend",
    "batch_get_value",
    "batch_set_value",
    "dropout",
    "eval",
    "get_value",
    "gradients",
    "in_top_k",
    "is_float_dtype",
    "is_int_dtype",
    "is_keras_tensor",
    "l2_normalize",
    "moving_average_update",
    "name_scope",
    "random_bernoulli",
    "random_normal",
    "random_normal_variable",
    "random_uniform",
    "random_uniform_variable",
    "resize_images",
    "resize_volumes",
    "result_type",
    "set_value",
    "standardize_dtype",
    "stop_gradient",
    "truncated_normal",
    "update",
    "update_add",
    "update_sub",
]


def backend() -> str:
    """The name of Keras' backend: 'tensorflow' (retrograd stands in for it).

    >>> import retrograd as rg
    >>> rg.keras.backend.backend()
    'tensorflow'
    """
    return "tensorflow"


def get_value(x: Any) -> Any:
    """``x``'s value as a NumPy array (anything else unchanged).

    >>> import retrograd as rg
    >>> rg.keras.backend.get_value(rg.constant([1.0])).tolist()
    [1.0]
    """
    if isinstance(x, (Tensor, Variable)) or hasattr(x, "numpy"):
        return x.numpy()
    return x


def eval(x: Any) -> Any:  # noqa: A001
    """``get_value``.

    >>> import retrograd as rg
    >>> rg.keras.backend.eval(rg.constant(2.0)).item()
    2.0
    """
    return get_value(x)


def batch_get_value(tensors: list) -> list:
    """The values of several tensors.

    >>> import retrograd as rg
    >>> [v.tolist() for v in rg.keras.backend.batch_get_value([rg.constant([1.0])])]
    [[1.0]]
    """
    return [get_value(x) for x in tensors]


def set_value(x: Any, value: Any) -> None:
    """Assigns ``value`` (a NumPy-compatible value) to the variable ``x``.

    >>> import retrograd as rg
    >>> v = rg.Variable(1.0)
    >>> rg.keras.backend.set_value(v, 5.0)
    >>> float(v)
    5.0
    """
    x.assign(np.asarray(value, dtype=x.dtype.name))


def batch_set_value(tuples: list) -> None:
    """``set_value`` for each ``(variable, value)`` pair.

    >>> import retrograd as rg
    >>> v = rg.Variable(1.0)
    >>> rg.keras.backend.batch_set_value([(v, 3.0)])
    >>> float(v)
    3.0
    """
    for x, value in tuples:
        set_value(x, value)


def update(x: Any, new_x: Any) -> Any:
    """``x.assign(new_x)``.

    >>> import retrograd as rg
    >>> v = rg.Variable(1.0)
    >>> float(rg.keras.backend.update(v, 2.0))
    2.0
    """
    return x.assign(new_x)


def update_add(x: Any, increment: Any) -> Any:
    """``x.assign_add(increment)``.

    >>> import retrograd as rg
    >>> v = rg.Variable(1.0)
    >>> float(rg.keras.backend.update_add(v, 2.0))
    3.0
    """
    return x.assign_add(increment)


def update_sub(x: Any, decrement: Any) -> Any:
    """``x.assign_sub(decrement)``.

    >>> import retrograd as rg
    >>> v = rg.Variable(1.0)
    >>> float(rg.keras.backend.update_sub(v, 2.0))
    -1.0
    """
    return x.assign_sub(decrement)


def moving_average_update(x: Any, value: Any, momentum: Any) -> Any:
    """``x -= (x - value) * (1 - momentum)``.

    >>> import retrograd as rg
    >>> v = rg.Variable(0.0)
    >>> float(rg.keras.backend.moving_average_update(v, 10.0, 0.5))
    5.0
    """
    momentum = math_ops.cast(momentum, x.dtype)
    value = math_ops.cast(value, x.dtype)
    return x.assign_sub((x - value) * (1 - momentum))


def gradients(loss: Any, variables: Any) -> Any:
    """``tf.compat.v1.gradients`` (graph mode only, as in TensorFlow).

    >>> import retrograd as rg
    >>> with rg.Graph().as_default():
    ...     x = rg.constant(3.0)
    ...     (g,) = rg.keras.backend.gradients(x * x, [x])
    >>> g.op.type != ''
    True
    """
    return v1_gradients(loss, variables, colocate_gradients_with_ops=True)


def stop_gradient(variables: Any) -> Any:
    """``variables`` (one or a list) cut off from the gradient.

    >>> import retrograd as rg
    >>> x = rg.constant(2.0)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = rg.keras.backend.stop_gradient(x) * x
    >>> float(tape.gradient(y, x))
    2.0
    """
    if isinstance(variables, (list, tuple)):
        return [array_ops.stop_gradient(v) for v in variables]
    return array_ops.stop_gradient(variables)


def name_scope(name: str) -> Any:
    """``tf.name_scope(name)``.

    >>> import retrograd as rg
    >>> with rg.keras.backend.name_scope('block'):
    ...     pass
    """
    return tf_name_scope(name)


def is_keras_tensor(x: Any) -> bool:
    """Whether ``x`` is a symbolic KerasTensor.

    >>> import retrograd as rg
    >>> rg.keras.backend.is_keras_tensor(rg.keras.Input((2,)))
    True
    """
    return _is_keras_tensor(x)


def is_float_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is a float type.

    >>> import retrograd as rg
    >>> rg.keras.backend.is_float_dtype('float16'), rg.keras.backend.is_float_dtype('int32')
    (True, False)
    """
    return keras_standardize_dtype(dtype).startswith(("float", "bfloat"))


def is_int_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is a (signed or unsigned) integer type.

    >>> import retrograd as rg
    >>> rg.keras.backend.is_int_dtype('uint8'), rg.keras.backend.is_int_dtype('float32')
    (True, False)
    """
    return keras_standardize_dtype(dtype).startswith(("int", "uint"))


def standardize_dtype(dtype: Any) -> str:
    """Keras' name of ``dtype`` (None: floatx).

    >>> import retrograd as rg
    >>> rg.keras.backend.standardize_dtype(rg.float64)
    'float64'
    """
    return keras_standardize_dtype(dtype)


def result_type(*dtypes_: Any) -> str:
    """The dtype Keras' promotion rules give several dtypes.

    >>> import retrograd as rg
    >>> rg.keras.backend.result_type('int32', 'float16')
    'float16'
    """
    return keras_result_type(*dtypes_)


def _seed(seed: Any) -> int:
    return int(np.random.randint(10000000)) if seed is None else seed


def random_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                  seed: Any = None) -> Any:  # fmt: skip
    """Normal samples (``tf.random.normal``; a NumPy-drawn op seed when None).

    >>> import retrograd as rg
    >>> rg.keras.backend.random_normal((2, 3), seed=1).shape.as_list()
    [2, 3]
    """
    dtype = dtype or keras_backend.floatx()
    return random_ops.normal(shape, mean, stddev, dtype, seed=_seed(seed))


def random_uniform(shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None,
                   seed: Any = None) -> Any:  # fmt: skip
    """Uniform samples in ``[minval, maxval)``.

    >>> import retrograd as rg
    >>> bool(rg.reduce_all(rg.keras.backend.random_uniform((50,), seed=1) < 1.0))
    True
    """
    dtype = dtype or keras_backend.floatx()
    return random_ops.uniform(shape, minval, maxval, dtype, seed=_seed(seed))


def truncated_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                     seed: Any = None) -> Any:  # fmt: skip
    """Normal samples redrawn beyond two standard deviations.

    >>> import retrograd as rg
    >>> x = rg.keras.backend.truncated_normal((100,), seed=1)
    >>> bool(rg.reduce_max(rg.abs(x)) <= 2.0)
    True
    """
    dtype = dtype or keras_backend.floatx()
    return random_ops.truncated_normal(shape, mean, stddev, dtype, seed=_seed(seed))


def random_bernoulli(shape: Any, p: float = 0.0, dtype: Any = None, seed: Any = None) -> Any:
    """Ones with probability ``p``, zeros otherwise.

    >>> import retrograd as rg
    >>> rg.keras.backend.random_bernoulli((3,), p=1.0, seed=2).numpy().tolist()
    [1.0, 1.0, 1.0]
    """
    dtype = dtype or keras_backend.floatx()
    draws = random_ops.uniform(shape, dtype=dtype, seed=_seed(seed))
    return array_ops.where(
        draws <= p, array_ops.ones(shape, dtype=dtype), array_ops.zeros(shape, dtype=dtype)
    )


def random_normal_variable(shape: Any, mean: float, scale: float, dtype: Any = None,
                           name: str | None = None, seed: Any = None) -> Any:  # fmt: skip
    """A variable of normal samples.

    >>> import retrograd as rg
    >>> rg.keras.backend.random_normal_variable((2,), 0.0, 1.0, seed=3).shape.as_list()
    [2]
    """
    dtype = dtype or keras_backend.floatx()
    value = random_ops.normal(shape, mean, scale, dtype, seed=_seed(seed))
    return variable(value, dtype=dtype, name=name)


def random_uniform_variable(shape: Any, low: float, high: float, dtype: Any = None,
                            name: str | None = None, seed: Any = None) -> Any:  # fmt: skip
    """A variable of uniform samples in ``[low, high)``.

    >>> import retrograd as rg
    >>> rg.keras.backend.random_uniform_variable((2,), 0.0, 1.0, seed=3).shape.as_list()
    [2]
    """
    dtype = dtype or keras_backend.floatx()
    value = random_ops.uniform(shape, low, high, dtype, seed=_seed(seed))
    return variable(value, dtype=dtype, name=name)


def dropout(x: Any, level: float, noise_shape: Any = None, seed: Any = None) -> Any:
    """``tf.nn.dropout(x, rate=level)``.

    >>> import retrograd as rg
    >>> y = rg.keras.backend.dropout(rg.ones([100]), 0.5, seed=1)
    >>> sorted(set(y.numpy().tolist()))
    [0.0, 2.0]
    """
    return nn_layer_ops.dropout(x, rate=level, noise_shape=noise_shape, seed=_seed(seed))


def l2_normalize(x: Any, axis: Any = None) -> Any:
    """``x`` divided by its L2 norm over ``axis``.

    >>> import retrograd as rg
    >>> rg.keras.backend.l2_normalize(rg.constant([3.0, 4.0])).numpy().tolist()
    [0.6000000238418579, 0.800000011920929]
    """
    return statistics_ops.l2_normalize(x, axis=axis)


def in_top_k(predictions: Any, targets: Any, k: int) -> Any:
    """Whether each target is among its row's ``k`` largest predictions.

    >>> import retrograd as rg
    >>> rg.keras.backend.in_top_k(rg.constant([[0.1, 0.9]]), rg.constant([1]), 1).numpy()
    array([ True])
    """
    return kmath.in_top_k(targets, predictions, k)


def resize_images(x: Any, height_factor: int, width_factor: int, data_format: str,
                  interpolation: str = "nearest") -> Any:  # fmt: skip
    """Images scaled up by integer factors, 'nearest' or 'bilinear' (TensorFlow's
    half-pixel resize).

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.resize_images(rg.ones([1, 2, 2, 1]), 2, 3, 'channels_last').shape.as_list()
    [1, 4, 6, 1]
    """
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Invalid `data_format` argument: {data_format}")
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError(
            '`interpolation` argument should be one of: "nearest", "bilinear" (the other '
            f'TensorFlow resize methods are not available). Received: "{interpolation}".'
        )
    layer = UpSampling2D(
        (height_factor, width_factor), data_format=data_format, interpolation=interpolation
    )
    return layer.call(convert_to_tensor(x))


def resize_volumes(x: Any, depth_factor: int, height_factor: int, width_factor: int,
                   data_format: str) -> Any:  # fmt: skip
    """Volumes scaled up by repeating entries along depth, height and width.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.resize_volumes(rg.ones([1, 1, 2, 2, 1]), 2, 1, 2, 'channels_last').shape.as_list()
    [1, 2, 2, 4, 1]
    """
    first = {"channels_first": 2, "channels_last": 1}.get(data_format)
    if first is None:
        raise ValueError(f"Invalid data_format: {data_format}")
    for axis, factor in zip(range(first, first + 3), (depth_factor, height_factor, width_factor)):
        x = repeat_elements(x, factor, axis)
    return x
