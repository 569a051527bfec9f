"""An IRNN (a ReLU recurrent net whose recurrent matrix starts as the identity) unrolled in
a TF1 graph: variables made by get_variable with TF1 initializers called TF1's way
(init(shape, dtype, partition_info)), a custom initializer function of that signature, a
scope-wide default initializer, trained on a running-sum task with gradient clipping."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(13)
seqs = rng.uniform(-1, 1, (16, 6, 1)).astype(np.float32)
targets = seqs.sum(axis=1)
calls = []


def scaled_input_init(shape, dtype=None, partition_info=None):
    calls.append((list(shape), dtype.name, partition_info))
    return tf.constant(np.linspace(0.5, 1.0, int(np.prod(shape))).reshape(shape), dtype)


x = tf.placeholder(tf.float32, [None, 6, 1])
y = tf.placeholder(tf.float32, [None, 1])
with tf.variable_scope("irnn", initializer=tf.constant_initializer(0.05)):
    w_in = tf.get_variable("w_in", [1, 4], initializer=scaled_input_init)
    w_rec = tf.get_variable("w_rec", [4, 4], initializer=tf.initializers.identity(gain=1.0))
    b = tf.get_variable("b", [4], initializer=tf.zeros_initializer())
    w_out = tf.get_variable("w_out", [4, 1])  # the scope's default initializer
state = tf.zeros([tf.shape(x)[0], 4])
for t in range(6):
    state = tf.nn.relu(tf.matmul(x[:, t, :], w_in) + tf.matmul(state, w_rec) + b)
pred = tf.matmul(state, w_out)
loss = tf.losses.mean_squared_error(y, pred)
opt = tf.train.GradientDescentOptimizer(0.05)
grads, variables = zip(*opt.compute_gradients(loss))
clipped, norm = tf.clip_by_global_norm(grads, 1.0)
train = opt.apply_gradients(zip(clipped, variables))

print("initializer calls", calls)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("w_rec starts as", sess.run(w_rec).diagonal(), "w_out", sess.run(w_out).ravel())
    for step in range(25):
        _, n = sess.run([train, norm], {x: seqs, y: targets})
        if step % 5 == 4:
            print("step", step + 1, "loss", sess.run(loss, {x: seqs, y: targets}), "grad norm", n)
