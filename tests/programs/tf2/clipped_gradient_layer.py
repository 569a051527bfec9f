"""A layer that clips the gradient flowing back through it (custom gradient with a
variable inside), used in a GradientTape loop with second-order checks."""

import numpy as np
import tensorflow as tf


class ClipGrad(tf.keras.layers.Layer):
    def __init__(self, limit, **kwargs):
        super().__init__(**kwargs)
        self.limit = limit

    def call(self, x):
        @tf.custom_gradient
        def clip(x):
            def grad(upstream):
                return tf.clip_by_value(upstream, -self.limit, self.limit)

            return tf.identity(x), grad

        return clip(x)


rng = np.random.default_rng(12)
model = tf.keras.Sequential(
    [tf.keras.Input((3,)), tf.keras.layers.Dense(4), ClipGrad(0.05), tf.keras.layers.Dense(2)]
)
model.set_weights(
    [rng.normal(scale=1.0, size=w.shape).astype("float32") for w in model.get_weights()]
)
x = tf.constant(rng.normal(size=(5, 3)).astype("float32"))
y = tf.constant(rng.normal(size=(5, 2)).astype("float32"))

with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
for g in grads:
    print(np.round(g.numpy().ravel(), 5).tolist())

optimizer = tf.keras.optimizers.RMSprop(0.01)
for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    optimizer.apply_gradients(
        zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables)
    )
    print(step, f"{float(loss):.6f}")

with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        out = tf.reduce_sum(tf.tanh(model(x)))
    g = inner.gradient(out, x)
    g_norm = tf.reduce_sum(g * g)
print(f"{float(g_norm):.6f}", np.round(outer.gradient(g_norm, x).numpy()[0], 5).tolist())
