"""``retrograd.print``: TensorFlow's ``tf.print``, formatting tensors the way it does.

Floats print with 6 significant digits when that reads back exactly, else 9 (15/17 for
float64); bools print as 1/0; long dimensions are summarised with ``...``. Output goes to
stderr by default, as in TensorFlow.

>>> import sys, retrograd as rg
>>> rg.print(rg.constant(2.0), rg.constant([0.1, 2.0]), "text", output_stream=sys.stdout)
2 [0.1 2] text
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from retrograd.core import backends, nest
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable

__all__ = ["print_", "format_value", "summarize_v1"]


def _float_text(value: float, short: int, long: int, np_type: type) -> str:
    text = f"{value:.{short}g}"
    return text if np_type(text) == np_type(value) else f"{value:.{long}g}"


def _element_text(x: Any) -> str:
    kind = x.dtype.kind
    if kind == "b":
        return "1" if x else "0"
    if kind in "iu":
        return str(int(x))
    if kind == "f":
        if x.dtype == np.float64:
            return _float_text(float(x), 15, 17, np.float64)
        return _float_text(float(x), 6, 9, np.float32)
    return "?"  # TensorFlow cannot print complex values either


def _array_text(a: np.ndarray, summarize: int, indent: int = 0) -> str:
    if a.ndim == 0:
        return _element_text(a[()])
    n = a.shape[0]
    show = (
        range(n)
        if summarize < 0 or n <= 2 * summarize
        else [*range(summarize), None, *range(n - summarize, n)]
    )
    if a.ndim == 1:
        parts = ["..." if i is None else _element_text(a[i]) for i in show]
        return "[" + " ".join(parts) + "]"
    separator = "\n" * (a.ndim - 1) + " " * (indent + 1)
    parts = ["..." if i is None else _array_text(a[i], summarize, indent + 1) for i in show]
    return "[" + separator.join(parts) + "]"


def summarize_v1(value: Any, summarize: int = 3) -> str:
    """An array as TensorFlow 1's ``Print`` and ``Assert`` show it (the tensor's
    ``SummarizeValue``): the first ``summarize`` elements (all when negative) in nested
    brackets without separators between rows, ``...`` where elements are left out.

    >>> import numpy as np
    >>> from retrograd.ops.print_ops import summarize_v1
    >>> summarize_v1(np.array([[1, 2], [3, 4]])), summarize_v1(np.array([[1, 2], [3, 4]]), 4)
    ('[1 2][3...]...', '[1 2][3 4]')
    """
    a = np.asarray(value)
    limit = a.size if summarize < 0 else min(summarize, a.size)
    flat = a.reshape(-1)
    if a.ndim == 0:
        text = " ".join(_element_text(flat[i]) for i in range(limit))
    else:
        parts: list[str] = []
        _one_dim(a.shape, 0, flat, limit, [0], parts)
        text = "".join(parts)
    return text + ("..." if a.size > limit else "")


def _one_dim(shape: tuple, dim: int, flat: Any, limit: int, at: list, parts: list) -> None:
    """TensorFlow's PrintOneDim: dimension ``dim`` from element ``at[0]`` on, into ``parts``."""
    if at[0] >= limit:
        return
    if dim == len(shape) - 1:
        for i in range(shape[dim]):
            if at[0] >= limit:
                if dim != 0:
                    parts.append("...")
                return
            if i > 0:
                parts.append(" ")
            parts.append(_element_text(flat[at[0]]))
            at[0] += 1
        return
    for _ in range(shape[dim]):
        opened = at[0] < limit
        if opened:
            parts.append("[")
        _one_dim(shape, dim + 1, flat, limit, at, parts)
        if at[0] < limit or opened:
            parts.append("]")


def format_value(value: Any, summarize: int = 3) -> str:
    """The text ``print`` shows for one argument (tensors and variables formatted as TF does)."""
    if isinstance(value, (Tensor, Variable)):
        return _array_text(np.asarray(backends.to_host(value._value)), summarize)
    if isinstance(value, (np.ndarray, np.generic)):
        return _array_text(np.asarray(value), summarize)
    if nest.is_nested(value):
        return str(nest.map_structure(lambda v: _Shown(format_value(v, summarize)), value))
    return str(value)


class _Shown:
    """Shows preformatted text inside the repr of a Python container."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def print_(*inputs: object, **kwargs: object) -> object:
    """Prints tensors and Python values (TensorFlow's ``tf.print``); to stderr by default.
    Keywords (TensorFlow's): ``output_stream``, ``summarize`` (3), ``sep`` (" "), ``end``
    ("\\n") and ``name``.

    ``output_stream`` may also be a ``"file://path"`` string, appended to. In a graph it
    adds a PrintV2 op that prints each time the graph runs (and returns that op).

    >>> import retrograd as rg
    >>> import sys
    >>> rg.print('x =', rg.constant([1, 2]), output_stream=sys.stdout)
    x = [1 2]
    """
    unknown = {k: v for k, v in kwargs.items() if k not in _PRINT_OPTIONS}
    if unknown:
        raise ValueError(f"Unrecognized keyword arguments for tf.print: {unknown}")
    output_stream = kwargs.get("output_stream")
    summarize, sep = kwargs.get("summarize", 3), kwargs.get("sep", " ")
    end, name = kwargs.get("end", "\n"), kwargs.get("name")
    if isinstance(output_stream, str) and not output_stream.startswith("file://"):
        raise ValueError(
            f"print: output_stream must be a stream or 'file://path', got {output_stream!r}"
        )
    attrs = {
        "template": inputs,
        "output_stream": output_stream,
        "summarize": summarize,
        "sep": sep,
        "end": end,
    }
    if context.graph is None:
        _print_kernel(*_tensor_leaves(inputs), **attrs)
        return None
    return execute(_PrintV2, _tensor_leaves(inputs), attrs, name)


_PRINT_OPTIONS = ("output_stream", "summarize", "sep", "end", "name")


def _tensor_leaves(inputs: tuple) -> list:
    return [v for v in nest.flatten(list(inputs)) if isinstance(v, (Tensor, Variable))]


def _print_kernel(
    *values: Any, template: tuple, output_stream: Any, summarize: int, sep: str, end: str
) -> tuple:
    """Writes ``template`` with its tensors replaced by ``values`` (eager values or arrays)."""
    filled = iter(values)
    leaves = [
        next(filled) if isinstance(v, (Tensor, Variable)) else v
        for v in nest.flatten(list(template))
    ]
    shown = nest.pack_sequence_as(list(template), leaves)
    text = sep.join(format_value(v, summarize) for v in shown) + end
    if output_stream is None:
        output_stream = sys.stderr  # looked up now, so redirections of sys.stderr are honoured
    if isinstance(output_stream, str):
        with open(output_stream[len("file://") :], "a") as f:
            f.write(text)
    else:
        output_stream.write(text)
    return ()


# Printing inside a graph (a `function`) happens when the graph runs, in program order.
_PrintV2 = define_op(
    "PrintV2", _print_kernel, multi_output=True, stateful=True, shape_fn=lambda metas, **attrs: []
)
no_gradient("PrintV2")
