"""First-order versus second-order MAML on few-shot logistic-regression tasks: the inner
adaptation step's gradient is either kept on the outer tape (second order, nested tapes) or
cut with tf.stop_gradient (first-order MAML); both meta-gradients are printed for the same
tasks, then each variant meta-trains its own copy of the weights with Adam."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(3)
TASKS = 4
directions = rs.normal(size=(TASKS, 3)).astype("float32")
support_x = rs.normal(size=(TASKS, 6, 3)).astype("float32")
query_x = rs.normal(size=(TASKS, 10, 3)).astype("float32")
support_y = (np.einsum("tnd,td->tn", support_x, directions) > 0).astype("float32")
query_y = (np.einsum("tnd,td->tn", query_x, directions) > 0).astype("float32")
init_w = rs.normal(scale=0.3, size=(3, 1)).astype("float32")
INNER_LR = 0.8


def loss_fn(w, b, x, y):
    logits = tf.squeeze(tf.matmul(x, w), -1) + b
    return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))


def meta_loss(w, b, first_order):
    total = 0.0
    for t in range(TASKS):
        with tf.GradientTape() as inner:
            inner.watch([w, b])
            support_loss = loss_fn(w, b, support_x[t], support_y[t])
        gw, gb = inner.gradient(support_loss, [w, b])
        if first_order:
            gw, gb = tf.stop_gradient(gw), tf.stop_gradient(gb)
        fast_w, fast_b = w - INNER_LR * gw, b - INNER_LR * gb
        total += loss_fn(fast_w, fast_b, query_x[t], query_y[t])
    return total / TASKS


def meta_gradient(w, b, first_order):
    with tf.GradientTape() as outer:
        loss = meta_loss(w, b, first_order)
    return loss, outer.gradient(loss, [w, b])


w0, b0 = tf.Variable(init_w), tf.Variable(0.1)
for first_order in (False, True):
    loss, (gw, gb) = meta_gradient(w0, b0, first_order)
    name = "first-order" if first_order else "second-order"
    print(name, "meta loss", f"{float(loss):.6f}")
    print("  dW", np.round(gw.numpy().ravel(), 6), "db", f"{float(gb):.6f}")

for first_order in (False, True):
    w, b = tf.Variable(init_w), tf.Variable(0.1)
    opt = tf.keras.optimizers.Adam(0.05)
    losses = []
    for _ in range(8):
        loss, grads = meta_gradient(w, b, first_order)
        opt.apply_gradients(zip(grads, [w, b]))
        losses.append(float(loss))
    name = "fomaml" if first_order else "maml"
    print(name, "losses", " ".join(f"{v:.5f}" for v in losses))
    print(name, "weights", np.round(w.numpy().ravel(), 5), round(float(b), 5))
