"""Sparse logistic regression with FTRL-proximal (L1 and L2), the optimizer of click models:
tf.losses.sigmoid_cross_entropy with label smoothing, and a count of weights FTRL set to
exactly zero."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(2)
X = (rng.rand(64, 12) < 0.3).astype(np.float32)
w_true = np.zeros((12, 1), np.float32)
w_true[[0, 3, 7]] = [[2.0], [-1.5], [1.0]]
Y = (X @ w_true + 0.2 > 0.5).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 12])
labels = tf.placeholder(tf.float32, [None, 1])
w = tf.get_variable("w", [12, 1], initializer=tf.zeros_initializer())
b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
logits = tf.matmul(x, w) + b
loss = tf.losses.sigmoid_cross_entropy(labels, logits, label_smoothing=0.1)
opt = tf.train.FtrlOptimizer(0.5, l1_regularization_strength=0.05, l2_regularization_strength=0.01)
train = opt.minimize(loss)
print("slots", opt.get_slot_names(), opt.get_slot(w, "accum").name, opt.get_slot(w, "linear").name)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(6):
        for start in range(0, 64, 16):
            sess.run(train, {x: X[start : start + 16], labels: Y[start : start + 16]})
        weights = sess.run(w)
        print(
            "epoch",
            epoch,
            "loss",
            sess.run(loss, {x: X, labels: Y}),
            "zeros",
            int(np.sum(weights == 0.0)),
        )
    print("weights", np.round(sess.run(w).ravel(), 4))
