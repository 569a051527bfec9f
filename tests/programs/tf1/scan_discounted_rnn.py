"""tf.scan in a TF1 graph: an Elman RNN's hidden states accumulated by tf.scan over the time
axis (its fn carries the state, initializer the zero state), a second scan computing
discounted sums backwards (reverse=True), both differentiated with tf.gradients through the
scans and trained with RMSPropOptimizer."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(59)
T, B, D, H = 7, 4, 2, 5
inputs = rs.normal(size=(T, B, D)).astype(np.float32)
targets = np.cumsum(inputs[:, :, :1], axis=0).astype(np.float32) * 0.3

x = tf.placeholder(tf.float32, [T, None, D])
y = tf.placeholder(tf.float32, [T, None, 1])
w_x = tf.Variable(rs.normal(scale=0.5, size=(D, H)).astype(np.float32))
w_h = tf.Variable(rs.normal(scale=0.3, size=(H, H)).astype(np.float32))
w_o = tf.Variable(rs.normal(scale=0.5, size=(H, 1)).astype(np.float32))
gamma = tf.Variable(0.8)


def rnn_step(h, x_t):
    return tf.tanh(tf.matmul(x_t, w_x) + tf.matmul(h, w_h))


h0 = tf.zeros([tf.shape(x)[1], H])
states = tf.scan(rnn_step, x, initializer=h0)
outputs = tf.tensordot(states, w_o, axes=[[2], [0]])
loss = tf.reduce_mean(tf.square(outputs - y))

rewards = tf.squeeze(outputs, 2)
discounted = tf.scan(
    lambda acc, r: r + gamma * acc, rewards, initializer=tf.zeros_like(rewards[0]), reverse=True
)
d_gamma = tf.gradients(tf.reduce_sum(discounted[0]), gamma)[0]
grads = tf.gradients(loss, [w_x, w_h, w_o])
train = tf.train.RMSPropOptimizer(0.02).minimize(loss, var_list=[w_x, w_h, w_o])

print("states shape", states.shape, "discounted shape", discounted.shape)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: inputs, y: targets}
    print("grad norms", [round(float(np.linalg.norm(g)), 5) for g in sess.run(grads, feed)])
    print("d sum(G_0) / d gamma", round(float(sess.run(d_gamma, feed)), 5))
    r, d = sess.run([rewards, discounted], feed)
    manual = np.zeros_like(r)
    acc = np.zeros(B, np.float32)
    for t in reversed(range(T)):
        acc = r[t] + 0.8 * acc
        manual[t] = acc
    print("scan matches loop", bool(np.allclose(manual, d, atol=1e-5)))
    for step in range(30):
        sess.run(train, feed)
        if step % 6 == 0:
            print(f"step {step} loss {sess.run(loss, feed):.5f}")
    print("final loss", round(float(sess.run(loss, feed)), 5))
