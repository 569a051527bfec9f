"""Spectral normalisation in a TF1 graph (as in SN-GAN code): one power-iteration step per
training step, the vector u updated by tf.assign under tf.control_dependencies so the
normalised weight is read after it, u and v held constant with tf.stop_gradient; trained with
AdamOptimizer, sigma compared with numpy's SVD."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(14)
x_data = rng.randn(16, 4).astype(np.float32)
y_data = rng.randn(16, 3).astype(np.float32)

w = tf.get_variable("w", initializer=rng.randn(4, 3).astype(np.float32))
u = tf.get_variable("u", initializer=rng.randn(1, 3).astype(np.float32), trainable=False)
v_hat = tf.nn.l2_normalize(tf.matmul(u, w, transpose_b=True))
u_hat = tf.nn.l2_normalize(tf.matmul(v_hat, w))
u_hat, v_hat = tf.stop_gradient(u_hat), tf.stop_gradient(v_hat)
sigma = tf.squeeze(tf.matmul(tf.matmul(v_hat, w), u_hat, transpose_b=True))
with tf.control_dependencies([u.assign(u_hat)]):
    w_sn = tf.identity(w / sigma, name="w_sn")

x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 3])
loss = tf.reduce_mean(tf.square(tf.matmul(x, w_sn) - y))
train = tf.train.AdamOptimizer(0.05).minimize(loss)
print("trainable", [v.op.name for v in tf.trainable_variables()])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(6):
        _, loss_value, s = sess.run([train, loss, sigma], {x: x_data, y: y_data})
        print(f"step {step} loss {loss_value:.5f} sigma {s:.5f}")
    for _ in range(20):
        sess.run(w_sn)
    top = np.linalg.svd(sess.run(w), compute_uv=False)[0]
    print(
        "sigma after 20 iterations", round(float(sess.run(sigma)), 4), "svd", round(float(top), 4)
    )
