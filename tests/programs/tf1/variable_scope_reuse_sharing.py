"""Weight sharing with tf.get_variable under variable_scope(reuse=...): a siamese encoder
applied twice (reuse=True, then AUTO_REUSE), a contrastive loss on the pair distances, and
the shared variables' names and gradients."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(9)
left = rng.randn(6, 4).astype(np.float32)
right = (left + 0.3 * rng.randn(6, 4)).astype(np.float32)
same = np.array([1, 0, 1, 1, 0, 1], np.float32)
right[same == 0] = rng.randn(2, 4)
w_init = (rng.randn(4, 3) * 0.5).astype(np.float32)


def encoder(inputs, reuse):
    with tf.variable_scope("encoder", reuse=reuse):
        w = tf.get_variable("w", initializer=tf.constant(w_init))
        b = tf.get_variable("b", [3], initializer=tf.constant_initializer(0.1))
        return tf.tanh(tf.matmul(inputs, w) + b)


a = tf.placeholder(tf.float32, [None, 4])
c = tf.placeholder(tf.float32, [None, 4])
label = tf.placeholder(tf.float32, [None])
za = encoder(a, reuse=None)
zc = encoder(c, reuse=True)
zd = encoder(c, reuse=tf.AUTO_REUSE)
dist = tf.sqrt(tf.reduce_sum(tf.square(za - zc), axis=1) + 1e-6)
margin = 1.0
loss = tf.reduce_mean(label * tf.square(dist) + (1 - label) * tf.square(tf.nn.relu(margin - dist)))
variables = tf.trainable_variables()
grads = tf.gradients(loss, variables)
train = tf.train.AdamOptimizer(0.05).minimize(loss)

print("variables", [v.name for v in variables])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {a: left, c: right, label: same}
    print("same encoding", bool(np.allclose(*sess.run([zc, zd], feed))))
    for v, g in zip(variables, sess.run(grads, feed)):
        print(v.op.name, np.round(g.ravel(), 5))
    for i in range(5):
        _, lv = sess.run([train, loss], feed)
        print(i, f"{lv:.6f}")
    print("distances", np.round(sess.run(dist, feed), 5))
