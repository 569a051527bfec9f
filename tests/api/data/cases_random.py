"""tf.random's seeds (split, fold_in, create_rng_state, Algorithm), stateless categorical
samples (TensorFlow's numbers), the other distributions' shapes, dtypes and ranges, and the
candidate samplers. Plain code: no TensorFlow import here."""

CASES = {
    "seeds": """
result = [tf.random.split([1, 2]), tf.random.split(tf.constant([1, 2], tf.int64), 3),
          tf.random.fold_in([1, 2], 7), tf.random.fold_in(tf.constant([3, 4], tf.int64),
                                                          tf.constant(7, tf.int64)),
          tf.random.experimental.stateless_split([5, 6], 1),
          tf.random.experimental.stateless_fold_in([5, 6], 9),
          tf.random.create_rng_state(5, "philox"), tf.random.create_rng_state([5, 6], "threefry"),
          tf.random.create_rng_state(2**70, 1), tf.random.create_rng_state(-1, "philox"),
          [repr(a) for a in tf.random.Algorithm], tf.random.Algorithm(2).name]
""",
    "bad_algorithm": "tf.random.split([1, 2], alg='mersenne')",
    "stateless_categorical": """
logits = tf.math.log([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]])
result = [tf.random.stateless_categorical(logits, 6, seed=[1, 2]),
          tf.random.stateless_categorical(logits[:1], 5, seed=[3, 4], dtype=tf.int32),
          tf.random.stateless_categorical(tf.constant([[0.0, float("-inf"), 1.0]], tf.float64), 7,
                                          seed=tf.constant([9, 8], tf.int64))]
""",
    "shapes_and_dtypes": """
def sig(t):
    return [t.shape.as_list(), t.dtype.name]

result = [sig(tf.random.gamma([2], [1.0, 5.0], seed=1)),
          sig(tf.random.gamma([3], 2.0, beta=[1.0, 2.0], dtype=tf.float64, seed=1)),
          sig(tf.random.stateless_gamma([3, 2], [1, 2], alpha=[1.0, 5.0])),
          sig(tf.random.poisson([3], [0.5, 10.0], seed=1)),
          sig(tf.random.poisson([3], 2.0, dtype=tf.int64, seed=1)),
          sig(tf.random.stateless_poisson([4, 2], [1, 2], lam=[3.0, 1.0])),
          sig(tf.random.stateless_binomial([5], [1, 2], counts=3.0, probs=0.5)),
          sig(tf.random.stateless_binomial([5], [1, 2], counts=3.0, probs=0.5,
                                           output_dtype=tf.float32)),
          sig(tf.random.stateless_parameterized_truncated_normal([4], [1, 2], 0.0, 1.0, -0.5,
                                                                0.5))]
""",
    "gamma_shape_mismatch": "tf.random.stateless_gamma([3], [1, 2], alpha=[1.0, 2.0])",
    "samplers": """
def sig(s):
    return [[t.shape.as_list(), t.dtype.name] for t in s]

u = tf.random.uniform_candidate_sampler([[1, 2], [3, 4]], 2, 3, False, 10, seed=1)
lu = tf.random.log_uniform_candidate_sampler([[1, 2], [3, 4]], 2, 3, False, 10, seed=1)
f = tf.random.fixed_unigram_candidate_sampler([[1], [3]], 1, 3, False, 4, unigrams=[1.0, 2.0,
                                              3.0, 4.0], distortion=0.5, seed=1)
a = tf.random.all_candidate_sampler([[1, 2]], 2, 3, True)
result = [sig(u), u.true_expected_count, lu.true_expected_count, f.true_expected_count,
          sig(tf.nn.learned_unigram_candidate_sampler([[1], [3]], 1, 3, True, 4, seed=1)),
          a.sampled_candidates, a.true_expected_count, a.sampled_expected_count]
""",
    "all_sampler_out_of_range": "tf.random.all_candidate_sampler([[1, 2], [3, 4]], 2, 3, True)",
}
