"""Black–Scholes call price and its greeks by tf.gradients: delta, vega, rho, theta (first
order) and gamma, vanna, volga (second order)."""

import numpy as np
import tensorflow as tf

spot = tf.placeholder(tf.float64, [None], name="spot")
vol = tf.placeholder(tf.float64, [None], name="vol")
rate = tf.placeholder(tf.float64, [None], name="rate")
expiry = tf.placeholder(tf.float64, [None], name="expiry")
strike = tf.constant(100.0, tf.float64)


def norm_cdf(z):
    return 0.5 * (1.0 + tf.math.erf(z / np.sqrt(2.0)))


sqrt_t = tf.sqrt(expiry)
d1 = (tf.log(spot / strike) + (rate + 0.5 * vol**2) * expiry) / (vol * sqrt_t)
d2 = d1 - vol * sqrt_t
price = spot * norm_cdf(d1) - strike * tf.exp(-rate * expiry) * norm_cdf(d2)
delta, vega, rho, theta = tf.gradients(price, [spot, vol, rate, expiry])
gamma, vanna = tf.gradients(delta, [spot, vol])
volga = tf.gradients(vega, vol)[0]

feed = {
    spot: [90.0, 100.0, 110.0],
    vol: [0.2, 0.25, 0.3],
    rate: [0.01, 0.02, 0.03],
    expiry: [0.5, 1.0, 2.0],
}
with tf.Session() as sess:
    for name, t in [
        ("price", price),
        ("delta", delta),
        ("vega", vega),
        ("rho", rho),
        ("theta", -theta),
        ("gamma", gamma),
        ("vanna", vanna),
        ("volga", volga),
    ]:
        print(name, sess.run(t, feed))
