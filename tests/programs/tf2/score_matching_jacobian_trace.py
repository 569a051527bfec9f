"""Exact score matching (Hyvarinen 2005) for an energy-free score network s(x) ~ grad log p(x):
the objective E[tr(ds/dx) + 0.5 ||s||^2] needs the trace of the score's Jacobian per
example, taken from tape.batch_jacobian inside the training tape, and is minimised by
Adam; checked against the true score of the Gaussian that generated the data."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(9)
cov = np.array([[1.0, 0.6], [0.6, 0.8]])
data = rs.multivariate_normal([0.5, -1.0], cov, size=128).astype("float32")
precision = np.linalg.inv(cov).astype("float32")

score_net = tf.keras.Sequential(
    [
        tf.keras.Input((2,)),
        tf.keras.layers.Dense(16, activation="softplus"),
        tf.keras.layers.Dense(2),
    ]
)
score_net.set_weights(
    [rs.normal(scale=0.4, size=w.shape).astype("float32") for w in score_net.weights]
)
optimizer = tf.keras.optimizers.Adam(0.02)


def score_matching_loss(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = score_net(x)
    jac = tape.batch_jacobian(s, x)
    trace = tf.linalg.trace(jac)
    return tf.reduce_mean(trace + 0.5 * tf.reduce_sum(tf.square(s), axis=1))


def score_error(x):
    x = tf.constant(x)
    true = -tf.matmul(x - [0.5, -1.0], precision)
    return float(tf.reduce_mean(tf.reduce_sum(tf.square(score_net(x) - true), axis=1)))


print(
    "initial loss",
    round(float(score_matching_loss(tf.constant(data))), 5),
    "score error",
    round(score_error(data), 5),
)
for epoch in range(8):
    for start in range(0, 128, 32):
        batch = tf.constant(data[start : start + 32])
        with tf.GradientTape() as tape:
            loss = score_matching_loss(batch)
        grads = tape.gradient(loss, score_net.trainable_variables)
        optimizer.apply_gradients(zip(grads, score_net.trainable_variables))
    print(
        f"epoch {epoch} loss {float(score_matching_loss(tf.constant(data))):.5f} "
        f"score error {score_error(data):.5f}"
    )
probe = tf.constant([[0.5, -1.0], [1.5, 0.0]])
print("score at probes", np.round(score_net(probe).numpy(), 4))
print("true score", np.round(-(probe.numpy() - [0.5, -1.0]) @ precision, 4))
