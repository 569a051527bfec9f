"""Newton's method for L2-regularised logistic regression: the Hessian from nested tapes
(tape.jacobian of the gradient), the step from tf.linalg.solve, inside a tf.function."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(17)
x = rng.normal(size=(50, 3)).astype("float64")
y = (x @ np.array([1.5, -2.0, 0.5]) + 0.3 * rng.normal(size=50) > 0).astype("float64")
X = tf.constant(np.hstack([x, np.ones((50, 1))]))
Y = tf.constant(y)


def loss_fn(w):
    logits = tf.linalg.matvec(X, w)
    ce = tf.nn.sigmoid_cross_entropy_with_logits(labels=Y, logits=logits)
    return tf.reduce_mean(ce) + 0.05 * tf.reduce_sum(tf.square(w))


@tf.function
def newton_step(w):
    with tf.GradientTape() as outer:
        outer.watch(w)
        with tf.GradientTape() as inner:
            inner.watch(w)
            loss = loss_fn(w)
        g = inner.gradient(loss, w)
    h = outer.jacobian(g, w)
    step = tf.linalg.solve(h, g[:, None])[:, 0]
    return w - step, loss, tf.norm(g)


w = tf.zeros(4, tf.float64)
for i in range(5):
    w, loss, gnorm = newton_step(w)
    print(i, f"{float(loss):.8f}", f"{float(gnorm):.3e}")
print("w", np.round(w.numpy(), 6))
