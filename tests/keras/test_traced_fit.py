"""fit / evaluate / predict trace their steps as Keras does (run_eagerly=False by default),
with the eager loop's numbers, and steps_per_execution groups batches between callbacks."""

import numpy as np
import pytest

import retrograd as rg

keras = rg.keras


def _model():
    keras.utils.set_random_seed(3)
    model = keras.Sequential(
        [
            keras.Input((5,)),
            keras.layers.Dense(8, activation="relu"),
            keras.layers.Dropout(0.3),  # its seed state advances inside the traced step
            keras.layers.Dense(2, activation="softmax"),
        ]
    )
    return model


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(50, 5)).astype("float32")
    return x, (x[:, 0] > 0).astype("int32")


def _trained(**compile_args):
    x, y = _data()
    model = _model()
    model.compile(
        optimizer=keras.optimizers.Adam(0.05),
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
        **compile_args,
    )
    history = model.fit(x, y, batch_size=8, epochs=3, validation_split=0.2, verbose=0)
    return model, history.history, model.evaluate(x, y, verbose=0), model.predict(x, verbose=0)


def test_fit_traces_its_steps_by_default_and_matches_the_eager_loop():
    traced, eager = _trained(), _trained(run_eagerly=True)
    model = traced[0]
    assert model.run_eagerly is False and eager[0].run_eagerly is True
    assert {"train", "test", "predict"} <= set(model._step_functions)
    assert type(model._step_functions["train"][1]).__name__ == "Function"
    assert eager[0]._step_functions == {}
    for name in traced[1]:
        np.testing.assert_allclose(traced[1][name], eager[1][name], rtol=1e-5, err_msg=name)
    np.testing.assert_allclose(traced[2], eager[2], rtol=1e-5)
    np.testing.assert_allclose(traced[3], eager[3], rtol=1e-5)
    for a, b in zip(model.get_weights(), eager[0].get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_run_eagerly_may_be_set_after_compile_and_an_overridden_step_is_traced_anew():
    x, y = _data()
    model = _model()
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    model.fit(x, y, epochs=1, verbose=0)
    first = model._step_functions["train"][1]
    model.run_eagerly = True
    calls = []

    def train_step(data):
        calls.append(rg.executing_eagerly())
        return type(model).train_step(model, data)

    model.train_step = train_step
    model.fit(x, y, batch_size=25, epochs=1, verbose=0)
    assert calls == [True, True]
    model.run_eagerly = False
    model.fit(x, y, batch_size=25, epochs=1, verbose=0)
    assert model._step_functions["train"][1] is not first
    assert calls[2:] == [False]  # traced once for both batches


class _Steps(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.seen = []

    def on_train_batch_begin(self, batch, logs=None):
        self.seen.append(("begin", batch))

    def on_train_batch_end(self, batch, logs=None):
        self.seen.append(("end", batch))

    def on_test_batch_end(self, batch, logs=None):
        self.seen.append(("test end", batch))


def test_steps_per_execution_calls_callbacks_per_group_with_the_same_numbers():
    x, y = _data()
    results = {}
    for per in (1, 3):
        model = _model()
        model.compile(
            optimizer="adam", loss="sparse_categorical_crossentropy", steps_per_execution=per
        )
        steps = _Steps()
        history = model.fit(x, y, batch_size=5, epochs=1, verbose=0, callbacks=[steps])
        model.evaluate(x, y, batch_size=20, verbose=0, callbacks=[steps])
        results[per] = history.history["loss"], steps.seen
    np.testing.assert_allclose(results[3][0], results[1][0], rtol=1e-6)
    train = [s for s in results[3][1] if not s[0].startswith("test")]
    assert train == [
        *(("begin", b) if k == 0 else ("end", b + 2) for b in (0, 3, 6) for k in (0, 1)),
        ("begin", 9),
        ("end", 9),
    ]
    assert [s for s in results[3][1] if s[0] == "test end"] == [("test end", 2)]


@pytest.mark.parametrize(("value", "error"), [(0, ValueError), (1.5, TypeError), (True, TypeError)])
def test_bad_steps_per_execution_is_refused(value, error):
    model = _model()
    with pytest.raises(error, match="steps_per_execution"):
        model.compile(optimizer="sgd", loss="mse", steps_per_execution=value)
