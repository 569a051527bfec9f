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
    uint16,
    uint32,
    uint64,
    variant,
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
    transpose,
    unstack,
    where,
    zeros,
    zeros_like,
)
from retrograd.ops.broadcast import broadcast_to
from retrograd.ops.slicing_ops import strided_slice
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
from retrograd.ops.scatter_ops import (
    scatter_nd,
    tensor_scatter_nd_add,
    tensor_scatter_nd_max,
    tensor_scatter_nd_min,
    tensor_scatter_nd_sub,
    tensor_scatter_nd_update,
)
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
from retrograd.graph.symbolic import gradients, hessians
from retrograd.graph.function import TensorSpec, function
from retrograd.graph.signatures import TypeSpec
from retrograd.graph.type_specs import (
    IndexedSlicesSpec,
    NoneTensorSpec,
    OptionalSpec,
    TensorArraySpec,
    get_static_value,
    type_spec_from_value,
)
from retrograd.graph.graph_tensors import GraphOperation as Operation
from retrograd.training.aggregation import (
    AggregationMethod,
    VariableAggregation,
    VariableSynchronization,
    get_logger,
)
from retrograd.graph.control_flow import cond, while_loop
from retrograd import compat
from retrograd.compat import runner as _runner
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
from retrograd.ops.debug_ops import Assert, assert_equal, assert_greater, assert_less, assert_rank
from retrograd.graph.map_fn import map_fn, vectorized_map
from retrograd.training import train_namespace as train
from retrograd import data
from retrograd.graph import config
from retrograd.graph.device_spec import DeviceSpec, device
from retrograd.graph.control_ops import (
    control_dependencies,
    get_current_name_scope,
    group,
    init_scope,
    inside_function,
    is_symbolic_tensor,
    no_op,
    tuple,
)
from retrograd.ops.cast_ops import saturate_cast, scalar_mul, truncatediv, truncatemod
from retrograd.ops.identity_ops import (
    bitcast,
    check_pinned,
    ensure_shape,
    guarantee_const,
    identity_n,
    timestamp,
)
from retrograd.ops.tensor_array import TensorArray
from retrograd.ops.initializers_v2 import (
    constant_initializer,
    ones_initializer,
    random_normal_initializer,
    random_uniform_initializer,
    zeros_initializer,
)
from retrograd.graph.higher_order import case, foldl, foldr, scan, switch_case
from retrograd.graph.py_function import py_function
from retrograd.ops.partition_ops import (
    broadcast_dynamic_shape,
    broadcast_static_shape,
    dynamic_partition,
    dynamic_stitch,
    parallel_stack,
    repeat,
    reverse_sequence,
    shape_n,
    unique,
    unique_with_counts,
)
from retrograd.ops.search_ops import (
    histogram_fixed_width,
    histogram_fixed_width_bins,
    searchsorted,
    unravel_index,
)
from retrograd.ops.linalg_extra_ops import eig, eigvals
from retrograd.ops.fftnd_ops import fftnd, ifftnd, irfftnd, rfftnd
from retrograd.ops.conv_general_ops import (
    conv,
    conv2d_backprop_filter_v2,
    conv2d_backprop_input_v2,
    extract_volume_patches,
)
from retrograd.graph.batching import CriticalSection, nondifferentiable_batch_function
from retrograd.ops.approx_topk_ops import approx_top_k
from retrograd.ops.linalg_band_ops import sqrtm as matrix_square_root
from retrograd.ops.space_batch_ops import (
    batch_to_space,
    required_space_to_batch_paddings,
    space_to_batch,
    space_to_batch_nd,
)
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
# `tf.config` (devices, run_functions_eagerly) lives in the graph package.
for _name in ("", ".experimental", ".threading", ".optimizer"):
    _sys.modules[f"{__name__}.config{_name}"] = _sys.modules[f"retrograd.graph.config{_name}"]
# `import tensorflow.python.framework.ops` (and every path of compat.runner.MODULES) in a
# program that made `sys.modules["tensorflow"]` retrograd.
_runner.install_module_paths()

