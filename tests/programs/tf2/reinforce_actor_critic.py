"""Policy gradients on a fixed batch of episodes: REINFORCE with a log-prob surrogate and
discounted returns, then an actor-critic update whose advantage uses a stop_gradient value
baseline, with the critic's MSE and an entropy bonus."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(13)
T, obs_dim, n_actions = 10, 3, 2
obs = rng.normal(size=(T, obs_dim)).astype("float32")
acts = rng.integers(0, n_actions, size=T).astype("int32")
rewards = rng.normal(loc=0.5, size=T).astype("float32")

returns = np.zeros(T, dtype="float32")
running = 0.0
for t in reversed(range(T)):
    running = rewards[t] + 0.95 * running
    returns[t] = running

policy_w = tf.Variable(rng.normal(scale=0.4, size=(obs_dim, n_actions)).astype("float32"))
value_w = tf.Variable(rng.normal(scale=0.4, size=(obs_dim, 1)).astype("float32"))
opt = tf.keras.optimizers.SGD(0.05)


def log_probs(w):
    logits = tf.matmul(obs, w)
    lp = tf.nn.log_softmax(logits)
    return tf.reduce_sum(lp * tf.one_hot(acts, n_actions), axis=1), lp


for i in range(3):
    with tf.GradientTape() as tape:
        lp, _ = log_probs(policy_w)
        surrogate = -tf.reduce_mean(lp * returns)
    g = tape.gradient(surrogate, policy_w)
    opt.apply_gradients([(g, policy_w)])
    print("reinforce", i, f"{float(surrogate):.6f}", np.round(g.numpy().ravel(), 5))

opt = tf.keras.optimizers.SGD(0.05)
for i in range(3):
    with tf.GradientTape() as tape:
        lp, all_lp = log_probs(policy_w)
        values = tf.squeeze(tf.matmul(obs, value_w), 1)
        advantage = returns - tf.stop_gradient(values)
        entropy = -tf.reduce_mean(tf.reduce_sum(tf.exp(all_lp) * all_lp, axis=1))
        actor = -tf.reduce_mean(lp * advantage)
        critic = tf.reduce_mean(tf.square(returns - values))
        loss = actor + 0.5 * critic - 0.01 * entropy
    grads = tape.gradient(loss, [policy_w, value_w])
    opt.apply_gradients(zip(grads, [policy_w, value_w]))
    print("actor-critic", i, f"{float(actor):.6f} {float(critic):.6f} {float(entropy):.6f}")
print("value_w", np.round(value_w.numpy().ravel(), 5))
