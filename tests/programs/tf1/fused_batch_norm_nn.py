"""A convolution block built from tf.nn's TF1 functions: conv2d(filter=...), fused_batch_norm
with the running statistics mixed by exponential_avg_factor, xw_plus_b and relu_layer for
the head, in_top_k for accuracy, and max_pool(value=...); trained with Adam."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(17)
images = rng.rand(12, 6, 6, 2).astype(np.float32)
classes = (images[..., 0].mean(axis=(1, 2)) * 3).astype(np.int32) % 3

x = tf.placeholder(tf.float32, [None, 6, 6, 2])
y = tf.placeholder(tf.int32, [None])
kernel = tf.get_variable(
    "kernel", initializer=rng.uniform(-0.3, 0.3, (3, 3, 2, 4)).astype(np.float32)
)
scale = tf.get_variable("scale", initializer=np.ones(4, np.float32))
offset = tf.get_variable("offset", initializer=np.zeros(4, np.float32))
running_mean = tf.get_variable("running_mean", initializer=np.zeros(4, np.float32), trainable=False)
running_var = tf.get_variable("running_var", initializer=np.ones(4, np.float32), trainable=False)
h = tf.nn.conv2d(x, filter=kernel, strides=[1, 1, 1, 1], padding="SAME")
h, batch_mean, batch_var = tf.nn.fused_batch_norm(
    h, scale, offset, mean=running_mean, variance=running_var, exponential_avg_factor=0.3
)
update = tf.group(tf.assign(running_mean, batch_mean), tf.assign(running_var, batch_var))
h = tf.nn.max_pool(value=tf.nn.relu(h), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
flat = tf.reshape(h, [-1, 36])
w1 = tf.get_variable("w1", initializer=rng.uniform(-0.2, 0.2, (36, 8)).astype(np.float32))
w2 = tf.get_variable("w2", initializer=rng.uniform(-0.2, 0.2, (8, 3)).astype(np.float32))
hidden = tf.nn.relu_layer(flat, w1, tf.zeros([8]))
logits = tf.nn.xw_plus_b(hidden, w2, tf.constant([0.1, 0.0, -0.1]))
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
correct = tf.reduce_mean(tf.cast(tf.nn.in_top_k(logits, y, 1), tf.float32))
top2 = tf.reduce_mean(tf.cast(tf.nn.in_top_k(logits, y, 2), tf.float32))
with tf.control_dependencies([update]):
    train = tf.train.AdamOptimizer(0.01).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(10):
        sess.run(train, {x: images, y: classes})
        if step % 3 == 0:
            print(
                "step",
                step,
                "loss",
                sess.run(loss, {x: images, y: classes}),
                "top1",
                sess.run(correct, {x: images, y: classes}),
                "top2",
                sess.run(top2, {x: images, y: classes}),
            )
    print("running mean", sess.run(running_mean), "running var", sess.run(running_var))
