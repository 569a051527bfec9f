"""Adversarial training in a TF1 Session: each step builds FGSM examples from the input
gradient (tf.gradients of the loss w.r.t. the placeholder), the perturbation held constant
with tf.stop_gradient, and trains on clean plus adversarial loss with AdamOptimizer."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(12)
x_data = rng.randn(40, 2).astype(np.float32)
y_data = (x_data[:, 0] * x_data[:, 1] > 0).astype(np.int32)

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.int32, [None])
eps = tf.placeholder_with_default(0.2, [])
with tf.variable_scope("net"):
    w1 = tf.get_variable("w1", initializer=rng.randn(2, 16).astype(np.float32) * 0.7)
    b1 = tf.get_variable("b1", initializer=np.zeros(16, np.float32))
    w2 = tf.get_variable("w2", initializer=rng.randn(16, 2).astype(np.float32) * 0.3)


def logits_of(inputs):
    return tf.matmul(tf.nn.relu(tf.matmul(inputs, w1) + b1), w2)


def loss_of(inputs):
    return tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits_of(inputs))
    )


clean = loss_of(x)
x_adv = tf.stop_gradient(x + eps * tf.sign(tf.gradients(clean, x)[0]))
adv = loss_of(x_adv)
accuracy = tf.reduce_mean(
    tf.cast(tf.equal(tf.argmax(logits_of(x_adv), 1, output_type=tf.int32), y), tf.float32)
)
train = tf.train.AdamOptimizer(0.05).minimize(0.5 * clean + 0.5 * adv)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: x_data, y: y_data}
    for step in range(8):
        _, c, a = sess.run([train, clean, adv], feed)
        print(f"step {step} clean {c:.5f} adversarial {a:.5f}")
    print("robust accuracy eps=0.2", round(float(sess.run(accuracy, feed)), 4))
    print("robust accuracy eps=0.5", round(float(sess.run(accuracy, {**feed, eps: 0.5})), 4))
