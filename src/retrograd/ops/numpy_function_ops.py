"""``numpy_function``: NumPy code as an op, eagerly, under ``function`` and in a Session.

As in TensorFlow, its gradient is None: NumPy code is opaque to differentiation. To give
NumPy code a gradient, wrap it in a ``custom_gradient`` whose forward and ``grad_fn`` both
call ``numpy_function`` (the derivative written in NumPy too); that works in all three
modes. A second derivative through such a rule would need the derivative of the NumPy code
that ``grad_fn`` ran, which nothing knows: asking for it is an error that says so (in
TensorFlow it is a silent None).

>>> import numpy as np, retrograd as rg
>>> @rg.custom_gradient
... def np_sin(x):
...     y = rg.numpy_function(np.sin, [x], rg.float32)
...     def grad(dy):
...         return dy * rg.numpy_function(np.cos, [x], rg.float32)
...     return y, grad
>>> x = rg.constant([0.0, 1.0])
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = np_sin(x)
>>> [round(float(g), 4) for g in tape.gradient(y, x).numpy()]
[1.0, 0.5403]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from retrograd.core import backends
from retrograd.core.annotations import DTypeLike, TensorLike
from retrograd.core.backends import host_kernel
from retrograd.core.dtypes import as_dtype
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.tensor import convert_to_tensor

__all__ = ["numpy_function", "script_decorator"]


def _name(func: Callable) -> str:
    return getattr(func, "__qualname__", None) or repr(func)


def _kernel(*arrays: Any, func: Callable, Tout: tuple, in_gradient: bool) -> tuple:
    # The function computes on NumPy arrays, as TensorFlow's: arrays of another device are
    # copied to the host for it, and its results copied back to that device (or to the
    # current device, where every input was host data).
    where = _device_input(arrays) if backends.foreign.seen else None
    if where is not None:
        arrays = tuple(backends.to_host(a) for a in arrays)
    outputs = _host_outputs(func(*arrays), func, Tout)
    if not backends.foreign.seen:
        return outputs
    if where is not None:
        return tuple(backends.on_device_of(o, where) for o in outputs)
    return tuple(backends.place(o) for o in outputs)


def _device_input(arrays: tuple) -> Any:
    """The first input that lives on a device other than the CPU (None: all host data)."""
    for a in arrays:
        if not isinstance(a, (np.ndarray, np.generic)) and backends.is_array(a):
            return a
    return None


def _host_outputs(returned: Any, func: Callable, Tout: tuple) -> tuple:
    values = list(returned) if isinstance(returned, (list, tuple)) else [returned]
    if len(values) != len(Tout):
        raise InvalidArgumentError(
            f"numpy_function: '{_name(func)}' returned {len(values)} value(s) but Tout lists "
            f"{len(Tout)} ({[d.name for d in Tout]})"
        )
    outputs = []
    for i, (value, dtype) in enumerate(zip(values, Tout)):
        if isinstance(value, (bool, int, float, complex)) and not isinstance(value, np.generic):
            # a Python number: Tout's type
            value = np.asarray(value, dtype=dtype.as_numpy_dtype)
        elif not isinstance(value, (np.ndarray, np.generic)):
            raise InvalidArgumentError(
                f"numpy_function: '{_name(func)}' returned a {type(value).__name__} for output "
                f"{i}; it must return NumPy arrays (or Python numbers)"
            )
        if value.dtype != dtype.as_numpy_dtype:
            raise InvalidArgumentError(
                f"numpy_function: '{_name(func)}' returned {value.dtype} for output {i}, but "
                f"Tout says {dtype.name}; cast it in the function (.astype)"
            )
        outputs.append(np.array(value))  # its own buffer: the function may keep the array
    return tuple(outputs)


def _shapes(metas: Any, func: Callable, Tout: tuple, in_gradient: bool) -> list:
    return [(None, d.as_numpy_dtype) for d in Tout]  # unknown until the NumPy code runs


# The function receives NumPy arrays, as TensorFlow's: inputs on another device are copied to
# the host, its results copied back there (explicitly: host_kernel).
_host = host_kernel(_kernel)
_PyFunc = define_op("PyFunc", _host, multi_output=True, shape_fn=_shapes, stateful=True)
_PyFuncStateless = define_op("PyFuncStateless", _host, multi_output=True, shape_fn=_shapes)


def script_decorator(op: Callable, who: str, func: Any, inp: Any, Tout: Any, **options: Any) -> Any:
    """TensorFlow's decorator form of ``numpy_function``/``py_function``: with ``func=None``
    the function called next is wrapped (its arguments become ``inp``); ``Tout`` is always
    required. Returns the wrapper, or None when ``func`` and ``inp`` are both given."""
    if Tout is None:
        raise TypeError(
            f"Missing required argument: 'Tout'\n  If using {who} as a decorator, set `Tout`\n"
            f"  **by name** above the function:\n  `@{who}(Tout=tout)`"
        )
    if func is None:
        if inp is not None:
            raise TypeError(
                f"Don't set the `inp` argument when using {who} as a decorator (`func=None`)."
            )

        def decorator(function: Callable) -> Callable:
            @functools.wraps(function)
            def wrapper(*args: Any) -> Any:
                return op(function, inp=list(args), Tout=Tout, **options)

            return wrapper

        return decorator
    if inp is None:
        raise TypeError(
            f"Missing argument `inp`:\n  You must set the `inp` argument (the list of arguments "
            f"to the\n  function), unless you use `{who}` as a decorator(`func=None`)."
        )
    return None


def numpy_function(
    func: Callable[..., Any] | None = None,
    inp: Sequence[TensorLike] | None = None,
    Tout: DTypeLike | Sequence[DTypeLike] | None = None,
    stateful: bool = True,
    name: str | None = None,
) -> Any:
    """Calls ``func`` on the NumPy values of ``inp``; returns its results as tensors of the
    types ``Tout`` (one dtype: one tensor; a list: a list). Its gradient is None. Without
    ``func`` (``@numpy_function(Tout=...)``) it decorates the function defined next.

    As TensorFlow's: a one-element ``Tout`` list gives a tensor eagerly, but a one-element
    list under ``function`` and in a graph (a Session fetches it as a list of one array).

    ``stateful=False`` tells graphs that the function depends only on its inputs.

    >>> import numpy as np, retrograd as rg
    >>> rg.numpy_function(lambda a: np.sort(a)[::-1], [rg.constant([2.0, 3.0, 1.0])],
    ...                   rg.float32).numpy().tolist()
    [3.0, 2.0, 1.0]
    >>> @rg.numpy_function(Tout=rg.float32)
    ... def halve(a):
    ...     return a / 2
    >>> halve(rg.constant([3.0])).numpy().tolist()
    [1.5]
    """
    decorated = script_decorator(
        numpy_function, "tf.numpy_function", func, inp, Tout, stateful=stateful, name=name
    )
    if decorated is not None:
        return decorated
    if not callable(func):
        raise TypeError(f"numpy_function: func must be callable, got {func!r}")
    single = not isinstance(Tout, (list, tuple))
    dtypes = tuple(as_dtype(d) for d in ([Tout] if single else Tout))
    if not isinstance(inp, (list, tuple)):
        raise TypeError(f"numpy_function: inp must be a list of tensors, got {type(inp).__name__}")
    inputs = [convert_to_tensor(x) for x in inp]
    attrs = {"func": func, "Tout": dtypes, "in_gradient": context.rule_depth > 0}
    outputs = execute(_PyFunc if stateful else _PyFuncStateless, inputs, attrs, name)
    if single or (len(outputs) == 1 and context.graph is None):
        return outputs[0]  # (TensorFlow eagerly unwraps a one-element Tout list too)
    return list(outputs)


def _numpy_function_grad(op: Any, *grads: Any) -> list:
    if op.get_attr("in_gradient"):
        raise InvalidArgumentError(
            f"numpy_function: a derivative of NumPy code was asked for: op '{op.name}' ran "
            f"'{_name(op.get_attr('func'))}' inside a gradient function, so differentiating "
            f"that gradient (a second derivative) needs the derivative of the NumPy code, "
            f"which is not known. Compute the gradient with retrograd ops, or give the NumPy "
            f"call in grad_fn a custom_gradient of its own."
        )
    return [None] * len(op.inputs)  # as TensorFlow: NumPy code has no gradient


op_gradient("PyFunc")(_numpy_function_grad)
op_gradient("PyFuncStateless")(_numpy_function_grad)
