"""Graph bookkeeping of TF1 training loops: an exponential moving average of the loss and a
step counter updated through tf.assign under tf.control_dependencies, grouped with the train
op; an Assert guarding the inputs; collections of update ops; RMSProp with momentum."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(9)
X = rng.randn(10, 2).astype(np.float32)
Y = (X @ np.array([2.0, -1.0], np.float32) + 0.5).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None])
w = tf.Variable(np.zeros(2, np.float32), name="w")
b = tf.Variable(0.0, name="b")
check = tf.Assert(tf.reduce_all(tf.is_finite(x)), [x])
with tf.control_dependencies([check]):
    pred = tf.reduce_sum(x * w, axis=1) + b
loss = tf.reduce_mean(tf.square(pred - y))
ema = tf.Variable(0.0, trainable=False, name="ema")
count = tf.Variable(0, trainable=False, name="count")
opt = tf.train.RMSPropOptimizer(0.05, decay=0.9, momentum=0.5)
step = opt.minimize(loss)
with tf.control_dependencies([step]):
    update_ema = tf.assign(ema, 0.9 * ema + 0.1 * loss)
    update_count = tf.assign_add(count, 1)
tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, update_ema)
tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, update_count)
train = tf.group(step, *tf.get_collection(tf.GraphKeys.UPDATE_OPS))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(30):
        sess.run(train, {x: X, y: Y})
        if i % 10 == 9:
            print(
                "iteration",
                sess.run(count),
                "ema",
                sess.run(ema),
                "loss",
                sess.run(loss, {x: X, y: Y}),
            )
    print("w", sess.run(w), "b", sess.run(b))
    print("slots", sorted(v.name for v in tf.global_variables()))
