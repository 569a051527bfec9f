"""TensorFlow 1 functions around graphs: v1 signatures of ``gradients``, ``cond`` and
``while_loop``; ``assign``; ``control_dependencies``; ``Print``/``print``/``Assert`` as ops;
the v1 random names; and the session configuration records (accepted, with no effect on a
CPU library).

>>> import retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     x = rg.compat.v1.placeholder(rg.float32, [])
...     ok = Assert(x > 0.0, [x])
...     with control_dependencies([ok]):
...         y = rg.identity(x * 2.0)
>>> with rg.compat.v1.Session(graph=g) as sess:
...     print(sess.run(y, {x: 1.5}))
3.0
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

from retrograd.autodiff.tape import UnconnectedGradients
from retrograd.compat import private_modules
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.shapes import TensorShape, disable_v2_tensorshape, enable_v2_tensorshape
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable as EagerVariable
from retrograd.graph import control_flow, symbolic
from retrograd.graph.graph import disable_eager_execution, enable_eager_execution, get_default_graph
from retrograd.graph.variables import assign_op
from retrograd.ops import array_ops, debug_ops, print_ops, random_ops, random_seeding
from retrograd.ops.operators import disable_tensor_equality, enable_tensor_equality

__all__ = [
    "Assert",
    "ConfigProto",
    "GPUOptions",
    "GraphOptions",
    "OptimizerOptions",
    "Print",
    "RunMetadata",
    "RunOptions",
    "assign",
    "assign_add",
    "assign_sub",
    "cond",
    "control_dependencies",
    "disable_v2_behavior",
    "enable_v2_behavior",
    "gradients",
    "hessians",
    "placeholder_with_default",
    "print_op",
    "random_normal",
    "random_uniform",
    "set_random_seed",
    "truncated_normal",
    "while_loop",
]


def gradients(
    ys: Any,
    xs: Any,
    grad_ys: Any = None,
    name: str = "gradients",
    colocate_gradients_with_ops: bool = False,
    gate_gradients: bool = False,
    aggregation_method: Any = None,
    stop_gradients: Any = None,
    unconnected_gradients: Any = UnconnectedGradients.NONE,
) -> list[Any]:
    """TF1's ``tf.gradients`` (``colocate_gradients_with_ops`` is accepted: one device).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     x = tf1.placeholder(rg.float32, [])
    ...     dx, = tf1.gradients(x * x, [x])
    ...     with tf1.Session() as sess:
    ...         print(sess.run(dx, {x: 3.0}))
    6.0
    """
    return symbolic.gradients(
        ys, xs, grad_ys, name, gate_gradients, aggregation_method, stop_gradients,
        unconnected_gradients,
    )  # fmt: skip


def hessians(
    ys: Any,
    xs: Any,
    name: str = "hessians",
    colocate_gradients_with_ops: bool = False,
    gate_gradients: bool = False,
    aggregation_method: Any = None,
) -> list[Any]:
    """The Hessian of ``sum(ys)`` with respect to each x in ``xs`` (shape ``x.shape +
    x.shape``), row by row with nested ``gradients``; each x needs a static shape.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     x = tf1.placeholder(rg.float32, [2])
    ...     h, = tf1.hessians(rg.reduce_sum(x ** 3), [x])
    ...     with tf1.Session() as sess:
    ...         print(sess.run(h, {x: [1.0, 2.0]}).tolist())
    [[6.0, 0.0], [0.0, 12.0]]
    """
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    out = []
    for i, x in enumerate(xs):
        dims = x.shape
        if not dims.is_fully_defined():
            raise ValueError(f"hessians: xs[{i}] has shape {dims}; its shape must be fully defined")
        (grad,) = symbolic.gradients(ys, [x], name=name)
        if grad is None:
            out.append(None)
            continue
        flat = array_ops.reshape(grad, [-1])
        rows = []
        for k in range(dims.num_elements()):
            (row,) = symbolic.gradients(flat[k], [x], name=name)
            rows.append(array_ops.zeros_like(x) if row is None else row)
        shape = [*dims.as_list(), *dims.as_list()]
        out.append(array_ops.reshape(array_ops.stack(rows), shape))
    return out


def cond(
    pred: Any,
    true_fn: Any = None,
    false_fn: Any = None,
    strict: bool = False,
    name: str | None = None,
    fn1: Any = None,
    fn2: Any = None,
) -> Any:
    """TF1's ``tf.cond`` (``fn1``/``fn2`` are the old names of the branches).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.cond(rg.constant(False), fn1=lambda: 1, fn2=lambda: 2)
    2
    """
    return control_flow.cond(pred, true_fn or fn1, false_fn or fn2, name)


def while_loop(
    cond: Any,
    body: Any,
    loop_vars: Any,
    shape_invariants: Any = None,
    parallel_iterations: int = 10,
    back_prop: bool = True,
    swap_memory: bool = False,
    name: str | None = None,
    maximum_iterations: Any = None,
    return_same_structure: bool = False,
) -> Any:
    """TF1's ``tf.while_loop`` (argument order of TensorFlow 1).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> i, = tf1.while_loop(lambda i: i < 10, lambda i: (i * 2,), [rg.constant(1)])
    >>> i.numpy().tolist()
    16
    """
    return control_flow.while_loop(
        cond, body, loop_vars, shape_invariants, parallel_iterations, back_prop, swap_memory,
        maximum_iterations, name,
    )  # fmt: skip


def assign(ref: Any, value: Any, validate_shape: Any = None, use_locking: Any = None, name=None):
    """``ref.assign(value)``: in a graph, the new value as a tensor (running it assigns).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> v = rg.Variable(1.0)
    >>> tf1.assign(v, 5.0).numpy().tolist(), v.numpy().tolist()
    (5.0, 5.0)
    """
    ref = _variable(ref, "assign")
    if context.graph is None:
        return ref.assign(value, name=name)
    with control_dependencies([assign_op(ref, value, name)]):
        return ref.read_value()


def assign_add(ref: Any, value: Any, use_locking: Any = None, name: str | None = None) -> Any:
    """``ref += value``: in a graph, the new value as a tensor (running it adds).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> v = rg.Variable(1.0)
    >>> tf1.assign_add(v, 5.0).numpy().tolist()
    6.0
    """
    ref = _variable(ref, "assign_add")
    if context.graph is None:
        return ref.assign_add(value, name=name)
    return assign(ref, ref.read_value() + value, name=name)


def assign_sub(ref: Any, value: Any, use_locking: Any = None, name: str | None = None) -> Any:
    """``ref -= value``: in a graph, the new value as a tensor (running it subtracts).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> v = rg.Variable(1.0)
    >>> tf1.assign_sub(v, 5.0).numpy().tolist()
    -4.0
    """
    ref = _variable(ref, "assign_sub")
    if context.graph is None:
        return ref.assign_sub(value, name=name)
    return assign(ref, ref.read_value() - value, name=name)


def _variable(ref: Any, who: str) -> EagerVariable:
    if not isinstance(ref, EagerVariable):
        raise TypeError(f"{who}: ref must be a Variable, got {type(ref).__name__}")
    return ref


def control_dependencies(control_inputs: Any) -> Any:
    """Ops created inside run after ``control_inputs``; eagerly, a block that does nothing
    (ops already ran in order).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     v = tf1.Variable(1.0)
    ...     with tf1.control_dependencies([tf1.assign(v, 2.0)]):
    ...         y = v.read_value() * 10.0
    ...     with tf1.Session() as sess:
    ...         sess.run(tf1.global_variables_initializer())
    ...         print(sess.run(y))
    20.0
    """
    if context.graph is None:
        return contextlib.nullcontext()
    return get_default_graph().control_dependencies(control_inputs)


def disable_v2_behavior() -> None:
    """Switches to TensorFlow 1 behaviour: graph mode, TensorFlow 1's shapes (``shape[i]``
    is a Dimension: ``x.get_shape()[1].value``) and ``==`` comparing identities.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.disable_v2_behavior()
    >>> rg.executing_eagerly()
    False
    >>> tf1.enable_v2_behavior()
    >>> rg.executing_eagerly()
    True
    """
    disable_eager_execution()
    disable_v2_tensorshape()
    disable_tensor_equality()
    private_modules.disable()  # tensorflow.python.tf2.enabled() is False


def enable_v2_behavior() -> None:
    """Switches back to eager execution, TensorFlow 2's shapes (ints and None) and
    elementwise ``==``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.disable_v2_behavior()
    >>> tf1.enable_v2_behavior()  # eager execution again
    >>> rg.executing_eagerly()
    True
    """
    enable_eager_execution()
    enable_v2_tensorshape()
    enable_tensor_equality()
    private_modules.enable()


def _with_default_shape(metas, shape):
    return [(metas[0].shape if shape is None else tuple(shape.as_list()), metas[0].dtype)]


_PlaceholderWithDefault = define_op(
    "PlaceholderWithDefault", lambda value, shape: value, shape_fn=_with_default_shape
)
no_gradient("PlaceholderWithDefault")


def placeholder_with_default(input: Any, shape: Any, name: str | None = None) -> Any:
    """A graph input that takes ``input`` unless fed; ``shape`` (None dims allowed) must
    be compatible with ``input``'s shape.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     x = tf1.placeholder_with_default(rg.constant([1.0, 2.0]), [None])
    ...     y = x * 2.0
    ...     with tf1.Session() as sess:
    ...         print(sess.run(y).tolist(), sess.run(y, {x: [5.0]}).tolist())
    [2.0, 4.0] [10.0]
    """
    value = convert_to_tensor(input)
    dims = TensorShape(shape)
    if not dims.is_compatible_with(value.shape):
        raise ValueError(
            f"placeholder_with_default: the default's shape {value.shape} is not compatible "
            f"with shape {dims}"
        )
    if context.graph is None:
        return value
    return execute(
        _PlaceholderWithDefault, (value,), {"shape": dims}, name or "PlaceholderWithDefault"
    )


# -- printing and assertions as graph ops ---------------------------------------------------


def print_op(*inputs: Any, **kwargs: Any) -> Any:
    """``tf.print`` of TF1 code: in a graph, returns the print op (for control
    dependencies); eagerly, prints now.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> import sys
    >>> tf1.print('x =', rg.constant([1, 2]), output_stream=sys.stdout)
    x = [1 2]
    """
    graph = get_default_graph() if context.graph is not None else None
    print_ops.print_(*inputs, **kwargs)
    return None if graph is None else graph._operations[-1]


class _PrintCount:
    """How many more times a ``tf.Print`` op prints (``first_n``; None: always)."""

    def __init__(self, first_n: Any) -> None:
        self.left = None if first_n is None or first_n < 0 else int(first_n)


def _print_v1_kernel(value, *data, message, summarize, count=None):
    if count is not None and count.left is not None:
        if count.left <= 0:
            return value
        count.left -= 1
    text = "".join(_v1_text(d, summarize) for d in data)
    sys.stderr.write(f"{message}{text}\n")
    return value


def _v1_text(value: Any, summarize: int) -> str:
    """A value as TF1's Print and Assert show it: ``[`` its summary ``]`` (``[[1 2][3...]...]``)."""
    return f"[{print_ops.summarize_v1(value, summarize)}]"


