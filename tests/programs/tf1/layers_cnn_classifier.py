"""A small CNN written with TF1's tf.layers (conv2d, max_pooling2d, flatten, dense,
dropout switched by a training placeholder) on 8x8 two-class images, trained with Adam on
tf.losses.sparse_softmax_cross_entropy; weights from a seeded NumPy generator."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(3)
images = rng.rand(24, 8, 8, 1).astype(np.float32)
labels = (images[:, :4].mean(axis=(1, 2, 3)) > images[:, 4:].mean(axis=(1, 2, 3))).astype(np.int32)


def init(*shape):
    return tf.constant_initializer(rng.uniform(-0.3, 0.3, shape).astype(np.float32))


x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="images")
y = tf.placeholder(tf.int32, [None], name="labels")
training = tf.placeholder_with_default(False, [], name="training")
h = tf.layers.conv2d(
    x, 4, 3, padding="same", activation=tf.nn.relu, kernel_initializer=init(3, 3, 1, 4)
)
h = tf.layers.max_pooling2d(h, 2, 2)
h = tf.layers.conv2d(h, 6, 3, activation=tf.nn.relu, kernel_initializer=init(3, 3, 4, 6))
h = tf.layers.flatten(h)
h = tf.layers.dropout(h, rate=0.5, training=training)
logits = tf.layers.dense(h, 2, kernel_initializer=init(24, 2), name="logits")
loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
accuracy = tf.reduce_mean(
    tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), y), tf.float32)
)
train = tf.train.AdamOptimizer(0.01).minimize(loss)

print("variables", [v.name for v in tf.trainable_variables()])
print("shapes", h.get_shape().as_list(), logits.get_shape().as_list())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(5):
        for start in range(0, 24, 8):
            sess.run(train, {x: images[start : start + 8], y: labels[start : start + 8]})
        print(
            "epoch",
            epoch,
            "loss",
            sess.run(loss, {x: images, y: labels}),
            "accuracy",
            sess.run(accuracy, {x: images, y: labels}),
        )
    print("collection losses", len(tf.losses.get_losses()))
