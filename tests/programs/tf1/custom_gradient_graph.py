"""tf.custom_gradient in a TF1 graph: a numerically stable log1pexp, a gradient-clipping
identity, and a layer whose custom gradient also returns variable gradients; trained with
gradient descent; compared with tf.gradients of the plain formulas."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return tf.log(1 + e), grad


@tf.custom_gradient
def clip_gradient(x):
    def grad(dy):
        return tf.clip_by_value(dy, -0.1, 0.1)

    return tf.identity(x), grad


x = tf.placeholder(tf.float32, [None])
plain = tf.log(1 + tf.exp(x))
values = np.array([-3.0, 0.0, 2.0, 50.0, 100.0], np.float32)
stable_grad = tf.gradients(log1pexp(x), x)[0]
plain_grad = tf.gradients(plain, x)[0]

w = tf.get_variable("w", initializer=np.array([1.5, -2.0, 0.5], np.float32))
target = tf.constant([0.2, 0.4, -0.1])
loss = tf.reduce_sum(tf.square(clip_gradient(w) * 3.0 - target)) + tf.reduce_sum(log1pexp(w))
train = tf.train.GradientDescentOptimizer(1.0).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("stable", sess.run(stable_grad, {x: values}))
    print("plain", sess.run(plain_grad, {x: values}))
    print("value", sess.run(log1pexp(x), {x: values}))
    print("clipped grad", sess.run(tf.gradients(loss, w)[0]))
    for _ in range(5):
        sess.run(train)
    print("w", sess.run(w), "loss", sess.run(loss))
