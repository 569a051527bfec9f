"""Newton's method for L2-regularised logistic regression in a TF1 graph: the gradient from
tf.gradients, the Hessian from tf.hessians, the Newton step solved with tf.linalg.solve and
applied with tf.assign; the loss reaches its minimum in a few steps."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(3)
X = rng.randn(30, 3)
labels = (X @ np.array([1.0, -2.0, 0.5]) + 0.3 * rng.randn(30) > 0).astype(np.float64)

w = tf.Variable(np.zeros(3), dtype=tf.float64)
logits = tf.linalg.matvec(tf.constant(X), w)
loss = tf.reduce_mean(
    tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant(labels), logits=logits)
) + 0.05 * tf.reduce_sum(tf.square(w))
grad = tf.gradients(loss, w)[0]
hess = tf.hessians(loss, w)[0]
step = tf.linalg.solve(hess, grad[:, None])[:, 0]
newton = tf.assign_sub(w, step)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("hessian at 0", np.round(sess.run(hess), 5).tolist())
    for i in range(5):
        loss_value, g = sess.run([loss, grad])
        print(f"newton {i} loss {loss_value:.8f} |grad| {np.linalg.norm(g):.2e}")
        sess.run(newton)
    print("w", np.round(sess.run(w), 5))
    print("hessian eigenvalues", np.round(np.linalg.eigvalsh(sess.run(hess)), 5))
