"""A convolutional autoencoder in TF1 layers: conv2d with stride 2 down, conv2d_transpose
back up, tf.losses.mean_squared_error on 8x8 images, trained with Adam; reconstruction
error per epoch and the decoder's output shape."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(12)
grid = np.linspace(-1, 1, 8, dtype=np.float32)
images = np.stack(
    [np.outer(np.sin(a * grid), np.cos(b * grid)) for a, b in rng.uniform(0.5, 3, (12, 2))]
)[..., None].astype(np.float32)


def init(*shape):
    return tf.constant_initializer(rng.uniform(-0.3, 0.3, shape).astype(np.float32))


x = tf.placeholder(tf.float32, [None, 8, 8, 1])
code = tf.layers.conv2d(
    x,
    4,
    3,
    strides=2,
    padding="same",
    activation=tf.nn.tanh,
    kernel_initializer=init(3, 3, 1, 4),
    name="encoder",
)
decoded = tf.layers.conv2d_transpose(
    code, 1, 3, strides=2, padding="same", kernel_initializer=init(3, 3, 1, 4), name="decoder"
)
loss = tf.losses.mean_squared_error(x, decoded)
train = tf.train.AdamOptimizer(0.02).minimize(loss)

print("code", code.get_shape().as_list(), "decoded", decoded.get_shape().as_list())
print("kernels", [v.get_shape().as_list() for v in tf.trainable_variables() if "kernel" in v.name])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(6):
        for start in (0, 6):
            sess.run(train, {x: images[start : start + 6]})
        print("epoch", epoch, "reconstruction", sess.run(loss, {x: images}))
