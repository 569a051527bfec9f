"""A tf.Module quantizer with a straight-through estimator (as in VQ-VAE / binarized
networks), trained with SGD."""

import numpy as np
import tensorflow as tf


class QuantizedLinear(tf.Module):
    def __init__(self, w, b, levels=4.0, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(w, name="w")
            self.b = tf.Variable(b, name="b")
        self.levels = levels

    @tf.Module.with_name_scope
    def __call__(self, x):
        # round() has zero gradient almost everywhere: pass the gradient straight through
        q = self.w + tf.stop_gradient(tf.round(self.w * self.levels) / self.levels - self.w)
        return tf.matmul(x, q) + self.b


class Net(tf.Module):
    def __init__(self, rng):
        super().__init__()
        self.layers = [
            QuantizedLinear(rng.normal(size=(3, 4)).astype("float32"), np.zeros(4, "float32")),
            QuantizedLinear(rng.normal(size=(4, 1)).astype("float32"), np.zeros(1, "float32")),
        ]

    def __call__(self, x):
        return self.layers[1](tf.nn.relu(self.layers[0](x)))


rng = np.random.default_rng(2)
net = Net(rng)
x = tf.constant(rng.normal(size=(10, 3)).astype("float32"))
y = tf.constant(rng.normal(size=(10, 1)).astype("float32"))
print(len(net.variables), len(net.trainable_variables), len(net.submodules))
optimizer = tf.keras.optimizers.SGD(learning_rate=0.05)
for step in range(5):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(net(x) - y))
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    print(step, f"{loss.numpy():.6f}")
for v in net.trainable_variables:
    print(np.round(v.numpy().ravel(), 6).tolist())
