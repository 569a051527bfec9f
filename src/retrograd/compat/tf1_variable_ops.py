"""TensorFlow 1's sparse updates of variables (``scatter_update``, ``scatter_add``,
``scatter_sub`` and their ``_nd`` forms), the v1 names of ``tensor_scatter_nd_*``,
``count_up_to``, ``assert_variables_initialized`` and ``no_regularizer``; and
``colocate_with``/``container``, which place nothing on retrograd's single device.

>>> import retrograd as rg
>>> v = rg.Variable([1.0, 2.0, 3.0])
>>> scatter_add(v, [0, 0], [1.0, 1.0]).numpy().tolist()
[3.0, 2.0, 3.0]
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from retrograd.compat.graph_collections import global_variables, local_variables
from retrograd.compat.graph_ops import Assert, assign, control_dependencies
from retrograd.core.tensor import convert_to_tensor
from retrograd.ops import array_ops, comparison_ops, join_ops, math_ops, scatter_ops, segment_ops
from retrograd.training.v1_variable_state import is_variable_initialized

__all__ = [
    "assert_variables_initialized",
    "colocate_with",
    "container",
    "count_up_to",
    "no_regularizer",
    "scatter_add",
    "scatter_div",
    "scatter_max",
    "scatter_min",
    "scatter_mul",
    "scatter_nd_add",
    "scatter_nd_sub",
    "scatter_nd_update",
    "scatter_sub",
    "scatter_update",
    "tensor_scatter_add",
    "tensor_scatter_sub",
    "tensor_scatter_update",
]


def _rows(indices: Any) -> Any:
    """Row indices as ``scatter_nd``'s ``[..., 1]`` index tensor."""
    return array_ops.expand_dims(convert_to_tensor(indices), -1)


def _updated(ref: Any, new: Any) -> Any:
    """Assigns ``new`` and returns the variable's new value (a tensor in a graph)."""
    return assign(ref, new)


def scatter_update(ref, indices, updates, use_locking=True, name=None):
    """``ref[indices] = updates`` (rows of the first axis).

    >>> import retrograd as rg
    >>> scatter_update(rg.Variable([1.0, 2.0, 3.0]), [0, 2], [5.0, 6.0]).numpy().tolist()
    [5.0, 2.0, 6.0]
    """
    return scatter_nd_update(ref, _rows(indices), updates, use_locking, name)


def scatter_add(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices] += updates`` (repeated indices add up).

    >>> import retrograd as rg
    >>> scatter_add(rg.Variable([1.0, 2.0]), [1, 1], [1.0, 2.0]).numpy().tolist()
    [1.0, 5.0]
    """
    return scatter_nd_add(ref, _rows(indices), updates, use_locking, name)


def scatter_sub(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices] -= updates``.

    >>> import retrograd as rg
    >>> scatter_sub(rg.Variable([1.0, 2.0]), [0], [1.0]).numpy().tolist()
    [0.0, 2.0]
    """
    return scatter_nd_sub(ref, _rows(indices), updates, use_locking, name)


def _segments(ref: Any, indices: Any, updates: Any, reduce: Any) -> Any:
    """``updates`` reduced per row of ``ref`` they update (rows nothing updates get the
    reduction's identity)."""
    value = ref.read_value()
    updates = convert_to_tensor(updates, dtype=value.dtype)
    rows = array_ops.shape(value)[0]
    return value, reduce(updates, convert_to_tensor(indices), rows)


def scatter_mul(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices] *= updates`` (repeated indices multiply in turn).

    >>> import retrograd as rg
    >>> scatter_mul(rg.Variable([1.0, 2.0]), [1, 1], [3.0, 2.0]).numpy().tolist()
    [1.0, 12.0]
    """
    value, factor = _segments(ref, indices, updates, segment_ops.unsorted_segment_prod)
    return _updated(ref, math_ops.multiply(value, factor))


def scatter_div(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices] /= updates`` (repeated indices divide in turn).

    >>> import retrograd as rg
    >>> scatter_div(rg.Variable([8.0, 2.0]), [0, 0], [2.0, 2.0]).numpy().tolist()
    [2.0, 2.0]
    """
    value, divisor = _segments(ref, indices, updates, segment_ops.unsorted_segment_prod)
    return _updated(ref, math_ops.divide(value, divisor))


def scatter_max(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices] = maximum(ref[indices], updates)``.

    >>> import retrograd as rg
    >>> scatter_max(rg.Variable([1.0, 5.0]), [0, 1], [3.0, 2.0]).numpy().tolist()
    [3.0, 5.0]
    """
    value, top = _segments(ref, indices, updates, segment_ops.unsorted_segment_max)
    return _updated(ref, math_ops.maximum(value, top))


def scatter_min(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices] = minimum(ref[indices], updates)``.

    >>> import retrograd as rg
    >>> scatter_min(rg.Variable([1.0, 5.0]), [0, 1], [3.0, 2.0]).numpy().tolist()
    [1.0, 2.0]
    """
    value, low = _segments(ref, indices, updates, segment_ops.unsorted_segment_min)
    return _updated(ref, math_ops.minimum(value, low))


