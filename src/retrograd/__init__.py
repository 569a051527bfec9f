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

import sys as _sys

from retrograd import dtypes, errors, nest
from retrograd.core.dtypes import (
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
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import Tensor, convert_to_tensor, is_tensor
from retrograd.core.registry import (
    NotDifferentiable,
    RegisterForward,
    RegisterGradient,
    forward_registry,
    gradient_registry,
    no_gradient,
)
from retrograd.core.variables import Variable
from retrograd.core.annotations import TensorLike
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
from retrograd.ops.indexed_slices import IndexedSlices
from retrograd.ops.dynamic_shape_ops import slice
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
from retrograd.ops.creation_ops import linspace, meshgrid, one_hot, range, sequence_mask
from retrograd.ops.einsum_ops import einsum
from retrograd.ops.gather_ops import boolean_mask, gather, gather_nd
from retrograd.ops.pad_ops import pad
from retrograd.ops.rearrange_ops import reverse, roll, tile
from retrograd.ops.scatter_ops import scatter_nd, tensor_scatter_nd_add, tensor_scatter_nd_update
from retrograd.ops.clip_ops import clip_by_value
from retrograd.ops.math_ops import (
    abs,
    add,
    add_n,
    cast,
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
from retrograd.autodiff.tape import GradientTape, UnconnectedGradients
from retrograd.autodiff.custom_gradient import custom_gradient
from retrograd.autodiff.overrides import gradient_override
from retrograd.ops.numpy_function_ops import numpy_function
from retrograd.graph.graph import Graph, constant, executing_eagerly, get_default_graph, name_scope
from retrograd.graph.symbolic import gradients
from retrograd.graph.function import TensorSpec, function
from retrograd.graph.control_flow import cond, while_loop
from retrograd import compat
from retrograd import autodiff, functional
from retrograd.autodiff.gradient_wrappers import grad_pass_through, recompute_grad
from retrograd.ops.print_ops import print_ as print
from retrograd.checking.gradcheck import GradientCheckError, check_gradients
from retrograd.checking.tracing import Trace, trace
from retrograd import bitwise, debugging, linalg, math, nn, keras, test
from retrograd import random
from retrograd.keras import optimizers
from retrograd.graph.autograph import api as autograph
from retrograd.training.module import Module
from retrograd.ops.debug_ops import Assert
from retrograd.graph.map_fn import map_fn, vectorized_map
from retrograd.training import train_namespace as train
from retrograd import data
from retrograd import distribute

newaxis = None

__version__ = "0.1.0"

# `import retrograd.optimizers` keeps working: TensorFlow 2's `tf.optimizers` is the Keras one.
_sys.modules[__name__ + ".optimizers"] = optimizers
# `tf.autograph` and `tf.autograph.experimental`, importable by those names too.
_sys.modules[__name__ + ".autograph"] = autograph
_sys.modules[__name__ + ".autograph.experimental"] = autograph.experimental
# `tf.train` (checkpoints) lives in the training package; `import retrograd.train` works too.
_sys.modules[__name__ + ".train"] = train

__all__ = [
    "Assert",
    "DType",
    "autograph",
    "GradientCheckError",
    "GradientTape",
    "IndexedSlices",
    "Graph",
    "Module",
    "NotDifferentiable",
    "RegisterForward",
    "RegisterGradient",
    "Tensor",
    "TensorLike",
    "TensorShape",
    "TensorSpec",
    "Trace",
    "UnconnectedGradients",
    "Variable",
    "abs",
    "acos",
    "acosh",
    "add",
    "add_n",
    "argmax",
    "argmin",
    "argsort",
    "as_dtype",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "autodiff",
    "bitwise",
    "bool",
    "boolean_mask",
    "broadcast_to",
    "cast",
    "check_gradients",
    "clip_by_global_norm",
    "clip_by_norm",
    "clip_by_value",
    "compat",
    "complex",
    "complex128",
    "complex64",
    "concat",
    "cond",
    "constant",
    "convert_to_tensor",
    "cos",
    "cosh",
    "cumsum",
    "custom_gradient",
    "data",
    "debugging",
    "distribute",
    "divide",
    "double",
    "dtypes",
    "einsum",
    "equal",
    "errors",
    "executing_eagerly",
    "exp",
    "expand_dims",
    "eye",
    "fill",
    "float16",
    "float32",
    "float64",
    "floor",
    "forward_registry",
    "function",
    "functional",
    "gather",
    "gather_nd",
    "get_default_graph",
    "grad_pass_through",
    "gradient_registry",
    "gradient_override",
    "numpy_function",
    "gradients",
    "greater",
    "greater_equal",
    "half",
    "identity",
    "int16",
    "int32",
    "int64",
    "int8",
    "is_tensor",
    "keras",
    "less",
    "less_equal",
    "linalg",
    "linspace",
    "logical_and",
    "logical_not",
    "logical_or",
    "map_fn",
    "math",
    "matmul",
    "maximum",
    "meshgrid",
    "minimum",
    "multiply",
    "name_scope",
    "negative",
    "nest",
    "newaxis",
    "nn",
    "no_gradient",
    "norm",
    "not_equal",
    "one_hot",
    "ones",
    "ones_like",
    "optimizers",
    "pad",
    "pow",
    "print",
    "random",
    "range",
    "rank",
    "realdiv",
    "recompute_grad",
    "reduce_all",
    "reduce_any",
    "reduce_logsumexp",
    "reduce_max",
    "reduce_mean",
    "reduce_min",
    "reduce_prod",
    "reduce_sum",
    "reshape",
    "reverse",
    "roll",
    "round",
    "scatter_nd",
    "sequence_mask",
    "shape",
    "sigmoid",
    "sign",
    "sin",
    "sinh",
    "size",
    "slice",
    "sort",
    "split",
    "sqrt",
    "square",
    "squeeze",
    "stack",
    "stop_gradient",
    "strided_slice",
    "subtract",
    "tan",
    "tanh",
    "tensor_scatter_nd_add",
    "tensor_scatter_nd_update",
    "tensordot",
    "test",
    "train",
    "tile",
    "trace",
    "transpose",
    "truediv",
    "uint8",
    "unstack",
    "vectorized_map",
    "where",
    "while_loop",
    "zeros",
    "zeros_like",
]
