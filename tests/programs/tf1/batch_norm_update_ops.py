"""An MLP with tf.layers.batch_normalization between dense layers: the moving averages
are updated through the UPDATE_OPS collection (the classic TF1 control_dependencies idiom),
trained with Momentum, then evaluated in inference mode with the moving statistics."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(11)
X = rng.randn(32, 5).astype(np.float32) * 3.0 + 1.0
Y = (X[:, :1] * 0.5 - X[:, 1:2] + 0.1 * X[:, 2:3] ** 2).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 5])
target = tf.placeholder(tf.float32, [None, 1])
is_training = tf.placeholder(tf.bool, [])
w1 = tf.constant_initializer(rng.uniform(-0.5, 0.5, (5, 8)).astype(np.float32))
w2 = tf.constant_initializer(rng.uniform(-0.5, 0.5, (8, 1)).astype(np.float32))
h = tf.layers.dense(x, 8, kernel_initializer=w1, use_bias=False)
h = tf.layers.batch_normalization(h, momentum=0.8, training=is_training)
h = tf.nn.relu(h)
out = tf.layers.dense(h, 1, kernel_initializer=w2)
loss = tf.losses.mean_squared_error(target, out)
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train = tf.train.MomentumOptimizer(0.02, 0.9).minimize(loss)

print("update ops", len(update_ops))
print("global", sorted(v.name for v in tf.global_variables() if "Momentum" not in v.name))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(8):
        batch = slice((step % 4) * 8, (step % 4) * 8 + 8)
        _, value = sess.run([train, loss], {x: X[batch], target: Y[batch], is_training: True})
        print("step", step, "train loss", value)
    mean, var = sess.run([v for v in tf.global_variables() if "moving" in v.name])
    print("moving mean", mean[:3], "moving variance", var[:3])
    print("eval loss", sess.run(loss, {x: X, target: Y, is_training: False}))
