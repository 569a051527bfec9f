"""``tf.keras.backend``'s control flow (Keras 2's backend, kept by TF 2.21): ``switch``,
the folds, ``map_fn`` and ``rnn`` (a step function run over the time axis, with masks).

>>> import retrograd as rg
>>> float(rg.keras.backend.foldl(lambda a, e: a * e, rg.constant([2.0, 3.0, 4.0])))
24.0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.core import dtypes, nest
from retrograd.core.tensor import convert_to_tensor
from retrograd.graph import control_flow
from retrograd.graph.map_fn import map_fn as tf_map_fn
from retrograd.ops import array_ops, comparison_ops, join_ops, math_ops

__all__ = ["foldl", "foldr", "map_fn", "rnn", "switch"]


def switch(condition: Any, then_expression: Any, else_expression: Any) -> Any:
    """``then_expression`` where ``condition`` holds, else ``else_expression``: a scalar
    condition picks a branch (callables are called); a tensor one is broadcast along the
    trailing axes.

    >>> import retrograd as rg
    >>> K = rg.keras.backend
    >>> K.switch(rg.constant([True, False]), rg.ones([2]), rg.zeros([2])).numpy().tolist()
    [1.0, 0.0]
    >>> K.switch(rg.constant([[True], [False]]), rg.ones([2, 2]), rg.zeros([2, 2])).numpy()
    array([[1., 1.],
           [0., 0.]], dtype=float32)
    """
    condition = convert_to_tensor(condition)
    if condition.dtype != dtypes.bool:
        condition = math_ops.cast(condition, "bool")
    if not condition.shape.rank:

        def branch(value: Any) -> Callable:
            return value if callable(value) else (lambda: value)

        return control_flow.cond(condition, branch(then_expression), branch(else_expression))
    then_value = then_expression() if callable(then_expression) else then_expression
    else_value = else_expression() if callable(else_expression) else else_expression
    then_value, else_value = convert_to_tensor(then_value), convert_to_tensor(else_value)
    if condition.shape.rank > then_value.shape.rank:
        raise ValueError(
            "Rank of `condition` should be less than or equal to rank of `then_expression` "
            f"and `else_expression`. ndim(condition)={condition.shape.rank}, "
            f"ndim(then_expression)={then_value.shape.rank}"
        )
    if condition.shape.rank > 1:  # Keras 2: trailing axes of 1 (a 1-D one broadcasts as is)
        while condition.shape.rank < then_value.shape.rank:
            condition = array_ops.expand_dims(condition, -1)
        condition = comparison_ops.logical_and(condition, array_ops.ones_like(then_value, "bool"))
    return array_ops.where(condition, then_value, else_value)


def _fold(fn: Callable, elems: Any, initializer: Any, reverse: bool) -> Any:
    items = join_ops.unstack(convert_to_tensor(elems), axis=0)
    if reverse:
        items = items[::-1]
    if initializer is None:
        accumulator, items = items[0], items[1:]
    else:
        accumulator = initializer
    for item in items:
        accumulator = fn(accumulator, item)
    return accumulator


def foldl(fn: Callable, elems: Any, initializer: Any = None, name: str | None = None) -> Any:
    """``fn(fn(init, e0), e1)...`` over the first axis of ``elems``, left to right.

    >>> import retrograd as rg
    >>> float(rg.keras.backend.foldl(lambda a, e: a + e, rg.constant([1.0, 2.0, 3.0])))
    6.0
    """
    return _fold(fn, elems, initializer, False)


def foldr(fn: Callable, elems: Any, initializer: Any = None, name: str | None = None) -> Any:
    """``fn`` folded over the first axis of ``elems``, right to left.

    >>> import retrograd as rg
    >>> float(rg.keras.backend.foldr(lambda a, e: a - e, rg.constant([1.0, 2.0, 10.0])))
    7.0
    """
    return _fold(fn, elems, initializer, True)


def map_fn(fn: Callable, elems: Any, name: str | None = None, dtype: Any = None) -> Any:
    """``fn`` applied to each entry of ``elems`` along the first axis.

    >>> import retrograd as rg
    >>> rg.keras.backend.map_fn(lambda t: t * 2.0, rg.constant([1.0, 2.0])).numpy().tolist()
    [2.0, 4.0]
    """
    return tf_map_fn(fn, elems, name=name, dtype=dtype)


def rnn(step_function: Callable, inputs: Any, initial_states: list, go_backwards: bool = False,
        mask: Any = None, constants: Any = None, unroll: bool = False, input_length: Any = None,
        time_major: bool = False, zero_output_for_mask: bool = False,
        return_all_outputs: bool = True) -> tuple:  # fmt: skip
    """Runs ``step_function(input_t, states + constants) -> (output, new_states)`` over the
    time axis; returns ``(last_output, outputs, new_states)``. Masked steps keep the states
    and repeat the previous output (zeros with ``zero_output_for_mask``).

    >>> import retrograd as rg
    >>> step = lambda x, states: (x + states[0], [x + states[0]])
    >>> last, outputs, states = rg.keras.backend.rnn(step, rg.ones([1, 3, 2]), [rg.zeros([1, 2])])
    >>> last.numpy().tolist(), outputs.shape.as_list()
    ([[3.0, 3.0]], [1, 3, 2])
    """
    inputs = convert_to_tensor(inputs)
    steps = join_ops.unstack(inputs, axis=0 if time_major else 1)
    masks = None
    if mask is not None:
        mask = math_ops.cast(convert_to_tensor(mask), "bool")
        masks = join_ops.unstack(mask, axis=0 if time_major else 1)
    if go_backwards:
        steps = steps[::-1]
        masks = None if masks is None else masks[::-1]
    states = list(initial_states)
    outputs: list = []
    for t, x_t in enumerate(steps):
        output, new_states = step_function(x_t, [*states, *(constants or [])])
        new_states = list(new_states) if isinstance(new_states, (list, tuple)) else [new_states]
        if masks is not None:
            keep = masks[t]
            while keep.shape.rank < output.shape.rank:
                keep = array_ops.expand_dims(keep, -1)
            before = array_ops.zeros_like(output)
            if outputs and not zero_output_for_mask:
                before = outputs[-1]
            output = array_ops.where(keep, output, before)
            flat = []
            for n, o in zip(nest.flatten(new_states), nest.flatten(states)):
                k = masks[t]
                while k.shape.rank < n.shape.rank:
                    k = array_ops.expand_dims(k, -1)
                flat.append(array_ops.where(k, n, o))
            new_states = nest.pack_sequence_as(new_states, flat)
        states = list(new_states)
        outputs.append(output)
    stacked = join_ops.stack(outputs if return_all_outputs else outputs[-1:], axis=0)
    if not time_major:
        stacked = array_ops.transpose(stacked, [1, 0, *range(2, stacked.shape.rank)])
    return outputs[-1], stacked, states
