"""A generic RNN over StackedRNNCells (a GRUCell under an LSTMCell), returning its states,
run backwards, trained in a custom loop; the states seed a second RNN."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(7)
x = rng.normal(size=(8, 5, 3)).astype("float32")
y = x[:, ::-1, :1].cumsum(axis=1)[:, -1].astype("float32")

cells = [keras.layers.GRUCell(4, reset_after=False), keras.layers.LSTMCell(2)]
encoder = keras.layers.RNN(cells, return_state=True, go_backwards=True)
decoder = keras.layers.RNN(keras.layers.SimpleRNNCell(2), return_sequences=True)
head = keras.layers.Dense(1)
outputs, gru_state, lstm_state = encoder(x)
print(outputs.shape, [s.shape for s in gru_state], [s.shape for s in lstm_state])
weights = encoder.weights + decoder.weights + head.weights
decoder(x, initial_state=[lstm_state[0]])
head(outputs)
weights = encoder.weights + decoder.weights + head.weights
for w in weights:
    w.assign(rng.normal(scale=0.4, size=w.shape).astype("float32"))
print([w.path for w in encoder.weights])
optimizer = keras.optimizers.Adam(0.05)
variables = encoder.trainable_weights + decoder.trainable_weights + head.trainable_weights
for step in range(4):
    with tf.GradientTape() as tape:
        last, gru_state, (h, c) = encoder(x)
        sequence = decoder(x, initial_state=[h])
        prediction = head(last) + tf.reduce_mean(sequence, axis=[1, 2])[:, None]
        loss = tf.reduce_mean(tf.square(prediction - y))
    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
    print(step, f"{float(loss):.5f}")
