"""Lasso-style regression with the proximal optimizers: ProximalAdagrad and
ProximalGradientDescent with L1 and L2 strengths, each in its own variable scope, and the
weights they drive to exactly zero."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(6)
X = rng.randn(50, 8).astype(np.float32)
w_true = np.array([3.0, 0, 0, -2.0, 0, 0, 0, 1.0], np.float32).reshape(8, 1)
Y = X @ w_true + 0.05 * rng.randn(50, 1).astype(np.float32)

x, y = tf.constant(X), tf.constant(Y)
trains, weights, losses = [], [], []
for name, opt in [
    (
        "adagrad",
        tf.train.ProximalAdagradOptimizer(
            0.5, l1_regularization_strength=0.05, l2_regularization_strength=0.01
        ),
    ),
    ("sgd", tf.train.ProximalGradientDescentOptimizer(0.05, l1_regularization_strength=0.2)),
]:
    with tf.variable_scope(name):
        w = tf.get_variable("w", [8, 1], initializer=tf.constant_initializer(0.5))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    trains.append(opt.minimize(loss, var_list=[w]))
    weights.append(w)
    losses.append(loss)

print("variables", sorted(v.name for v in tf.global_variables()))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(40):
        sess.run(trains)
        if step % 10 == 9:
            print("step", step + 1, "losses", sess.run(losses))
    for name, w in zip(["adagrad", "sgd"], weights):
        value = sess.run(w).ravel()
        print(name, "zeros", int(np.sum(value == 0.0)), "weights", np.round(value, 3))
