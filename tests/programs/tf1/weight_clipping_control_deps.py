"""WGAN-style weight clipping in a TF1 graph: the critic's RMSProp step, then clip ops run
under tf.control_dependencies on it, grouped into one train op; the Wasserstein estimate
and the clipped weights printed."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(17)
real = (rng.randn(16, 2) + [2.0, -1.0]).astype(np.float32)
fake = rng.randn(16, 2).astype(np.float32)

r = tf.placeholder(tf.float32, [None, 2])
f = tf.placeholder(tf.float32, [None, 2])
w1 = tf.Variable((rng.randn(2, 6) * 0.05).astype(np.float32))
w2 = tf.Variable((rng.randn(6, 1) * 0.05).astype(np.float32))


def critic(v):
    return tf.matmul(tf.nn.leaky_relu(tf.matmul(v, w1), alpha=0.2), w2)


wasserstein = tf.reduce_mean(critic(r)) - tf.reduce_mean(critic(f))
step = tf.train.RMSPropOptimizer(5e-3).minimize(-wasserstein, var_list=[w1, w2])
with tf.control_dependencies([step]):
    clip = tf.group(*[tf.assign(v, tf.clip_by_value(v, -0.05, 0.05)) for v in (w1, w2)])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {r: real, f: fake}
    for i in range(8):
        sess.run(clip, feed)
        print(i, f"{sess.run(wasserstein, feed):.7f}")
    print("w1", np.round(sess.run(w1).ravel(), 5))
    print("at bound", int(np.sum(np.abs(sess.run(w2)) >= 0.05 - 1e-7)))
