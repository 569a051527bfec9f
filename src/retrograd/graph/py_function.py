"""``py_function``: a Python function of eager tensors as an op. Eagerly it is simply
called; under ``function`` and in graphs an ``EagerPyFunc`` op calls it eagerly each time
the graph runs (Python side effects, ``.numpy()`` and Python control flow on values work).
Unlike ``numpy_function`` it is differentiable, as TensorFlow's: the gradient runs the
function again under a tape and takes its vector-Jacobian product, itself a py_function,
so higher orders follow.

>>> import retrograd as tf
>>> @tf.function
... def f(x):
...     return tf.py_function(lambda v: v * float(v.numpy().sum()), [x], tf.float32)
>>> x = tf.constant([1.0, 2.0])
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = tf.reduce_sum(f(x))
>>> float(y), tape.gradient(y, x).numpy().tolist()
(9.0, [3.0, 3.0])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from retrograd.autodiff.tape import GradientTape
from retrograd.core import nest
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.dtypes import as_dtype
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops
from retrograd.ops.numpy_function_ops import script_decorator

__all__ = ["py_function"]


def _results(func: Callable, returned: Any, Tout: tuple) -> list[Tensor]:
    values = list(returned) if isinstance(returned, (list, tuple)) else [returned]
    if len(values) != len(Tout):
        raise InvalidArgumentError(
            f"py_function: '{getattr(func, '__name__', func)}' returned {len(values)} value(s) "
            f"but Tout lists {len(Tout)} ({[d.name for d in Tout]})"
        )
    out = []
    for i, (value, dtype) in enumerate(zip(values, Tout)):
        t = convert_to_tensor(value, dtype_hint=dtype)
        if t.dtype != dtype:
            raise InvalidArgumentError(
                f"py_function: output {i} of '{getattr(func, '__name__', func)}' is "
                f"{t.dtype.name}, but Tout says {dtype.name}"
            )
        out.append(t)
    return out


def _kernel(*arrays: Any, func: Callable, Tout: tuple) -> tuple:
    """Runs ``func`` eagerly on tensors of ``arrays`` (nothing records it: the op's own rule
    differentiates it)."""
    saved = (context.graph, context.tapes, context.observers, context.recording)
    context.graph, context.tapes, context.observers, context.recording = None, [], [], False
    try:
        returned = func(*[Tensor(a) for a in arrays])
        return tuple(t._value for t in _results(func, returned, Tout))
    finally:
        context.graph, context.tapes, context.observers, context.recording = saved


_EagerPyFunc = define_op(
    "EagerPyFunc",
    _kernel,
    multi_output=True,
    stateful=True,
    shape_fn=lambda metas, func, Tout: [(None, d.as_numpy_dtype) for d in Tout],
)


def _vector_jacobian(func: Callable, count: int) -> Callable:
    """A Python function of ``(*inputs, *upstream)`` giving ``func``'s gradients there."""

    def vjp(*values: Tensor) -> list[Tensor]:
        inputs, upstream = list(values[:count]), list(values[count:])
        with GradientTape(persistent=False) as tape:
            tape.watch([x for x in inputs if x.dtype.is_trainable])
            outputs = nest.flatten(func(*inputs))
        targets = [(y, u) for y, u in zip(outputs, upstream) if y.dtype.is_trainable]
        grads = tape.gradient([y for y, _ in targets], inputs, [u for _, u in targets])
        return [array_ops.zeros_like(x) if g is None else convert_to_tensor(g)
                for g, x in zip(grads, inputs)]  # fmt: skip

    return vjp


@op_gradient("EagerPyFunc")
def _eager_py_func_grad(op: Any, *grads: Any) -> list:
    inputs = list(op.inputs)
    trainable = [x.dtype.is_trainable for x in inputs]
    if not any(trainable):
        return [None] * len(inputs)
    func = op.get_attr("func")
    upstream = [array_ops.zeros_like(y) if g is None else g for g, y in zip(grads, op.outputs)]
    got = py_function(_vector_jacobian(func, len(inputs)), [*inputs, *upstream],
                      [x.dtype for x in inputs])  # fmt: skip
    got = got if isinstance(got, list) else [got]
    return [g if t else None for g, t in zip(got, trainable)]


def py_function(
    func: Callable[..., Any] | None = None,
    inp: Sequence[TensorLike] | None = None,
    Tout: DTypeLike | Sequence[DTypeLike] | None = None,
    name: str | None = None,
) -> Any:
    """``func`` called on eager tensors made from ``inp``; its results converted to the types
    ``Tout`` (one dtype: one tensor; a list: a list). Differentiable. Without ``func``
    (``@py_function(Tout=...)``) it decorates the function defined next.

    >>> import retrograd as tf
    >>> tf.py_function(lambda a, b: a * b, [2.0, 3.0], tf.float32).numpy()
    np.float32(6.0)
    """
    decorated = script_decorator(py_function, "tf.py_function", func, inp, Tout, name=name)
    if decorated is not None:
        return decorated
    if not callable(func):
        raise TypeError(f"py_function: func must be callable, got {func!r}")
    single = not isinstance(Tout, (list, tuple))
    types = tuple(as_dtype(d) for d in ([Tout] if single else Tout))
    inputs = [convert_to_tensor(x) for x in inp]
    if context.graph is None:  # eagerly: a plain call, which the tapes see op by op
        outputs = _results(func, func(*inputs), types)
    else:
        outputs = list(execute(_EagerPyFunc, inputs, {"func": func, "Tout": types}, name))
    return outputs[0] if single else outputs