__all__ = [
    "abs", "acos", "acosh", "add", "add_n", "AggregationMethod", "approx_top_k", "argmax",
    "argmin", "argsort", "as_dtype", "asin", "asinh", "Assert", "assert_equal", "assert_greater",
    "assert_less", "assert_rank", "atan", "atan2", "atanh", "autodiff", "autograph",
    "batch_to_space", "bitcast", "bitwise", "bool", "boolean_mask", "broadcast_dynamic_shape",
    "broadcast_static_shape", "broadcast_to", "case", "cast", "check_gradients", "check_pinned",
    "clip_by_global_norm", "clip_by_norm", "clip_by_value", "compat", "complex", "complex128",
    "complex64", "concat", "cond", "config", "constant", "constant_initializer",
    "control_dependencies", "conv", "conv2d_backprop_filter_v2", "conv2d_backprop_input_v2",
    "convert_to_tensor", "cos", "cosh", "CriticalSection", "cumsum", "custom_gradient", "data",
    "debugging", "device", "distribute", "DeviceSpec", "divide", "double", "DType", "dtypes",
    "dynamic_partition", "dynamic_stitch", "eig", "eigvals", "einsum", "ensure_shape", "equal",
    "errors", "executing_eagerly", "exp", "expand_dims", "extract_volume_patches", "eye", "fftnd",
    "fill", "float16", "float32", "float64", "floor", "foldl", "foldr", "forward_registry",
    "function", "functional", "gather", "gather_nd", "get_current_name_scope", "get_default_graph",
    "get_logger", "get_static_value", "grad_pass_through", "gradient_override",
    "gradient_registry", "GradientCheckError", "gradients", "GradientTape", "Graph", "greater",
    "greater_equal", "group", "guarantee_const", "half", "hessians", "histogram_fixed_width",
    "histogram_fixed_width_bins", "identity", "identity_n", "ifftnd", "IndexedSlices",
    "IndexedSlicesSpec", "init_scope", "inside_function", "int16", "int32", "int64", "int8",
    "irfftnd", "is_symbolic_tensor", "is_tensor", "keras", "less", "less_equal", "linalg",
    "linspace", "logical_and", "logical_not", "logical_or", "map_fn", "math", "matmul",
    "matrix_square_root", "maximum", "meshgrid", "minimum", "Module", "multiply", "name_scope",
    "negative", "nest", "newaxis", "nn", "no_gradient", "no_op",
    "nondifferentiable_batch_function", "NoneTensorSpec", "norm", "not_equal", "NotDifferentiable",
    "numpy_function", "one_hot", "ones", "ones_initializer", "ones_like", "Operation",
    "optimizers", "OptionalSpec", "pad", "parallel_stack", "pow", "print", "py_function", "random",
    "random_normal_initializer", "random_uniform_initializer", "range", "rank", "realdiv",
    "recompute_grad", "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max", "reduce_mean",
    "reduce_min", "reduce_prod", "reduce_sum", "RegisterForward", "RegisterGradient", "repeat",
    "required_space_to_batch_paddings", "reshape", "reverse", "reverse_sequence", "rfftnd", "roll",
    "round", "saturate_cast", "scalar_mul", "scan", "scatter_nd", "searchsorted", "sequence_mask",
    "shape", "shape_n", "sigmoid", "sign", "sin", "sinh", "size", "slice", "sort",
    "space_to_batch", "space_to_batch_nd", "split", "sqrt", "square", "squeeze", "stack",
    "stop_gradient", "strided_slice", "subtract", "switch_case", "tan", "tanh", "Tensor",
    "tensor_scatter_nd_add", "tensor_scatter_nd_max", "tensor_scatter_nd_min",
    "tensor_scatter_nd_sub", "tensor_scatter_nd_update", "TensorArray", "TensorArraySpec",
    "tensordot", "TensorLike", "TensorShape", "TensorSpec", "test", "tile", "timestamp", "Trace",
    "trace", "train", "transpose", "truediv", "truncatediv", "truncatemod", "tuple",
    "type_spec_from_value", "TypeSpec", "uint16", "uint32", "uint64", "uint8",
    "UnconnectedGradients", "unique", "unique_with_counts", "unravel_index", "unstack", "Variable",
    "VariableAggregation", "VariableSynchronization", "variant", "vectorized_map", "where",
    "while_loop", "zeros", "zeros_initializer", "zeros_like",
]  # fmt: skip
