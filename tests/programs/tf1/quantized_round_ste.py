"""Quantization-aware training: weights and activations rounded to a 4-bit grid with a
straight-through Round (its gradient overridden to Identity) and a learned scale, trained
with momentum (Nesterov) and a global step."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(6)
X = rng.randn(12, 3).astype(np.float32)
Y = (X @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.1).astype(np.float32)
LEVELS = 7.0


def fake_quant(t, scale):
    with tf.get_default_graph().gradient_override_map({"Round": "Identity"}):
        q = tf.round(tf.clip_by_value(t / scale, -LEVELS, LEVELS))
    return q * scale


x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
with tf.variable_scope("quant", initializer=tf.constant_initializer(0.1)):
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(rng.randn(3, 1) * 0.5))
    scale = tf.get_variable("scale", [])
    bias = tf.get_variable("bias", [1])
pred = tf.matmul(fake_quant(x, 0.5), fake_quant(w, scale)) + bias
loss = tf.reduce_mean(tf.square(pred - y))
global_step = tf.train.get_or_create_global_step()
opt = tf.train.MomentumOptimizer(0.02, 0.9, use_nesterov=True)
grads_and_vars = opt.compute_gradients(loss)
train = opt.apply_gradients(grads_and_vars, global_step=global_step)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("grads", [sess.run(g, {x: X, y: Y}).ravel() for g, _ in grads_and_vars])
    for _ in range(25):
        _, lv = sess.run([train, loss], {x: X, y: Y})
    print("steps", sess.run(global_step), "loss", lv)
    print("w", sess.run(w).ravel(), "scale", sess.run(scale), "bias", sess.run(bias))
    print("quantized w", sess.run(fake_quant(w, scale)).ravel())
