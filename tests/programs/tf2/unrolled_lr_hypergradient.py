"""Hyperparameter optimisation by differentiating through training: a linear model is trained
for K unrolled SGD steps whose learning rate is exp(log_lr), the validation loss after the
last step is differentiated w.r.t. log_lr and the initial weights (one persistent outer tape
around the whole inner loop, inner gradients from nested tapes), and log_lr is improved by
gradient descent on that hypergradient."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(31)
true_w = np.array([[1.0], [-2.0], [0.5]], "float32")
x_tr = rs.normal(size=(30, 3)).astype("float32")
y_tr = (x_tr @ true_w + 0.3 * rs.normal(size=(30, 1))).astype("float32")
x_va = rs.normal(size=(20, 3)).astype("float32")
y_va = (x_va @ true_w).astype("float32")
w0 = tf.Variable(np.zeros((3, 1), "float32"))
log_lr = tf.Variable(np.log(0.02).astype("float32"))
K = 6


def mse(w, x, y):
    return tf.reduce_mean(tf.square(tf.matmul(x, w) - y))


def unrolled_validation_loss():
    w = tf.identity(w0)
    lr = tf.exp(log_lr)
    for _ in range(K):
        with tf.GradientTape() as inner:
            inner.watch(w)
            train_loss = mse(w, x_tr, y_tr)
        w = w - lr * inner.gradient(train_loss, w)
    return mse(w, x_va, y_va), train_loss


for meta_step in range(8):
    with tf.GradientTape(persistent=True) as outer:
        val_loss, train_loss = unrolled_validation_loss()
    d_log_lr = outer.gradient(val_loss, log_lr)
    d_w0 = outer.gradient(val_loss, w0)
    print(
        f"meta {meta_step} lr {float(tf.exp(log_lr)):.5f} val {float(val_loss):.5f} "
        f"train {float(train_loss):.5f} dval/dloglr {float(d_log_lr):.5f} "
        f"|dval/dw0| {float(tf.norm(d_w0)):.5f}"
    )
    log_lr.assign_sub(0.5 * d_log_lr)
    del outer

eps = 1e-2
base = float(unrolled_validation_loss()[0])
log_lr.assign_add(eps)
shifted = float(unrolled_validation_loss()[0])
log_lr.assign_sub(eps)
with tf.GradientTape() as tape:
    val_loss, _ = unrolled_validation_loss()
print(
    "hypergradient",
    round(float(tape.gradient(val_loss, log_lr)), 4),
    "finite difference",
    round((shifted - base) / eps, 2),
)
