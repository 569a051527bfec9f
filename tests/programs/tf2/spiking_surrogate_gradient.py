"""A leaky integrate-and-fire spiking layer unrolled over time: the Heaviside spike has a
fast-sigmoid surrogate derivative (tf.custom_gradient), and a readout of spike counts is
trained with a custom training loop."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def spike(v):
    out = tf.cast(v > 0.0, tf.float32)

    def grad(dy):
        return dy / tf.square(1.0 + 5.0 * tf.abs(v))

    return out, grad


class LIF(tf.keras.layers.Layer):
    def __init__(self, units, beta=0.8, **kwargs):
        super().__init__(**kwargs)
        self.units, self.beta = units, beta

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], self.units),
            initializer=tf.keras.initializers.Constant(0.0),
            name="w",
        )

    def call(self, inputs):  # inputs: (batch, time, features)
        v = tf.zeros((tf.shape(inputs)[0], self.units))
        counts = tf.zeros_like(v)
        for t in range(inputs.shape[1]):
            v = self.beta * v + tf.matmul(inputs[:, t], self.w)
            s = spike(v - 1.0)
            v = v - s  # soft reset
            counts += s
        return counts


rng = np.random.default_rng(4)
x = (rng.random((8, 6, 5)) < 0.4).astype("float32")
labels = np.array([0, 1, 1, 0, 1, 0, 0, 1])
x[labels == 1, :, :2] = 1.0
lif = LIF(4)
readout = tf.keras.layers.Dense(2)
lif.build((None, 6, 5))
lif.w.assign(rng.normal(scale=0.6, size=(5, 4)).astype("float32"))
readout.build((None, 4))
readout.set_weights([rng.normal(scale=0.3, size=(4, 2)).astype("float32"), np.zeros(2, "float32")])
opt = tf.keras.optimizers.Adam(0.05)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
for epoch in range(6):
    with tf.GradientTape() as tape:
        counts = lif(x)
        logits = readout(counts)
        loss = loss_fn(labels, logits)
    variables = lif.trainable_variables + readout.trainable_variables
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    acc = np.mean(np.argmax(logits.numpy(), 1) == labels)
    print(
        f"epoch {epoch} loss {float(loss):.5f} spikes {float(tf.reduce_sum(counts)):.0f} acc {acc:.3f}"
    )
print("surrogate grad norm", round(float(tf.norm(grads[0])), 5))
