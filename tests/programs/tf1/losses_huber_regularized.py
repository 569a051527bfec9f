"""Robust regression with outliers: tf.losses.huber_loss against tf.losses.absolute_difference
and mean_squared_error, L2 regularizers collected by get_variable in a variable_scope, the
total from tf.losses.get_total_loss, trained with Adadelta."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(5)
X = rng.randn(40, 3).astype(np.float32)
true_w = np.array([[1.5], [-2.0], [0.5]], np.float32)
Y = X @ true_w + 0.1 * rng.randn(40, 1).astype(np.float32)
Y[::7] += 8.0  # outliers

x = tf.constant(X)
y = tf.constant(Y)
with tf.variable_scope("model", regularizer=lambda t: 0.01 * tf.nn.l2_loss(t)):
    w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
pred = tf.matmul(x, w) + b
huber = tf.losses.huber_loss(y, pred, delta=1.0)
mae = tf.losses.absolute_difference(y, pred, loss_collection=None)
mse = tf.losses.mean_squared_error(y, pred, loss_collection=None)
total = tf.losses.get_total_loss()
train = tf.train.AdadeltaOptimizer(learning_rate=1.0, rho=0.9).minimize(total)

print(
    "losses in collection",
    len(tf.losses.get_losses()),
    "regularization",
    len(tf.losses.get_regularization_losses()),
)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(60):
        sess.run(train)
        if step % 15 == 14:
            print(
                "step",
                step + 1,
                "total",
                sess.run(total),
                "huber",
                sess.run(huber),
                "mae",
                sess.run(mae),
                "mse",
                sess.run(mse),
            )
    print("w", np.round(sess.run(w).ravel(), 4), "b", np.round(sess.run(b), 4))
