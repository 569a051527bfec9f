"""Bad inputs to the outer API (Keras, tf.data, checkpoints, compat.v1) whose outcome
retrograd must share with TensorFlow 2.21: the error's type (or a subclass of it), or a
value. Shared by make_bad_input_goldens.py (run on TensorFlow) and tests/test_bad_inputs.py
(plain functions of ``tf`` and a scratch folder: no TensorFlow import here). Each returns
something JSON-able (compared with TensorFlow's) or raises."""

import os

import numpy as np


def _dense_model(tf):
    return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])


def _compiled(tf):
    model = _dense_model(tf)
    model.compile(optimizer="sgd", loss="mse")
    return model


def predict_of_one_sample_without_batch(tf, folder):
    return list(_dense_model(tf).predict(np.ones((3,)), verbose=0).shape)


def predict_of_a_wrong_rank(tf, folder):
    return list(_dense_model(tf).predict(np.ones((2, 3, 4)), verbose=0).shape)


def predict_with_a_trailing_unit_dimension(tf, folder):
    return list(_dense_model(tf).predict(np.ones((2, 3, 1)), verbose=0).shape)


def fit_without_compile(tf, folder):
    _dense_model(tf).fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)


def fit_with_batch_size_zero(tf, folder):
    history = _compiled(tf).fit(np.ones((64, 3)), np.ones((64, 1)), verbose=0, batch_size=0)
    return history.params["steps"]


def fit_with_negative_batch_size(tf, folder):
    _compiled(tf).fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0, batch_size=-1)


def fit_with_mismatched_lengths(tf, folder):
    _compiled(tf).fit(np.ones((4, 3)), np.ones((5, 1)), verbose=0)


def compile_with_an_unknown_loss(tf, folder):
    _dense_model(tf).compile(optimizer="sgd", loss="no_such_loss")
    _dense_model(tf).fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)


def dense_with_zero_units(tf, folder):
    tf.keras.layers.Dense(0)


def dense_with_negative_units(tf, folder):
    tf.keras.layers.Dense(-1)


def save_weights_to_a_txt_file(tf, folder):
    _dense_model(tf).save_weights(os.path.join(folder, "w.txt"))


def load_weights_from_a_txt_file(tf, folder):
    _dense_model(tf).load_weights(os.path.join(folder, "w.txt"))


def save_model_without_extension(tf, folder):
    _dense_model(tf).save(os.path.join(folder, "model"))


def load_model_of_a_missing_file(tf, folder):
    tf.keras.models.load_model(os.path.join(folder, "missing.keras"))


def load_model_of_a_text_file(tf, folder):
    path = os.path.join(folder, "text.keras")
    with open(path, "w") as f:
        f.write("not a zip")
    tf.keras.models.load_model(path)


def model_checkpoint_of_weights_to_a_txt_file(tf, folder):
    tf.keras.callbacks.ModelCheckpoint(os.path.join(folder, "w.txt"), save_weights_only=True)


def concatenate_int64_and_float64(tf, folder):
    tf.data.Dataset.range(3).concatenate(tf.data.Dataset.from_tensor_slices(np.array([1.0, 2.0])))


def concatenate_of_other_structures(tf, folder):
    pairs = tf.data.Dataset.from_tensor_slices((np.ones(2), np.ones(2)))
    pairs.concatenate(tf.data.Dataset.from_tensor_slices(np.ones(2)))


def concatenate_of_other_shapes(tf, folder):
    a = tf.data.Dataset.from_tensor_slices(np.ones((2, 2), np.float32))
    b = tf.data.Dataset.from_tensor_slices(np.ones((2, 3), np.float32))
    return [list(x.shape) for x in a.concatenate(b)]


def batch_of_zero(tf, folder):
    list(tf.data.Dataset.range(3).batch(0))


def variable_of_an_object_array(tf, folder):
    tf.Variable(np.array([1, 2], dtype=object))


def constant_of_an_object_array(tf, folder):
    tf.constant(np.array([1, 2], dtype=object))


def constant_of_an_object_array_with_a_dtype(tf, folder):
    return tf.constant(np.array([1, 2], dtype=object), dtype=tf.float32).numpy().tolist()


