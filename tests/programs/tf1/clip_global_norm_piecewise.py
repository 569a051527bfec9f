"""compute_gradients / clip_by_global_norm / apply_gradients in a TF1 graph with Adagrad and
a piecewise_constant learning rate on the global step; the norm before clipping printed."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(30)
data_x = rng.randn(20, 3).astype(np.float32)
data_y = (data_x @ np.array([[3.0], [-2.0], [1.0]], np.float32) + 1.0).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(np.zeros((3, 1), np.float32))
b = tf.Variable(np.zeros(1, np.float32))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))

step = tf.train.get_or_create_global_step()
lr = tf.train.piecewise_constant(step, [3, 6], [0.5, 0.2, 0.1])
opt = tf.train.AdagradOptimizer(lr, initial_accumulator_value=0.1)
grads_and_vars = opt.compute_gradients(loss)
grads, norm = tf.clip_by_global_norm([g for g, _ in grads_and_vars], 2.0)
train = opt.apply_gradients(zip(grads, [v for _, v in grads_and_vars]), global_step=step)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: data_x, y: data_y}
    for i in range(9):
        _, lv, n, rate = sess.run([train, loss, norm, lr], feed)
        print(i, f"{lv:.6f}", f"{n:.6f}", f"{rate:.2f}")
    print("w", np.round(sess.run(w).ravel(), 5), "b", np.round(sess.run(b), 5))
    print("accumulator", np.round(sess.run(opt.get_slot(w, "accumulator")).ravel(), 5))
