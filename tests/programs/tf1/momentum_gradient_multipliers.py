"""Fine-tuning a pretrained-style network with per-layer learning rates, the TF1 recipe:
MomentumOptimizer.compute_gradients, each gradient scaled by its layer's multiplier and
clipped with tf.clip_by_norm, biases excluded from weight decay added through
tf.add_n(tf.losses.get_regularization_losses()), and apply_gradients with a global step
whose learning rate follows tf.train.polynomial_decay."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(67)
x_data = rs.normal(size=(48, 5)).astype(np.float32)
y_data = np.eye(3, dtype=np.float32)[
    (x_data[:, 0] + x_data[:, 1] ** 2 > 0.8).astype(int) + (x_data[:, 2] > 1.0).astype(int)
]
MULTIPLIERS = {"base": 0.1, "head": 1.0}

x = tf.placeholder(tf.float32, [None, 5])
y = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope("base"):
    w1 = tf.get_variable(
        "w",
        initializer=rs.normal(scale=0.5, size=(5, 10)).astype(np.float32),
        regularizer=lambda w: 1e-3 * tf.nn.l2_loss(w),
    )
    b1 = tf.get_variable("b", initializer=np.zeros(10, np.float32))
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
with tf.variable_scope("head"):
    w2 = tf.get_variable(
        "w",
        initializer=rs.normal(scale=0.5, size=(10, 3)).astype(np.float32),
        regularizer=lambda w: 1e-3 * tf.nn.l2_loss(w),
    )
    b2 = tf.get_variable("b", initializer=np.zeros(3, np.float32))
    logits = tf.matmul(h, w2) + b2

data_loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
reg_losses = tf.losses.get_regularization_losses()
loss = data_loss + tf.add_n(reg_losses)
global_step = tf.train.get_or_create_global_step()
lr = tf.train.polynomial_decay(0.5, global_step, decay_steps=20, end_learning_rate=0.05, power=2.0)
optimizer = tf.train.MomentumOptimizer(lr, momentum=0.9)
grads_and_vars = optimizer.compute_gradients(loss)
scaled = []
for g, v in grads_and_vars:
    g = g * MULTIPLIERS[v.op.name.split("/")[0]]
    scaled.append((tf.clip_by_norm(g, 0.5), v))
train = optimizer.apply_gradients(scaled, global_step=global_step)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(y, 1)), tf.float32))

print("variables", [v.op.name for _, v in grads_and_vars])
print("regularization losses", len(reg_losses))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: x_data, y: y_data}
    norms = sess.run([tf.norm(g) for g, _ in grads_and_vars], feed)
    print("raw gradient norms", np.round(norms, 5))
    for step in range(25):
        if step % 5 == 0:
            print(
                f"step {step} lr {sess.run(lr):.5f} loss {sess.run(loss, feed):.5f} "
                f"accuracy {sess.run(accuracy, feed):.4f}"
            )
        sess.run(train, feed)
    print(
        "momentum slots",
        sorted(n for n in optimizer.get_slot_names()),
        np.round(np.linalg.norm(sess.run(optimizer.get_slot(w2, "momentum"))), 5),
    )
    print("final step", sess.run(global_step), "loss", round(float(sess.run(loss, feed)), 5))
