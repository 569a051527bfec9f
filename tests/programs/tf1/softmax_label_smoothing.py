"""A three-class classifier trained with tf.losses.softmax_cross_entropy and label
smoothing, with per-example weights that switch some examples off; compared each epoch
with the sparse and unweighted losses, and the Reduction keys of compute_weighted_loss."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(21)
X = rng.randn(30, 4).astype(np.float32)
labels = np.argmax(X[:, :3] + 0.3 * rng.randn(30, 3), axis=1).astype(np.int64)
onehot = np.eye(3, dtype=np.float32)[labels]
weights = np.where(np.arange(30) % 5 == 0, 0.0, 1.0).astype(np.float32)

x = tf.constant(X)
w = tf.get_variable("w", initializer=rng.uniform(-0.2, 0.2, (4, 3)).astype(np.float32))
logits = tf.matmul(x, w)
smoothed = tf.losses.softmax_cross_entropy(onehot, logits, weights=weights, label_smoothing=0.1)
sparse = tf.losses.sparse_softmax_cross_entropy(labels, logits, loss_collection=None)
per_example = tf.losses.softmax_cross_entropy(
    onehot, logits, loss_collection=None, reduction=tf.losses.Reduction.NONE
)
summed = tf.losses.compute_weighted_loss(
    per_example, weights, reduction=tf.losses.Reduction.SUM, loss_collection=None
)
mean = tf.losses.compute_weighted_loss(
    per_example, weights, reduction=tf.losses.Reduction.MEAN, loss_collection=None
)
train = tf.train.AdagradOptimizer(0.5).minimize(smoothed)

print("collected", len(tf.losses.get_losses()), "per example", per_example.get_shape().as_list())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(5):
        for _ in range(4):
            sess.run(train)
        print(
            "epoch",
            epoch,
            "smoothed",
            sess.run(smoothed),
            "sparse",
            sess.run(sparse),
            "sum",
            sess.run(summed),
            "mean",
            sess.run(mean),
        )
