"""A binarized layer whose forward rounds with NumPy (tf.py_func) and whose backward is the
straight-through estimator, given by mapping PyFunc's gradient to a registered identity-like
rule with gradient_override_map (the TF1 idiom for BinaryConnect-style training)."""

import numpy as np
import tensorflow as tf


@tf.RegisterGradient("StraightThroughClipped")
def _straight_through(op, grad):
    x = op.inputs[0]
    return grad * tf.cast(tf.abs(x) <= 1.0, grad.dtype)


def binarize(x):
    with tf.get_default_graph().gradient_override_map({"PyFunc": "StraightThroughClipped"}):
        return tf.py_func(lambda v: np.where(v >= 0, 1.0, -1.0).astype(np.float32), [x], tf.float32)


rng = np.random.RandomState(31)
X = rng.randn(40, 5).astype(np.float32)
Y = np.sign(X @ np.array([1, -1, 1, 0.5, -0.5], np.float32))[:, None].astype(np.float32)

x = tf.constant(X)
w = tf.get_variable("w", initializer=rng.uniform(-0.8, 0.8, (5, 1)).astype(np.float32))
scale = tf.get_variable("scale", initializer=np.float32(0.5))
pred = tf.reshape(scale * tf.matmul(x, tf.reshape(binarize(w), [5, 1])), [40, 1])
loss = tf.losses.hinge_loss((Y + 1) / 2, pred)
train = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
clip = tf.assign(w, tf.clip_by_value(w, -1.0, 1.0))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(15):
        sess.run(train)
        sess.run(clip)
        if step % 5 == 4:
            print(
                "step",
                step + 1,
                "loss",
                sess.run(loss),
                "binary weights",
                sess.run(binarize(w)).ravel(),
            )
    print("latent weights", np.round(sess.run(w).ravel(), 4), "scale", sess.run(scale))