_Print = define_op("Print", _print_v1_kernel, stateful=True, shape_fn=lambda metas, **a: [
    (metas[0].shape, metas[0].dtype)])  # fmt: skip


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802
    """``input_`` unchanged, printing ``message`` and ``data`` to stderr each time it is
    computed, the first ``first_n`` times only when given (TF1's deprecated ``tf.Print``).

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> x = rg.constant([1, 2])
    >>> tf1.Print(x, [x], message='x: ').numpy().tolist()  # the message goes to stderr
    [1, 2]
    """
    x = convert_to_tensor(input_)
    data = [convert_to_tensor(d) for d in data]
    if context.graph is None:
        _print_v1_kernel(x._value, *[d._value for d in data], message=message or "",
                         summarize=3 if summarize is None else summarize)  # fmt: skip
        return x
    attrs = {
        "message": message or "",
        "summarize": 3 if summarize is None else summarize,
        "count": _PrintCount(first_n),
    }
    return execute(_Print, (x, *data), attrs, name or "Print")


@op_gradient("Print")
def _print_grad(op, grad):
    return (grad, *[None] * (len(op.inputs) - 1))


def Assert(condition, data, summarize=None, name=None):  # noqa: N802
    """Raises InvalidArgumentError showing ``data`` when ``condition`` is false: now
    (eagerly), or when the returned op runs (in a graph), with TF1's message.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> tf1.Assert(rg.constant(True), [rg.constant(3)])
    >>> tf1.Assert(rg.constant(False), [rg.constant(3)])
    Traceback (most recent call last):
        ...
    retrograd.errors.InvalidArgumentError: assertion failed: [3]
    """
    shown_at_most = 3 if summarize is None else summarize
    return debug_ops.assert_with_data(
        convert_to_tensor(condition),
        data,
        lambda item: f"[{item}]",
        lambda value: _v1_text(value, shown_at_most),
        lambda shown: f"assertion failed: {' '.join(shown)}",
        name,
    )


