"""The tf.compat.v1 optimizers side by side on the same ill-conditioned least-squares
problem: GradientDescent, Momentum (Nesterov), Adagrad, Adadelta, RMSProp (centered, with
momentum) and Adam, each with its own variable, minimised for 10 steps in one Session."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(2)
A = (rng.randn(8, 3) * np.array([1.0, 3.0, 0.3])).astype(np.float32)
b = rng.randn(8).astype(np.float32)
optimizers = {
    "sgd": tf.train.GradientDescentOptimizer(0.02),
    "nesterov": tf.train.MomentumOptimizer(0.02, 0.9, use_nesterov=True),
    "adagrad": tf.train.AdagradOptimizer(0.3, initial_accumulator_value=0.1),
    "adadelta": tf.train.AdadeltaOptimizer(1.0, rho=0.9, epsilon=1e-6),
    "rmsprop": tf.train.RMSPropOptimizer(0.05, decay=0.9, momentum=0.5, centered=True),
    "adam": tf.train.AdamOptimizer(0.1, beta1=0.8),
}
losses, trains, weights = {}, {}, {}
for name, opt in optimizers.items():
    with tf.variable_scope(name):
        w = tf.get_variable("w", initializer=np.zeros(3, np.float32))
    loss = 0.5 * tf.reduce_mean(tf.square(tf.linalg.matvec(tf.constant(A), w) - b))
    losses[name], trains[name], weights[name] = loss, opt.minimize(loss, var_list=[w]), w

print("slots", sorted(optimizers["rmsprop"].get_slot_names()))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(10):
        sess.run(list(trains.values()))
    for name in optimizers:
        print(
            f"{name:9s} loss {sess.run(losses[name]):.5f} w {np.round(sess.run(weights[name]), 4)}"
        )
