"""Feedback alignment (Lillicrap et al. 2016) in a TF1 graph: the backward pass of a layer's
MatMul uses a fixed random matrix B instead of the transposed forward weights. A gradient
registered with tf.RegisterGradient looks the feedback matrix up by the op's name and is
applied with gradient_override_map({"MatMul": ...}) to the hidden layers only; the network
still learns, and its weight updates align with true backprop's."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(61)
x_data = rs.normal(size=(64, 4)).astype(np.float32)
y_data = np.tanh(x_data @ rs.normal(size=(4, 2))).astype(np.float32)
FEEDBACK = {}


@tf.RegisterGradient("FeedbackAlignment")
def _feedback_alignment(op, grad):
    a, w = op.inputs
    b = FEEDBACK[op.name]
    return tf.matmul(grad, b, transpose_b=True), tf.matmul(a, grad, transpose_a=True)


def layer(h, n_in, n_out, name, feedback):
    w = tf.get_variable(
        name, initializer=rs.normal(scale=0.5, size=(n_in, n_out)).astype(np.float32)
    )
    if not feedback:
        return tf.matmul(h, w), w
    with tf.get_default_graph().gradient_override_map({"MatMul": "FeedbackAlignment"}):
        out = tf.matmul(h, w, name=name + "_fa")
    FEEDBACK[out.op.name] = tf.constant(rs.normal(scale=0.5, size=(n_in, n_out)).astype(np.float32))
    return out, w


x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 2])
h1, w1 = layer(x, 4, 8, "w1", feedback=False)
h2, w2 = layer(tf.tanh(h1), 8, 8, "w2", feedback=True)
out, w3 = layer(tf.tanh(h2), 8, 2, "w3", feedback=True)
loss = tf.reduce_mean(tf.square(out - y))

fa_grads = tf.gradients(loss, [w1, w2, w3])
true_out = tf.matmul(tf.tanh(tf.matmul(tf.tanh(tf.matmul(x, w1)), w2)), w3)
bp_grads = tf.gradients(tf.reduce_mean(tf.square(true_out - y)), [w1, w2, w3])
train = tf.train.GradientDescentOptimizer(0.1).apply_gradients(zip(fa_grads, [w1, w2, w3]))
print("overridden ops", sorted(FEEDBACK))


def cosine(a, b):
    return float(np.sum(a * b) / (np.linalg.norm(a) * np.linalg.norm(b)))


with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: x_data, y: y_data}
    for step in range(41):
        if step % 10 == 0:
            fa, bp, loss_value = sess.run([fa_grads, bp_grads, loss], feed)
            print(
                f"step {step} loss {loss_value:.5f} alignment "
                + " ".join(f"{cosine(a, b):.4f}" for a, b in zip(fa, bp))
            )
        sess.run(train, feed)
