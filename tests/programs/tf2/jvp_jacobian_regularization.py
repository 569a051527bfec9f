"""Jacobian regularisation by random projections (Hoffman et al.): the squared Frobenius norm
of the network's input-output Jacobian estimated from Jacobian-vector products with fixed
random unit directions, computed with tf.autodiff.ForwardAccumulator inside the training
GradientTape, so the penalty is differentiated w.r.t. the weights; checked against the exact
norm from tape.batch_jacobian."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(2)
x = rs.normal(size=(20, 3)).astype("float32")
y = rs.randint(0, 3, size=20)
directions = rs.normal(size=(6, 20, 3)).astype("float32")
directions /= np.linalg.norm(directions, axis=-1, keepdims=True)

model = tf.keras.Sequential(
    [
        tf.keras.Input((3,)),
        tf.keras.layers.Dense(12, activation="tanh"),
        tf.keras.layers.Dense(3),
    ]
)
model.set_weights([rs.normal(scale=0.6, size=w.shape).astype("float32") for w in model.weights])
ce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.SGD(0.1)
LAMBDA = 0.05


def jvp_penalty(xb, v):
    with tf.autodiff.ForwardAccumulator(primals=xb, tangents=v) as acc:
        logits = model(xb)
    jv = acc.jvp(logits)
    return logits, 3.0 * tf.reduce_mean(tf.reduce_sum(tf.square(jv), axis=1))


def exact_penalty(xb):
    with tf.GradientTape() as tape:
        tape.watch(xb)
        logits = model(xb)
    jac = tape.batch_jacobian(logits, xb)
    return tf.reduce_mean(tf.reduce_sum(tf.square(jac), axis=[1, 2]))


xt = tf.constant(x)
estimates = [float(jvp_penalty(xt, tf.constant(d))[1]) for d in directions]
print("projection estimates", np.round(estimates, 4))
print(
    "mean estimate",
    round(float(np.mean(estimates)), 4),
    "exact",
    round(float(exact_penalty(xt)), 4),
)

for step in range(6):
    v = tf.constant(directions[step])
    with tf.GradientTape() as tape:
        logits, penalty = jvp_penalty(xt, v)
        loss = ce(y, logits) + LAMBDA * penalty
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print(
        f"step {step} loss {float(loss):.5f} penalty {float(penalty):.5f} "
        f"grad norm {float(tf.linalg.global_norm(grads)):.5f}"
    )
print("exact penalty after", round(float(exact_penalty(xt)), 5))
