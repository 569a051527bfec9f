"""DQN-style temporal-difference update: a target network copied from the online network,
TD targets built with tf.stop_gradient, Huber loss on the taken actions (tf.gather_nd), and
the target network synced every few steps."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(4)
n, obs_dim, actions = 16, 4, 3
states = rng.normal(size=(n, obs_dim)).astype("float32")
next_states = rng.normal(size=(n, obs_dim)).astype("float32")
taken = rng.integers(0, actions, size=n).astype("int32")
rewards = rng.normal(size=n).astype("float32")
done = (rng.random(n) < 0.25).astype("float32")


def make():
    return tf.keras.Sequential(
        [
            tf.keras.Input((obs_dim,)),
            tf.keras.layers.Dense(8, activation="relu"),
            tf.keras.layers.Dense(actions),
        ]
    )


online, target = make(), make()
online.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in online.get_weights()]
)
target.set_weights(online.get_weights())
optimizer = tf.keras.optimizers.Adam(0.01)
huber = tf.keras.losses.Huber()
gamma = 0.9


@tf.function
def train_step(s, a, r, s2, d):
    next_q = tf.reduce_max(target(s2), axis=1)
    td_target = tf.stop_gradient(r + gamma * (1.0 - d) * next_q)
    with tf.GradientTape() as tape:
        q = online(s)
        q_taken = tf.gather_nd(q, tf.stack([tf.range(tf.shape(a)[0]), a], axis=1))
        loss = huber(td_target, q_taken)
    grads = tape.gradient(loss, online.trainable_variables)
    optimizer.apply_gradients(zip(grads, online.trainable_variables))
    return loss


for step in range(8):
    loss = train_step(states, taken, rewards, next_states, done)
    if step % 3 == 2:
        target.set_weights(online.get_weights())
    print(step, f"{float(loss):.6f}")
print("q[0]", np.round(online(states[:1]).numpy(), 5))
print("target q[0]", np.round(target(states[:1]).numpy(), 5))