# -- the v1 random names --------------------------------------------------------------------


def random_normal(shape, mean=0.0, stddev=1.0, dtype="float32", seed=None, name=None) -> Tensor:
    """TF1's ``tf.random_normal`` (``shape`` may be a tensor, e.g. ``tf.shape(x)``).

    >>> import retrograd.compat.v1 as tf1
    >>> tf1.random_normal([2, 3], seed=1).shape.as_list()
    [2, 3]
    """
    return random_ops.normal(shape, mean, stddev, dtype, seed, name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype="float32", seed=None, name=None):
    """TF1's ``tf.truncated_normal``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> x = tf1.truncated_normal([100], stddev=1.0, seed=1)
    >>> bool(rg.reduce_max(rg.abs(x)) <= 2.0)
    True
    """
    return random_ops.truncated_normal(shape, mean, stddev, dtype, seed, name)


def random_uniform(shape, minval=0, maxval=None, dtype="float32", seed=None, name=None):
    """TF1's ``tf.random_uniform``.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> x = tf1.random_uniform([100], minval=2.0, maxval=3.0, seed=1)
    >>> bool(rg.reduce_all((x >= 2.0) & (x < 3.0)))
    True
    """
    return random_ops.uniform(shape, minval, maxval, dtype, seed, name)


