"""Gradient checkpointing with tf.recompute_grad: a residual MLP block whose activations are
recomputed on the backward pass, trained side by side with the plain block from the same
weights; both give the same gradients and losses."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(9)
x = rng.normal(size=(16, 6)).astype("float32")
y = np.sin(x.sum(axis=1, keepdims=True)).astype("float32")
init = [rng.normal(scale=0.4, size=s).astype("float32") for s in [(6, 12), (12,), (12, 6), (6,)]]
head0 = rng.normal(scale=0.4, size=(6, 1)).astype("float32")


def make():
    v = [tf.Variable(a) for a in init]
    head = tf.Variable(head0)

    def block(h):
        return h + tf.matmul(tf.nn.gelu(tf.matmul(h, v[0]) + v[1]), v[2]) + v[3]

    return v + [head], block, head


plain_vars, plain_block, plain_head = make()
ckpt_vars, ckpt_block_raw, ckpt_head = make()
ckpt_block = tf.recompute_grad(ckpt_block_raw)
opt_a, opt_b = tf.keras.optimizers.SGD(0.05), tf.keras.optimizers.SGD(0.05)
for step in range(5):
    with tf.GradientTape() as ta:
        la = tf.reduce_mean(tf.square(tf.matmul(plain_block(plain_block(x)), plain_head) - y))
    with tf.GradientTape() as tb:
        lb = tf.reduce_mean(tf.square(tf.matmul(ckpt_block(ckpt_block(x)), ckpt_head) - y))
    ga = ta.gradient(la, plain_vars)
    gb = tb.gradient(lb, ckpt_vars)
    opt_a.apply_gradients(zip(ga, plain_vars))
    opt_b.apply_gradients(zip(gb, ckpt_vars))
    diff = max(float(tf.reduce_max(tf.abs(a - b))) for a, b in zip(ga, gb))
    print(f"step {step} plain {float(la):.5f} checkpointed {float(lb):.5f} same {diff < 1e-5}")
