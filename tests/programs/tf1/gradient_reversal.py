"""Domain-adversarial training: a gradient reversal layer in graph mode (RegisterGradient +
gradient_override_map on Identity), a shared feature layer, a label head and a domain head."""

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import ops


@ops.RegisterGradient("GradReverseProgram")
def _reverse(op, grad):
    return [tf.negative(grad) * 0.5]


def flip_gradient(x):
    g = tf.get_default_graph()
    with g.gradient_override_map({"Identity": "GradReverseProgram"}):
        return tf.identity(x)


rng = np.random.RandomState(0)
xs = rng.randn(8, 3).astype(np.float32)
labels = (xs[:, :1] > 0).astype(np.float32)
domains = np.array([[0.0]] * 4 + [[1.0]] * 4, np.float32)

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
d = tf.placeholder(tf.float32, [None, 1])
w_f = tf.Variable(rng.randn(3, 4).astype(np.float32) * 0.5, name="w_f")
w_y = tf.Variable(rng.randn(4, 1).astype(np.float32) * 0.5, name="w_y")
w_d = tf.Variable(rng.randn(4, 1).astype(np.float32) * 0.5, name="w_d")
features = tf.nn.relu(tf.matmul(x, w_f))
label_loss = tf.reduce_mean(
    tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=tf.matmul(features, w_y))
)
domain_logits = tf.matmul(flip_gradient(features), w_d)
domain_loss = tf.reduce_mean(
    tf.nn.sigmoid_cross_entropy_with_logits(labels=d, logits=domain_logits)
)
total = label_loss + domain_loss
grad_f, grad_d = tf.gradients(domain_loss, [w_f, w_d])
train = tf.train.GradientDescentOptimizer(0.3).minimize(total)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: xs, y: labels, d: domains}
    print("reversed feature grad", sess.run(grad_f, feed).ravel())
    print("domain head grad", sess.run(grad_d, feed).ravel())
    for step in range(15):
        _, lv, dv = sess.run([train, label_loss, domain_loss], feed)
        if step % 5 == 0:
            print("step", step, "label", lv, "domain", dv)
    print("w_f", sess.run(w_f).ravel())
