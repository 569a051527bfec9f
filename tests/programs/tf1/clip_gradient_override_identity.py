"""Gradient clipping on the backward pass only: tf.RegisterGradient defines a gradient for
Identity that clips the incoming gradient elementwise, gradient_override_map applies it to
one tf.identity in a small regression net, trained with MomentumOptimizer in a Session."""

import numpy as np
import tensorflow as tf


@tf.RegisterGradient("ClipBackward")
def _clip_backward(op, grad):
    return tf.clip_by_value(grad, -0.05, 0.05)


rng = np.random.RandomState(17)
x_data = rng.randn(16, 3).astype(np.float32)
y_data = (x_data @ np.array([[1.5], [-2.0], [0.7]]) + 0.4).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
w1 = tf.Variable(rng.randn(3, 5).astype(np.float32) * 0.5)
w2 = tf.Variable(rng.randn(5, 1).astype(np.float32) * 0.5)
h = tf.nn.relu(tf.matmul(x, w1))
with tf.get_default_graph().gradient_override_map({"Identity": "ClipBackward"}):
    h = tf.identity(h, name="clipped")
pred = tf.matmul(h, w2)
loss = tf.reduce_mean(tf.square(pred - y))
g_h = tf.gradients(loss, h)[0]
g_w1 = tf.gradients(loss, w1)[0]
train = tf.train.MomentumOptimizer(0.05, momentum=0.9).minimize(loss)

print("override op", h.op.type, h.op.name)
feed = {x: x_data, y: y_data}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    gh, gw = sess.run([g_h, g_w1], feed)
    print("max |dL/dh|", round(float(np.abs(gh).max()), 5))
    print("dL/dw1 row 0", np.round(gw[0], 5))
    for step in range(8):
        _, loss_value = sess.run([train, loss], feed)
        if step % 2 == 1:
            print("step", step, "loss", round(float(loss_value), 5))
