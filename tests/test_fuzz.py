"""Property-based fuzzing of the public API with bad arguments: whatever comes in, only typed,
named errors come out (TypeError, ValueError, NotImplementedError, RuntimeError and
retrograd's errors, which derive from them), never an internal exception (AttributeError,
KeyError, IndexError, OverflowError, RecursionError, ZeroDivisionError ...), a hang or a crash.

Bounded for CI: few examples per property, derandomized (the same cases every run); set
RETROGRAD_FUZZ_EXAMPLES to search longer (the search found what it finds at 400 fixed)."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import retrograd as rg

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # (watching ints warns)

TYPED = (TypeError, ValueError, NotImplementedError, RuntimeError)
UNTYPED = (RecursionError,)  # a RuntimeError, but an internal one

FUZZ = settings(
    max_examples=int(os.environ.get("RETROGRAD_FUZZ_EXAMPLES", "25")),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)

BAD = st.sampled_from(
    [
        None,
        "abc",
        "1",
        b"x",
        1.5,
        -1,
        -5,
        0,
        2**70,
        -(2**70),
        float("nan"),
        float("inf"),
        True,
        [1, "a"],
        [[1.0], [1.0, 2.0]],
        [None, 2],
        [1.5, 2],
        {},
        {"a": 1},
        (),
        [],
        object(),
        print,
        np.array(["a", "b"]),
        np.array([1 + 2j]),
        np.zeros((2, 0)),
        rg.constant([1, 2]),
        rg.constant([[1.0, 2.0]]),
        rg.constant(True),
        rg.Variable([1.0, 2.0]),
    ]
)
GOOD = rg.constant([[1.0, 2.0], [3.0, 4.0]])


def _typed(call):
    """Calls ``call``; a raised exception must be typed and say something."""
    try:
        call()
    except UNTYPED as e:
        raise AssertionError(f"internal exception {type(e).__name__}: {e}") from e
    except TYPED as e:
        assert str(e), f"{type(e).__name__} without a message"
    except Exception as e:
        raise AssertionError(f"untyped exception {type(e).__name__}: {e}") from e


OPS = {
    "exp": lambda a, b: rg.exp(a),
    "add": lambda a, b: rg.add(a, b),
    "matmul": lambda a, b: rg.matmul(a, b),
    "reduce_sum": lambda a, b: rg.reduce_sum(GOOD, axis=a, keepdims=b),
    "reduce_mean": lambda a, b: rg.reduce_mean(a, axis=b),
    "reshape": lambda a, b: rg.reshape(GOOD if b is None else b, a),
    "transpose": lambda a, b: rg.transpose(GOOD, a),
    "zeros": lambda a, b: rg.zeros(a, dtype=b if b is not None else rg.float32),
    "ones": lambda a, b: rg.ones(a),
    "fill": lambda a, b: rg.fill(a, b),
    "eye": lambda a, b: rg.eye(a, b),
    "cast": lambda a, b: rg.cast(GOOD, a),
    "constant": lambda a, b: rg.constant(a, dtype=b),
    "concat": lambda a, b: rg.concat(a, b),
    "stack": lambda a, b: rg.stack(a, axis=b if isinstance(b, int) else 0),
    "gather": lambda a, b: rg.gather(GOOD, a, axis=b if isinstance(b, int) else 0),
    "slice": lambda a, b: GOOD[a],
    "tile": lambda a, b: rg.tile(GOOD, a),
    "pad": lambda a, b: rg.pad(GOOD, a),
    "expand_dims": lambda a, b: rg.expand_dims(GOOD, a),
    "squeeze": lambda a, b: rg.squeeze(GOOD, a),
    "split": lambda a, b: rg.split(GOOD, a, axis=b if isinstance(b, int) else 0),
    "one_hot": lambda a, b: rg.one_hot(a, b),
    "cumsum": lambda a, b: rg.cumsum(GOOD, axis=a),
    "softmax": lambda a, b: rg.nn.softmax(GOOD, axis=a),
    "conv2d": lambda a, b: rg.nn.conv2d(rg.ones([1, 4, 4, 1]), rg.ones([2, 2, 1, 1]), a, "VALID"),
    "max_pool": lambda a, b: rg.nn.max_pool2d(rg.ones([1, 4, 4, 1]), a, 1, b),
    "random.normal": lambda a, b: rg.random.normal(a, dtype=b if b is not None else rg.float32),
    "random.uniform": lambda a, b: rg.random.uniform([2], minval=a, maxval=b),
    "clip_by_value": lambda a, b: rg.clip_by_value(GOOD, a, b),
    "where": lambda a, b: rg.where(a, GOOD, b),
    "norm": lambda a, b: rg.norm(GOOD, ord=a, axis=b),
    "TensorSpec": lambda a, b: rg.TensorSpec(a, b if b is not None else rg.float32),
    "TensorShape": lambda a, b: rg.TensorShape(a),
    "Variable": lambda a, b: rg.Variable(a, name=b if isinstance(b, str) else None),
    "name": lambda a, b: rg.exp(GOOD, name=a),
    "range": lambda a, b: rg.range(a, b),
    "linspace": lambda a, b: rg.linspace(0.0, 1.0, a),
    "argmax": lambda a, b: rg.argmax(GOOD, axis=a),
    "top_k": lambda a, b: rg.math.top_k(GOOD, k=a),
    "sort": lambda a, b: rg.sort(GOOD, axis=a, direction=b if isinstance(b, str) else "ASCENDING"),
    "unstack": lambda a, b: rg.unstack(GOOD, num=a),
    "einsum": lambda a, b: rg.einsum(a, GOOD),
    "gather_nd": lambda a, b: rg.gather_nd(GOOD, a),
    "scatter_nd": lambda a, b: rg.scatter_nd(a, b, [2]),
    "boolean_mask": lambda a, b: rg.boolean_mask(GOOD, a),
    "inv": lambda a, b: rg.linalg.inv(a),
    "matrix_band_part": lambda a, b: rg.linalg.band_part(GOOD, a, b),
    "dropout": lambda a, b: rg.nn.dropout(GOOD, rate=a, seed=b if isinstance(b, int) else None),
    "broadcast_to": lambda a, b: rg.broadcast_to(GOOD, a),
    "clip_by_norm": lambda a, b: rg.clip_by_norm(GOOD, a, axes=b),
    "reduce_logsumexp": lambda a, b: rg.reduce_logsumexp(GOOD, axis=a, keepdims=b),
    "set_seed": lambda a, b: rg.random.set_seed(a),
}


@pytest.mark.parametrize("op", sorted(OPS))
@FUZZ
@given(a=BAD, b=BAD)
def test_public_ops_raise_only_typed_errors(op, a, b):
    _typed(lambda: OPS[op](a, b))


@pytest.mark.parametrize("op", sorted(OPS))
@FUZZ
@given(a=BAD, b=BAD)
def test_public_ops_in_graphs_raise_only_typed_errors(op, a, b):
    with rg.Graph().as_default():
        _typed(lambda: OPS[op](a, b))


@FUZZ
@given(target=BAD, sources=BAD, policy=BAD, persistent=st.booleans())
def test_tapes_raise_only_typed_errors(target, sources, policy, persistent):
    x = rg.constant([1.0, 2.0])
    with rg.GradientTape(persistent=persistent) as tape:
        tape.watch(x)
        y = rg.reduce_sum(x * x)
    _typed(lambda: tape.gradient(target, sources))
    _typed(lambda: tape.gradient(y, [x], unconnected_gradients=policy))
    _typed(lambda: tape.gradient(y, x, output_gradients=target))
    _typed(lambda: tape.watch(target))
    _typed(lambda: tape.jacobian(target, x))


@FUZZ
@given(returned=BAD, grad=BAD)
def test_custom_gradients_returning_anything_raise_only_typed_errors(returned, grad):
    @rg.custom_gradient
    def f(x):
        return returned, lambda dy: grad

    @rg.custom_gradient
    def g(x):
        return x * 2.0, lambda dy: grad

    x = rg.constant([1.0, 2.0])

    def run(fn):
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return tape.gradient(y, x)

    _typed(lambda: run(f))
    _typed(lambda: run(g))


@FUZZ
@given(arg=BAD, signature=BAD, returned=BAD)
def test_functions_raise_only_typed_errors(arg, signature, returned):
    _typed(lambda: rg.function(lambda x: x * 2.0)(arg))
    _typed(lambda: rg.function(lambda x: x, input_signature=signature)(GOOD))
    _typed(lambda: rg.function(lambda x: returned)(GOOD))


@FUZZ
@given(fetch=BAD, feed_key=BAD, feed_value=BAD)
def test_sessions_raise_only_typed_errors(fetch, feed_key, feed_value):
    g = rg.Graph()
    with g.as_default():
        a = rg.compat.v1.placeholder(rg.float32, [2], name="a")
        b = a * 2.0
    with rg.compat.v1.Session(graph=g) as sess:
        _typed(lambda: sess.run(fetch, {a: [1.0, 2.0]}))
        _typed(lambda: sess.run(b, {feed_key: [1.0, 2.0]}))
        _typed(lambda: sess.run(b, {a: feed_value}))
        _typed(lambda: sess.run(b, feed_value))


OPTIMIZERS = ["SGD", "Adam", "RMSprop", "Adagrad"]


@pytest.mark.parametrize("name", OPTIMIZERS)
@FUZZ
@given(rate=BAD, grad=BAD)
def test_optimizers_raise_only_typed_errors(name, rate, grad):
    v = rg.Variable([1.0, 2.0])
    _typed(lambda: getattr(rg.keras.optimizers, name)(learning_rate=rate))
    opt = getattr(rg.keras.optimizers, name)(learning_rate=0.1)
    _typed(lambda: opt.apply_gradients([(grad, v)]))
    _typed(lambda: opt.apply_gradients(grad))