def scatter_nd_update(ref, indices, updates, use_locking=True, name=None):
    """``ref[indices] = updates`` with ``indices[..., :k]`` indexing ``ref``'s first axes.

    >>> import retrograd as rg
    >>> scatter_nd_update(rg.Variable([[1.0, 2.0], [3.0, 4.0]]), [[1, 0]], [9.0]).numpy().tolist()
    [[1.0, 2.0], [9.0, 4.0]]
    """
    new = scatter_ops.tensor_scatter_nd_update(ref.read_value(), indices, updates)
    return _updated(ref, new)


def scatter_nd_add(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices] += updates`` (n-dimensional indices).

    >>> import retrograd as rg
    >>> scatter_nd_add(rg.Variable([1.0, 2.0]), [[0], [0]], [1.0, 1.0]).numpy().tolist()
    [3.0, 2.0]
    """
    new = scatter_ops.tensor_scatter_nd_add(ref.read_value(), indices, updates)
    return _updated(ref, new)


def scatter_nd_sub(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices] -= updates`` (n-dimensional indices).

    >>> import retrograd as rg
    >>> scatter_nd_sub(rg.Variable([1.0, 2.0]), [[1]], [2.0]).numpy().tolist()
    [1.0, 0.0]
    """
    updates = math_ops.negative(convert_to_tensor(updates, dtype=ref.dtype))
    new = scatter_ops.tensor_scatter_nd_add(ref.read_value(), indices, updates)
    return _updated(ref, new)


def tensor_scatter_update(tensor, indices, updates, name=None):
    """TF1's name of ``tensor_scatter_nd_update``.

    >>> tensor_scatter_update([1.0, 2.0], [[0]], [5.0]).numpy().tolist()
    [5.0, 2.0]
    """
    return scatter_ops.tensor_scatter_nd_update(tensor, indices, updates, name=name)


def tensor_scatter_add(tensor, indices, updates, name=None):
    """TF1's name of ``tensor_scatter_nd_add``.

    >>> tensor_scatter_add([1.0, 2.0], [[0]], [5.0]).numpy().tolist()
    [6.0, 2.0]
    """
    return scatter_ops.tensor_scatter_nd_add(tensor, indices, updates, name=name)


def tensor_scatter_sub(tensor, indices, updates, name=None):
    """TF1's name of ``tensor_scatter_nd_sub``: ``tensor`` with ``updates`` subtracted.

    >>> tensor_scatter_sub([1.0, 2.0], [[1]], [5.0]).numpy().tolist()
    [1.0, -3.0]
    """
    tensor = convert_to_tensor(tensor)
    negated = math_ops.negative(convert_to_tensor(updates, dtype=tensor.dtype))
    return scatter_ops.tensor_scatter_nd_add(tensor, indices, negated, name=name)


def count_up_to(ref, limit, name=None):
    """Increments the integer variable ``ref`` and returns its value before; once it has
    reached ``limit``, an error (TensorFlow's OutOfRangeError; retrograd, which has no such
    type, raises InvalidArgumentError).

    >>> import retrograd as rg
    >>> v = rg.Variable(0)
    >>> [int(count_up_to(v, 2)) for _ in range(2)], int(v.numpy())
    ([0, 1], 2)
    """
    before = ref.read_value()
    check = Assert(
        comparison_ops.less(before, limit),
        [f"Reached limit of {limit}"],
        name="count_up_to_limit",
    )
    with control_dependencies([check]):
        new = assign(ref, before + 1)  # reads `before` first: it is the assigned value's input
    return math_ops.subtract(new, 1, name=name)


def assert_variables_initialized(var_list=None):
    """The ranks of the variables of ``var_list`` (every global and local variable by
    default), as TensorFlow returns them; running it fails if one has no value yet.

    >>> import retrograd as rg, retrograd.compat.v1 as tf1
    >>> with rg.Graph().as_default():
    ...     v = tf1.Variable(1.0)
    ...     check = tf1.assert_variables_initialized()
    ...     with tf1.Session() as sess:
    ...         sess.run(v.initializer)
    ...         print(sess.run(check))
    0
    """
    if var_list is None:
        var_list = global_variables() + local_variables()
    variables = list(var_list)
    if not variables:
        return None
    checks = [
        Assert(is_variable_initialized(v), [f"Variable {v.name} is not initialized"])
        for v in variables
    ]
    with control_dependencies(checks):
        ranks = [array_ops.rank(v) for v in variables]
        return ranks[0] if len(ranks) == 1 else join_ops.stack(ranks)


def no_regularizer(_):
    """The regularizer that adds no loss (for a scope whose default regularizer one
    variable should not get).

    >>> no_regularizer(1.0) is None
    True
    """
    return None


@contextlib.contextmanager
def colocate_with(op, ignore_existing=False) -> Iterator[None]:
    """Places ops beside ``op``: retrograd runs on one device, so nothing moves.

    >>> with colocate_with(None):
    ...     pass
    """
    yield


@contextlib.contextmanager
def container(container_name) -> Iterator[str]:
    """The resource container of stateful ops: retrograd keeps variables in the objects
    themselves, so the name only comes back.

    >>> with container('experiment') as name:
    ...     print(name)
    experiment
    """
    yield container_name
