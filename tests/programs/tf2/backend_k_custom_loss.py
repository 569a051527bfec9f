"""Keras 2 style code on tf.keras.backend (``K``): a custom loss and metric written with
K.mean, K.square, K.clip, K.epsilon, K.sum, a K.switch, K.batch_dot and K.rnn, trained
with Model.fit."""

import numpy as np
from tensorflow import keras
from tensorflow.keras import backend as K


def huberish(y_true, y_pred):
    error = y_true - y_pred
    small = K.abs(error) < 1.0
    return K.mean(K.switch(small, 0.5 * K.square(error), K.abs(error) - 0.5), axis=-1)


def log_ratio(y_true, y_pred):
    ratio = K.clip(K.abs(y_pred), K.epsilon(), None) / (K.abs(y_true) + 1.0)
    return K.mean(K.log(ratio + 1.0))


rng = np.random.default_rng(11)
x = rng.normal(size=(24, 4)).astype("float32")
y = (K.sum(x[:, :2], axis=1, keepdims=True).numpy() * 2.0).astype("float32")
model = keras.Sequential(
    [keras.Input((4,)), keras.layers.Dense(3, activation="relu"), keras.layers.Dense(1)]
)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
model.compile(keras.optimizers.SGD(0.05), loss=huberish, metrics=[log_ratio])
history = model.fit(x, y, batch_size=6, epochs=3, shuffle=False, verbose=0)
for name in sorted(history.history):
    print(name, " ".join(f"{v:.5f}" for v in history.history[name]))
a, b = K.constant(x[:2, :3]), K.constant(x[2:4, 1:])
print(np.round(K.batch_dot(a, b, axes=1).numpy(), 5).tolist())
print(K.int_shape(K.batch_flatten(K.ones((2, 3, 4)))), K.ndim(a), K.dtype(a))
step = lambda inp, states: (K.tanh(inp + states[0]), [inp + states[0]])
last, outputs, states = K.rnn(step, K.constant(x[:2].reshape(2, 2, 2)), [K.zeros((2, 2))])
print(np.round(last.numpy(), 5).tolist(), outputs.shape)
