"""tf.custom_gradient over a function that reads variables: grad_fn takes variables= and
returns their gradients (here a scaled straight-through rule for a clipped linear unit),
compared with autodiff of the plain expression and used for a few SGD steps."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(31)
w = tf.Variable(rng.normal(scale=0.7, size=(3, 2)).astype("float32"), name="w")
b = tf.Variable(np.array([0.1, -0.2], dtype="float32"), name="b")
x = tf.constant(rng.normal(size=(6, 3)).astype("float32"))
target = tf.constant(rng.normal(size=(6, 2)).astype("float32"))


@tf.custom_gradient
def clipped_linear(x):
    pre = tf.matmul(x, w) + b
    out = tf.clip_by_value(pre, -1.0, 1.0)

    def grad_fn(upstream, variables=None):
        inside = tf.cast(tf.abs(pre) <= 1.0, tf.float32)
        g = upstream * (inside + 0.1 * (1.0 - inside))
        grad_vars = [tf.matmul(x, g, transpose_a=True), tf.reduce_sum(g, axis=0)]
        return tf.matmul(g, w, transpose_b=True), grad_vars

    return out, grad_fn


with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    custom = tf.reduce_sum(tf.square(clipped_linear(x) - target))
    plain = tf.reduce_sum(tf.square(tf.clip_by_value(tf.matmul(x, w) + b, -1.0, 1.0) - target))
gc = tape.gradient(custom, [x, w, b])
gp = tape.gradient(plain, [x, w, b])
print("loss", f"{float(custom):.6f}", f"{float(plain):.6f}")
print("custom dw", np.round(gc[1].numpy().ravel(), 5))
print("plain dw", np.round(gp[1].numpy().ravel(), 5))
print("custom db", np.round(gc[2].numpy(), 5), "dx[0]", np.round(gc[0].numpy()[0], 5))

opt = tf.keras.optimizers.SGD(0.05)
for i in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(clipped_linear(x) - target))
    opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
    print(i, f"{float(loss):.6f}")
