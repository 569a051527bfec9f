"""``keras.ops`` core functions: conversion and dtypes (``cast``, ``convert_to_tensor``,
``saturate_cast``), indexing and updates (``get_item``, ``slice``, ``scatter``...), control
flow (``cond``, ``while_loop``, ``fori_loop``, ``scan``, ``map``, ``switch``...), gradients
(``custom_gradient``, ``stop_gradient``) and ``rearrange`` (einops patterns).

>>> from retrograd.keras import ops
>>> ops.fori_loop(0, 3, lambda i, v: v + i, 10).numpy()
np.int32(13)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.autodiff import custom_gradient as custom_gradient_module
from retrograd.core import dtypes, nest
from retrograd.graph import control_flow, map_fn
from retrograd.keras.src.dtype_rules import standardize_dtype
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    clip_ops,
    dynamic_shape_ops,
    join_ops,
    math_ops,
    scatter_ops,
    segment_ops,
)

__all__ = [
    "cast",
    "saturate_cast",
    "convert_to_tensor",
    "convert_to_numpy",
    "is_tensor",
    "dtype",
    "shape",
    "get_item",
    "slice",
    "slice_update",
    "scatter",
    "scatter_update",
    "unstack",
    "stop_gradient",
    "custom_gradient",
    "cond",
    "switch",
    "while_loop",
    "fori_loop",
    "scan",
    "associative_scan",
    "map",
    "vectorized_map",
    "rearrange",
]


def cast(x: Any, dtype: Any) -> Any:
    """``x`` converted to ``dtype``.

    >>> cast([1.7, -1.7], "int32").numpy().tolist()
    [1, -1]
    """
    if any_symbolic(x):
        return symbolic_call(cast, x, dtype)
    return math_ops.cast(tensors.convert(x), standardize_dtype(dtype))


def saturate_cast(x: Any, dtype: Any) -> Any:
    """``x`` converted to ``dtype``, values outside its range clipped to it first.

    >>> saturate_cast([-5.0, 300.0], "uint8").numpy().tolist()
    [0, 255]
    """
    if any_symbolic(x):
        return symbolic_call(saturate_cast, x, dtype)
    t = tensors.convert(x)
    target = dtypes.as_dtype(standardize_dtype(dtype))
    if t.dtype.is_complex or target.is_bool or t.dtype.is_bool:
        return math_ops.cast(t, target)
    low = max(float(t.dtype.min), float(target.min))
    high = min(float(t.dtype.max), float(target.max))
    if t.dtype.is_integer:
        low, high = (
            int(max(int(t.dtype.min), int(target.min))),
            int(min(int(t.dtype.max), int(target.max))),
        )
    clipped = clip_ops.clip_by_value(
        t, tensors.convert(low, t.dtype), tensors.convert(high, t.dtype)
    )
    return math_ops.cast(clipped, target)


def convert_to_tensor(x: Any, dtype: Any = None, sparse: Any = None, ragged: Any = None) -> Any:
    """``x`` (a tensor, array or nested Python numbers) as a tensor of ``dtype``.

    >>> convert_to_tensor([1, 2]).dtype.name
    'int32'
    """
    if sparse or ragged:
        raise ValueError("convert_to_tensor: retrograd has no sparse or ragged tensors")
    return tensors.convert(x, dtype)


def convert_to_numpy(x: Any) -> np.ndarray:
    """``x`` as a NumPy array (a copy of a tensor's values).

    >>> convert_to_numpy(convert_to_tensor([1.0]))
    array([1.], dtype=float32)
    """
    if tensors.is_tensor(x):
        return np.array(x.numpy())
    return np.array(x)


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a backend tensor (a retrograd Tensor or Variable).

    >>> is_tensor(convert_to_tensor(1.0)), is_tensor(1.0)
    (True, False)
    """
    return tensors.is_tensor(x)


def dtype(x: Any) -> str:
    """The dtype name of ``x``.

    >>> dtype(convert_to_tensor([1.0]))
    'float32'
    """
    if hasattr(type(x), "_as_tensor") and isinstance(getattr(x, "dtype", None), str):
        return x.dtype
    return standardize_dtype(tensors.convert(x).dtype)


def shape(x: Any) -> tuple:
    """The shape of ``x`` as a tuple (``None`` for unknown dimensions).

    >>> shape(convert_to_tensor([[1, 2, 3]]))
    (1, 3)
    """
    if any_symbolic(x):
        return tuple(x.shape)
    return tensors.static_shape(tensors.convert(x))


def get_item(x: Any, key: Any) -> Any:
    """``x[key]`` (NumPy indexing: ints, slices, ``None``, ``...``, int tensors).

    >>> get_item(convert_to_tensor([[1, 2], [3, 4]]), 1).numpy().tolist()
    [3, 4]
    """
    if any_symbolic(x, key):
        return symbolic_call(get_item, x, key)
    return tensors.convert(x)[key]


def slice(inputs: Any, start_indices: Any, shape: Any) -> Any:  # noqa: A001
    """The block of ``inputs`` of ``shape`` starting at ``start_indices``.

    >>> slice([[1, 2, 3], [4, 5, 6]], (0, 1), (2, 2)).numpy().tolist()
    [[2, 3], [5, 6]]
    """
    if any_symbolic(inputs, start_indices):
        return symbolic_call(slice, inputs, start_indices, shape)
    return dynamic_shape_ops.slice(tensors.convert(inputs), start_indices, shape)


def _block_indices(start: Any, block: list[int]) -> Any:
    grids = np.meshgrid(*(np.arange(n) for n in block), indexing="ij")
    offsets = np.stack(grids, axis=-1).astype(np.int32)
    start_t = tensors.convert(start, "int32")
    return tensors.convert(offsets) + start_t


def slice_update(inputs: Any, start_indices: Any, updates: Any) -> Any:
    """``inputs`` with the block starting at ``start_indices`` replaced by ``updates``.

    >>> slice_update([0, 0, 0, 0], (1,), [5, 6]).numpy().tolist()
    [0, 5, 6, 0]
    """
    if any_symbolic(inputs, start_indices, updates):
        return symbolic_call(slice_update, inputs, start_indices, updates)
    t = tensors.convert(inputs)
    u = tensors.convert(updates, t.dtype)
    indices = _block_indices(start_indices, u.shape.as_list())
    return scatter_ops.tensor_scatter_nd_update(t, indices, u)


def scatter(indices: Any, values: Any, shape: Any) -> Any:
    """Zeros of ``shape`` with ``values`` added at ``indices`` (duplicates add up).

    >>> scatter([[1], [3]], [1.0, 2.0], (4,)).numpy().tolist()
    [0.0, 1.0, 0.0, 2.0]
    """
    if any_symbolic(indices, values):
        return symbolic_call(scatter, indices, values, shape)
    return scatter_ops.scatter_nd(tensors.convert(indices), tensors.convert(values), list(shape))


def scatter_update(inputs: Any, indices: Any, updates: Any, reduction: Any = None) -> Any:
    """``inputs`` with ``updates`` written at ``indices`` (or combined with 'add', 'max',
    'min' or 'mul').

    >>> scatter_update([1.0, 1.0, 1.0], [[0], [2]], [5.0, 6.0]).numpy().tolist()
    [5.0, 1.0, 6.0]
    """
    if any_symbolic(inputs, indices, updates):
        return symbolic_call(scatter_update, inputs, indices, updates, reduction)
    t = tensors.convert(inputs)
    i, u = tensors.convert(indices), tensors.convert(updates, t.dtype)
    if reduction is None:
        return scatter_ops.tensor_scatter_nd_update(t, i, u)
    if reduction == "add":
        return scatter_ops.tensor_scatter_nd_add(t, i, u)
    if reduction in ("max", "min", "mul"):
        return _scatter_reduce(t, i, u, reduction)
    raise ValueError(f"Unsupported reduction: {reduction}")


def _scatter_reduce(t: Any, i: Any, u: Any, reduction: str) -> Any:
    shape = t.shape.as_list()
    depth = i.shape.as_list()[-1]
    strides = np.cumprod([1] + shape[:depth][::-1])[::-1][1:].astype(np.int64)
    flat_ids = math_ops.cast(i, "int64") @ tensors.convert(strides.reshape(-1, 1))
    ids = array_ops.reshape(flat_ids, [-1])
    count = int(np.prod(shape[:depth]))
    rows = array_ops.reshape(t, [count] + shape[depth:])
    values = array_ops.reshape(u, [-1] + shape[depth:])
    if reduction == "mul":
        for k in range(values.shape.as_list()[0]):
            row = int(ids[k].numpy())
            rows = scatter_ops.tensor_scatter_nd_update(
                rows, [[row]], array_ops.expand_dims(rows[row] * values[k], 0)
            )
        return array_ops.reshape(rows, shape)
    segment = (
        segment_ops.unsorted_segment_max if reduction == "max" else segment_ops.unsorted_segment_min
    )
    combined = segment(values, ids, count)
    pick = math_ops.maximum if reduction == "max" else math_ops.minimum
    return array_ops.reshape(pick(rows, combined), shape)


def unstack(x: Any, num: Any = None, axis: int = 0) -> Any:
    """The slices of ``x`` along ``axis``, as a list.

    >>> [t.numpy().tolist() for t in unstack([[1, 2], [3, 4]])]
    [[1, 2], [3, 4]]
    """
    if any_symbolic(x):
        return symbolic_call(unstack, x, num, axis)
    return list(join_ops.unstack(tensors.convert(x), num=num, axis=axis))


def stop_gradient(variable: Any) -> Any:
    """``variable``'s value, through which no gradient flows.

    >>> stop_gradient([1.0]).numpy().tolist()
    [1.0]
    """
    if any_symbolic(variable):
        return symbolic_call(stop_gradient, variable)
    return array_ops.stop_gradient(tensors.convert(variable))


def custom_gradient(f: Callable) -> Callable:
    """A function with the gradient ``f`` defines (``f(*x)`` returns ``(y, grad_fn)``;
    TensorFlow's contract).

    >>> import retrograd as rg
    >>> @custom_gradient
    ... def clipped(x):
    ...     return x, lambda upstream: upstream * 0.5
    >>> x = rg.constant(2.0)
    >>> with rg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = clipped(x)
    >>> float(tape.gradient(y, x))
    0.5
    """
    return custom_gradient_module.custom_gradient(f)


def cond(pred: Any, true_fn: Callable, false_fn: Callable) -> Any:
    """``true_fn()`` if ``pred`` else ``false_fn()`` (both branches traced in graphs).

    >>> cond(True, lambda: 1, lambda: 2)
    1
    """
    if isinstance(pred, (bool, np.bool_)):
        return true_fn() if pred else false_fn()
    return control_flow.cond(pred, true_fn, false_fn)


def switch(index: Any, branches: list, *operands: Any) -> Any:
    """``branches[index](*operands)``; ``index`` is clipped to the valid range.

    >>> switch(5, [lambda x: x + 1, lambda x: x * 10], 2)
    20
    """
    if tensors.is_tensor(index):
        index = int(index.numpy())
    return branches[min(max(int(index), 0), len(branches) - 1)](*operands)


def while_loop(cond: Callable, body: Callable, loop_vars: Any, maximum_iterations: Any = None):
    """Runs ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` holds (at most
    ``maximum_iterations`` times).

    >>> while_loop(lambda i: i < 5, lambda i: i + 2, 0).numpy()
    np.int32(6)
    """
    several = isinstance(loop_vars, (tuple, list))
    values = tuple(loop_vars) if several else (loop_vars,)

    def step(*args: Any) -> Any:
        out = body(*args)
        return tuple(out) if several else (out,)

    result = control_flow.while_loop(cond, step, values, maximum_iterations=maximum_iterations)
    return tuple(result) if several else result[0]


def fori_loop(lower: Any, upper: Any, body_fun: Callable, init_val: Any) -> Any:
    """``val = body_fun(i, val)`` for ``i`` from ``lower`` to ``upper - 1``.

    >>> fori_loop(0, 4, lambda i, v: v * 2, 1).numpy()
    np.int32(16)
    """
    result = control_flow.while_loop(
        lambda i, val: i < upper, lambda i, val: (i + 1, body_fun(i, val)), (lower, init_val)
    )
    return result[1]


def scan(
    f: Callable,
    init: Any,
    xs: Any = None,
    length: Any = None,
    reverse: bool = False,
    unroll: Any = 1,
) -> Any:
    """Carries ``carry, y = f(carry, x)`` over the leading axis of ``xs`` (``length`` steps
    of ``x = None`` without ``xs``); returns the last carry and the stacked ``y``.

    >>> carry, ys = scan(lambda c, x: (c + x, c * x), 0.0, convert_to_tensor([1.0, 2.0, 3.0]))
    >>> float(carry), ys.numpy().tolist()
    (6.0, [0.0, 2.0, 9.0])
    """
    if xs is None and length is None:
        raise ValueError("Got no `xs` to scan over and `length` not provided.")
    flat = [tensors.convert(x) for x in nest.flatten(xs)] if xs is not None else []
    steps = flat[0].shape.as_list()[0] if flat else int(length)
    order = range(steps - 1, -1, -1) if reverse else range(steps)
    carry, ys = init, []
    for k in order:
        x = nest.pack_sequence_as(xs, [v[k] for v in flat]) if xs is not None else None
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys or nest.flatten(ys[0]) == [None]:
        return carry, None
    stacked = [
        join_ops.stack([tensors.convert(v) for v in column])
        for column in zip(*(nest.flatten(y) for y in ys))
    ]
    return carry, nest.pack_sequence_as(ys[0], stacked)


def associative_scan(f: Callable, elems: Any, reverse: bool = False, axis: int = 0) -> Any:
    """Running combinations ``f(f(e0, e1), e2)...`` of ``elems`` along ``axis`` (``f`` is
    associative and works on slices of size 1 along ``axis``).

    >>> associative_scan(lambda a, b: a + b, convert_to_tensor([1.0, 2.0, 3.0])).numpy().tolist()
    [1.0, 3.0, 6.0]
    """
    flat = [tensors.convert(e) for e in nest.flatten(elems)]
    n = flat[0].shape.as_list()[axis]
    rank = flat[0].shape.rank
    axis = axis % rank

    def piece(t: Any, k: int) -> Any:
        index = tuple(np.s_[k : k + 1] if d == axis else np.s_[:] for d in range(rank))
        return t[index]

    order = list(range(n - 1, -1, -1)) if reverse else list(range(n))
    running, outputs = None, []
    for k in order:
        current = nest.pack_sequence_as(elems, [piece(t, k) for t in flat])
        running = current if running is None else f(running, current)
        outputs.append(nest.flatten(running))
    if reverse:
        outputs.reverse()
    joined = [join_ops.concat(list(column), axis) for column in zip(*outputs)]
    return nest.pack_sequence_as(elems, joined)


def map(f: Callable, xs: Any) -> Any:  # noqa: A001
    """``f`` applied to each slice of ``xs`` along its first axis, the results stacked.

    >>> map(lambda x: x * 2, convert_to_tensor([1, 2])).numpy().tolist()
    [2, 4]
    """
    return map_fn.map_fn(f, nest.map_structure(tensors.convert, xs))


def vectorized_map(function: Callable, elements: Any) -> Any:
    """``function`` applied to each slice of ``elements`` along the first axis, at once.

    >>> vectorized_map(lambda x: x + 1, convert_to_tensor([1, 2])).numpy().tolist()
    [2, 3]
    """
    return map_fn.vectorized_map(function, nest.map_structure(tensors.convert, elements))


_AXIS = re.compile(r"\w+|\(.*?\)")


def _groups(side: str) -> list[list[str]]:
    return [part[1:-1].split() if part.startswith("(") else [part] for part in _AXIS.findall(side)]


def rearrange(tensor: Any, pattern: str, **axes_lengths: Any) -> Any:
    """Reorders, splits and merges axes as an einops ``pattern`` says
    (``"b h w c -> b (h w) c"``; sizes of split axes by keyword).

    >>> rearrange(convert_to_tensor(np.zeros((2, 3, 4))), "b h w -> b (w h)").shape
    TensorShape([2, 12])
    """
    if any_symbolic(tensor):
        return symbolic_call(rearrange, tensor, pattern, **axes_lengths)
    t = tensors.convert(tensor)
    source, _, target = pattern.partition("->")
    if not _:
        raise ValueError(f"rearrange: the pattern {pattern!r} has no '->'")
    inputs, outputs = _groups(source.strip()), _groups(target.strip())
    sizes = dict(axes_lengths)
    for group, dim in zip(inputs, t.shape.as_list()):
        unknown = [a for a in group if a not in sizes]
        known = int(np.prod([sizes[a] for a in group if a in sizes]))
        if len(group) == 1 and unknown:
            sizes[group[0]] = dim
        elif unknown:
            sizes[unknown[0]] = dim // known
    names = [a for group in inputs for a in group]
    t = array_ops.reshape(t, [sizes[a] for a in names])
    order = [a for group in outputs for a in group]
    t = array_ops.transpose(t, [names.index(a) for a in order])
    return array_ops.reshape(t, [int(np.prod([sizes[a] for a in g])) for g in outputs])
