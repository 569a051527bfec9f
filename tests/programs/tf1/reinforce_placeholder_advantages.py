"""REINFORCE with a baseline in a TF1 graph: episodes of a small chain environment are rolled
out in Python with sess.run for the action probabilities (actions chosen by a NumPy
RandomState), discounted returns computed in NumPy, and the policy-gradient loss
-mean(log pi(a|s) * (G - b)) built from placeholders for actions and advantages; the
baseline is a learned state-value trained on the same batch."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(53)
N_STATES, N_ACTIONS, HORIZON, GAMMA = 5, 2, 6, 0.9
W_INIT = rs.normal(scale=0.1, size=(N_STATES, N_ACTIONS)).astype(np.float32)


def step_env(state, action):
    nxt = min(state + 1, N_STATES - 1) if action == 1 else max(state - 1, 0)
    return nxt, (1.0 if nxt == N_STATES - 1 else -0.05)


s_ph = tf.placeholder(tf.int32, [None], name="states")
a_ph = tf.placeholder(tf.int32, [None], name="actions")
adv_ph = tf.placeholder(tf.float32, [None], name="advantages")
ret_ph = tf.placeholder(tf.float32, [None], name="returns")
one_hot = tf.one_hot(s_ph, N_STATES)
w = tf.Variable(W_INIT, name="policy")
v = tf.Variable(tf.zeros([N_STATES, 1]), name="value")
logits = tf.matmul(one_hot, w)
probs = tf.nn.softmax(logits)
neg_logp = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=a_ph, logits=logits)
pg_loss = tf.reduce_mean(neg_logp * adv_ph)
baseline = tf.squeeze(tf.matmul(one_hot, v), 1)
v_loss = tf.reduce_mean(tf.square(ret_ph - baseline))
train = tf.group(
    tf.train.GradientDescentOptimizer(0.5).minimize(pg_loss, var_list=[w]),
    tf.train.GradientDescentOptimizer(0.2).minimize(v_loss, var_list=[v]),
)
pg_grad = tf.gradients(pg_loss, w)[0]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for it in range(8):
        states, actions, returns = [], [], []
        for _episode in range(4):
            s, ep_s, ep_a, ep_r = 0, [], [], []
            for _t in range(HORIZON):
                p = sess.run(probs, {s_ph: [s]})[0]
                a = int(rs.uniform() < p[1])
                s2, r = step_env(s, a)
                ep_s.append(s), ep_a.append(a), ep_r.append(r)
                s = s2
            g, ep_g = 0.0, []
            for r in reversed(ep_r):
                g = r + GAMMA * g
                ep_g.append(g)
            states += ep_s
            actions += ep_a
            returns += ep_g[::-1]
        b = sess.run(baseline, {s_ph: states})
        feed = {s_ph: states, a_ph: actions, adv_ph: np.array(returns) - b, ret_ph: returns}
        loss, grad_norm = sess.run([pg_loss, tf.norm(pg_grad)], feed)
        sess.run(train, feed)
        print(
            f"iter {it} mean return {np.mean(returns):.4f} pg loss {loss:.5f} "
            f"grad norm {grad_norm:.5f} right-moves {np.mean(actions):.3f}"
        )
    print("p(right | s)", np.round(sess.run(probs, {s_ph: list(range(N_STATES))})[:, 1], 4))
    print("values", np.round(sess.run(v).ravel(), 4))
