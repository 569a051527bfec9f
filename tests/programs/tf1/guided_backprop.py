"""Guided backpropagation saliency: Relu's gradient overridden to pass only positive
gradients through positive activations; the gradient of a class logit w.r.t. the image."""

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import ops
from tensorflow.python.ops import gen_nn_ops


@ops.RegisterGradient("GuidedReluProgram")
def _guided_relu(op, grad):
    return tf.where(grad > 0.0, gen_nn_ops.relu_grad(grad, op.outputs[0]), tf.zeros_like(grad))


rng = np.random.RandomState(2)
image = rng.rand(1, 6, 6, 1).astype(np.float32)
k1 = rng.randn(3, 3, 1, 4).astype(np.float32) * 0.5
w2 = rng.randn(6 * 6 * 4, 3).astype(np.float32) * 0.2

graph = tf.get_default_graph()
x = tf.placeholder(tf.float32, [None, 6, 6, 1])


def model(guided):
    if guided:
        with graph.gradient_override_map({"Relu": "GuidedReluProgram"}):
            h = tf.nn.relu(tf.nn.conv2d(x, k1, strides=[1, 1, 1, 1], padding="SAME"))
    else:
        h = tf.nn.relu(tf.nn.conv2d(x, k1, strides=[1, 1, 1, 1], padding="SAME"))
    flat = tf.reshape(h, [tf.shape(x)[0], -1])
    return tf.matmul(flat, w2)


plain_logits, guided_logits = model(False), model(True)
target = tf.argmax(plain_logits, axis=1)
plain_saliency = tf.gradients(plain_logits[:, 1], x)[0]
guided_saliency = tf.gradients(guided_logits[:, 1], x)[0]

with tf.Session() as sess:
    lg, t, ps, gs = sess.run([plain_logits, target, plain_saliency, guided_saliency], {x: image})
    print("logits", lg.ravel(), "class", t)
    print("plain", ps.ravel())
    print("guided", gs.ravel())
    print("guided is non-negative where plain", float((gs >= 0).mean()), float(np.abs(gs).sum()))
