"""NumPy inside a TF1 graph: tf.py_func computes a non-differentiable metric (a median
absolute error) and tf.numpy_function a rank correlation, evaluated beside a model trained
with GradientDescentOptimizer; the py_func output has no gradient (tf.gradients gives None)."""

import numpy as np
import tensorflow as tf


def median_abs(a, b):
    return np.float32(np.median(np.abs(a - b)))


def spearman(a, b):
    ra = np.argsort(np.argsort(a.ravel())).astype(np.float64)
    rb = np.argsort(np.argsort(b.ravel())).astype(np.float64)
    return np.float32(np.corrcoef(ra, rb)[0, 1])


rng = np.random.RandomState(6)
x_data = rng.randn(20, 2).astype(np.float32)
y_data = (x_data @ np.array([[0.8], [-1.1]], np.float32) + 0.1 * rng.randn(20, 1)).astype(
    np.float32
)
x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(np.zeros((2, 1), np.float32))
pred = tf.matmul(x, w)
loss = tf.reduce_mean(tf.square(pred - y))
med = tf.py_func(median_abs, [pred, y], tf.float32, stateful=False, name="median_abs")
rank = tf.numpy_function(spearman, [pred, y], tf.float32, name="spearman")
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
print("gradient through py_func", tf.gradients(med, w))
print("op types", med.op.type, rank.op.type)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: x_data, y: y_data}
    for epoch in range(5):
        sess.run(train, feed)
        mse, m, r = sess.run([loss, med, rank], feed)
        print(f"epoch {epoch} mse {mse:.5f} median abs {m:.5f} spearman {r:.4f}")
