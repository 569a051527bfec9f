"""The Lookahead optimizer (Zhang et al. 2019) written by hand around Keras' Adam: fast
weights take k inner Adam steps, then the slow weights move a fraction alpha towards them
and the fast weights are reset to the slow ones; compared with plain Adam on a
badly-conditioned softmax regression."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(13)
x = (rs.normal(size=(64, 5)) * [1.0, 5.0, 0.2, 2.0, 1.0]).astype("float32")
labels = np.argmax(x @ rs.normal(size=(5, 3)), axis=1)
w_init = rs.normal(scale=0.1, size=(5, 3)).astype("float32")


def loss_fn(w, b):
    logits = tf.matmul(x, w) + b
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))


class Lookahead:
    def __init__(self, inner, variables, k=5, alpha=0.5):
        self.inner, self.variables, self.k, self.alpha = inner, variables, k, alpha
        self.slow = [tf.Variable(v) for v in variables]
        self.counter = 0

    def apply_gradients(self, grads):
        self.inner.apply_gradients(zip(grads, self.variables))
        self.counter += 1
        if self.counter % self.k == 0:
            for slow, fast in zip(self.slow, self.variables):
                slow.assign_add(self.alpha * (fast - slow))
                fast.assign(slow)


def train(use_lookahead, steps=30):
    w, b = tf.Variable(w_init), tf.Variable(tf.zeros(3))
    adam = tf.keras.optimizers.Adam(0.2)
    opt = Lookahead(adam, [w, b]) if use_lookahead else None
    history = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = loss_fn(w, b)
        grads = tape.gradient(loss, [w, b])
        if opt is None:
            adam.apply_gradients(zip(grads, [w, b]))
        else:
            opt.apply_gradients(grads)
        history.append(float(loss))
    return history, float(loss_fn(w, b)), w


for name, flag in (("adam", False), ("lookahead", True)):
    history, final, w = train(flag)
    print(name, "losses", " ".join(f"{v:.4f}" for v in history[::5]))
    print(name, "final", f"{final:.5f}", "weight norm", f"{float(tf.norm(w)):.5f}")
