"""Checkpointed TF1 training: an MLP trained with AdamOptimizer, saved with tf.train.Saver
(max_to_keep=2, global_step in the file name), restored into a fresh graph from
latest_checkpoint -- Adam's slots included -- and trained on, matching the uninterrupted run."""

import os
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(5)
x_data = rng.randn(24, 4).astype(np.float32)
y_data = (np.sin(x_data[:, :1]) + 0.3 * x_data[:, 1:2]).astype(np.float32)
init = [rng.randn(4, 6).astype(np.float32) * 0.5, rng.randn(6, 1).astype(np.float32) * 0.5]


def build():
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.float32, [None, 1])
    w1 = tf.get_variable("w1", initializer=init[0])
    w2 = tf.get_variable("w2", initializer=init[1])
    loss = tf.reduce_mean(tf.square(tf.matmul(tf.tanh(tf.matmul(x, w1)), w2) - y))
    step = tf.train.get_or_create_global_step()
    train = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
    return x, y, loss, train, step


ckpt_dir = tempfile.mkdtemp()
with tf.Graph().as_default():
    x, y, loss, train, step = build()
    saver = tf.train.Saver(max_to_keep=2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(9):
            _, loss_value = sess.run([train, loss], {x: x_data, y: y_data})
            if i % 3 == 2:
                path = saver.save(sess, os.path.join(ckpt_dir, "model"), global_step=step)
                print("saved", os.path.basename(path), "loss", round(float(loss_value), 5))
        print("variables", sorted(v.op.name for v in tf.global_variables()))
        for _ in range(3):
            sess.run(train, {x: x_data, y: y_data})
        reference = sess.run(loss, {x: x_data, y: y_data})

print(
    "kept",
    sorted(
        os.path.basename(p)
        for p in tf.train.get_checkpoint_state(ckpt_dir).all_model_checkpoint_paths
    ),
)
latest = tf.train.latest_checkpoint(ckpt_dir)
print("latest", os.path.basename(latest))
with tf.Graph().as_default():
    x, y, loss, train, step = build()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        saver.restore(sess, latest)
        print(
            "restored step",
            sess.run(step),
            "loss",
            round(float(sess.run(loss, {x: x_data, y: y_data})), 5),
        )
        for _ in range(3):
            sess.run(train, {x: x_data, y: y_data})
        resumed = sess.run(loss, {x: x_data, y: y_data})
print("resumed", round(float(resumed), 5), "uninterrupted", round(float(reference), 5))
