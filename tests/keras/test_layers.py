"""Layer mechanics (lazy build, tracking, trainable, training flag, losses, configs), the
functional API and subclassing, initializer statistics, checkpoints of Keras models."""

import numpy as np
import pytest

import retrograd as rg

keras = rg.keras
layers = keras.layers


class Scale(layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.builds = 0

    def build(self, input_shape):
        self.builds += 1
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
        self.frozen = self.add_weight(shape=(), initializer="zeros", trainable=False, name="c")

    def call(self, x, training=None):
        self.seen_training = training
        return x * self.w + self.frozen


def test_lazy_build_once_and_weight_lists():
    layer = Scale()
    assert not layer.built and layer.weights == []
    layer(np.ones((2, 3)))
    layer(np.ones((5, 3)))
    assert layer.builds == 1 and layer.built
    assert [w.shape.as_list() for w in layer.trainable_weights] == [[3]]
    assert len(layer.non_trainable_weights) == 1 and len(layer.weights) == 2
    layer.trainable = False
    assert layer.trainable_weights == [] and len(layer.non_trainable_weights) == 2


def test_names_are_unique_per_class_and_reset_by_clear_session():
    keras.backend.clear_session()
    assert [layers.Dense(1).name for _ in range(3)] == ["dense", "dense_1", "dense_2"]
    keras.backend.clear_session()
    assert layers.Dense(1).name == "dense"
    with pytest.raises(TypeError, match="Unrecognized keyword arguments"):
        layers.Dense(1, unitz=3)
    with pytest.raises(ValueError, match="units"):
        layers.Dense(0)


def test_inputs_are_cast_to_float32():
    out = layers.Dense(2)(np.ones((1, 3), np.float64))
    assert out.dtype == rg.float32


def test_training_flag_is_inherited_by_inner_layers():
    class Outer(keras.Model):
        def __init__(self):
            super().__init__()
            self.inner = Scale()

        def call(self, x):
            return self.inner(x)

    model = Outer()
    model(np.ones((1, 2)), training=True)
    assert model.inner.seen_training is True
    model(np.ones((1, 2)))
    assert model.inner.seen_training is None


def test_sublayers_in_attributes_lists_and_dicts_are_tracked():
    class Block(layers.Layer):
        def __init__(self):
            super().__init__()
            self.stack = [layers.Dense(2), layers.Dense(3)]
            self.heads = {"a": layers.Dense(1)}

        def call(self, x):
            return self.heads["a"](self.stack[1](self.stack[0](x)))

    block = Block()
    block(np.ones((1, 4)))
    assert [tuple(w.shape) for w in block.trainable_weights] == [
        (4, 2),
        (2,),
        (2, 3),
        (3,),
        (3, 1),
        (1,),
    ]


def test_regularizers_and_add_loss_fill_losses():
    dense = layers.Dense(
        2, kernel_initializer="ones", kernel_regularizer=keras.regularizers.L2(0.5)
    )
    dense(np.ones((1, 3)))
    assert [float(v) for v in dense.losses] == [3.0]  # 0.5 * 6 ones

    class Penalised(layers.Layer):
        def call(self, x):
            self.add_loss(rg.reduce_sum(x))
            return x

    layer = Penalised()
    layer(np.ones((2, 2)))
    layer(np.ones((1, 2)))
    assert [float(v) for v in layer.losses] == [2.0]  # the last call's only


def test_dropout_only_while_training():
    x = np.ones((200, 10), np.float32)
    dropout = layers.Dropout(0.5)
    assert np.array_equal(dropout(x).numpy(), x)
    out = dropout(x, training=True).numpy()
    assert set(np.unique(out)) <= {0.0, 2.0} and 0.4 < (out == 0).mean() < 0.6


def test_functional_model_shapes_layers_and_errors():
    keras.backend.clear_session()
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    h = layers.Concatenate()([layers.Dense(4)(a), b])
    model = keras.Model([a, b], layers.Dense(1)(h))
    assert [layer.name for layer in model.layers][0] == "a"
    assert model([np.ones((5, 3)), np.ones((5, 2))]).shape.as_list() == [5, 1]
    assert layers.Dense(7).compute_output_shape((None, 3)) == (None, 7)
    with pytest.raises(ValueError, match="expects 2 input"):
        model(np.ones((5, 3)))
    with pytest.raises(TypeError, match="KerasTensor"):
        keras.Model(a, np.ones(3))
    with pytest.raises(TypeError, match="symbolic"):
        bool(a)


def test_get_config_of_dense():
    config = layers.Dense(3, activation="relu", name="d").get_config()
    assert {k: config[k] for k in ("name", "units", "activation", "use_bias")} == {
        "name": "d",
        "units": 3,
        "activation": "relu",
        "use_bias": True,
    }
    assert config["kernel_initializer"]["class_name"] == "GlorotUniform"


@pytest.mark.parametrize(
    "name, shape, check",
    [
        ("GlorotUniform", (200, 300), lambda v: np.abs(v).max() <= np.sqrt(6 / 500)),
        ("GlorotNormal", (200, 300), lambda v: abs(v.std() - np.sqrt(2 / 500)) < 0.004),
        ("HeNormal", (300, 200), lambda v: abs(v.std() - np.sqrt(2 / 300)) < 0.004),
        ("HeUniform", (300, 200), lambda v: np.abs(v).max() <= np.sqrt(6 / 300)),
        ("RandomNormal", (300, 200), lambda v: abs(v.std() - 0.05) < 0.002),
        ("RandomUniform", (300, 200), lambda v: np.abs(v).max() <= 0.05),
        ("TruncatedNormal", (300, 200), lambda v: np.abs(v).max() <= 0.1),
        ("Orthogonal", (40, 30), lambda v: np.allclose(v.T @ v, np.eye(30), atol=1e-5)),
        ("Zeros", (3, 2), lambda v: not v.any()),
        ("Ones", (3, 2), lambda v: (v == 1).all()),
    ],
)
def test_initializer_statistics_and_seeds(name, shape, check):
    cls = getattr(keras.initializers, name)
    values = cls()(shape).numpy()
    assert values.dtype == np.float32 and values.shape == shape and check(values)
    if name not in ("Zeros", "Ones"):
        assert np.array_equal(cls(seed=4)(shape).numpy(), cls(seed=4)(shape).numpy())
        assert not np.array_equal(cls(seed=4)(shape).numpy(), cls(seed=5)(shape).numpy())


def test_unseeded_initializers_follow_keras_set_random_seed():
    # As in Keras 3: the seed comes from Python's random module, which set_random_seed seeds
    try:
        keras.utils.set_random_seed(11)
        a = keras.initializers.GlorotUniform()((3, 3)).numpy()
        keras.utils.set_random_seed(11)
        assert np.array_equal(a, keras.initializers.GlorotUniform()((3, 3)).numpy())
    finally:
        rg.random.set_seed(None)


def test_checkpoint_of_a_keras_model_restores_into_an_unbuilt_one(tmp_path):
    def make():
        return keras.Sequential([layers.Dense(3, activation="relu"), layers.Dense(1)])

    x = np.ones((2, 4), np.float32)
    model, optimizer = make(), keras.optimizers.Adam(0.1)
    model.compile(optimizer, "mse")
    model.fit(x, np.ones((2, 1)), epochs=2, verbose=0)
    path = rg.train.Checkpoint(model=model, optimizer=optimizer).save(str(tmp_path / "ckpt"))

    fresh, fresh_optimizer = make(), keras.optimizers.Adam(0.1)
    status = rg.train.Checkpoint(model=fresh, optimizer=fresh_optimizer).restore(path)
    fresh(x)  # builds: the weights take their saved values as they are created
    assert all(np.array_equal(a, b) for a, b in zip(model.get_weights(), fresh.get_weights()))
    fresh.compile(fresh_optimizer, "mse")
    model.fit(x, np.ones((2, 1)), epochs=1, verbose=0)
    fresh.fit(x, np.ones((2, 1)), epochs=1, verbose=0)
    status.assert_consumed()
    assert all(np.array_equal(a, b) for a, b in zip(model.get_weights(), fresh.get_weights()))


def test_activity_regularizers_are_per_sample_on_any_layer():
    # values from TensorFlow 2.21 / Keras 3 for the same calls
    dense = layers.Dense(
        2, kernel_initializer="ones", activity_regularizer=keras.regularizers.L2(0.1)
    )
    dense(np.arange(6, dtype="float32").reshape(3, 2))
    assert [round(float(v), 5) for v in dense.losses] == [7.13333]
    relu = layers.Activation("relu", activity_regularizer="l1")
    relu(np.array([[1.0, -2.0]], "float32"))
    assert [round(float(v), 5) for v in relu.losses] == [0.01]


def test_recurrent_layers_defaults_states_and_shapes():
    lstm = layers.LSTM(2, return_state=True)
    out, h, c = lstm(np.ones((3, 4, 5), np.float32))
    assert lstm.bias.numpy().tolist() == [0, 0, 1, 1, 0, 0, 0, 0]  # unit_forget_bias
    assert np.array_equal(out.numpy(), h.numpy()) and c.shape.as_list() == [3, 2]
    q = lstm.recurrent_kernel.numpy()  # orthogonal by default
    np.testing.assert_allclose(q @ q.T, np.eye(2), atol=1e-5)
    gru = layers.GRU(3)
    gru(np.ones((1, 2, 4), np.float32))
    assert gru.bias.shape.as_list() == [2, 9]
    before = layers.GRU(3, reset_after=False)
    before(np.ones((1, 2, 4), np.float32))
    assert before.bias.shape.as_list() == [9]
    with pytest.raises(ValueError, match="batch size must be static"):
        rg.keras.Sequential([rg.keras.Input((2, 4)), layers.GRU(3, stateful=True)])


def test_embedding_mask_zero_masks_padding_and_rnns_skip_masked_steps():
    tokens = np.array([[3, 5, 0], [0, 0, 0]], np.int32)
    embedding = layers.Embedding(6, 2, mask_zero=True)
    assert embedding.compute_mask(tokens).numpy().tolist() == [[True, True, False], [False] * 3]
    assert layers.Embedding(6, 2).compute_mask(tokens) is None
    x = embedding(tokens)
    lstm = layers.LSTM(3, return_sequences=True, return_state=True)
    seq, h, c = lstm(x, mask=embedding.compute_mask(tokens))
    # a masked step keeps the state and repeats the last output (zeros before any step)
    np.testing.assert_array_equal(seq[0, 2].numpy(), seq[0, 1].numpy())
    np.testing.assert_array_equal(h[0].numpy(), seq[0, 1].numpy())
    assert not seq[1].numpy().any() and not h[1].numpy().any() and not c[1].numpy().any()
    assert lstm.compute_mask(x, embedding.compute_mask(tokens))[1:] == [None, None]
    pooled = layers.GlobalAveragePooling1D()(x, mask=embedding.compute_mask(tokens))
    np.testing.assert_allclose(pooled[0].numpy(), x[0, :2].numpy().mean(axis=0), rtol=1e-6)
