"""A binarized network: weights and activations through Sign in the forward pass, with a
straight-through gradient (Sign's gradient overridden to Identity), layers built with
variable_scope/get_variable, trained with Adam."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(1)
X = rng.randn(16, 4).astype(np.float32)
Y = (X[:, 0] * X[:, 1] > 0).astype(np.int64)


def binarize(t):
    with tf.get_default_graph().gradient_override_map({"Sign": "Identity"}):
        return tf.sign(t)


def dense(name, inputs, w0, binary):
    with tf.variable_scope(name):
        w = tf.get_variable("w", w0.shape, initializer=tf.constant_initializer(w0))
        b = tf.get_variable("b", [w0.shape[1]], initializer=tf.zeros_initializer())
        if binary:
            w = binarize(w)
        return tf.matmul(inputs, w) + b


x = tf.placeholder(tf.float32, [None, 4], name="x")
labels = tf.placeholder(tf.int64, [None], name="labels")
h = dense("layer1", x, rng.randn(4, 8).astype(np.float32) * 0.3, binary=True)
h = binarize(tf.clip_by_value(h, -1.0, 1.0))
logits = dense("layer2", h, rng.randn(8, 2).astype(np.float32) * 0.3, binary=False)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train = tf.train.AdamOptimizer(0.01).minimize(loss)
print("variables", [v.name for v in tf.trainable_variables()])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(20):
        _, lv = sess.run([train, loss], {x: X, labels: Y})
        if step % 5 == 0:
            print("step", step, "loss", lv)
    with tf.variable_scope("layer1", reuse=True):
        w1 = tf.get_variable("w")
    print("layer1/w", sess.run(w1).ravel())
    print("logits", sess.run(logits, {x: X[:3]}).ravel())
