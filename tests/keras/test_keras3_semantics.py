"""Keras 3 semantics (issue 22, item 3): keras.ops on symbolic KerasTensors become nodes of
the functional graph, TensorFlow ops refuse them as TF 2.21 does; multi-tensor ``call`` with
``build(t_shape, y_shape)``; Keras variables (bare names, paths, ``.value`` property,
constraints after each step, StatelessScope); weight paths by Keras' name-scope rule;
masks through merge layers and Bidirectional; the Keras 2 backend's conventions."""

import numpy as np
import pytest

import retrograd as rg

keras = rg.keras
ops = keras.ops


def test_ops_on_keras_tensors_are_graph_nodes():
    inp = keras.Input((2,))
    a = keras.layers.Dense(1, kernel_initializer="ones", name="d")(inp)
    out = a * a + ops.sin(a)
    assert isinstance(out, keras.KerasTensor)
    assert tuple(out.shape) == (None, 1) and out.dtype == "float32"
    model = keras.Model(inp, out)
    assert [layer.name for layer in model.layers] == [model.layers[0].name, "d"]
    x = np.array([[1.0, 2.0]], "float32")
    expected = 9.0 + np.sin(3.0)
    np.testing.assert_allclose(model(x).numpy(), [[expected]], rtol=1e-6)
    with rg.GradientTape() as tape:
        y = model(x)
    grads = tape.gradient(y, model.trainable_variables)
    np.testing.assert_allclose(grads[0].numpy().ravel(), (6.0 + np.cos(3.0)) * x.ravel(), 1e-5)


def test_tensorflow_ops_refuse_keras_tensors_as_tf_2_21_does():
    inp = keras.Input((2,))
    with pytest.raises(ValueError, match="A KerasTensor cannot be used as input to a TensorFlow"):
        rg.sin(inp)


def test_two_tensor_call_builds_with_each_shape():
    class Pair(keras.layers.Layer):
        def build(self, t_shape, y_shape):
            self.seen = (t_shape, y_shape)
            self.w = self.add_weight(shape=(t_shape[-1], y_shape[-1]), initializer="ones")

        def call(self, t, y):
            return rg.matmul(t, self.w) + y

    layer = Pair()
    out = layer(rg.ones([2, 3]), rg.ones([2, 4]))
    assert layer.seen == ((2, 3), (2, 4))
    assert out.numpy().tolist() == [[4.0] * 4] * 2
    symbolic = Pair()(keras.Input((3,)), keras.Input((5,)))
    assert tuple(symbolic.shape) == (None, 5)


def test_keras_variable_names_paths_and_value_property():
    layer = keras.layers.Dense(2, name="proj")
    layer(rg.ones([1, 3]))
    kernel = layer.kernel
    assert kernel.name == "kernel" and kernel.path == "proj/kernel"
    assert ":" not in kernel.name
    assert not callable(kernel.value) and kernel.value.shape.as_list() == [3, 2]


def test_weight_paths_follow_keras_name_scopes():
    keras.backend.clear_session()

    class Outer(keras.Model):
        def __init__(self):
            super().__init__(name="outer")
            self.inner = keras.layers.Dense(1, name="inner")

        def call(self, x):
            return self.inner(x)

    model = Outer()
    model(rg.ones([1, 2]))
    assert [w.path for w in model.weights] == ["outer/inner/kernel", "outer/inner/bias"]
    seq = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="d")], name="seq")
    assert [w.path for w in seq.weights] == ["seq/d/kernel", "seq/d/bias"]


def test_constraints_apply_after_each_optimizer_step():
    model = keras.Sequential(
        [keras.Input((2,)), keras.layers.Dense(1, kernel_constraint=keras.constraints.NonNeg())]
    )
    model.set_weights([np.array([[0.5], [0.5]], "float32"), np.zeros(1, "float32")])
    model.compile(keras.optimizers.SGD(1.0), "mse")
    x = np.array([[1.0, -1.0]], "float32")
    model.fit(x, np.array([[-5.0]], "float32"), epochs=2, verbose=0)
    assert np.all(model.layers[0].kernel.numpy() >= 0)


