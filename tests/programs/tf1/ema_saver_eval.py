"""Evaluating with exponential moving averages of the weights, as TF1 models did: the train
op runs ExponentialMovingAverage.apply after each step (num_updates from the global step),
a Saver writes the checkpoint, and a fresh graph restores the averages into the model's own
variables through ema.variables_to_restore()."""

import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(4)
X = rng.randn(20, 3).astype(np.float32)
Y = (X @ np.array([[1.0], [-1.0], [2.0]], np.float32) + 0.5).astype(np.float32)


def model(x):
    w = tf.get_variable("w", initializer=np.full((3, 1), 0.1, np.float32))
    b = tf.get_variable("b", initializer=np.zeros(1, np.float32))
    return tf.matmul(x, w) + b


folder = tempfile.mkdtemp()
with tf.Graph().as_default():
    pred = model(tf.constant(X))
    loss = tf.reduce_mean(tf.square(pred - Y))
    step = tf.train.get_or_create_global_step()
    ema = tf.train.ExponentialMovingAverage(0.9, num_updates=step)
    minimize = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
    with tf.control_dependencies([minimize]):
        train = ema.apply(tf.trainable_variables())
    print("averages", [ema.average(v).name for v in tf.trainable_variables()])
    print("restore map", sorted(ema.variables_to_restore().keys()))
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(12):
            sess.run(train)
        print("raw loss", sess.run(loss), "step", tf.train.global_step(sess, step))
        print("w", sess.run(tf.trainable_variables()[0]).ravel())
        print("w average", sess.run(ema.average(tf.trainable_variables()[0])).ravel())
        saver.save(sess, os.path.join(folder, "model"))

with tf.Graph().as_default():
    pred = model(tf.constant(X))
    loss = tf.reduce_mean(tf.square(pred - Y))
    ema = tf.train.ExponentialMovingAverage(0.9)
    restorer = tf.train.Saver(ema.variables_to_restore())
    with tf.Session() as sess:
        restorer.restore(sess, tf.train.latest_checkpoint(folder))
        print("averaged model loss", sess.run(loss))
        print("restored w", sess.run(tf.trainable_variables()[0]).ravel())
shutil.rmtree(folder)
