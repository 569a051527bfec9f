"""Elastic weight consolidation (Kirkpatrick et al. 2017): after training on task A, the
diagonal empirical Fisher information is estimated from per-example gradients of the
log-likelihood (a persistent tape, one gradient per example); training on task B then adds
the penalty lambda/2 * sum F (theta - theta_A)^2. Forgetting of task A is printed with and
without the penalty."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(15)
xa = rs.normal(size=(40, 4)).astype("float32")
ya = (xa[:, 0] + xa[:, 1] > 0).astype("int32")
xb = rs.normal(size=(40, 4)).astype("float32")
yb = (xb[:, 2] - xb[:, 3] > 0).astype("int32")
initial = [rs.normal(scale=0.5, size=s).astype("float32") for s in [(4, 8), (8,), (8, 2), (2,)]]
ce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def make_model():
    model = tf.keras.Sequential(
        [
            tf.keras.Input((4,)),
            tf.keras.layers.Dense(8, activation="tanh"),
            tf.keras.layers.Dense(2),
        ]
    )
    model.set_weights(initial)
    return model


def train(model, x, y, steps, penalty=None):
    opt = tf.keras.optimizers.SGD(0.5)
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = ce(y, model(x))
            if penalty is not None:
                loss += penalty(model)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
    return float(loss)


def accuracy(model, x, y):
    return float(np.mean(np.argmax(model(x).numpy(), 1) == y))


def fisher_diagonal(model, x, y):
    fisher = [tf.zeros_like(v) for v in model.trainable_variables]
    with tf.GradientTape(persistent=True) as tape:
        log_probs = tf.nn.log_softmax(model(x))
        picked = [log_probs[i, y[i]] for i in range(len(x))]
    for lp in picked:
        grads = tape.gradient(lp, model.trainable_variables)
        fisher = [f + tf.square(g) / len(x) for f, g in zip(fisher, grads)]
    return fisher


for use_ewc in (False, True):
    model = make_model()
    loss_a = train(model, xa, ya, 40)
    acc_a = accuracy(model, xa, ya)
    anchor = [tf.identity(v) for v in model.trainable_variables]
    fisher = fisher_diagonal(model, xa, ya)
    if use_ewc:
        print("fisher sums", [round(float(tf.reduce_sum(f)), 5) for f in fisher])

    def ewc_penalty(m, lam=50.0, fisher=fisher, anchor=anchor):
        return (
            lam
            / 2
            * tf.add_n(
                [
                    tf.reduce_sum(f * tf.square(v - a))
                    for f, v, a in zip(fisher, m.trainable_variables, anchor)
                ]
            )
        )

    loss_b = train(model, xb, yb, 40, ewc_penalty if use_ewc else None)
    name = "ewc" if use_ewc else "plain"
    print(
        f"{name}: task A loss {loss_a:.5f} acc {acc_a:.3f} -> after B acc "
        f"{accuracy(model, xa, ya):.3f}; task B loss {loss_b:.5f} acc {accuracy(model, xb, yb):.3f}"
    )
    print(f"{name}: penalty at end {float(ewc_penalty(model)):.5f}")
