"""A small MLP classifier trained with Adagrad on mini-batches of varying size (the batch
dimension is None; the loss averages over tf.shape(x)[0]), saved with train.Saver, changed,
and restored."""

import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(7)
X = rng.randn(30, 4).astype(np.float32)
Y = np.argmax(X @ rng.randn(4, 3), axis=1)

x = tf.placeholder(tf.float32, [None, 4], name="x")
labels = tf.placeholder(tf.int32, [None], name="labels")
with tf.variable_scope("mlp"):
    w1 = tf.get_variable("w1", initializer=(rng.randn(4, 6) * 0.4).astype(np.float32))
    b1 = tf.get_variable("b1", [6], initializer=tf.zeros_initializer())
    w2 = tf.get_variable("w2", initializer=(rng.randn(6, 3) * 0.4).astype(np.float32))
logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2)
batch = tf.cast(tf.shape(x)[0], tf.float32)
onehot = tf.one_hot(labels, 3)
loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(labels=onehot, logits=logits)) / batch
accuracy = tf.reduce_mean(
    tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), labels), tf.float32)
)
train = tf.train.AdagradOptimizer(0.2).minimize(loss)
saver = tf.train.Saver()
print("logits shape", logits.get_shape().as_list())

folder = tempfile.mkdtemp()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(4):
        for start, size in [(0, 7), (7, 11), (18, 12)]:
            feed = {x: X[start : start + size], labels: Y[start : start + size]}
            sess.run(train, feed)
        print(
            "epoch",
            epoch,
            "loss",
            sess.run(loss, {x: X, labels: Y}),
            "accuracy",
            sess.run(accuracy, {x: X, labels: Y}),
        )
    path = saver.save(sess, os.path.join(folder, "mlp"), global_step=4)
    saved = sess.run(w1)
    sess.run(tf.assign(w1, tf.zeros_like(w1)))
    print("zeroed loss", sess.run(loss, {x: X, labels: Y}))
    saver.restore(sess, tf.train.latest_checkpoint(folder))
    print(
        "restored",
        os.path.basename(path),
        bool(np.array_equal(saved, sess.run(w1))),
        sess.run(loss, {x: X, labels: Y}),
    )
shutil.rmtree(folder)
