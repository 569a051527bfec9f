"""A categorical bottleneck trained with the straight-through Gumbel-softmax estimator: a Keras
layer adds fixed Gumbel noise (fed as an input), takes a softmax at temperature tau and
returns the hard one-hot in the forward pass with the soft sample's gradient
(hard - stop_gradient(soft) + soft); a callback anneals tau after each epoch."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(11)
N, K = 32, 4
x = rs.normal(size=(N, 5)).astype("float32")
targets = np.stack([np.sin(x[:, 0]), x[:, 1] * x[:, 2]], axis=1).astype("float32")
uniform = rs.uniform(1e-6, 1.0, size=(N, K)).astype("float32")
gumbel = -np.log(-np.log(uniform)).astype("float32")


class GumbelSoftmaxST(tf.keras.layers.Layer):
    def __init__(self, tau=1.0, **kwargs):
        super().__init__(**kwargs)
        self.tau = tf.Variable(tau, trainable=False, dtype="float32")

    def call(self, logits, noise):
        soft = tf.nn.softmax((logits + noise) / self.tau, axis=-1)
        hard = tf.one_hot(tf.argmax(soft, axis=-1), tf.shape(soft)[-1])
        return hard - tf.stop_gradient(soft) + soft


class Anneal(tf.keras.callbacks.Callback):
    def __init__(self, layer, rate, floor):
        super().__init__()
        self.layer, self.rate, self.floor = layer, rate, floor

    def on_epoch_end(self, epoch, logs=None):
        tau = max(self.floor, float(self.layer.tau.numpy()) * self.rate)
        self.layer.tau.assign(tau)
        print(f"epoch {epoch} loss {logs['loss']:.5f} tau -> {tau:.4f}")


features = tf.keras.Input((5,))
noise = tf.keras.Input((K,))
logits = tf.keras.layers.Dense(K)(tf.keras.layers.Dense(8, activation="relu")(features))
gumbel_layer = GumbelSoftmaxST(tau=2.0)
code = gumbel_layer(logits, noise)
decoded = tf.keras.layers.Dense(2)(code)
model = tf.keras.Model([features, noise], decoded)
model.set_weights([rs.normal(scale=0.5, size=w.shape).astype("float32") for w in model.weights])
model.compile(tf.keras.optimizers.Adam(0.02), loss="mse")

model.fit(
    [x, gumbel],
    targets,
    batch_size=8,
    epochs=5,
    shuffle=False,
    verbose=0,
    callbacks=[Anneal(gumbel_layer, 0.7, 0.5)],
)

with tf.GradientTape() as tape:
    out = model([x[:4], gumbel[:4]])
    loss = tf.reduce_mean(tf.square(out - targets[:4]))
grads = tape.gradient(loss, model.trainable_variables)
print("gradient norms", [round(float(tf.norm(g)), 5) for g in grads])
codes = tf.keras.Model(model.inputs, code)([x[:6], gumbel[:6]])
print("codes", codes.numpy().argmax(-1).tolist(), "one-hot rows", codes.numpy().sum(-1).tolist())
