"""``retrograd.compat.v1``: TensorFlow 1's top-level API (``import tensorflow.compat.v1 as
tf``): sessions and placeholders, graph variables, ``variable_scope``/``get_variable``,
collections, initializers, v1 signatures of ``gradients``/``cond``/``while_loop``, and
``train``. Every other name of ``retrograd`` (its ops: ``matmul``, ``nn.relu``, ...) and of
``retrograd.math`` is reachable here too, as in TensorFlow 1; a name retrograd does not
have raises an AttributeError that says so.

>>> import retrograd as rg
>>> rg.compat.v1.matmul is rg.matmul
True
>>> g = rg.Graph()
>>> with g.as_default():
...     x = rg.compat.v1.placeholder(rg.float32, [None, 2])
...     w = rg.compat.v1.Variable([[1.0], [2.0]], name="w")
...     y = rg.compat.v1.matmul(x, w)
...     init = rg.compat.v1.global_variables_initializer()
>>> with rg.compat.v1.Session(graph=g) as sess:
...     sess.run(init)
...     sess.run(y, {x: [[1.0, 1.0]]}).tolist()
[[3.0]]
"""

from retrograd.compat.delegation import shared_names as _shared_names
from retrograd.compat.delegation import shared_value as _shared_value
from retrograd.compat.graph_collections import (
    add_to_collection,
    add_to_collections,
    get_collection,
    get_collection_ref,
    global_variables,
    global_variables_initializer,
    group,
    initialize_all_variables,
    local_variables,
    local_variables_initializer,
    model_variables,
    moving_average_variables,
    no_op,
    tables_initializer,
    trainable_variables,
    variables_initializer,
)
from retrograd.compat.graph_ops import (
    Assert,
    ConfigProto,
    GPUOptions,
    GraphOptions,
    OptimizerOptions,
    Print,
    RunMetadata,
    RunOptions,
    assign,
    assign_add,
    assign_sub,
    cond,
    control_dependencies,
    disable_v2_behavior,
    enable_v2_behavior,
    gradients,
    hessians,
    placeholder_with_default,
    random_normal,
    random_uniform,
    set_random_seed,
    truncated_normal,
    while_loop,
)
from retrograd.compat.graph_ops import (
    print_op as print,
)
from retrograd.compat.initializers import (
    constant_initializer,
    glorot_normal_initializer,
    glorot_uniform_initializer,
    identity_initializer,
    ones_initializer,
    orthogonal_initializer,
    random_normal_initializer,
    random_uniform_initializer,
    truncated_normal_initializer,
    uniform_unit_scaling_initializer,
    variance_scaling_initializer,
    xavier_initializer,
    zeros_initializer,
)
from retrograd.compat.tf1_functions import (
    all_variables,
    get_local_variable,
    initialize_all_tables,
    initialize_local_variables,
    initialize_variables,
    is_variable_initialized,
    make_template,
    op_scope,
    py_func,
    to_complex64,
    to_complex128,
    variable_op_scope,
)
from retrograd.compat.v1 import (
    app,
    initializers,
    layers,
    logging,
    losses,
    math,
    nn,
    summary,
    train,
)
from retrograd.compat.v1_signatures import (
    arg_max,
    arg_min,
    argmax,
    argmin,
    div,
    expand_dims,
    mod,
    multinomial,
    random_shuffle,
    reduce_all,
    reduce_any,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
    squeeze,
    to_double,
    to_float,
    to_int32,
    to_int64,
)
from retrograd.compat.variable_scopes import (
    AUTO_REUSE,
    GraphKeys,
    Variable,
    VariableScope,
    get_variable,
    get_variable_scope,
    name_scope,
    variable_scope,
)
from retrograd.core.dimensions import Dimension, dimension_value
from retrograd.core.registry import no_gradient as NoGradient
from retrograd.core.shapes import (
    dimension_at_index,
    disable_v2_tensorshape,
    enable_v2_tensorshape,
)
from retrograd.graph.graph import (
    disable_eager_execution,
    enable_eager_execution,
    executing_eagerly,
    get_default_graph,
    placeholder,
    reset_default_graph,
)
from retrograd.graph.session import InteractiveSession, Session, get_default_session
from retrograd.ops.operators import disable_tensor_equality, enable_tensor_equality
from retrograd.ops.safe_math_ops import divide_no_nan as div_no_nan

__all__ = [
    "add_to_collections",
    "model_variables",
    "moving_average_variables",
    "tables_initializer",
    "identity_initializer",
    "orthogonal_initializer",
    "uniform_unit_scaling_initializer",
    "all_variables",
    "get_local_variable",
    "initialize_all_tables",
    "initialize_local_variables",
    "initialize_variables",
    "is_variable_initialized",
    "make_template",
    "op_scope",
    "py_func",
    "to_complex64",
    "to_complex128",
    "variable_op_scope",
    "initializers",
    "layers",
    "losses",
    "math",
    "NoGradient",
    "div_no_nan",
    "add_to_collection",
    "arg_max",
    "arg_min",
    "argmax",
    "argmin",
    "Assert",
    "assign",
    "assign_add",
    "assign_sub",
    "AUTO_REUSE",
    "app",
    "cond",
    "ConfigProto",
    "constant_initializer",
    "control_dependencies",
    "disable_eager_execution",
    "disable_v2_behavior",
    "Dimension",
    "dimension_at_index",
    "dimension_value",
    "disable_tensor_equality",
    "disable_v2_tensorshape",
    "div",
    "enable_eager_execution",
    "enable_v2_behavior",
    "enable_tensor_equality",
    "enable_v2_tensorshape",
    "executing_eagerly",
    "expand_dims",
    "get_collection",
    "get_collection_ref",
    "get_default_graph",
    "get_default_session",
    "get_variable",
    "get_variable_scope",
    "global_variables",
    "global_variables_initializer",
    "glorot_normal_initializer",
    "glorot_uniform_initializer",
    "GPUOptions",
    "gradients",
    "GraphKeys",
    "GraphOptions",
    "group",
    "hessians",
    "initialize_all_variables",
    "InteractiveSession",
    "local_variables",
    "logging",
    "local_variables_initializer",
    "mod",
    "multinomial",
    "name_scope",
    "nn",
    "no_op",
    "ones_initializer",
    "OptimizerOptions",
    "placeholder",
    "placeholder_with_default",
    "Print",
    "print",
    "random_normal",
    "random_normal_initializer",
    "random_shuffle",
    "random_uniform",
    "random_uniform_initializer",
    "reduce_all",
    "reduce_any",
    "reduce_logsumexp",
    "reduce_max",
    "reduce_mean",
    "reduce_min",
    "reduce_prod",
    "reduce_sum",
    "reset_default_graph",
    "RunMetadata",
    "RunOptions",
    "Session",
    "set_random_seed",
    "squeeze",
    "summary",
    "to_double",
    "to_float",
    "to_int32",
    "to_int64",
    "train",
    "trainable_variables",
    "truncated_normal",
    "truncated_normal_initializer",
    "Variable",
    "variable_scope",
    "variables_initializer",
    "VariableScope",
    "variance_scaling_initializer",
    "while_loop",
    "xavier_initializer",
    "zeros_initializer",
]


def __getattr__(name):
    """The names TensorFlow 1 shares with retrograd's namespaces (its ops, ``nn``, ...)."""
    return _shared_value(name, "tf.compat.v1")


def __dir__():
    return sorted(set(__all__) | set(_shared_names()))
