"""The DDPG actor update as TF1 code wrote it: the critic's gradient with respect to the
action (tf.gradients(Q, action)) is fed back through a placeholder and used as grad_ys of
tf.gradients(actor_output, actor_params, -action_gradient), averaged over the batch and
applied by AdamOptimizer.apply_gradients; the critic is trained on TD targets from target
networks updated softly (tau) with tf.assign."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(41)
S, A, N = 3, 2, 16
states = rs.normal(size=(N, S)).astype(np.float32)
next_states = rs.normal(size=(N, S)).astype(np.float32)
rewards = rs.normal(size=(N, 1)).astype(np.float32)
taken = rs.uniform(-1, 1, size=(N, A)).astype(np.float32)


def dense(name, x, n_out, act=None):
    w = tf.get_variable(
        name + "_w",
        initializer=rs.normal(scale=0.4, size=(int(x.shape[1]), n_out)).astype(np.float32),
    )
    b = tf.get_variable(name + "_b", initializer=np.zeros(n_out, np.float32))
    y = tf.matmul(x, w) + b
    return act(y) if act else y


def actor(s, scope):
    with tf.variable_scope(scope):
        return dense("out", dense("h", s, 8, tf.nn.relu), A, tf.tanh)


def critic(s, a, scope):
    with tf.variable_scope(scope, reuse=tf.AUTO_REUSE):
        return dense("q", dense("h", tf.concat([s, a], 1), 8, tf.nn.relu), 1)


s_ph = tf.placeholder(tf.float32, [None, S])
s2_ph = tf.placeholder(tf.float32, [None, S])
a_ph = tf.placeholder(tf.float32, [None, A])
r_ph = tf.placeholder(tf.float32, [None, 1])
mu = actor(s_ph, "actor")
mu_target = actor(s2_ph, "target_actor")
q = critic(s_ph, a_ph, "critic")
q_target = critic(s2_ph, mu_target, "target_critic")

actor_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="actor")
critic_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="critic")
targets = [
    tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope=s)
    for s in ("target_actor", "target_critic")
]
y = r_ph + 0.9 * tf.stop_gradient(q_target)
critic_loss = tf.reduce_mean(tf.square(y - q))
critic_train = tf.train.AdamOptimizer(1e-2).minimize(critic_loss, var_list=critic_vars)

action_grads = tf.gradients(q, a_ph)[0]
dq_da = tf.placeholder(tf.float32, [None, A])
batch = tf.cast(tf.shape(s_ph)[0], tf.float32)
actor_grads = [g / batch for g in tf.gradients(mu, actor_vars, -dq_da)]
actor_train = tf.train.AdamOptimizer(1e-2).apply_gradients(zip(actor_grads, actor_vars))

TAU = 0.1
soft_update = tf.group(
    *[
        t.assign(TAU * o + (1 - TAU) * t)
        for o, t in zip(actor_vars + critic_vars, targets[0] + targets[1])
    ]
)
hard_init = tf.group(
    *[t.assign(o) for o, t in zip(actor_vars + critic_vars, targets[0] + targets[1])]
)

print("actor vars", [v.name for v in actor_vars])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(hard_init)
    feed = {s_ph: states, s2_ph: next_states, r_ph: rewards, a_ph: taken}
    for step in range(6):
        c_loss = sess.run(critic_loss, feed)  # (fetched with the train op, it may see either)
        sess.run(critic_train, feed)
        actions = sess.run(mu, {s_ph: states})
        grads = sess.run(action_grads, {s_ph: states, a_ph: actions})
        sess.run(actor_train, {s_ph: states, dq_da: grads})
        sess.run(soft_update)
        q_pi = sess.run(tf.reduce_mean(q), {s_ph: states, a_ph: sess.run(mu, {s_ph: states})})
        print(
            f"step {step} critic {c_loss:.5f} Q(s, mu(s)) {q_pi:.5f} |dQ/da| {np.abs(grads).mean():.5f}"
        )
    print("policy", np.round(sess.run(mu, {s_ph: states[:3]}), 4))
