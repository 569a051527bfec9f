"""Arguments fed when the graph runs: a sequence classifier whose padding, axis order,
pooling axis, number of classes and logit groups come from placeholders (one graph serves
batch-major and time-major data), trained with gradient descent; TF1 reads these arguments
only when the graph runs."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(3)
X = rng.randn(5, 4, 3).astype(np.float32)  # batch, time, features
LABELS = rng.randint(0, 4, size=5).astype(np.int32)

x = tf.placeholder(tf.float32, [None, None, 3], name="x")
labels = tf.placeholder(tf.int32, [None], name="labels")
paddings = tf.placeholder(tf.int32, [3, 2], name="paddings")
perm = tf.placeholder(tf.int32, [3], name="perm")
time_axis = tf.placeholder(tf.int32, [], name="time_axis")
num_classes = tf.placeholder(tf.int32, [], name="num_classes")
groups = tf.placeholder(tf.int32, [2], name="groups")
feature_axis = tf.placeholder(tf.int32, [], name="feature_axis")

padded = tf.pad(x, paddings, mode="SYMMETRIC")
reordered = tf.transpose(padded, perm)
print("padded", padded.shape, "reordered", reordered.shape)
pooled = tf.reduce_mean(reordered, axis=time_axis) + tf.reduce_max(reordered, axis=time_axis)
features = tf.reshape(pooled, [-1, 3])
w = tf.get_variable("w", [3, 4], initializer=tf.constant_initializer(rng.randn(3, 4) * 0.5))
b = tf.get_variable("b", [4], initializer=tf.zeros_initializer())
logits = tf.matmul(features, w) + b
targets = tf.one_hot(labels, depth=num_classes)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=targets, logits=logits))
first, rest = tf.split(logits, groups, axis=1)
margin = tf.reduce_sum(tf.expand_dims(first, feature_axis) ** 2) - tf.reduce_sum(rest)
total = loss + 0.01 * margin
(grad_x,) = tf.gradients(total, x)
train = tf.train.GradientDescentOptimizer(0.3).minimize(total)

batch_major = {x: X, paddings: [[0, 0], [1, 2], [0, 0]], perm: [1, 0, 2], time_axis: 0}
time_major = {
    x: X.transpose(1, 0, 2),
    paddings: [[1, 2], [0, 0], [0, 0]],
    perm: [0, 1, 2],
    time_axis: 0,
}
common = {labels: LABELS, num_classes: 4, groups: [1, 3], feature_axis: 1}

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    a = sess.run(total, {**batch_major, **common})
    t = sess.run(total, {**time_major, **common})
    print(f"same loss either layout: {a:.6f} {t:.6f}")
    g = sess.run(grad_x, {**batch_major, **common})
    print("grad_x", g.shape, np.round(g[0], 6).tolist())
    for step in range(5):
        _, value = sess.run([train, total], {**batch_major, **common})
        print("step", step, f"total {value:.6f}")
    print(
        "reduced over features:",
        np.round(
            sess.run(tf.reduce_sum(features, axis=feature_axis), {**batch_major, **common}), 5
        ).tolist(),
    )
    print("one_hot depth 6:", sess.run(targets, {labels: [0, 5], num_classes: 6}).tolist())
