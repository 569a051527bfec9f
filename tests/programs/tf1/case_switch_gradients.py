"""Piecewise models chosen at run time in a TF1 graph: tf.case picks a loss from
(predicate, fn) pairs on a fed scalar with a default, tf.switch_case picks one of several
activation branches by a fed index; tf.gradients flows only through the branch taken, and a
GradientDescentOptimizer trains a shared weight while the branches alternate."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(71)
x_data = rs.normal(size=(16, 3)).astype(np.float32)
y_data = (x_data @ [[0.5], [-1.0], [2.0]]).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
t = tf.placeholder(tf.float32, [])
branch = tf.placeholder(tf.int32, [])
w = tf.Variable(rs.normal(scale=0.3, size=(3, 1)).astype(np.float32))
pred = tf.matmul(x, w)
err = pred - y

loss = tf.case(
    [
        (t < 0.3, lambda: tf.reduce_mean(tf.abs(err))),
        (t < 0.6, lambda: tf.reduce_mean(tf.square(err))),
    ],
    default=lambda: tf.reduce_mean(tf.log(tf.cosh(err))),
    exclusive=False,
)
activation = tf.switch_case(
    branch,
    [
        lambda: tf.nn.relu(pred),
        lambda: tf.tanh(pred),
        lambda: tf.nn.softplus(pred),
    ],
)
act_sum = tf.reduce_sum(activation)
(d_loss,) = tf.gradients(loss, [w])
(d_act,) = tf.gradients(act_sum, [w])
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    base = {x: x_data, y: y_data}
    for value in (0.1, 0.5, 0.9):
        value_, g = sess.run([loss, d_loss], {**base, t: value})
        print(f"t={value} loss {value_:.5f} grad {np.round(g.ravel(), 5)}")
    for b in range(3):
        a, g = sess.run([act_sum, d_act], {x: x_data, branch: b})
        print(f"branch {b} sum {a:.5f} grad {np.round(g.ravel(), 5)}")
    a = sess.run(act_sum, {x: x_data, branch: 7})
    print("out-of-range index takes the last branch", round(float(a), 5))
    for step in range(12):
        sess.run(train, {**base, t: (0.1, 0.5, 0.9)[step % 3]})
        if step % 3 == 2:
            print(
                f"step {step} losses "
                + " ".join(f"{sess.run(loss, {**base, t: v}):.5f}" for v in (0.1, 0.5, 0.9))
            )
    print("w", np.round(sess.run(w).ravel(), 5))
