"""Snippets of TensorFlow 1 API use whose results tests/compat/test_v1_api.py compares with
real TensorFlow's (data/v1_api_goldens.json, made by data/make_v1_api_goldens.py). Each
snippet runs with ``tf`` (``tensorflow.compat.v1``, eager as TensorFlow 2 starts) and ``np``
in scope and sets ``result`` (numbers, arrays, strings, or lists of them); ``graph(...)``
snippets build a graph and set ``result`` from a Session. Shared by the golden maker and
the test (plain data: no TensorFlow import here)."""

L = "np.array([[1.0, 0.0, 2.0], [0.5, 1.5, 0.0]], np.float32)"
P = "np.array([[0.8, 0.3, 1.0], [1.0, 1.0, 0.5]], np.float32)"
W = "np.array([[1.0], [0.0]], np.float32)"
PROBS = "np.array([[0.9, 0.2, 0.6], [0.4, 0.7, 0.1]], np.float32)"
BIN = "np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]], np.float32)"

REDUCTIONS = ["NONE", "SUM", "MEAN", "SUM_OVER_BATCH_SIZE", "SUM_BY_NONZERO_WEIGHTS"]

EAGER = {
    # tf.losses: every function, default reduction, weights and the reductions
    "mse": f"result = tf.losses.mean_squared_error({L}, {P})",
    "mse_weights": f"result = tf.losses.mean_squared_error({L}, {P}, weights={W})",
    "mse_zero_weights": f"result = tf.losses.mean_squared_error({L}, {P}, weights=0.0)",
    "absolute_difference": f"result = tf.losses.absolute_difference({L}, {P}, weights=2.0)",
    "huber": f"result = tf.losses.huber_loss({L}, {P} * 3.0, delta=0.5)",
    "hinge": f"result = tf.losses.hinge_loss({BIN}, {P} - 0.5)",
    "log_loss": f"result = tf.losses.log_loss({BIN}, {PROBS})",
    "cosine": f"result = tf.losses.cosine_distance(tf.nn.l2_normalize({L}, 1), "
    f"tf.nn.l2_normalize({P}, 1), axis=1)",
    "cosine_dim": f"result = tf.losses.cosine_distance({L}, {P}, dim=0, weights=[[1.0, 2.0, 0.0]])",
    "pairwise": f"result = tf.losses.mean_pairwise_squared_error({L}, {P})",
    "pairwise_weights": f"result = tf.losses.mean_pairwise_squared_error({L}, {P}, weights=[2.0, 0.5])",
    "sigmoid_xent": f"result = tf.losses.sigmoid_cross_entropy({BIN}, {P})",
    "sigmoid_xent_smooth": f"result = tf.losses.sigmoid_cross_entropy({BIN}, {P}, label_smoothing=0.2)",
    "softmax_xent": f"result = tf.losses.softmax_cross_entropy({BIN} / {BIN}.sum(1, keepdims=True), {P})",
    "softmax_xent_smooth": "result = tf.losses.softmax_cross_entropy("
    f"np.eye(3, dtype=np.float32)[[0, 2]], {P}, weights=[1.0, 3.0], label_smoothing=0.1)",
    "sparse_xent": f"result = tf.losses.sparse_softmax_cross_entropy([2, 0], {P})",
    "sparse_xent_column": f"result = tf.losses.sparse_softmax_cross_entropy([[2], [1]], {P}, weights=[[0.5], [2.0]])",
    "compute_weighted_default": "result = tf.losses.compute_weighted_loss([1.0, 2.0, 3.0, 4.0], [1.0, 0.0, 2.0, 0.0])",
    **{
        f"reduction_{r}": f"result = tf.losses.compute_weighted_loss({L}, {W}, "
        f"reduction=tf.losses.Reduction.{r})"
        for r in REDUCTIONS
    },
    "reduction_keys": "result = list(tf.losses.Reduction.all())",
    "float64_loss": "result = str(tf.losses.compute_weighted_loss(np.array([1.0, 2.0])).dtype.name)",
    "eager_collection": f"tf.losses.mean_squared_error({L}, {P}); result = len(tf.losses.get_losses())",
    # tf.initializers, called TF1's way: init(shape, dtype, partition_info)
    "init_constant": "result = tf.initializers.constant([1.0, 2.0, 3.0, 4.0])([2, 2], None, None)",
    "init_constant_scalar": "result = tf.initializers.constant(7)([3], tf.float64, None)",
    "init_zeros_int": "result = tf.initializers.zeros()([2, 3], dtype=tf.int32)",
    "init_ones": "result = tf.initializers.ones(dtype=tf.float64)([2])",
    "init_identity": "result = tf.initializers.identity(gain=3.0)([2, 3], None, None)",
    "init_orthogonal_is_orthogonal": "q = tf.initializers.orthogonal(gain=2.0, seed=3)([5, 3]).numpy(); "
    "result = np.round(q.T @ q, 4)",
    "init_orthogonal_wide": "q = tf.initializers.orthogonal(seed=3)([2, 4]).numpy(); result = np.round(q @ q.T, 4)",
    "init_glorot_uniform_bound": "w = tf.initializers.glorot_uniform(seed=1)([30, 20]).numpy(); "
    "result = bool(np.abs(w).max() <= np.sqrt(6 / 50))",
    "init_he_uniform_bound": "w = tf.initializers.he_uniform(seed=1)([30, 20]).numpy(); "
    "result = [bool(np.abs(w).max() <= np.sqrt(6 / 30)), bool(np.abs(w).max() > np.sqrt(6 / 30) * 0.8)]",
    "init_lecun_uniform_bound": "w = tf.initializers.lecun_uniform(seed=1)([40, 20]).numpy(); "
    "result = [bool(np.abs(w).max() <= np.sqrt(3 / 40)), bool(np.abs(w).max() > np.sqrt(3 / 40) * 0.8)]",
    "init_unit_scaling_bound": "w = tf.initializers.uniform_unit_scaling(factor=2.0, seed=1)([3, 4, 5]).numpy(); "
    "result = [bool(np.abs(w).max() <= 2 * np.sqrt(3 / 12)), list(w.shape)]",
    "init_truncated_bound": "w = tf.initializers.truncated_normal(1.0, 0.5, seed=2)([500]).numpy(); "
    "result = bool(np.all(np.abs(w - 1.0) <= 1.0))",
    "init_variance_scaling_normal": "w = tf.initializers.variance_scaling(scale=2.0, mode='fan_out', "
    "distribution='untruncated_normal', seed=1)([3, 4]).numpy(); result = [list(w.shape), str(w.dtype)]",
    "init_he_normal_shape": "result = tf.initializers.he_normal(seed=1)([3, 3, 2, 4]).shape.as_list()",
    "init_identity_3d": "tf.initializers.identity()([2, 2, 2])",
    "init_orthogonal_1d": "tf.initializers.orthogonal()([4])",
    "init_orthogonal_int": "tf.initializers.orthogonal(dtype=tf.int32)",
    "init_variance_bad_mode": "tf.initializers.variance_scaling(mode='fan_sideways')",
    # get_variable eagerly (TensorFlow 2 makes a resource variable on each call)
    "get_variable_eager": "w = tf.get_variable('w', [2, 2], initializer=tf.ones_initializer()); "
    "w2 = tf.get_variable('w', [2, 2]); result = [w.name, w2 is w, w.trainable, w.numpy()]",
    "get_variable_eager_scope": "known = len(tf.global_variables())\n"
    "with tf.variable_scope('s'):\n"
    "    a = tf.get_variable('a', initializer=tf.constant([1.0, 2.0]))\n"
    "result = [a.name, a.numpy(), a.dtype.name, len(tf.global_variables()) - known]",
    "get_variable_eager_function_initializer": "def init(shape, dtype=None, partition_info=None):\n"
    "    return tf.ones(shape, dtype) * 2.0\n"
    "result = tf.get_variable('f', [3], dtype=tf.float64, initializer=init).numpy()",
    "get_variable_eager_int": "v = tf.get_variable('i', [2], dtype=tf.int32); result = [v.dtype.name, v.numpy()]",
    # py_func eagerly
    "py_func_eager": "result = tf.py_func(lambda a, b: a * b + 1.0, [np.float32([1, 2]), np.float32([3, 4])], tf.float32)",
    "py_func_eager_list": "result = tf.py_func(lambda a: (a, -a), [np.float64([1, 2])], [tf.float64, tf.float64])",
    "div_no_nan": "result = tf.div_no_nan([1.0, 2.0], [0.0, 4.0])",
    "to_complex64": "result = str(tf.to_complex64([1.0]).dtype.name)",
}

