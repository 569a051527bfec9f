"""Bad arguments raise the error TensorFlow raises (checked with TensorFlow 2.21), naming
the op and argument; no internal exception (AttributeError, KeyError, OverflowError,
RecursionError) comes out of the public API for them."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.errors import InvalidArgumentError, UnimplementedError

X = rg.constant([[1.0, 2.0], [3.0, 4.0]])


def _in_graph(build):
    def run():
        with rg.Graph().as_default():
            return build()

    return run


def _session_run(fetch, feed):
    def run():
        with rg.Graph().as_default():
            a = rg.compat.v1.placeholder(rg.float32, [2], name="a")
            b = a * 2.0
            with rg.compat.v1.Session() as sess:
                return sess.run(b if fetch is None else fetch, feed)

    return run


def _recursive():
    @rg.function
    def f(a):
        return f(a)

    return f(rg.constant(1.0))


def _gradients_from_another_graph():
    with rg.Graph().as_default():
        a = rg.compat.v1.placeholder(rg.float32, [])
    with rg.Graph().as_default():
        b = rg.compat.v1.placeholder(rg.float32, [])
        return rg.gradients(b * 2.0, [a])


CASES = [
    # dtype=None is not "float64"
    ("zeros dtype None", lambda: rg.zeros([2], dtype=None), TypeError, "None"),
    ("ones dtype None", lambda: rg.ones([2], dtype=None), TypeError, "None"),
    ("eye dtype None", lambda: rg.eye(2, dtype=None), TypeError, "None"),
    ("cast dtype None", lambda: rg.cast(X, None), TypeError, "None"),
    ("normal dtype None", lambda: rg.random.normal([2], dtype=None), TypeError, "None"),
    ("uniform dtype None", lambda: rg.random.uniform([2], dtype=None), TypeError, "None"),
    ("TensorSpec dtype None", lambda: rg.TensorSpec([2], dtype=None), TypeError, "None"),
    (
        "placeholder dtype None",
        _in_graph(lambda: rg.compat.v1.placeholder(None, [2])),
        TypeError,
        "None",
    ),
    # floats and strings are not integers
    ("zeros [1.5, 2]", lambda: rg.zeros([1.5, 2]), TypeError, "zeros: `shape` must be a list"),
    ("zeros [2.0, 2]", lambda: rg.zeros([2.0, 2]), TypeError, "ints"),
    ("eye '3'", lambda: rg.eye("3"), TypeError, "num_rows"),
    ("eye 3.0", lambda: rg.eye(3.0), TypeError, "num_rows"),
    ("axis '1'", lambda: rg.reduce_sum(X, axis="1"), InvalidArgumentError, "axis"),
    ("axis 1.0", lambda: rg.reduce_sum(X, axis=1.0), TypeError, "axis"),
    (
        "strides '3'",
        lambda: rg.nn.conv2d(rg.ones([1, 4, 4, 1]), rg.ones([2, 2, 1, 1]), "3", "VALID"),
        TypeError,
        "Expected int for argument 'strides'",
    ),
    (
        "float tensor shape",
        lambda: rg.zeros(rg.constant([2.0, 2.0])),
        InvalidArgumentError,
        "int32 or int64",
    ),
    (
        "reshape float shape",
        lambda: rg.reshape(X, rg.constant([4.0])),
        InvalidArgumentError,
        "int32 or int64",
    ),
    # out-of-range values
    ("transpose [1, 2]", lambda: rg.transpose(X, [1, 2]), InvalidArgumentError, "out of range"),
    ("reshape [-3]", lambda: rg.reshape(X, [-3]), InvalidArgumentError, "non-negative"),
    ("zeros [-1]", lambda: rg.zeros([-1]), InvalidArgumentError, "must be >= 0"),
    (
        "placeholder [-5]",
        _in_graph(lambda: rg.compat.v1.placeholder(rg.float32, [-5])),
        ValueError,
        "Dimension -5 must be >= 0",
    ),
    ("TensorShape [1.5]", lambda: rg.TensorShape([1.5]), TypeError, "Dimension value"),
    ("constant 1e40", lambda: rg.constant(1e40), ValueError, "out of range"),
    ("constant [1, 1e39]", lambda: rg.constant([1.0, 1e39]), ValueError, "out of range"),
    ("dimension 2**70", lambda: rg.zeros([2**70]), ValueError, "out-of-range integer"),
    ("reshape 2**70", lambda: rg.reshape(X, [2**70]), ValueError, "out-of-range integer"),
    # control flow, graphs, sessions, functions
    ("cond None", lambda: rg.cond(None, lambda: 1, lambda: 2), ValueError, "None"),
    ("gradients other graph", _gradients_from_another_graph, ValueError, "same graph"),
    ("Session.run feed list", _session_run(None, [1, 2]), TypeError, "feed_dict must be a dict"),
    ("unknown fetch", _session_run("nope:0", None), ValueError, "cannot be interpreted"),
    ("unknown op fetch", _session_run("nope", None), ValueError, "cannot be interpreted"),
    ("unknown feed", _session_run(None, {"nope:0": [1.0, 2.0]}), TypeError, "feed_dict key"),
    (
        "input_signature 'abc'",
        lambda: rg.function(lambda a: a, input_signature="abc")(rg.constant(1.0)),
        TypeError,
        "input_signature must be either a tuple or a list",
    ),
    (
        "input_signature [1]",
        lambda: rg.function(lambda a: a, input_signature=[1])(rg.constant(1.0)),
        TypeError,
        "input_signature",
    ),
    ("recursive function", _recursive, UnimplementedError, "calls itself"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_arguments_raise_tensorflows_errors(call, error, match):
    with pytest.raises(error, match=match) as info:
        call()
    assert not isinstance(info.value, (AttributeError, KeyError, OverflowError, RecursionError))


def test_constant_of_a_tensor_keeps_the_gradient():
    v = rg.constant(2.0)
    with rg.GradientTape() as tape:
        tape.watch(v)
        y = rg.constant(v) * 3.0
    assert tape.gradient(y, v).numpy() == 3.0
    assert rg.constant(1e40, dtype=rg.float32).numpy() == np.inf  # an explicit dtype: as TF


@pytest.mark.parametrize(
    "x, y, expected",
    [(np.inf, 2.0, np.inf), (-np.inf, 2.0, -np.inf), (1.0, 0.1, 10.0), (-7.0, 2.0, -4.0)],
)
def test_floordiv_of_floats_is_floor_of_the_quotient(x, y, expected):
    assert rg.math.floordiv(rg.constant(x, rg.float64), rg.constant(y, rg.float64)).numpy() == (
        expected
    )
    assert rg.math.floordiv(-7, 2).numpy() == -4


def test_concat_of_one_tensor_is_that_tensor():
    assert rg.concat(X, 0).shape == (2, 2)


def test_the_jacobian_of_an_empty_target_is_empty():
    v = rg.constant([1.0, 2.0])
    with rg.GradientTape() as tape:
        tape.watch(v)
        y = rg.zeros([0]) * rg.reduce_sum(v)
    assert tape.jacobian(y, v).shape == (0, 2)


def test_eager_while_loop_gives_tensors():
    i, s = rg.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + i), [0, 0])
    assert (i.dtype, s.dtype, int(i), int(s)) == (rg.int32, rg.int32, 3, 3)


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize(
    "values",
    [[2.0, 0.0, 3.0], [2.0, 0.0, 3.0, 0.0, 5.0], [0.0, 0.0, 1.5], [[1.5, 0.0], [0.0, 2.0]]],
)
def test_cumprod_gradient_at_zeros_is_the_derivative(values, exclusive, reverse):
    # TensorFlow divides by x (0 or NaN at zeros); the derivative exists and finite
    # differences agree with it, at first and second order.
    rg.check_gradients(
        lambda x: rg.math.cumprod(x, exclusive=exclusive, reverse=reverse), values, order=2
    )


def test_apply_gradients_of_nothing_is_an_error_and_does_not_count_a_step():
    opt = rg.keras.optimizers.SGD()
    with pytest.raises(ValueError, match="no gradients"):
        opt.apply_gradients([])
    assert int(opt.iterations.numpy()) == 0
