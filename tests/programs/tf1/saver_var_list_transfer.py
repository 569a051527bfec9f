"""Transfer learning with tf.train.Saver the TF1 way: a pretraining graph trains an encoder
and a head and saves only the encoder (Saver with a var_list dict mapping checkpoint names
to variables); a fine-tuning graph whose encoder lives under another scope restores it
through a renaming dict, keeps it frozen (var_list of the optimizer) and trains a new head;
checkpoint contents are listed with tf.train.list_variables."""

import os
import tempfile

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(47)
x_a = rs.normal(size=(40, 4)).astype(np.float32)
y_a = (x_a[:, :1] - x_a[:, 1:2] > 0).astype(np.float32)
x_b = rs.normal(size=(40, 4)).astype(np.float32)
y_b = (x_b[:, :1] + 0.5 * x_b[:, 2:3] > 0).astype(np.float32)
enc_w0 = rs.normal(scale=0.5, size=(4, 6)).astype(np.float32)
head_w0 = rs.normal(scale=0.5, size=(6, 1)).astype(np.float32)
path = os.path.join(tempfile.mkdtemp(), "encoder.ckpt")


def encoder(x):
    w = tf.get_variable("w", initializer=enc_w0)
    b = tf.get_variable("b", initializer=np.zeros(6, np.float32))
    return tf.tanh(tf.matmul(x, w) + b)


def head(h, name):
    w = tf.get_variable(name + "_w", initializer=head_w0)
    return tf.matmul(h, w)


def loss_of(logits, y):
    return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))


with tf.Graph().as_default():
    x, y = tf.placeholder(tf.float32, [None, 4]), tf.placeholder(tf.float32, [None, 1])
    with tf.variable_scope("pretrain_encoder"):
        h = encoder(x)
    loss = loss_of(head(h, "head_a"), y)
    train = tf.train.AdamOptimizer(0.05).minimize(loss)
    enc_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="pretrain_encoder")
    saver = tf.train.Saver({"encoder/" + v.op.name.split("/")[-1]: v for v in enc_vars})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(30):
            sess.run(train, {x: x_a, y: y_a})
        print("pretrained loss", round(float(sess.run(loss, {x: x_a, y: y_a})), 5))
        pretrained = sess.run(enc_vars[0])
        saver.save(sess, path)
print("checkpoint", [(name, shape) for name, shape in tf.train.list_variables(path)])

with tf.Graph().as_default():
    x, y = tf.placeholder(tf.float32, [None, 4]), tf.placeholder(tf.float32, [None, 1])
    with tf.variable_scope("features"):
        h = encoder(x)
    logits = head(h, "head_b")
    loss = loss_of(logits, y)
    enc_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="features")
    head_vars = [v for v in tf.trainable_variables() if v.name.startswith("head_b")]
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss, var_list=head_vars)
    restorer = tf.train.Saver({"encoder/" + v.op.name.split("/")[-1]: v for v in enc_vars})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("before restore equal", bool(np.allclose(sess.run(enc_vars[0]), pretrained)))
        restorer.restore(sess, path)
        print("after restore equal", bool(np.allclose(sess.run(enc_vars[0]), pretrained)))
        for step in range(20):
            _, loss_value = sess.run([train, loss], {x: x_b, y: y_b})
            if step % 5 == 0:
                print(f"fine-tune step {step} loss {loss_value:.5f}")
        print("encoder unchanged", bool(np.allclose(sess.run(enc_vars[0]), pretrained)))
        acc = np.mean((sess.run(logits, {x: x_b}) > 0) == y_b)
        print("task B accuracy", round(float(acc), 4))