GRAPH = {
    "losses_collection_and_total": """
with tf.variable_scope('net', regularizer=lambda v: 0.5 * tf.reduce_sum(tf.square(v))):
    w = tf.get_variable('w', initializer=np.float32([1.0, -2.0]))
tf.losses.mean_squared_error([0.0, 1.0], w)
tf.losses.absolute_difference([0.0, 1.0], w, loss_collection='other')
tf.losses.add_loss(tf.constant(0.25))
total = tf.losses.get_total_loss()
reg = tf.losses.get_regularization_loss()
only = tf.losses.get_total_loss(add_regularization_losses=False)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result = [len(tf.losses.get_losses()), len(tf.losses.get_regularization_losses()),
              sess.run([total, reg, only]), len(tf.get_collection('other'))]
""",
    "losses_scope_filter": """
with tf.name_scope('a'):
    tf.losses.mean_squared_error([0.0], [1.0])
with tf.name_scope('b'):
    tf.losses.mean_squared_error([0.0], [2.0])
with tf.Session() as sess:
    result = [len(tf.losses.get_losses(scope='a')), sess.run(tf.losses.get_total_loss(scope='b'))]
""",
    "losses_gradient": """
x = tf.placeholder(tf.float32, [None, 3])
w = tf.get_variable('w', initializer=np.float32([[0.5, -0.2], [0.1, 0.3], [-0.4, 0.2]]))
logits = tf.matmul(x, w)
loss = (tf.losses.sparse_softmax_cross_entropy([1, 0], logits)
        + tf.losses.huber_loss([[1.0, 0.0], [0.0, 1.0]], logits, weights=[[1.0], [2.0]])
        + tf.losses.log_loss([[1.0, 0.0], [0.0, 1.0]], tf.sigmoid(logits)))
grad = tf.gradients(loss, w)[0]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result = sess.run([loss, grad], {x: np.float32([[1, 2, 3], [0.5, -1, 2]])})
""",
    "get_variable_initializer_convention": """
calls = []
def init(shape, dtype=None, partition_info=None):
    calls.append([list(shape), dtype.name, partition_info])
    return tf.zeros(shape, dtype) + 0.5
class Fill(object):
    def __call__(self, shape, dtype=None):
        return tf.fill(shape, tf.constant(3.0, dtype))
a = tf.get_variable('a', [2, 1], initializer=init)
b = tf.get_variable('b', [2], initializer=Fill())
c = tf.get_variable('c', initializer=lambda: tf.constant([4.0, 5.0]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result = [calls, sess.run([a, b, c])]
""",
    "initializers_in_graph": """
a = tf.get_variable('a', [2, 2], initializer=tf.initializers.identity(gain=2.0))
b = tf.get_variable('b', [4, 2], initializer=tf.orthogonal_initializer(seed=1))
c = tf.get_variable('c', [3], initializer=tf.constant_initializer(1.5), dtype=tf.float64)
with tf.Session() as sess:
    sess.run(tf.initializers.global_variables())
    q = sess.run(b)
    result = [sess.run(a), np.round(q.T @ q, 4), sess.run(c), c.dtype.name]
""",
    "variables_initializer_names": """
a = tf.Variable(1.0, name='a')
l = tf.get_local_variable('l', [], initializer=tf.zeros_initializer())
ready = tf.is_variable_initialized(a)
with tf.Session() as sess:
    before = sess.run(ready)
    sess.run(tf.initializers.variables([a]))
    sess.run(tf.initializers.local_variables())
    result = [before, sess.run(ready), sess.run(l), [v.name for v in tf.local_variables()],
              [v.name for v in tf.all_variables()], l.trainable,
              tf.initializers.tables_initializer().type]
""",
    "py_func_gradient_override": """
@tf.RegisterGradient('SquarePyGrad')
def _square_grad(op, grad):
    return grad * 2.0 * op.inputs[0]
x = tf.placeholder(tf.float32, [3])
g = tf.get_default_graph()
with g.gradient_override_map({'PyFunc': 'SquarePyGrad'}):
    y = tf.py_func(np.square, [x], tf.float32)
plain = tf.py_func(np.square, [x], tf.float32)
dy = tf.gradients(tf.reduce_sum(y * x), x)[0]
no_grad = tf.gradients(plain, x)[0]
with tf.Session() as sess:
    result = [y.op.type, sess.run(dy, {x: [1.0, 2.0, 3.0]}), no_grad is None,
              tf.py_func(np.abs, [x], tf.float32, stateful=False).op.type]
""",
    "py_func_list_in_graph": """
x = tf.constant([1.0, 2.0])
out = tf.py_func(lambda a: a + 1.0, [x], [tf.float32])
with tf.Session() as sess:
    result = [type(out).__name__, len(out), sess.run(out)]
""",
    "make_template_shares": """
def layer(x, units):
    w = tf.get_variable('w', [2, units], initializer=tf.constant_initializer(0.5))
    return tf.matmul(x, w)
t = tf.make_template('dense', layer, units=3)
y1 = t(tf.ones([1, 2]))
y2 = t(tf.ones([1, 2]) * 2.0)
t2 = tf.make_template('dense', layer, units=1)
y3 = t2(tf.ones([1, 2]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result = [[v.name for v in tf.global_variables()], sess.run([y1, y2, y3])]
""",
}
