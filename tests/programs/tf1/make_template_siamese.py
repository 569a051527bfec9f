"""A siamese network built with tf.make_template: one encoder whose variables are made on
the first call and shared by the second, a contrastive loss on pairs, trained with
RMSProp; variable_op_scope and op_scope, TF1's oldest scopes, name the rest."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(8)
A = rng.randn(16, 4).astype(np.float32)
B = A + 0.3 * rng.randn(16, 4).astype(np.float32)
B[8:] = rng.randn(8, 4).astype(np.float32)
same = np.array([1.0] * 8 + [0.0] * 8, np.float32)


def encoder(x, units):
    w = tf.get_variable("w", initializer=rng.uniform(-0.5, 0.5, (4, units)).astype(np.float32))
    b = tf.get_variable("b", [units], initializer=tf.zeros_initializer())
    return tf.tanh(tf.matmul(x, w) + b)


encode = tf.make_template("encoder", encoder, units=3)
left = encode(tf.constant(A))
right = encode(tf.constant(B))
with tf.variable_op_scope([left, right], "contrastive"):
    distance = tf.sqrt(tf.reduce_sum(tf.square(left - right), 1) + 1e-6)
    margin = tf.get_variable("margin", initializer=1.0, trainable=False)
with tf.op_scope([distance], "loss"):
    loss = tf.reduce_mean(
        same * tf.square(distance) + (1 - same) * tf.square(tf.maximum(margin - distance, 0.0))
    )
train = tf.train.RMSPropOptimizer(0.05).minimize(loss)

print("variables", [v.name for v in tf.global_variables() if "RMSProp" not in v.name])
print("template scope", encode.variable_scope.name)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(30):
        sess.run(train)
        if step % 10 == 9:
            d = sess.run(distance)
            print(
                "step",
                step + 1,
                "loss",
                sess.run(loss),
                "same",
                d[:8].mean(),
                "other",
                d[8:].mean(),
            )
