"""A loss whose form is chosen by tf.cond on a fed boolean (a hinge or a squared branch),
tf.gradients through the cond, and a training loop alternating the branches."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(5)
data_x = rng.randn(16, 3).astype(np.float32)
data_y = np.sign(data_x[:, 0] - 0.3 * data_x[:, 2]).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None])
use_hinge = tf.placeholder(tf.bool, [])
w = tf.Variable(np.array([0.1, -0.2, 0.3], np.float32))
b = tf.Variable(0.05)
score = tf.reduce_sum(x * w, axis=1) + b
loss = tf.cond(
    use_hinge,
    lambda: tf.reduce_mean(tf.nn.relu(1.0 - y * score)),
    lambda: tf.reduce_mean(tf.square(score - y)) * 0.5,
)
grad_w, grad_b = tf.gradients(loss, [w, b])
train = tf.train.GradientDescentOptimizer(0.2).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for flag in (True, False):
        g = sess.run([grad_w, grad_b], {x: data_x, y: data_y, use_hinge: flag})
        print("hinge" if flag else "square", np.round(g[0], 5), round(float(g[1]), 5))
    for i in range(6):
        feed = {x: data_x, y: data_y, use_hinge: i % 2 == 0}
        _, lv = sess.run([train, loss], feed)
        print(i, f"{lv:.6f}")
    print("w", np.round(sess.run(w), 5), "b", round(float(sess.run(b)), 5))
