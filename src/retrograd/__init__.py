"""retrograd: TensorFlow's custom-gradient system on NumPy — checked, explained and fast.

A program written for TensorFlow 2's custom-gradient API runs with ``import retrograd as tf``:

>>> import retrograd as tf
>>> @tf.custom_gradient
... def bar(x, y):
...     def grad(upstream):
...         return upstream * y, upstream * x
...     return x * y, grad
>>> x, y = tf.constant(2.0), tf.constant(3.0)
>>> with tf.GradientTape(persistent=True) as tape:
...     tape.watch([x, y])
...     z = bar(x, y)
>>> z
<retrograd.Tensor: shape=(), dtype=float32, numpy=6.0>
>>> tape.gradient(z, x)
<retrograd.Tensor: shape=(), dtype=float32, numpy=3.0>
>>> tape.gradient(z, y)
<retrograd.Tensor: shape=(), dtype=float32, numpy=2.0>
"""

from retrograd import dtypes, errors, nest
from retrograd.dtypes import (
    DType,
    as_dtype,
    bool,
    complex64,
    complex128,
    double,
    float16,
    float32,
    float64,
    half,
    int8,
    int16,
    int32,
    int64,
    uint8,
)
from retrograd.shapes import TensorShape
from retrograd.tensor import Tensor, constant, convert_to_tensor, is_tensor
from retrograd.registry import NotDifferentiable, RegisterGradient, gradient_registry, no_gradient
from retrograd.variables import Variable
from retrograd import ops  # noqa: E402  (defines every op and binds the operators)
from retrograd.ops.array_ops import (
    concat,
    expand_dims,
    fill,
    identity,
    ones,
    ones_like,
    rank,
    reshape,
    shape,
    size,
    split,
    squeeze,
    stack,
    stop_gradient,
    strided_slice,
    transpose,
    unstack,
    where,
    zeros,
    zeros_like,
)
from retrograd.ops.broadcast import broadcast_to
from retrograd.ops.comparison_ops import (
    equal,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    not_equal,
)
from retrograd.ops.linalg_ops import matmul
from retrograd.ops.math_ops import (
    abs,
    add,
    add_n,
    cast,
    clip_by_value,
    cos,
    divide,
    exp,
    maximum,
    minimum,
    multiply,
    negative,
    pow,
    realdiv,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    truediv,
)
from retrograd.ops.reduction_ops import (
    cumsum,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
)
from retrograd.tape import GradientTape, UnconnectedGradients, gradients
from retrograd.custom_gradient import custom_gradient
from retrograd.printing import print_ as print
from retrograd.gradcheck import GradientCheckError, check_gradients
from retrograd import bitwise, debugging, linalg, math, nn, optimizers, keras
from retrograd import random

newaxis = None

__version__ = "0.1.0"
