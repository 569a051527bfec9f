"""Model.fit / evaluate / predict / train_on_batch, callbacks, custom train_step, the
progress bar (through a pseudo-terminal) and weights on disk."""

import os
import pathlib
import pty
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import retrograd as rg

keras = rg.keras
SRC = str(pathlib.Path(rg.__file__).parent.parent)


def _data(n=12, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x.sum(axis=1, keepdims=True) > 0).astype("float32")


def _model(seed=0):
    model = keras.Sequential(
        [
            keras.Input((3,)),
            keras.layers.Dense(4, activation="relu"),
            keras.layers.Dense(1, activation="sigmoid"),
        ]
    )
    rng = np.random.default_rng(seed)
    model.set_weights([rng.normal(scale=0.5, size=w.shape) for w in model.get_weights()])
    return model


def test_fit_history_validation_split_and_evaluate():
    x, y = _data()
    model = _model()
    model.compile("sgd", "binary_crossentropy", metrics=["accuracy"])
    history = model.fit(
        x, y, batch_size=4, epochs=2, validation_split=0.25, shuffle=False, verbose=0
    )
    assert sorted(history.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    assert history.epoch == [0, 1] and model.history is history
    # validation is the last quarter, evaluated like evaluate() does
    loss, accuracy = model.evaluate(x[9:], y[9:], verbose=0)
    assert history.history["val_loss"][-1] == pytest.approx(loss, rel=1e-6)
    assert history.history["val_accuracy"][-1] == pytest.approx(accuracy)
    assert model.evaluate(x, y, verbose=0, return_dict=True).keys() == {"accuracy", "loss"}


def test_loss_is_the_batch_size_weighted_mean_of_batch_losses():
    x, y = _data(10)
    model = _model()
    model.compile(keras.optimizers.SGD(0.0), "mse")
    history = model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    predictions = model.predict(x, batch_size=3, verbose=0)
    assert predictions.shape == (10, 1)
    expected = float(np.mean((predictions - y) ** 2))
    assert history.history["loss"][0] == pytest.approx(expected, rel=1e-5)


def test_train_on_batch_returns_the_loss_before_the_update():
    x, y = _data()
    model = _model()
    model.compile(keras.optimizers.SGD(0.5), "mse", metrics=["mae"])
    before = model.evaluate(x, y, batch_size=32, verbose=0)
    assert model.train_on_batch(x, y) == pytest.approx(before, rel=1e-6)
    assert model.evaluate(x, y, verbose=0)[0] < before[0]


def test_custom_train_step_and_compiled_metrics():
    class Halved(keras.Model):
        def train_step(self, data):
            x, y = data
            with rg.GradientTape() as tape:
                loss = self.compiled_loss(y, self(x, training=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(
                (g * 0.5, v) for g, v in zip(grads, self.trainable_variables)
            )
            self.compiled_metrics.update_state(y, self(x))
            return {"halved_loss": loss, **self.compiled_metrics.result()}

    inputs = keras.Input((3,))
    model = Halved(inputs, keras.layers.Dense(1)(inputs))
    model.compile(keras.optimizers.SGD(0.1), "mse", metrics=["mse"])
    x, y = _data()
    history = model.fit(x, y, epochs=2, verbose=0)
    assert sorted(history.history) == ["halved_loss", "mse"]


def test_callbacks_lambda_early_stopping_and_checkpoint(tmp_path):
    x, y = _data(16)
    model = _model()
    model.compile(keras.optimizers.SGD(0.0), "mse")  # no progress: stops after patience
    events = []
    callbacks = [
        keras.callbacks.LambdaCallback(
            on_train_begin=lambda logs: events.append("begin"),
            on_epoch_end=lambda epoch, logs: events.append(epoch),
        ),
        keras.callbacks.EarlyStopping(monitor="loss", patience=2),
        keras.callbacks.ModelCheckpoint(
            str(tmp_path / "w-{epoch}.weights.h5"), save_weights_only=True, monitor="loss"
        ),
    ]
    history = model.fit(x, y, epochs=10, shuffle=False, verbose=0, callbacks=callbacks)
    assert events == ["begin", 0, 1, 2]
    assert len(history.history["loss"]) == 3
    assert sorted(os.listdir(tmp_path)) == [f"w-{i}.weights.h5" for i in (1, 2, 3)]
    with pytest.raises(ValueError, match="must end in `.keras`"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "m.h5"))
    whole = keras.callbacks.ModelCheckpoint(str(tmp_path / "m-{epoch}.keras"), monitor="loss")
    model.fit(x, y, epochs=1, shuffle=False, verbose=0, callbacks=[whole])
    loaded = keras.models.load_model(tmp_path / "m-1.keras")
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


def test_early_stopping_restores_best_weights():
    class Worsen(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            self.model.layers[0].kernel.assign_add(np.ones((3, 1), np.float32))

    x, y = np.ones((4, 3), np.float32), np.zeros((4, 1), np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(keras.optimizers.SGD(0.0), "mse")
    stop = keras.callbacks.EarlyStopping(monitor="loss", patience=1, restore_best_weights=True)
    history = model.fit(x, y, epochs=5, verbose=0, callbacks=[stop, Worsen()])
    assert history.history["loss"] == [0.0, 9.0] and stop.stopped_epoch == 1
    assert not model.layers[0].kernel.numpy().any()


def test_fit_accepts_a_dataset():
    x, y = _data(12)
    a, b = _model(), _model()
    for m in (a, b):
        m.compile(keras.optimizers.SGD(0.1), "mse")
    h1 = a.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    dataset = rg.data.Dataset.from_tensor_slices((x, y)).batch(4)
    h2 = b.fit(dataset, epochs=2, verbose=0, validation_data=dataset)
    assert h1.history["loss"] == pytest.approx(h2.history["loss"], rel=1e-6)
    assert "val_loss" in h2.history


def test_save_and_load_weights_roundtrip_and_mismatch(tmp_path):
    model = _model(1)
    path = tmp_path / "m.weights.h5"
    model.save_weights(path)
    other = _model(2)
    other.load_weights(path)
    assert all(np.array_equal(a, b) for a, b in zip(model.get_weights(), other.get_weights()))
    wrong = keras.Sequential([keras.Input((3,)), keras.layers.Dense(5), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match=r"float32\[3, 4\].*float32\[3, 5\]"):
        wrong.load_weights(path)


def test_compile_errors_and_uncompiled_fit():
    model = _model()
    with pytest.raises(ValueError, match="compile"):
        model.fit(*_data(), verbose=0)
    with pytest.raises(ValueError, match="optimizer identifier"):
        model.compile("nadamx", "mse")
    with pytest.raises(ValueError, match="loss identifier"):
        model.compile("adam", "msee")


def test_summary_lists_layers_shapes_and_parameters():
    lines = []
    model = _model()
    model.compile("adam", "mse")
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert 'Model: "' in text and "(None, 4)" in text and "(None, 1)" in text
    assert " Trainable params: 21 (84.00 B)" in text


def test_verbose_without_a_terminal_prints_one_line_per_epoch():
    x, y = _data()
    script = textwrap.dedent(
        f"""
        import numpy as np, retrograd as rg
        x = np.array({x.tolist()}, np.float32); y = np.array({y.tolist()}, np.float32)
        m = rg.keras.Sequential([rg.keras.Input((3,)), rg.keras.layers.Dense(1)])
        m.compile("sgd", "mse", metrics=["mae"])
        m.fit(x, y, batch_size=4, epochs=2, verbose="auto")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": SRC},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = out.splitlines()
    assert [line.split(" - ")[0] for line in lines] == ["Epoch 1/2", "3/3", "Epoch 2/2", "3/3"]
    assert lines[1].endswith(tuple("0123456789")) and " - loss: " in lines[1] and "\x1b" not in out


def test_progress_bar_on_a_terminal():
    x, y = _data()
    script = textwrap.dedent(
        f"""
        import numpy as np, retrograd as rg
        x = np.array({x.tolist()}, np.float32); y = np.array({y.tolist()}, np.float32)
        m = rg.keras.Sequential([rg.keras.Input((3,)), rg.keras.layers.Dense(1)])
        m.compile("sgd", "mse")
        m.fit(x, y, batch_size=4, epochs=1)
        """
    )
    pid, fd = pty.fork()
    if pid == 0:  # the child runs fit with its standard output on the terminal
        os.environ["PYTHONPATH"] = SRC
        os.execv(sys.executable, [sys.executable, "-c", script])
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.waitpid(pid, 0)
    out = b"".join(chunks).decode()
    assert "\x1b[1m3/3\x1b[0m" in out and "━" in out and "\r" in out
    assert "\x1b[32m" + "━" * 20 in out  # the finished bar is all green
    assert "step - loss: " in out and out.rstrip().endswith(tuple("0123456789"))


def test_one_line_per_epoch_for_a_dataset_of_unknown_length(capsys):
    x, y = _data(10)
    dataset = rg.data.Dataset.from_tensor_slices((x, y)).filter(lambda a, b: True).batch(4)
    model = _model()
    model.compile("sgd", "mse")
    model.fit(dataset, epochs=2, verbose=2)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" - ")[0] for line in lines] == ["Epoch 1/2", "3/3", "Epoch 2/2", "3/3"]


def test_class_weight_and_sample_weight_together_are_refused():
    model = rg.keras.Sequential([rg.keras.Input((2,)), rg.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x, y = np.ones((4, 2), np.float32), np.ones((4, 1), np.float32)
    with pytest.raises(ValueError, match="class_weight` and `sample_weight"):
        model.fit(x, y, class_weight={0: 2.0}, sample_weight=np.ones(4), verbose=0)


def test_class_weight_is_each_samples_class_weight():
    from retrograd.keras.src.trainer import class_weight_to_sample_weights

    weights = {0: 0.5, 2: 4.0}
    assert class_weight_to_sample_weights([0, 1, 2], weights).tolist() == [0.5, 1.0, 4.0]
    assert class_weight_to_sample_weights([[2], [0]], weights).tolist() == [4.0, 0.5]
    one_hot = [[0.0, 0.0, 1.0], [0.9, 0.1, 0.0]]
    assert class_weight_to_sample_weights(one_hot, weights).tolist() == [4.0, 0.5]
    with pytest.raises(ValueError, match="single output"):
        class_weight_to_sample_weights([np.zeros(2), np.zeros(2)], weights)


def test_losses_per_output_need_a_model_with_several_outputs():
    model = rg.keras.Sequential([rg.keras.Input((2,)), rg.keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="several outputs"):
        model.compile("sgd", loss=["mse", "mae"])
    inputs = rg.keras.Input((2,))
    two = rg.keras.Model(inputs, [rg.keras.layers.Dense(1, name="p")(inputs), inputs])
    with pytest.raises(ValueError, match="unknown output names \\['q'\\]"):
        two.compile("sgd", loss={"q": "mse"})
    with pytest.raises(ValueError, match="one entry per model output"):
        two.compile("sgd", loss=["mse", "mae", "mse"])


def test_model_checkpoint_save_freq_must_be_epoch_or_a_positive_int(tmp_path):
    for bad in (0, "batch", 2.5):
        with pytest.raises(ValueError, match="save_freq"):
            keras.callbacks.ModelCheckpoint(str(tmp_path / "m.keras"), save_freq=bad)