def test_stateless_scope_reads_given_values_and_collects_assignments():
    v = keras.Variable(1.0, name="v")
    with keras.StatelessScope(state_mapping=[(v, rg.constant(5.0))]) as scope:
        assert float(v.value) == 5.0
        v.assign(7.0)
    assert float(v.numpy()) == 1.0
    assert float(scope.get_current_value(v)) == 7.0


def test_concatenate_keeps_the_masks_for_pooling():
    tokens = keras.Input((3,), dtype="int32")
    e = keras.layers.Embedding(5, 2, mask_zero=True, embeddings_initializer="ones")(tokens)
    joined = keras.layers.Concatenate()([e, e])
    pooled = keras.layers.GlobalAveragePooling1D()(joined * 1.0 + joined)
    model = keras.Model(tokens, keras.layers.GlobalAveragePooling1D()(joined))
    out = model(np.array([[1, 0, 0]], "int32")).numpy()
    assert out.tolist() == [[1.0, 1.0, 1.0, 1.0]]  # the padded steps are left out
    assert tuple(pooled.shape) == (None, 4)


def test_bidirectional_zeroes_masked_steps_and_orders_weights():
    layer = keras.layers.Bidirectional(keras.layers.SimpleRNN(2, return_sequences=True))
    x = rg.ones([1, 3, 2])
    out = layer(x, mask=rg.constant([[True, True, False]]))
    assert out.numpy()[0, 2].tolist() == [0.0] * 4
    assert [w.path.split("/")[1] for w in layer.weights] == ["forward_simple_rnn"] * 3 + [
        "backward_simple_rnn"
    ] * 3


def test_keras2_backend_conventions():
    K = keras.backend
    assert K.sqrt(rg.constant([-1.0])).numpy().tolist() == [0.0]
    assert K.clip(rg.constant([2.0]), 1.0, 0.0).numpy().tolist() == [1.0]
    assert K.mean(rg.constant([True, False, False, False])).numpy() == np.float32(0.25)
    assert isinstance(K.zeros((2,)), rg.Variable)
    with pytest.raises(ValueError, match="rank < 2"):
        K.batch_dot(rg.ones([2]), rg.ones([2]))


def test_layer_errors_name_the_argument():
    with pytest.raises(ValueError, match="output_padding"):
        keras.layers.Conv2DTranspose(2, 3, strides=1, output_padding=1)
    with pytest.raises(ValueError, match="groups"):
        keras.layers.GroupNormalization(groups=3)(rg.ones([1, 4]))
    with pytest.raises(ValueError, match="merge mode"):
        keras.layers.Bidirectional(keras.layers.LSTM(2), merge_mode="max")


def test_direct_build_marks_the_layer_built():
    class Scale(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="zeros", name="w")

        def call(self, x):
            return x * self.w

    layer = Scale()
    layer.build((None, 3))
    assert layer.built
    layer.w.assign(np.ones(3, "float32"))
    np.testing.assert_allclose(layer(np.full((1, 3), 2.0, "float32")).numpy(), [[2.0] * 3])
    assert len(layer.weights) == 1


def test_loss_subclass_rebuilds_from_its_config():
    class Scaled(rg.keras.losses.Loss):
        def __init__(self, scale=1.0, name="scaled", **kwargs):
            super().__init__(name=name, **kwargs)
            self.scale = scale

        def call(self, y_true, y_pred):
            return self.scale * rg.abs(y_true - y_pred)

        def get_config(self):
            return {**super().get_config(), "scale": self.scale}

    clone = Scaled.from_config(Scaled(2.0, reduction="sum").get_config())
    assert (clone.scale, clone.name, clone.reduction) == (2.0, "scaled", "sum")
    assert float(clone(rg.constant([1.0, 2.0]), rg.constant([2.0, 4.0]))) == 6.0
    mse = rg.keras.losses.MeanSquaredError.from_config({"name": "m", "reduction": "sum"})
    assert (mse.name, mse.reduction) == ("m", "sum")
