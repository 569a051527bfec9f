"""Gradient checkpointing in a TF1 graph: tf.recompute_grad wraps a residual block whose
activations are recomputed in the backward pass; the gradients and the MomentumOptimizer
training run match the same network without checkpointing."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(27)
x_data = rng.randn(8, 4).astype(np.float32)
y_data = rng.randn(8, 1).astype(np.float32)
w_init = rng.randn(4, 4).astype(np.float32) * 0.4
head_init = rng.randn(4, 1).astype(np.float32) * 0.4


def network(scope, checkpoint):
    with tf.variable_scope(scope):
        w = tf.get_variable("w", initializer=w_init, use_resource=True)
        head = tf.get_variable("head", initializer=head_init, use_resource=True)

    def block(h):
        return h + tf.nn.softplus(tf.matmul(h, w))

    if checkpoint:
        block = tf.recompute_grad(block)
    x = tf.constant(x_data)
    out = tf.matmul(block(block(x)), head)
    return tf.reduce_mean(tf.square(out - y_data)), [w, head]


loss_a, vars_a = network("plain", False)
loss_b, vars_b = network("ckpt", True)
grads_a = tf.gradients(loss_a, vars_a)
grads_b = tf.gradients(loss_b, vars_b)
opt = tf.train.MomentumOptimizer(0.05, 0.9)
train = tf.group(opt.minimize(loss_a, var_list=vars_a), opt.minimize(loss_b, var_list=vars_b))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    ga, gb = sess.run([grads_a, grads_b])
    print("grad w[0]", np.round(ga[0][0], 5))
    print("same grads", all(np.allclose(a, b, atol=1e-6) for a, b in zip(ga, gb)))
    for step in range(4):
        _, la, lb = sess.run([train, loss_a, loss_b])
        print(f"step {step} plain {la:.5f} checkpointed {lb:.5f}")