def add_of_a_float_beyond_float32(tf, folder):
    tf.add([1e39, 0.0, 0.0], tf.constant([1.0, 2.0, 3.0]))


def add_of_a_float_beyond_float32_second(tf, folder):
    return str(tf.add(tf.constant([1.0, 2.0, 3.0]), [1e39, 0.0, 0.0]).numpy().tolist())


def assign_add_of_a_float_beyond_float32(tf, folder):
    v = tf.Variable([1.0, 2.0, 3.0])
    v.assign_add([1e39, 0.0, 0.0])
    return str(v.numpy().tolist())


def variable_of_a_float_beyond_float32(tf, folder):
    tf.Variable([1e39, 0.0])


def output_gradients_of_another_dtype(tf, folder):
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x, output_gradients=tf.constant(1, dtype=tf.int32))


def constant_of_a_shape_beyond_int64(tf, folder):
    tf.constant(1.0, shape=[2**70])


def checkpoint_of_a_float(tf, folder):
    tf.train.Checkpoint(v=1.0)


def checkpoint_restore_of_a_missing_file(tf, folder):
    tf.train.Checkpoint(v=tf.Variable(1.0)).restore(os.path.join(folder, "missing-1"))


def latest_checkpoint_of_an_empty_folder(tf, folder):
    return tf.train.latest_checkpoint(folder)


def latest_checkpoint_of_a_missing_folder(tf, folder):
    return tf.train.latest_checkpoint(os.path.join(folder, "missing"))


def v1_saver_without_variables(tf, folder):
    with tf.Graph().as_default():
        tf.compat.v1.train.Saver()


def v1_saver_restore_of_a_missing_checkpoint(tf, folder):
    with tf.Graph().as_default():
        tf.compat.v1.Variable(1.0, name="w")
        saver = tf.compat.v1.train.Saver()
        with tf.compat.v1.Session() as session:
            saver.restore(session, os.path.join(folder, "missing-1"))


def v1_session_feed_of_a_wrong_shape(tf, folder):
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2])
        with tf.compat.v1.Session() as session:
            session.run(x * 2.0, {x: [1.0, 2.0, 3.0]})


def v1_session_run_of_none(tf, folder):
    with tf.Graph().as_default():
        tf.constant(1.0)
        with tf.compat.v1.Session() as session:
            session.run(None)


def v1_session_run_of_an_empty_graph(tf, folder):
    with tf.Graph().as_default(), tf.compat.v1.Session() as session:
        session.run([])


def v1_session_after_close(tf, folder):
    with tf.Graph().as_default():
        x = tf.constant(1.0)
        session = tf.compat.v1.Session()
        session.close()
        session.run(x)


def lstm_on_a_matrix(tf, folder):
    tf.keras.layers.LSTM(2)(np.ones((2, 3), np.float32))


def dense_on_a_vector(tf, folder):
    tf.keras.layers.Dense(2)(np.ones((3,), np.float32))


def repeat_vector_on_a_cube(tf, folder):
    tf.keras.layers.RepeatVector(2)(np.ones((1, 2, 3), np.float32))


def conv2d_on_a_matrix(tf, folder):
    tf.keras.layers.Conv2D(2, 1)(np.ones((2, 3), np.float32))


def dense_with_infinite_units(tf, folder):
    tf.keras.layers.Dense(float("inf"))


def repeat_vector_of_a_float(tf, folder):
    tf.keras.layers.RepeatVector(2.5)


def concatenate_of_one_tensor(tf, folder):
    tf.keras.layers.Concatenate()(np.ones((1, 2), np.float32))


def layer_called_on_a_string(tf, folder):
    tf.keras.layers.Dense(2)("abc")


def dataset_batch_of_a_float(tf, folder):
    tf.data.Dataset.range(3).batch(1.5)


def dataset_take_of_a_string(tf, folder):
    tf.data.Dataset.range(3).take("2")


def v1_session_feed_of_a_variable_value(tf, folder):
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2])
        with tf.compat.v1.Session() as session:
            return session.run(x * 2.0, {x: np.array([1.0, 2.0])}).tolist()


CASES = {
    name: value
    for name, value in dict(globals()).items()
    if callable(value) and not name.startswith("_") and name.islower() and name != "os"
}
