"""A persistent GradientTape reused for several gradients of a small network, its Jacobian
with tape.jacobian and tape.batch_jacobian, checked against each other."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(2)
w1 = tf.Variable(rng.normal(scale=0.6, size=(3, 4)).astype("float32"))
w2 = tf.Variable(rng.normal(scale=0.6, size=(4, 2)).astype("float32"))
x = tf.constant(rng.normal(size=(5, 3)).astype("float32"))

with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    h = tf.nn.softplus(tf.matmul(x, w1))
    y = tf.matmul(h, w2)
    loss = tf.reduce_sum(tf.square(y))
    penalty = tf.reduce_sum(tf.abs(w1)) + tf.reduce_sum(w2 * w2)

g_loss = tape.gradient(loss, [w1, w2])
g_pen = tape.gradient(penalty, [w1, w2])
g_x = tape.gradient(loss, x)
jac = tape.jacobian(y, w2)
bjac = tape.batch_jacobian(y, x)
full = tape.jacobian(y, x)
del tape

print("grad loss w1", np.round(g_loss[0].numpy().ravel()[:6], 5))
print("grad loss w2", np.round(g_loss[1].numpy().ravel(), 5))
print("grad penalty", np.round(g_pen[0].numpy().ravel()[:4], 5), np.round(g_pen[1].numpy()[0], 5))
print("grad x", np.round(g_x.numpy()[0], 5))
print("jacobian w2 shape", jac.shape, np.round(float(tf.reduce_sum(jac)), 5))
print("batch jacobian shape", bjac.shape, np.round(bjac.numpy()[1].ravel(), 5))
diag = tf.stack([full[i, :, i, :] for i in range(5)])
print("batch == diagonal", bool(np.allclose(diag.numpy(), bjac.numpy(), atol=1e-6)))
