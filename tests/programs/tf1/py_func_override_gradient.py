"""NumPy code inside a TF1 graph with tf.py_func, given a gradient through the classic
RegisterGradient + gradient_override_map({"PyFunc": ...}) recipe: a NumPy soft-threshold
whose derivative is also computed in NumPy, used to fit a sparse signal by gradient descent."""

import numpy as np
import tensorflow as tf


def soft_threshold(v, t=0.3):
    return (np.sign(v) * np.maximum(np.abs(v) - t, 0.0)).astype(np.float32)


def soft_threshold_grad(v, t=0.3):
    return (np.abs(v) > t).astype(np.float32)


@tf.RegisterGradient("SoftThresholdGrad")
def _soft_threshold_grad(op, grad):
    mask = tf.py_func(soft_threshold_grad, [op.inputs[0]], tf.float32)
    return grad * mask


def py_soft_threshold(v):
    with tf.get_default_graph().gradient_override_map({"PyFunc": "SoftThresholdGrad"}):
        y = tf.py_func(soft_threshold, [v], tf.float32, name="soft_threshold")
    return y


signal = np.array([0.0, 1.2, 0.0, -0.8, 0.0, 0.5], np.float32)
w = tf.get_variable("w", initializer=np.array([0.4, 0.9, -0.5, -0.6, 0.2, 1.0], np.float32))
out = py_soft_threshold(w)
loss = tf.reduce_sum(tf.square(out - signal))
grad = tf.gradients(loss, w)[0]
train = tf.train.GradientDescentOptimizer(0.2).minimize(loss)

print("op type", out.op.type)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("first gradient", sess.run(grad))
    for step in range(6):
        sess.run(train)
        print("step", step, "loss", sess.run(loss))
    print("solution", np.round(sess.run(out), 4))
