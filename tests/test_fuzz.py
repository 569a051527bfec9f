"""Property-based fuzzing of the public API with bad arguments: whatever comes in, only typed,
named errors come out (TypeError, ValueError, NotImplementedError, RuntimeError and
retrograd's errors, which derive from them), never an internal exception (AttributeError,
KeyError, IndexError, OverflowError, RecursionError, ZeroDivisionError ...), a hang or a crash.

The table covers ops, tapes, custom gradients, functions and sessions, and the outer API:
Keras layers (constructor arguments and inputs), compile/fit/predict/evaluate, tf.data,
checkpoints (paths go to a temporary folder) and compat.v1 graphs, savers and Sessions.

Bounded for CI: few examples per property, derandomized (the same cases every run); set
RETROGRAD_FUZZ_EXAMPLES to search longer (the search found what it finds at 400 fixed)."""

from __future__ import annotations

import os
import tempfile

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


# -- the outer API: Keras, tf.data, checkpoints, compat.v1 -------------------------------------

LAYERS = {
    "Dense": lambda a, b: rg.keras.layers.Dense(a, activation=b),
    "Conv2D": lambda a, b: rg.keras.layers.Conv2D(2, a, strides=b if b is not None else 1),
    "Embedding": lambda a, b: rg.keras.layers.Embedding(a, b),
    "LSTM": lambda a, b: rg.keras.layers.LSTM(a, return_sequences=b),
    "Dropout": lambda a, b: rg.keras.layers.Dropout(a, seed=b),
    "Reshape": lambda a, b: rg.keras.layers.Reshape(a),
    "RepeatVector": lambda a, b: rg.keras.layers.RepeatVector(a),
    "ZeroPadding2D": lambda a, b: rg.keras.layers.ZeroPadding2D(a),
    "UpSampling2D": lambda a, b: rg.keras.layers.UpSampling2D(a, interpolation=b or "nearest"),
    "BatchNormalization": lambda a, b: rg.keras.layers.BatchNormalization(axis=a, momentum=b),
    "Concatenate": lambda a, b: rg.keras.layers.Concatenate(axis=a),
    "Activation": lambda a, b: rg.keras.layers.Activation(a),
}
INPUTS = {
    "Conv2D": np.ones((1, 4, 4, 1), np.float32),
    "LSTM": np.ones((1, 3, 2), np.float32),
    "ZeroPadding2D": np.ones((1, 2, 2, 1), np.float32),
    "UpSampling2D": np.ones((1, 2, 2, 1), np.float32),
    "Embedding": np.ones((1, 2), np.int32),
    "Concatenate": [np.ones((1, 2), np.float32), np.ones((1, 2), np.float32)],
}


@pytest.mark.parametrize("layer", sorted(LAYERS))
@FUZZ
@given(a=BAD, b=BAD, data=BAD)
def test_keras_layers_raise_only_typed_errors(layer, a, b, data):
    def build_and_call(inputs):
        made = LAYERS[layer](a, b)
        return made(inputs)

    _typed(lambda: build_and_call(INPUTS.get(layer, np.ones((1, 2), np.float32))))
    _typed(lambda: LAYERS[layer](2, None)(data))


def _small_model():
    return rg.keras.Sequential([rg.keras.Input((2,)), rg.keras.layers.Dense(1)])


X, Y = np.ones((4, 2), np.float32), np.ones((4, 1), np.float32)


@FUZZ
@given(optimizer=BAD, loss=BAD, metrics=BAD)
def test_keras_compile_raises_only_typed_errors(optimizer, loss, metrics):
    def compile_and_fit(**arguments):
        model = _small_model()
        model.compile(**arguments)
        model.fit(X, Y, verbose=0)

    _typed(lambda: compile_and_fit(optimizer=optimizer, loss="mse"))
    _typed(lambda: compile_and_fit(optimizer="sgd", loss=loss))
    _typed(lambda: compile_and_fit(optimizer="sgd", loss="mse", metrics=metrics))


