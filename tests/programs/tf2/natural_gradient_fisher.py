"""Natural gradient for a softmax regression: per-example score vectors from
tape.jacobian of the log-likelihoods, the empirical Fisher matrix with damping, and the
preconditioned step solved with tf.linalg.cholesky_solve."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(23)
x = rng.normal(size=(20, 3)).astype("float32")
labels = np.argmax(x @ rng.normal(size=(3, 3)), axis=1).astype("int32")
w = tf.Variable(rng.normal(scale=0.1, size=(3, 3)).astype("float32"))

for i in range(4):
    with tf.GradientTape(persistent=True) as tape:
        log_p = tf.nn.log_softmax(tf.matmul(x, w))
        ll = tf.gather(log_p, labels, axis=1, batch_dims=1)
        loss = -tf.reduce_mean(ll)
    scores = tf.reshape(tape.jacobian(ll, w), [20, 9])
    grad = tf.reshape(tape.gradient(loss, w), [9, 1])
    del tape
    fisher = tf.matmul(scores, scores, transpose_a=True) / 20.0 + 0.1 * tf.eye(9)
    nat = tf.linalg.cholesky_solve(tf.linalg.cholesky(fisher), grad)
    w.assign_sub(0.5 * tf.reshape(nat, [3, 3]))
    print(
        i,
        f"{float(loss):.6f}",
        f"{float(tf.norm(nat)):.6f}",
        f"{float(tf.linalg.trace(fisher)):.6f}",
    )
print("w", np.round(w.numpy().ravel(), 5))
