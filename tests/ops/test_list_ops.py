"""The list ops under TensorArray (TensorListSetItem, ...): in functions they carry
TensorArrays through loops, and their gradients (lists of gradients) match finite
differences at first and second order; eagerly, TensorArray is a list of tensors whose
stack/gather/concat are ordinary ops. TensorFlow goldens: tests/api/data/cases_tensor_array.py."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.ops import list_ops


@rg.function
def _write_loop(x):
    ta = rg.TensorArray(rg.float64, size=0, dynamic_size=True)
    for i in rg.range(rg.shape(x)[0]):
        ta = ta.write(i, rg.sin(x[i]) * x[i])
    return ta.stack() * rg.range(1.0, 4.0, dtype=rg.float64)


@rg.function
def _read_gather(x):
    ta = rg.TensorArray(rg.float64, size=3).unstack(x)
    return ta.read(1) * ta.read(2) + rg.reduce_sum(ta.gather([0, 2, 0]), axis=0)


@rg.function
def _scatter_concat(x):
    ta = rg.TensorArray(rg.float64, size=3).scatter([2, 0, 1], x * x)
    return ta.concat()


@rg.function
def _split_read(x):
    ta = rg.TensorArray(rg.float64, size=2, infer_shape=False).split(x, [2, 1])
    return ta.read(0) * 3.0, ta.concat() ** 2


@rg.function
def _reserve_set_get(x):
    items = list_ops.reserve(2, rg.float64, [3])
    items = list_ops.set_item(items, 1, x * 2.0)
    items = list_ops.set_item(items, 0, rg.exp(x))
    return list_ops.get_item(items, 0, rg.float64) * list_ops.stack(items, rg.float64)


FUNCTIONS = [
    ("write_loop", _write_loop, (3,)),
    ("read_gather", _read_gather, (3, 2)),
    ("scatter_concat", _scatter_concat, (3, 2)),
    ("split_read", _split_read, (3,)),
    ("reserve_set_get", _reserve_set_get, (3,)),
]


@pytest.mark.parametrize("name, fn, shape", FUNCTIONS, ids=[f[0] for f in FUNCTIONS])
def test_list_gradients_match_finite_differences_to_second_order(name, fn, shape):
    x = np.random.default_rng(sum(map(ord, name))).uniform(-1.0, 1.0, shape)
    rg.check_gradients(fn, x, order=2, atol=1e-6, rtol=1e-5)


def test_gradient_lists_add_elementwise_with_absent_items_as_zeros():
    a = list_ops.TensorList((np.ones(2), None), np.dtype(np.float64), (2,))
    b = list_ops.TensorList((None, np.full(2, 3.0), np.ones(2)), np.dtype(np.float64), (2,))
    total = a + b + 0
    assert [None if t is None else t.tolist() for t in total.items] == [
        [1.0, 1.0], [3.0, 3.0], [1.0, 1.0]
    ]  # fmt: skip


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: rg.TensorArray(rg.float32), ValueError, "Size must be provided"),
        (
            lambda: rg.TensorArray(rg.float32, size=1).write(3, 1.0),
            rg.errors.OutOfRangeError,
            "not resizeable",
        ),
        (
            lambda: rg.TensorArray(rg.float32, size=1).write(0, rg.constant(1)),
            rg.errors.InvalidArgumentError,
            "dtype",
        ),
        (
            lambda: rg.TensorArray(rg.float32, size=0).stack(),
            rg.errors.InvalidArgumentError,
            "not fully known",
        ),
        (
            lambda: rg.TensorArray(rg.float32, size=1).read(2),
            rg.errors.OutOfRangeError,
            "array size is: 1",
        ),
        (
            lambda: rg.function(lambda: rg.TensorArray(rg.float32, size=1).write(2, 1.0).stack())(),
            rg.errors.InvalidArgumentError,
            "not resizeable",
        ),
    ],
)
def test_misuse_raises_tensorflow_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_an_eager_read_clears_the_element_unless_told_not_to():
    ta = rg.TensorArray(rg.float32, size=2).unstack([1.0, 2.0])
    assert float(ta.read(0)) == 1.0 and ta.stack().numpy().tolist() == [0.0, 2.0]
    with pytest.raises(rg.errors.InvalidArgumentError, match="twice"):
        ta.read(0)
    kept = rg.TensorArray(rg.float32, size=2, clear_after_read=False).unstack([1.0, 2.0])
    assert float(kept.read(0)) == float(kept.read(0)) == 1.0


def test_a_tape_inside_a_function_follows_tensor_array_writes():
    @rg.function
    def grad(x):
        with rg.GradientTape() as tape:
            tape.watch(x)
            ta = rg.TensorArray(rg.float32, size=2).write(0, x * 2.0).write(1, x * x)
            total = rg.reduce_sum(ta.stack())
        return tape.gradient(total, x)

    assert grad(rg.constant([0.5, 3.0])).numpy().tolist() == [3.0, 8.0]