@FUZZ
@given(x=BAD, y=BAD, size=BAD, epochs=BAD)
def test_keras_fit_and_predict_raise_only_typed_errors(x, y, size, epochs):
    model = _small_model()
    model.compile(optimizer="sgd", loss="mse")
    _typed(lambda: model.fit(x, Y, verbose=0))
    _typed(lambda: model.fit(X, y, verbose=0))
    _typed(lambda: model.fit(X, Y, batch_size=size, verbose=0))
    _typed(lambda: model.fit(X, Y, epochs=epochs if epochs != 2**70 else 1, verbose=0))
    _typed(lambda: model.predict(x, verbose=0))
    _typed(lambda: model.predict(X, batch_size=size, verbose=0))
    _typed(lambda: model.evaluate(X, y, verbose=0))


DATASETS = {
    "from_tensor_slices": lambda a, b: rg.data.Dataset.from_tensor_slices(a),
    "range": lambda a, b: rg.data.Dataset.range(a, b),
    "batch": lambda a, b: rg.data.Dataset.range(5).batch(a, drop_remainder=b),
    "shuffle": lambda a, b: rg.data.Dataset.range(5).shuffle(a, seed=b),
    "take": lambda a, b: rg.data.Dataset.range(5).take(a),
    "skip": lambda a, b: rg.data.Dataset.range(5).skip(a),
    "repeat": lambda a, b: rg.data.Dataset.range(2).repeat(a).take(5),
    "map": lambda a, b: rg.data.Dataset.range(5).map(a),
    "filter": lambda a, b: rg.data.Dataset.range(5).filter(a),
    "concatenate": lambda a, b: rg.data.Dataset.range(5).concatenate(a),
    "zip": lambda a, b: rg.data.Dataset.zip((rg.data.Dataset.range(2), a)),
    "prefetch": lambda a, b: rg.data.Dataset.range(5).prefetch(a),
}


@pytest.mark.parametrize("op", sorted(DATASETS))
@FUZZ
@given(a=BAD, b=BAD)
def test_datasets_raise_only_typed_errors(op, a, b):
    _typed(lambda: list(DATASETS[op](a, b)))


_FOLDERS = tempfile.TemporaryDirectory()  # (removed when the test process ends)


def _in_folder(value):
    """A path value made relative to a fresh folder (bad paths must not land in the cwd)."""
    folder = tempfile.mkdtemp(dir=_FOLDERS.name)
    return os.path.join(folder, value) if isinstance(value, str) else value


@FUZZ
@given(a=BAD, b=BAD)
def test_checkpoints_raise_only_typed_errors(a, b):
    v = rg.Variable([1.0, 2.0])
    _typed(lambda: rg.train.Checkpoint(v=a))
    _typed(lambda: rg.train.Checkpoint(v=v).write(_in_folder(a)))
    _typed(lambda: rg.train.Checkpoint(v=v).save(_in_folder(a)))
    _typed(lambda: rg.train.Checkpoint(v=v).restore(_in_folder(a)))
    _typed(lambda: rg.train.CheckpointManager(rg.train.Checkpoint(v=v), _in_folder(a), b))
    _typed(lambda: rg.train.CheckpointManager(rg.train.Checkpoint(v=v), _in_folder("m"), 2).save(a))
    _typed(lambda: rg.train.latest_checkpoint(_in_folder(a), b))
    _typed(lambda: _small_model().save_weights(_in_folder(a)))
    _typed(lambda: _small_model().load_weights(_in_folder(a)))
    _typed(lambda: rg.keras.models.load_model(_in_folder(a)))


@FUZZ
@given(a=BAD, b=BAD)
def test_compat_v1_graphs_and_sessions_raise_only_typed_errors(a, b):
    tf1 = rg.compat.v1
    with rg.Graph().as_default():
        _typed(lambda: tf1.placeholder(a, b))
        _typed(lambda: tf1.placeholder(rg.float32, a))
        _typed(lambda: tf1.Variable(a, name=b if isinstance(b, str) else None))
        _typed(lambda: tf1.get_variable(a if isinstance(a, str) else "v", shape=b))
        w = tf1.Variable([1.0, 2.0], name="w")
        _typed(lambda: tf1.train.Saver(var_list=a))
        saver = tf1.train.Saver([w])
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            _typed(lambda: saver.save(session, _in_folder(a), global_step=b))
            _typed(lambda: saver.restore(session, _in_folder(a)))
            _typed(lambda: session.run(w.assign(a)))
            _typed(lambda: session.run(w, {w: a}))
