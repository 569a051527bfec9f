"""Whole models in .keras files: Sequential, functional and subclassed models (custom layers
through the registry or custom_objects) come back with the same outputs, compile arguments
and optimizer state; every built-in layer survives get_config -> JSON -> from_config; and
foreign or damaged files are refused with a clear error."""

from __future__ import annotations

import json
import os
import zipfile

import numpy as np
import pytest

import retrograd as rg

keras = rg.keras
layers = keras.layers
X = np.random.default_rng(0).normal(size=(8, 4)).astype(np.float32)
Y = (X[:, :1] - 2 * X[:, 1:2]).astype(np.float32)


def _same_predictions(a, b, x=X):
    np.testing.assert_array_equal(a.predict(x, verbose=0), b.predict(x, verbose=0))


@keras.saving.register_keras_serializable(package="Tests")
class Scale(layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

    def call(self, x):
        return self.factor * x * self.w

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


class Unregistered(Scale):
    pass


@keras.saving.register_keras_serializable(package="Tests")
class TwoTower(keras.Model):
    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.left, self.right = layers.Dense(units), layers.Dense(units, activation="tanh")
        self.head = layers.Dense(1)
        self.scale = Scale(0.5)

    def call(self, x, training=None):
        return self.head(self.scale(self.left(x) + self.right(x)))

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def test_sequential_round_trip_continues_training_bit_for_bit(tmp_path):
    model = keras.Sequential([keras.Input((4,)), layers.Dense(5, "relu"), layers.Dense(1)])
    model.compile(keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
    model.fit(X, Y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    path = tmp_path / "model.keras"
    model.save(path)
    loaded = keras.models.load_model(path)
    _same_predictions(model, loaded)
    assert type(loaded.optimizer).__name__ == "Adam" and loaded.optimizer.learning_rate == 0.01
    assert int(loaded.optimizer.iterations.numpy()) == 4
    history = [
        m.fit(X, Y, epochs=1, batch_size=4, shuffle=False, verbose=0) for m in (model, loaded)
    ]
    assert history[0].history == history[1].history
    for a, b in zip(model.weights, loaded.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_functional_model_with_shared_layer_and_two_inputs(tmp_path):
    a, b = keras.Input((4,), name="a"), keras.Input((4,), name="b")
    shared = layers.Dense(3, name="shared")
    merged = layers.Concatenate()([shared(a), shared(b)])
    out = layers.Dense(2, name="out")(Scale(3.0)(merged))
    model = keras.Model([a, b], out)
    model.save(tmp_path / "f.keras")
    loaded = keras.models.load_model(tmp_path / "f.keras")
    assert [layer.name for layer in loaded.layers] == [layer.name for layer in model.layers]
    np.testing.assert_array_equal(model([X, 2 * X]).numpy(), loaded([X, 2 * X]).numpy())


def test_subclassed_model_rebuilt_from_its_config(tmp_path):
    model = TwoTower(units=4)
    model.compile("sgd", keras.losses.MeanSquaredError())
    model.fit(X, Y, epochs=1, verbose=0, shuffle=False)
    model.save(tmp_path / "s.keras")
    loaded = keras.models.load_model(tmp_path / "s.keras")
    assert isinstance(loaded, TwoTower) and loaded.units == 4
    _same_predictions(model, loaded)
    assert type(loaded.loss).__name__ == "MeanSquaredError"


def test_custom_objects_supply_unregistered_classes(tmp_path):
    model = keras.Sequential([keras.Input((4,)), Unregistered(1.5), layers.Dense(2)])
    model.save(tmp_path / "c.keras")
    with pytest.raises(ValueError, match="Could not locate .*Unregistered.*custom_objects"):
        keras.models.load_model(tmp_path / "c.keras")
    loaded = keras.models.load_model(
        tmp_path / "c.keras", custom_objects={"Unregistered": Unregistered}
    )
    _same_predictions(model, loaded)


def test_unseeded_layers_of_every_kind_round_trip(tmp_path):
    inputs = keras.Input((6, 5))
    x = layers.Conv1D(4, 3, padding="causal", activation="relu")(inputs)
    x = layers.LSTM(3, return_sequences=True, go_backwards=True)(x)
    x = layers.GRU(2)(x)
    x = layers.BatchNormalization(momentum=0.5)(x)
    out = layers.Dense(1, kernel_regularizer=keras.regularizers.L2(0.1))(layers.Dropout(0.3)(x))
    model = keras.Model(inputs, out)
    model.save(tmp_path / "r.keras")
    loaded = keras.models.load_model(tmp_path / "r.keras")
    x = np.random.default_rng(1).normal(size=(3, 6, 5)).astype(np.float32)
    _same_predictions(model, loaded, x)
    assert loaded.layers[-1].kernel_regularizer.l2 == pytest.approx(0.1)


LAYERS = [
    lambda: layers.Dense(3, activation="tanh", use_bias=False, kernel_initializer="he_normal"),
    lambda: layers.Conv2D(
        4, (2, 3), strides=2, padding="same", groups=2, data_format="channels_first"
    ),
    lambda: layers.Conv1D(2, 2, dilation_rate=2, kernel_regularizer="l2"),
    lambda: layers.MaxPooling2D((2, 1), padding="same", data_format="channels_first"),
    lambda: layers.AveragePooling1D(2, strides=1),
    lambda: layers.GlobalAveragePooling2D(keepdims=True),
    lambda: layers.GlobalMaxPooling1D(data_format="channels_first"),
    lambda: layers.Embedding(7, 3, embeddings_initializer="ones"),
    lambda: layers.LSTM(2, return_state=True, unit_forget_bias=False, recurrent_activation="relu"),
    lambda: layers.GRU(2, return_sequences=True, use_bias=False),
    lambda: layers.SimpleRNN(2, activation="relu"),
    lambda: layers.BatchNormalization(axis=1, center=False, epsilon=0.01),
    lambda: layers.LayerNormalization(center=False, epsilon=0.1),
    lambda: layers.Dropout(0.25, noise_shape=(None, 1), seed=3),
    lambda: layers.Reshape((2, -1)),
    lambda: layers.Flatten(data_format="channels_first"),
    lambda: layers.Permute((2, 1)),
    lambda: layers.RepeatVector(4),
    lambda: layers.UpSampling2D(3, data_format="channels_first"),
    lambda: layers.ZeroPadding2D(((1, 2), (3, 4))),
    lambda: layers.ELU(0.5),
    lambda: layers.LeakyReLU(0.2),
    lambda: layers.ReLU(max_value=2.0, threshold=0.5),
    lambda: layers.Softmax(axis=1),
    lambda: layers.Activation("softplus"),
    lambda: layers.Concatenate(axis=1),
    lambda: layers.Add(),
    lambda: layers.Masking(-1.0),
    lambda: layers.UpSampling2D(2, interpolation="bilinear"),
    lambda: layers.GRU(2, reset_after=False, stateful=True, dropout=0.1),
]


@pytest.mark.parametrize("make", LAYERS, ids=lambda f: type(f()).__name__)
def test_config_survives_json(make):
    layer = make()
    config = keras.saving.serialize_keras_object(layer)
    again = keras.saving.deserialize_keras_object(json.loads(json.dumps(config)))
    assert type(again) is type(layer)
    assert keras.saving.serialize_keras_object(again) == config


def test_damaged_and_foreign_files_are_refused(tmp_path):
    model = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
    path = tmp_path / "m.keras"
    model.save(path)
    data = path.read_bytes()
    (tmp_path / "cut.keras").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="not a .keras file or is corrupt"):
        keras.models.load_model(tmp_path / "cut.keras")
    (tmp_path / "text.keras").write_text("hello")
    with pytest.raises(ValueError, match="not a .keras file or is corrupt"):
        keras.models.load_model(tmp_path / "text.keras")
    with zipfile.ZipFile(tmp_path / "keras.keras", "w") as archive:
        for name in ("config.json", "metadata.json", "model.weights.h5"):
            archive.writestr(name, "{}")
    with pytest.raises(ValueError, match="written by Keras"):
        keras.models.load_model(tmp_path / "keras.keras")
    with zipfile.ZipFile(tmp_path / "other.keras", "w") as archive:
        archive.writestr("readme.txt", "not a model")
    with pytest.raises(ValueError, match="not a retrograd .keras file"):
        keras.models.load_model(tmp_path / "other.keras")
    with pytest.raises(ValueError, match="File not found"):
        keras.models.load_model(tmp_path / "missing.keras")


def test_file_names_and_unsavable_functions(tmp_path):
    model = keras.Sequential([keras.Input((4,)), layers.Lambda(lambda x: 2 * x)])
    with pytest.raises(ValueError, match="extension"):
        model.save(tmp_path / "model.bin")
    with pytest.raises(ValueError, match="HDF5"):
        model.save(tmp_path / "model.h5")
    keras.Sequential([keras.Input((4,)), layers.Dense(1)]).save(tmp_path / "keep.keras")
    before = (tmp_path / "keep.keras").read_bytes()
    with pytest.raises(ValueError, match="never saves code"):
        model.save(tmp_path / "keep.keras")
    assert (tmp_path / "keep.keras").read_bytes() == before  # the old file is left whole
    assert sorted(os.listdir(tmp_path)) == ["keep.keras"]


def test_a_layer_without_get_config_for_its_arguments_says_what_to_do(tmp_path):
    @keras.saving.register_keras_serializable(package="Tests")
    class Shift(layers.Layer):
        def __init__(self, amount):
            super().__init__()
            self.amount = amount

        def call(self, x):
            return x + self.amount

    model = keras.Sequential([keras.Input((2,)), Shift(1.0)])
    model.save(tmp_path / "shift.keras")
    with pytest.raises(TypeError, match="Define `get_config\\(\\)` on Shift"):
        keras.models.load_model(tmp_path / "shift.keras")


def test_subclassed_model_without_arguments_needs_no_get_config(tmp_path):
    @keras.saving.register_keras_serializable(package="Tests")
    class Tiny(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    model = Tiny()
    model(X)
    model.save(tmp_path / "tiny.keras")
    _same_predictions(model, keras.models.load_model(tmp_path / "tiny.keras"))


def test_multi_output_compile_arguments_survive_saving(tmp_path):
    inputs = keras.Input((4,))
    a = layers.Dense(1, name="a")(inputs)
    b = layers.Dense(2, name="b")(inputs)
    model = keras.Model(inputs, [a, b])
    model.compile("sgd", loss={"a": "mse", "b": "mae"}, loss_weights={"a": 2.0, "b": 0.5})
    model.save(tmp_path / "two.keras")
    loaded = keras.models.load_model(tmp_path / "two.keras")
    y = [Y, np.zeros((8, 2), np.float32)]
    assert loaded.evaluate(X, y, verbose=0) == model.evaluate(X, y, verbose=0)
    assert loaded.metrics_names == ["loss", "compile_metrics", "a_loss", "b_loss"]


def test_subclassed_model_with_two_inputs_builds_and_round_trips(tmp_path):
    @keras.saving.register_keras_serializable(package="Tests")
    class Pair(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = layers.Dense(2)

        def call(self, inputs):
            left, right = inputs
            return self.dense(rg.concat([left, right], -1))

    model = Pair()
    with pytest.warns(UserWarning, match="does not have a `build\\(\\)` method"):
        model.build([(None, 3), (None, 2)])
    assert model.built and model.weights == []  # Keras 3: marked built; no weights yet
    pair = [X[:, :3], X[:, 2:]]
    model(pair)
    assert [w.shape.as_list() for w in model.weights] == [[5, 2], [2]]
    model.save(tmp_path / "pair.keras")
    loaded = keras.models.load_model(tmp_path / "pair.keras")
    np.testing.assert_array_equal(loaded(pair).numpy(), model(pair).numpy())
