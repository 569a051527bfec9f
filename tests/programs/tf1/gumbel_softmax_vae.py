"""A straight-through Gumbel-softmax VAE: categorical latent codes sampled with fixed
Gumbel noise, hard one-hot in the forward pass and the soft sample's gradient backwards
(y_hard - stop_gradient(y) + y), KL to a uniform prior, trained with RMSProp."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

rng = np.random.RandomState(5)
data = (rng.rand(6, 8) > 0.5).astype(np.float32)
gumbel = -np.log(-np.log(rng.uniform(1e-6, 1.0, (6, 3, 4)).astype(np.float32)))
N, K, TEMP = 3, 4, 0.7

x = tf.placeholder(tf.float32, [None, 8])
g = tf.placeholder(tf.float32, [None, N, K])
enc = tf.Variable((rng.randn(8, N * K) * 0.3).astype(np.float32), name="enc")
dec = tf.Variable((rng.randn(N * K, 8) * 0.3).astype(np.float32), name="dec")
logits = tf.reshape(tf.matmul(x, enc), [-1, N, K])
soft = tf.nn.softmax((logits + g) / TEMP)
hard = tf.one_hot(tf.argmax(soft, axis=-1), K)
code = tf.stop_gradient(hard - soft) + soft
recon_logits = tf.matmul(tf.reshape(code, [-1, N * K]), dec)
recon = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=recon_logits), 1)
q = tf.nn.softmax(logits)
kl = tf.reduce_sum(q * (tf.log(q + 1e-10) - np.log(1.0 / K)), [1, 2])
loss = tf.reduce_mean(recon + kl)
enc_grad = tf.gradients(loss, enc)[0]
train = tf.train.RMSPropOptimizer(0.01).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: data, g: gumbel}
    print("codes", sess.run(tf.argmax(code, -1), feed).ravel())
    print("encoder grad", sess.run(enc_grad, feed)[0])
    for step in range(10):
        _, lv = sess.run([train, loss], feed)
        if step % 3 == 0:
            print("step", step, "loss", lv)
    print("kl", sess.run(kl, feed))
