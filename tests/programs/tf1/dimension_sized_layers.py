"""Layers sized from their input's static shape, the TF1 way: a helper reads
`x.get_shape()[-1].value` to make its weights, a flatten multiplies Dimensions, and the
program prints shapes as TF1 does ((?, 8)) while it trains a small convolutional
classifier with plain gradient descent."""

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import tensor_shape

rng = np.random.RandomState(7)
IMAGES = rng.randn(6, 5, 5, 2).astype(np.float32)
LABELS = rng.randint(0, 3, size=6).astype(np.int64)


def conv_layer(name, x, filters):
    in_channels = x.get_shape()[-1].value
    with tf.variable_scope(name):
        w0 = rng.randn(3, 3, in_channels, filters).astype(np.float32) * 0.3
        w = tf.get_variable(
            "w", [3, 3, in_channels, filters], initializer=tf.constant_initializer(w0)
        )
        b = tf.get_variable("b", [filters], initializer=tf.zeros_initializer())
        return tf.nn.relu(tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME") + b)


def flatten(x):
    shape = x.get_shape()
    size = shape[1] * shape[2] * shape[3]
    print("flatten", shape, "->", size, size.value)
    return tf.reshape(x, [-1, size.value])


def dense_layer(name, x, units, activation=None):
    fan_in = int(x.shape[1])
    with tf.variable_scope(name):
        w0 = rng.randn(fan_in, units).astype(np.float32) / np.sqrt(fan_in)
        w = tf.get_variable("w", [x.get_shape()[1], units], initializer=tf.constant_initializer(w0))
        b = tf.get_variable("b", [units], initializer=tf.zeros_initializer())
        y = tf.matmul(x, w) + b
        return activation(y) if activation is not None else y


images = tf.placeholder(tf.float32, [None, 5, 5, 2], name="images")
labels = tf.placeholder(tf.int64, [None], name="labels")
batch = images.get_shape()[0]
print("batch dimension known:", batch.value is not None, "| batch == None:", batch == None)  # noqa: E711

h = conv_layer("conv1", images, 4)
print("conv1", h.get_shape(), h.get_shape().as_list())
h = flatten(h)
h = dense_layer("fc1", h, 8, tf.nn.tanh)
print("fc1", h.shape, [tensor_shape.dimension_value(d) for d in h.shape])
logits = dense_layer("fc2", h, 3)
print("logits", logits.shape, repr(logits.shape[-1]))

loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
shapes = [(v.op.name, v.get_shape().as_list()) for v in tf.trainable_variables()]
print("variables", shapes)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {images: IMAGES, labels: LABELS}
    for step in range(6):
        _, value = sess.run([train, loss], feed)
        print(f"step {step} loss {value:.6f}")
    print("predictions", sess.run(tf.argmax(logits, 1), feed))
