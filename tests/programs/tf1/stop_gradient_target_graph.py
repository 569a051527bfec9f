"""A TF1 graph with a frozen target copy: TD targets computed through tf.stop_gradient,
the online weights trained by RMSProp, and the target synced by tf.assign ops grouped
with tf.group; tf.gradients shows the stopped path contributes nothing."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(21)
s = rng.randn(12, 3).astype(np.float32)
s2 = rng.randn(12, 3).astype(np.float32)
r = rng.randn(12).astype(np.float32)
init_w = (rng.randn(3, 2) * 0.5).astype(np.float32)

state = tf.placeholder(tf.float32, [None, 3])
next_state = tf.placeholder(tf.float32, [None, 3])
reward = tf.placeholder(tf.float32, [None])
w = tf.Variable(init_w, name="online")
w_target = tf.Variable(init_w, name="target", trainable=False)

q = tf.matmul(state, w)
q_next_online = tf.matmul(next_state, w)
target = tf.stop_gradient(reward + 0.9 * tf.reduce_max(tf.matmul(next_state, w_target), axis=1))
td_loss = tf.reduce_mean(tf.square(tf.reduce_max(q, axis=1) - target))
leaky = tf.reduce_mean(tf.square(q[:, 0] - tf.stop_gradient(q_next_online[:, 1])))
train = tf.train.RMSPropOptimizer(0.05).minimize(td_loss)
sync = tf.group(tf.assign(w_target, w))
g_online, g_target = tf.gradients(td_loss, [w, w_target])
g_leaky = tf.gradients(leaky, w)[0]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {state: s, next_state: s2, reward: r}
    print("grad online", np.round(sess.run(g_online, feed).ravel(), 5), "target", g_target)
    print("grad stopped", np.round(sess.run(g_leaky, feed).ravel(), 5))
    for i in range(6):
        _, lv = sess.run([train, td_loss], feed)
        if i % 3 == 2:
            sess.run(sync)
        print(i, f"{lv:.6f}")
    print("target", np.round(sess.run(w_target).ravel(), 5))
