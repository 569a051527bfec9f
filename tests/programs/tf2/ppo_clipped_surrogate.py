"""The PPO clipped surrogate objective (Schulman et al. 2017) on a fixed batch of
trajectories from a contextual bandit: the old policy's log-probabilities are frozen, the
ratio exp(logp - logp_old) is clipped to [1 - eps, 1 + eps], advantages are normalised, an
entropy bonus and a value loss are added, and several epochs of minibatch Adam updates run
in a tf.function; the fraction of clipped ratios and the approximate KL are printed."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(19)
N, A = 64, 3
states = rs.normal(size=(N, 4)).astype("float32")
actions = rs.randint(0, A, size=N).astype("int32")
rewards = (
    np.where(actions == (states[:, 0] > 0).astype(int), 1.0, -0.2) + 0.1 * rs.normal(size=N)
).astype("float32")

policy = tf.keras.Sequential(
    [tf.keras.Input((4,)), tf.keras.layers.Dense(16, activation="tanh"), tf.keras.layers.Dense(A)]
)
value = tf.keras.Sequential(
    [tf.keras.Input((4,)), tf.keras.layers.Dense(16, activation="tanh"), tf.keras.layers.Dense(1)]
)
for net in (policy, value):
    net.set_weights([rs.normal(scale=0.4, size=w.shape).astype("float32") for w in net.weights])
variables = policy.trainable_variables + value.trainable_variables
optimizer = tf.keras.optimizers.Adam(3e-3)
CLIP, ENTROPY, VALUE = 0.2, 0.01, 0.5


def log_prob(logits, a):
    return tf.gather(tf.nn.log_softmax(logits), a, batch_dims=1)


old_logp = log_prob(policy(states), actions)
returns = tf.constant(rewards)
adv = returns - tf.squeeze(value(states), -1)
adv = (adv - tf.reduce_mean(adv)) / (tf.math.reduce_std(adv) + 1e-8)


@tf.function
def update(s, a, logp_old, advantage, ret):
    with tf.GradientTape() as tape:
        logits = policy(s)
        logp = log_prob(logits, a)
        ratio = tf.exp(logp - logp_old)
        clipped = tf.clip_by_value(ratio, 1.0 - CLIP, 1.0 + CLIP)
        surrogate = -tf.reduce_mean(tf.minimum(ratio * advantage, clipped * advantage))
        probs = tf.nn.softmax(logits)
        entropy = -tf.reduce_mean(tf.reduce_sum(probs * tf.nn.log_softmax(logits), -1))
        v_loss = tf.reduce_mean(tf.square(tf.squeeze(value(s), -1) - ret))
        loss = surrogate - ENTROPY * entropy + VALUE * v_loss
    grads = tape.gradient(loss, variables)
    grads, _ = tf.clip_by_global_norm(grads, 0.5)
    optimizer.apply_gradients(zip(grads, variables))
    clip_frac = tf.reduce_mean(tf.cast(tf.abs(ratio - 1.0) > CLIP, tf.float32))
    approx_kl = tf.reduce_mean(logp_old - logp)
    return surrogate, v_loss, entropy, clip_frac, approx_kl


for epoch in range(4):
    for start in range(0, N, 16):
        sl = slice(start, start + 16)
        out = update(states[sl], actions[sl], old_logp[sl], adv[sl], returns[sl])
    print(
        "epoch",
        epoch,
        " ".join(
            f"{name} {float(v):.5f}"
            for name, v in zip(["surrogate", "value", "entropy", "clipped", "kl"], out)
        ),
    )
print("traces", update.experimental_get_tracing_count())
print("greedy actions", tf.argmax(policy(states[:8]), -1).numpy().tolist())
