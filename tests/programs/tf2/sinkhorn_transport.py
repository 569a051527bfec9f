"""Entropic optimal transport with log-domain Sinkhorn iterations: the transport cost between
two point clouds is differentiated w.r.t. the source points (by unrolling the iterations),
and the points are moved by gradient descent toward the target cloud."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(8)
source = tf.Variable(rng.normal(size=(6, 2)).astype("float32"))
target = tf.constant((rng.normal(size=(5, 2)) + [2.0, -1.0]).astype("float32"))
a = tf.fill([6], 1.0 / 6)
b = tf.fill([5], 1.0 / 5)


def sinkhorn(x, y, eps=0.5, iters=30):
    cost = tf.reduce_sum(tf.square(x[:, None, :] - y[None, :, :]), axis=-1)
    f = tf.zeros([6])
    g = tf.zeros([5])
    for _ in range(iters):
        f = -eps * tf.reduce_logsumexp((g[None, :] - cost) / eps + tf.math.log(b)[None, :], axis=1)
        g = -eps * tf.reduce_logsumexp((f[:, None] - cost) / eps + tf.math.log(a)[:, None], axis=0)
    plan = tf.exp((f[:, None] + g[None, :] - cost) / eps) * a[:, None] * b[None, :]
    return tf.reduce_sum(plan * cost), plan


opt = tf.keras.optimizers.SGD(0.5)
for step in range(5):
    with tf.GradientTape() as tape:
        loss, plan = sinkhorn(source, target)
    grad = tape.gradient(loss, source)
    opt.apply_gradients([(grad, source)])
    print(f"step {step} cost {float(loss):.5f} grad norm {float(tf.norm(grad)):.5f}")
print("row sums", np.round(tf.reduce_sum(plan, axis=1).numpy(), 4))
print("col sums", np.round(tf.reduce_sum(plan, axis=0).numpy(), 4))
print("source mean", np.round(tf.reduce_mean(source, axis=0).numpy(), 4))