def set_random_seed(seed: int | None) -> None:
    """TF1's ``tf.set_random_seed``: the graph-level seed.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> def draw():
    ...     with rg.Graph().as_default():
    ...         tf1.set_random_seed(7)
    ...         x = tf1.random_normal([2])
    ...         with tf1.Session() as sess:
    ...             return sess.run(x).tolist()
    >>> draw() == draw()
    True
    """
    random_seeding.set_seed(seed)


# -- session configuration: plain records -------------------------------------------------


class _Record:
    """A configuration message: keyword fields become attributes; unknown fields may be
    set too. retrograd runs on one CPU with NumPy, so none changes how graphs run.

    >>> import retrograd as rg
    >>> rg.compat.v1.ConfigProto(allow_soft_placement=True).gpu_options
    GPUOptions(allow_growth=False, per_process_gpu_memory_fraction=0.0, visible_device_list='')
    """

    _defaults: dict[str, Any] = {}

    def __init__(self, **fields: Any) -> None:
        for key, value in self._defaults.items():
            setattr(self, key, value() if callable(value) else value)
        for key, value in fields.items():
            setattr(self, key, value)

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


class GPUOptions(_Record):
    _defaults = {"allow_growth": False, "per_process_gpu_memory_fraction": 0.0,
                 "visible_device_list": ""}  # fmt: skip


class OptimizerOptions(_Record):
    _defaults = {"opt_level": 0, "global_jit_level": 0}


class GraphOptions(_Record):
    _defaults = {"optimizer_options": OptimizerOptions}


class ConfigProto(_Record):
    _defaults = {
        "allow_soft_placement": False,
        "log_device_placement": False,
        "device_count": dict,
        "intra_op_parallelism_threads": 0,
        "inter_op_parallelism_threads": 0,
        "gpu_options": GPUOptions,
        "graph_options": GraphOptions,
    }


class RunOptions(_Record):
    _defaults = {"trace_level": 0}
    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3


class RunMetadata(_Record):
    pass
