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
from retrograd.tensor import Tensor, convert_to_tensor, is_tensor
from retrograd.registry import (
    NotDifferentiable,
    RegisterForward,
    RegisterGradient,
    forward_registry,
    gradient_registry,
    no_gradient,
)
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
from retrograd.ops.linalg_ops import tensordot
from retrograd.ops.matrix_diag_ops import eye
from retrograd.ops.norm_ops import norm
from retrograd.ops.creation_ops import linspace, meshgrid, one_hot, range
from retrograd.ops.einsum_ops import einsum
from retrograd.ops.gather_ops import boolean_mask, gather, gather_nd
from retrograd.ops.pad_ops import pad
from retrograd.ops.rearrange_ops import reverse, roll, tile
from retrograd.ops.scatter_ops import scatter_nd, tensor_scatter_nd_add, tensor_scatter_nd_update
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
from retrograd.ops.clip_ops import clip_by_global_norm, clip_by_norm
from retrograd.ops.complex_ops import complex
from retrograd.ops.rounding_ops import floor, round
from retrograd.ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh
from retrograd.ops.reduction_ops import (
    argmax,
    argmin,
    cumsum,
    reduce_all,
    reduce_any,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
)
from retrograd.ops.sort_ops import argsort, sort
from retrograd.ops.statistics_ops import reduce_logsumexp
from retrograd.tape import GradientTape, UnconnectedGradients
from retrograd.custom_gradient import custom_gradient
from retrograd.graph import Graph, constant, executing_eagerly, get_default_graph, name_scope
from retrograd.symbolic import gradients
from retrograd.function import TensorSpec, function
from retrograd.control_flow import cond, while_loop
from retrograd import compat
from retrograd import forward, functional, autodiff
from retrograd.gradient_wrappers import grad_pass_through, recompute_grad
from retrograd.printing import print_ as print
from retrograd.gradcheck import GradientCheckError, check_gradients
from retrograd.tracing import Trace, trace
from retrograd import bitwise, debugging, linalg, math, nn, optimizers, keras, test
from retrograd import random

newaxis = None

__version__ = "0.1.0"
