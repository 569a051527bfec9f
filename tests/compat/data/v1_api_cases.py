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

# compat.v1.train: optimizers' trajectories, schedules, moving averages, the global step
_TRAJECTORY = """
w = tf.get_variable('w', initializer=np.float32([[0.5, -1.5], [2.0, 0.25]]))
b = tf.get_variable('b', initializer=np.float32([0.1, -0.3]))
x = tf.constant(np.float32([[1.0, -2.0], [0.5, 3.0], [-1.0, 0.2]]))
loss = tf.reduce_sum(tf.square(tf.matmul(x, w) + b - 0.3))
opt = {optimizer}
train = opt.minimize(loss, global_step=tf.train.get_or_create_global_step())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(6):
        sess.run(train)
    result = [sess.run([w, b, loss]), sorted(v.name for v in tf.global_variables()),
              sess.run(tf.train.get_global_step())]
"""
OPTIMIZERS = {
    "adadelta": "tf.train.AdadeltaOptimizer(1.0)",
    "adadelta_rho": "tf.train.AdadeltaOptimizer(0.5, rho=0.8, epsilon=1e-4)",
    "ftrl": "tf.train.FtrlOptimizer(0.3)",
    "ftrl_l1_l2": "tf.train.FtrlOptimizer(0.3, l1_regularization_strength=0.05, "
    "l2_regularization_strength=0.1)",
    "ftrl_power_shrinkage_beta": "tf.train.FtrlOptimizer(0.2, learning_rate_power=-0.7, "
    "initial_accumulator_value=0.5, l2_shrinkage_regularization_strength=0.05, beta=0.3, "
    "accum_name='acc', linear_name='lin')",
    "proximal_gd": "tf.train.ProximalGradientDescentOptimizer(0.1, "
    "l1_regularization_strength=0.02, l2_regularization_strength=0.05)",
    "proximal_adagrad": "tf.train.ProximalAdagradOptimizer(0.3, l1_regularization_strength=0.01, "
    "l2_regularization_strength=0.02)",
    "proximal_adagrad_plain": "tf.train.ProximalAdagradOptimizer(0.3, initial_accumulator_value=1.0)",
}
GRAPH.update(
    {f"optimizer_{name}": _TRAJECTORY.format(optimizer=code) for name, code in OPTIMIZERS.items()}
)
GRAPH.update(
    {
        "schedules": """
step = tf.placeholder(tf.int64, [])
rates = [
    tf.train.natural_exp_decay(0.1, step, 5, 0.5),
    tf.train.natural_exp_decay(0.1, step, 5, 0.5, staircase=True),
    tf.train.cosine_decay(0.1, step, 20, alpha=0.1),
    tf.train.cosine_decay_restarts(0.1, step, 4),
    tf.train.cosine_decay_restarts(0.1, step, 4, t_mul=1.0, m_mul=0.5, alpha=0.05),
    tf.train.linear_cosine_decay(0.1, step, 20, num_periods=2.0, alpha=0.1, beta=0.01),
    tf.train.noisy_linear_cosine_decay(0.1, step, 20, initial_variance=0.0),
    tf.train.piecewise_constant_decay(step, [3, 9], [1.0, 0.5, 0.25]),
]
with tf.Session() as sess:
    result = [sess.run(rates, {step: s}) for s in [0, 1, 3, 4, 7, 12, 25, 40]]
""",
        "moving_average": """
w = tf.Variable(np.float32([1.0, 2.0]), name='w')
v = tf.Variable(5.0, name='v')
t = tf.multiply(tf.reduce_sum(w), 2.0, name='t')
step = tf.Variable(0, name='step', trainable=False)
ema = tf.train.ExponentialMovingAverage(0.9, num_updates=step)
update = ema.apply([w, v, t])
debiased = tf.train.ExponentialMovingAverage(0.8, zero_debias=True, name='debias')
update2 = debiased.apply([t])
with tf.control_dependencies([update, update2]):
    train = tf.group(tf.assign_add(w, [1.0, -1.0]), tf.assign_add(step, 1))
names = [ema.average(w).name, ema.average_name(v), ema.average(t).name,
         sorted(ema.variables_to_restore().keys()),
         [x.name for x in tf.moving_average_variables()]]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    seen = [sess.run([ema.average(w), ema.average(v), ema.average(t), debiased.average(t)])]
    for _ in range(4):
        sess.run(train)
        seen.append(sess.run([ema.average(w), ema.average(v), ema.average(t),
                              debiased.average(t)]))
    result = [names, seen]
""",
        "global_step_helpers": """
s = tf.train.get_or_create_global_step()
inc = tf.assign_add(s, 5)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(inc)
    result = [tf.train.global_step(sess, s), s.name, s.dtype.name,
              tf.train.get_global_step() is s]
tf.train.assert_global_step(s)
""",
        "assert_global_step_float": "tf.train.assert_global_step(tf.Variable(1.0))",
    }
)
EAGER.update(
    {
        "coordinator_keeps_first_exception": """
import threading
coord = tf.train.Coordinator()
def worker(i):
    with coord.stop_on_exception():
        if i == 1:
            raise ValueError('worker 1 failed')
        while not coord.should_stop():
            coord.wait_for_stop(0.01)
threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
for t in threads:
    t.start()
try:
    coord.join(threads)
    result = 'no error'
except ValueError as e:
    result = [str(e), coord.should_stop(), coord.joined]
""",
        "coordinator_clear_stop": """
coord = tf.train.Coordinator()
coord.request_stop()
before = coord.should_stop()
coord.clear_stop()
result = [before, coord.should_stop(), coord.wait_for_stop(0.01)]
""",
        "looper_thread": """
coord = tf.train.Coordinator()
ticks = []
def tick(n):
    ticks.append(n)
    if len(ticks) == 4:
        coord.request_stop()
t = tf.train.LooperThread.loop(coord, None, tick, args=(7,))
coord.join([t])
result = [ticks, t.is_alive()]
""",
        "ema_eager": """
w = tf.Variable([1.0, 3.0])
ema = tf.train.ExponentialMovingAverage(0.5)
ema.apply([w])
w.assign([3.0, 1.0])
ema.apply([w])
result = [ema.average(w).numpy(), ema.average(w).name]
""",
        "ema_eager_tensor": "tf.train.ExponentialMovingAverage(0.5).apply([tf.constant(1.0)])",
    }
)

# tf.nn's TF1 spellings and the functions TensorFlow 2 dropped
IMG = "np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2) / 10.0"
KER = "np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 2, 2, 3)"
EAGER.update(
    {
        "nn_conv2d_filter": f"result = tf.nn.conv2d({IMG}, filter={KER}, strides=[1, 2, 1, 1], "
        "padding='SAME', use_cudnn_on_gpu=False)",
        "nn_conv2d_dilations": f"result = tf.nn.conv2d({IMG}, filters={KER}, strides=1, "
        "padding='VALID', dilations=[1, 2, 1, 1])",
        "nn_conv1d_value": "result = tf.nn.conv1d(value=np.float32([[[1, 2], [3, 4], [5, 6]]]), "
        "filters=np.float32([[[1], [0]], [[0.5], [-1]]]), stride=1, padding='SAME')",
        "nn_conv2d_transpose_value": "result = tf.nn.conv2d_transpose(value=np.ones([1, 2, 2, 3], "
        f"np.float32), filter={KER}, output_shape=[1, 4, 4, 2], strides=[1, 2, 2, 1])",
        "nn_conv2d_backprop_input": f"result = tf.nn.conv2d_backprop_input([1, 4, 4, 2], {KER}, "
        "np.ones([1, 3, 3, 3], np.float32), [1, 1, 1, 1], 'VALID')",
        "nn_conv2d_backprop_filter": f"result = tf.nn.conv2d_backprop_filter({IMG}, [2, 2, 2, 3], "
        "np.ones([1, 2, 4, 3], np.float32), [1, 2, 1, 1], 'SAME')",
        "nn_pools_value": f"result = [tf.nn.max_pool(value={IMG}, ksize=[1, 2, 2, 1], "
        f"strides=[1, 2, 2, 1], padding='VALID'), tf.nn.avg_pool({IMG}, [1, 3, 3, 1], [1, 1, 1, 1], "
        f"'SAME'), tf.nn.avg_pool2d({IMG}, ksize=2, strides=2, padding='VALID')]",
        "nn_avg_pool2d_needs_value": f"tf.nn.avg_pool2d(input={IMG}, ksize=2, strides=2, padding='VALID')",
        "nn_pools_v2": f"result = [tf.nn.max_pool_v2({IMG}, 2, 2, 'VALID'), "
        "tf.nn.avg_pool_v2(np.float32([[[1], [2], [4]]]), 2, 1, 'VALID')]",
        "nn_moments_keep_dims": f"result = tf.nn.moments({IMG}, [0, 1, 2], keep_dims=True)",
        "nn_weighted_xent_targets": "result = tf.nn.weighted_cross_entropy_with_logits("
        "targets=[1.0, 0.0, 1.0], logits=[0.5, -1.0, 2.0], pos_weight=3.0)",
        "nn_xw_plus_b": "result = tf.nn.xw_plus_b(np.float32([[1, 2], [3, -4]]), "
        "np.float32([[0.5, -1], [1, 2]]), np.float32([0.1, -0.2]))",
        "nn_relu_layer": "result = tf.nn.relu_layer(np.float32([[1, 2], [3, -4]]), "
        "np.float32([[0.5, -1], [1, 2]]), np.float32([0.1, -0.2]))",
        "nn_in_top_k": "result = [tf.nn.in_top_k(np.float32([[0.1, 0.8, 0.1], [0.3, 0.3, 0.4], "
        "[0.5, 0.5, 0.0], [np.nan, 1, 2]]), [1, 0, 1, 0], 1), tf.math.in_top_k("
        "np.float32([[0.1, 0.8, 0.1], [0.3, 0.3, 0.4]]), [0, 0], k=2)]",
        "nn_embedding_mod": "shards = [np.float32([[0, 0], [3, 3], [6, 6]]), np.float32([[1, 1], [4, 4]]), "
        "np.float32([[2, 2], [5, 5]])]\n"
        "result = [tf.nn.embedding_lookup(shards, [0, 4, 5, 6, 2]), "
        "tf.nn.embedding_lookup(shards, [[1, 3]], partition_strategy='div')]",
        "nn_embedding_max_norm": "result = tf.nn.embedding_lookup(np.float32([[3, 4], [0.3, 0.4]]), "
        "[0, 1], max_norm=1.0)",
        "nn_fused_batch_norm_training": f"result = tf.nn.fused_batch_norm({IMG}, [1.0, 2.0], [0.0, 0.5])",
        "nn_fused_batch_norm_average": f"result = tf.nn.fused_batch_norm({IMG}, [1.0, 2.0], [0.0, 0.5], "
        "mean=[1.0, 1.0], variance=[2.0, 2.0], exponential_avg_factor=0.3)",
        "nn_fused_batch_norm_inference": f"result = tf.nn.fused_batch_norm({IMG}, [1.0, 2.0], [0.0, 0.5], "
        "mean=[1.0, 1.5], variance=[0.5, 2.0], epsilon=0.0, is_training=False)",
        "nn_fused_batch_norm_nchw": "result = tf.nn.fused_batch_norm("
        f"np.transpose({IMG}, (0, 3, 1, 2)), [1.0, 2.0], [0.0, 0.5], data_format='NCHW')",
        "nn_batch_norm_global": "result = [tf.nn.batch_norm_with_global_normalization("
        "np.float32([1, 2, 3]), 1.0, 4.0, 0.5, 3.0, 0.001, True), "
        "tf.nn.batch_norm_with_global_normalization(input=np.float32([1, 2, 3]), mean=1.0, "
        "variance=4.0, beta=0.5, gamma=3.0, variance_epsilon=0.001, scale_after_normalization=False)]",
        "math_v1_reductions": "x = np.float32([[1, 5, 3], [4, 2, 6]])\n"
        "result = [tf.math.reduce_sum(x, reduction_indices=[1], keep_dims=True), "
        "tf.math.reduce_max(x, 0), tf.math.argmax(x, dimension=1), tf.math.softmax(x, dim=0)]",
    }
)
GRAPH.update(
    {
        "nn_graph_gradients": f"""
x = tf.placeholder(tf.float32, [None, 4, 4, 2])
k = tf.get_variable('k', initializer={KER})
y = tf.nn.conv2d(x, filter=k, strides=[1, 1, 1, 1], padding='SAME')
z, m, v = tf.nn.fused_batch_norm(y, tf.ones([3]), tf.zeros([3]))
loss = tf.reduce_sum(tf.square(tf.nn.relu_layer(tf.reshape(z, [-1, 3]), tf.ones([3, 2]), [0.1, 0.2])))
grads = tf.gradients(loss, [x, k])
back = tf.nn.conv2d_backprop_filter(x, [2, 2, 2, 3], tf.ones_like(y), [1, 1, 1, 1], 'SAME')
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result = sess.run([loss, grads, m, back], {{x: {IMG}}})
""",
    }
)

# tf.layers (TensorFlow 2.21 routes tf.compat.v1.layers to tf_keras' legacy layers: the
# goldens are made with TF_USE_LEGACY_KERAS=1 and tf_keras 2.21, see make_v1_api_goldens.py)
LAYERS = {
    "layers_dense_mlp": """
x = tf.placeholder(tf.float32, [None, 3])
h = tf.layers.dense(x, 4, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(
    np.linspace(-1, 1, 12).reshape(3, 4)), bias_initializer=tf.constant_initializer(0.1))
y = tf.layers.dense(h, 2, kernel_initializer=tf.initializers.identity(),
                    kernel_regularizer=lambda w: 0.1 * tf.reduce_sum(tf.abs(w)), name='out')
loss = tf.reduce_mean(tf.square(y)) + tf.losses.get_regularization_loss()
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: np.float32([[1, 2, 3], [-1, 0.5, 2]])}
    before = sess.run(loss, feed)
    for _ in range(3):
        sess.run(train, feed)
    result = [[v.name for v in tf.trainable_variables()], y.shape.as_list(), before,
              sess.run([loss, y], feed), len(tf.losses.get_regularization_losses())]
""",
    "layers_dense_reuse_and_class": """
x = tf.constant(np.float32([[1, 2], [3, 4]]))
init = tf.constant_initializer([[0.5, -1.0], [1.5, 2.0]])
a = tf.layers.dense(x, 2, kernel_initializer=init, name='shared')
b = tf.layers.dense(x * 2.0, 2, name='shared', reuse=True)
c = tf.layers.dense(tf.ones([1, 2, 2]), 2, kernel_initializer=init)
layer = tf.layers.Dense(1, use_bias=False, kernel_initializer=tf.ones_initializer())
d1, d2 = layer(x), layer.apply(x + 1.0)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result = [[v.name for v in tf.global_variables()], sess.run([a, b, c, d1, d2]),
              layer.name, [w.name for w in layer.trainable_weights], c.shape.as_list()]
""",
    "layers_conv_pool_flatten": """
x = tf.constant(np.arange(2 * 6 * 6 * 2, dtype=np.float32).reshape(2, 6, 6, 2) / 50.0)
k = tf.constant_initializer(np.linspace(-0.5, 0.5, 3 * 3 * 2 * 4))
h = tf.layers.conv2d(x, 4, 3, padding='same', activation=tf.nn.relu, kernel_initializer=k)
p = tf.layers.max_pooling2d(h, 2, 2)
q = tf.layers.average_pooling2d(h, pool_size=3, strides=2, padding='same')
s = tf.layers.conv2d(x, 3, [2, 3], strides=(2, 1), kernel_initializer=tf.ones_initializer(),
                     bias_initializer=tf.constant_initializer(-1.0), name='strided')
f = tf.layers.flatten(p)
t = tf.layers.conv2d_transpose(p, 2, 2, strides=2, kernel_initializer=tf.ones_initializer())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result = [[v.name for v in tf.global_variables()],
              [a.shape.as_list() for a in (h, p, q, s, f, t)], sess.run([f, q, s, t])]
""",
    "layers_conv1d_pool1d": """
x = tf.constant(np.linspace(-1, 1, 2 * 7 * 3, dtype=np.float32).reshape(2, 7, 3))
h = tf.layers.conv1d(x, 2, 3, kernel_initializer=tf.constant_initializer(
    np.linspace(-1, 1, 18)), dilation_rate=2)
p = tf.layers.max_pooling1d(x, 2, 2, padding='same')
a = tf.layers.average_pooling1d(x, 3, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result = [h.shape.as_list(), sess.run([h, p, a])]
""",
    "layers_batch_norm_training": """
x = tf.placeholder(tf.float32, [None, 3])
training = tf.placeholder_with_default(False, [])
y = tf.layers.batch_normalization(x, momentum=0.9, training=training,
                                  gamma_initializer=tf.constant_initializer(2.0))
loss = tf.reduce_sum(tf.square(y - 1.0))
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
data = np.float32([[1, 2, 3], [2, 0, 1], [4, 1, -1], [0, 3, 2]])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    seen = []
    for _ in range(3):
        _, l = sess.run([train, loss], {x: data, training: True})
        seen.append(l)
    names = sorted(v.name for v in tf.global_variables())
    result = [names, len(update_ops), seen, sess.run(y, {x: data}),
              sess.run([v for v in tf.global_variables() if 'moving' in v.name])]
""",
    "layers_batch_norm_conv_fused": """
x = tf.constant(np.linspace(-2, 3, 2 * 3 * 3 * 2, dtype=np.float32).reshape(2, 3, 3, 2))
bn = tf.layers.BatchNormalization(momentum=0.5)
y = bn(x, training=True)
with tf.control_dependencies(bn.updates):
    done = tf.identity(y)
z = bn(x, training=False)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(done)
    result = [sess.run([bn.moving_mean, bn.moving_variance]), sess.run(z)[0, 0],
              len(bn.updates), [w.name for w in bn.weights], bn.name]
""",
    "layers_dropout": """
x = tf.constant(np.float32([[1, 2], [3, 4]]))
d0 = tf.layers.dropout(x, 0.5)
d1 = tf.layers.dropout(x, rate=0.25, training=tf.constant(False))
kept = tf.layers.dropout(tf.ones([1000]), 0.5, training=True, seed=3)
with tf.Session() as sess:
    k = sess.run(kept)
    result = [sess.run([d0, d1]), sorted(set(np.round(k, 4).tolist())),
              bool(300 < np.count_nonzero(k) < 700)]
""",
    "layers_dense_needs_known_last_dimension": """
tf.layers.dense(tf.placeholder(tf.float32, [None, None]), 2)
""",
    "layers_conv_bad_padding": "tf.layers.conv2d(tf.ones([1, 4, 4, 1]), 1, 2, padding='full')",
}

# TF1 names whose TF2 home is another namespace (compat.v1 reaches them there)
EAGER.update(
    {
        "v1_linalg_names": "m = np.float32([[4, 1], [1, 3]])\n"
        "result = [tf.matrix_inverse(m), tf.matrix_determinant(m), tf.self_adjoint_eigvals(m), "
        "tf.matrix_transpose(np.float32([[1, 2]])), tf.matrix_band_part(np.ones((3, 3), "
        "np.float32), 0, 1), tf.matrix_diag([1.0, 2.0]), tf.matrix_diag_part(m), "
        "tf.cholesky(m), tf.matrix_solve(m, np.float32([[1], [2]])), "
        "tf.matrix_triangular_solve(np.float32([[2, 0], [1, 1]]), np.float32([[2], [3]])), "
        "tf.global_norm([np.float32([3, 4]), np.float32([12])]), tf.svd(m, compute_uv=False)]",
        "v1_check_numerics": "tf.check_numerics(np.float32([1, np.nan]), 'found a NaN')",
    }
)

# monitored sessions and their hooks
GRAPH.update(
    {
        "hooks_nan_loss_fails": """
c = tf.placeholder(tf.float32, [])
loss = tf.log(c)
values = iter([2.0, 1.0, -1.0, 3.0])
seen = []
hooks = [tf.train.NanTensorHook(loss), tf.train.FeedFnHook(lambda: {c: next(values)})]
try:
    with tf.train.MonitoredSession(hooks=hooks) as sess:
        while not sess.should_stop():
            seen.append(sess.run(loss))
except tf.train.NanLossDuringTrainingError as error:
    result = [seen, str(error)]
""",
        "hooks_nan_loss_stops": """
c = tf.placeholder(tf.float32, [])
loss = tf.log(c)
values = iter([2.0, 1.0, -1.0, 3.0])
hooks = [tf.train.NanTensorHook(loss, False), tf.train.FeedFnHook(lambda: {c: next(values)})]
seen = []
with tf.train.SingularMonitoredSession(hooks=hooks) as sess:
    while not sess.should_stop():
        seen.append(sess.run(loss))
    raw = sess.raw_session()
    result = [seen, raw.run(loss, {c: 1.0}), sess.should_stop()]
""",
        "monitored_stop_iteration_and_scaffold": """
v = tf.get_variable('v', initializer=5.0)
step = tf.train.get_or_create_global_step()
inc = tf.assign_add(step, 1)
calls = []
scaffold = tf.train.Scaffold(init_fn=lambda scaffold, sess: calls.append(sess.run(v)))
with tf.train.MonitoredSession(tf.train.ChiefSessionCreator(scaffold=scaffold)) as sess:
    for _ in range(10):
        if sess.run(inc) == 3:
            raise StopIteration
result = [calls, sess.should_stop(), scaffold.init_op.type]
""",
        "hooks_feed_conflict": """
x = tf.placeholder(tf.float32, [])
with tf.train.MonitoredSession(hooks=[tf.train.FeedFnHook(lambda: {x: 1.0})]) as sess:
    sess.run(x * 2.0, feed_dict={x: 3.0})
""",
        "stop_at_step_needs_global_step": "tf.train.StopAtStepHook(num_steps=2).begin()",
    }
)
EAGER.update(
    {
        "stop_at_step_arguments": "tf.train.StopAtStepHook(num_steps=2, last_step=4)",
        "timer_arguments": "tf.train.SecondOrStepTimer()",
        "timer_steps": "t = tf.train.SecondOrStepTimer(every_steps=2)\n"
        "a = [t.should_trigger_for_step(s) for s in range(3)]\n"
        "first = t.update_last_triggered_step(1)\n"
        "result = [a, list(first), [t.should_trigger_for_step(s) for s in range(1, 5)], "
        "t.last_triggered_step()]",
    }
)

# sparse variable updates and the other v1 variable helpers
EAGER.update(
    {
        "scatter_eager": "v = tf.Variable([1.0, 2.0, 3.0, 4.0])\n"
        "a = tf.scatter_update(v, [0, 2], [10.0, 30.0]).numpy()\n"
        "b = tf.scatter_add(v, [1, 1, 3], [1.0, 2.0, 3.0]).numpy()\n"
        "c = tf.scatter_sub(v, [0], [5.0]).numpy()\n"
        "m = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\n"
        "d = tf.scatter_nd_update(m, [[0, 1], [1, 0]], [7.0, 8.0]).numpy()\n"
        "e = tf.scatter_nd_add(m, [[1]], [[1.0, 1.0]]).numpy()\n"
        "f = tf.scatter_nd_sub(m, [[0, 0]], [0.5]).numpy()\n"
        "result = [a, b, c, d, e, f, v.numpy(), m.numpy()]",
        "tensor_scatter_v1_names": "t = np.float32([1, 2, 3])\n"
        "result = [tf.tensor_scatter_update(t, [[1]], [9.0]), tf.tensor_scatter_add(t, [[0], [0]], "
        "[1.0, 1.0]), tf.tensor_scatter_sub(t, [[2]], [3.0])]",
        "reverse_where_v2": "result = [tf.reverse_v2(np.float32([[1, 2], [3, 4]]), [1]), "
        "tf.where_v2([True, False], [1.0, 2.0], 0.0)]",
        "count_up_to_eager": "c = tf.Variable(0)\n"
        "result = [int(tf.count_up_to(c, 3)) for _ in range(3)] + [int(c.numpy())]",
        "no_regularizer": "result = tf.no_regularizer(np.float32([1.0]))",
        "colocate_and_container": "with tf.colocate_with(None, ignore_existing=True):\n"
        "    with tf.container('box') as name:\n"
        "        result = [name, float(tf.constant(1.0) + 1.0)]",
    }
)
GRAPH.update(
    {
        "scatter_graph": """
v = tf.get_variable('v', initializer=np.float32([1, 2, 3, 4]))
up = tf.scatter_update(v, [3, 0], [40.0, 10.0])
add = tf.scatter_add(v, tf.constant([1, 1]), [0.5, 0.25])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result = [sess.run(up), sess.run(add), sess.run(v)]
""",
        "count_up_to_graph": """
c = tf.get_variable('c', initializer=0)
nxt = tf.count_up_to(c, 2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    values = [sess.run(nxt), sess.run(nxt)]
    try:
        sess.run(nxt)
        result = [values, 'no error']
    except Exception:
        result = [values, 'error', sess.run(c)]
""",
        "assert_variables_initialized_graph": """
a = tf.Variable(1.0)
b = tf.Variable(2.0)
check = tf.assert_variables_initialized([a, b])
one = tf.assert_variables_initialized([a])
with tf.Session() as sess:
    sess.run([a.initializer, b.initializer])
    result = [sess.run(check), sess.run(one), tf.assert_variables_initialized([]) is None]
""",
    }
)

# TF1's signatures of functions TF2 changed, and VariableScope's methods
EAGER.update(
    {
        "v1_constant_verify_shape": "result = [tf.constant([1.0, 2.0], shape=[2], "
        "verify_shape=True), tf.constant(7.0, shape=[2, 2])]",
        "v1_constant_verify_shape_fails": "tf.constant([1.0, 2.0], shape=[4], verify_shape=True)",
        "v1_convert_preferred_dtype": "result = [tf.convert_to_tensor(3, preferred_dtype=tf.int64)"
        ".dtype.name, tf.convert_to_tensor(3.0, preferred_dtype=tf.int64).dtype.name]",
        "v1_norm_keep_dims": "result = [tf.norm(np.float32([[3, 4], [6, 8]]), axis=1, keep_dims=True), "
        "tf.norm(np.float32([1, -2]), ord=1)]",
        "v1_like_and_trace": "result = [tf.ones_like(tensor=np.int32([[1, 2]])), "
        "tf.zeros_like([1.5], dtype=tf.float64, optimize=False), "
        "tf.trace(np.float32([[[1, 2], [3, 4]], [[5, 0], [0, 5]]]))]",
        "v1_tensor_scatter_policy": "result = [tf.tensor_scatter_add([1.0, 2.0], [[0], [5], [1]], "
        "[1.0, 7.0, 2.0], bad_indices_policy='IGNORE'), tf.tensor_scatter_sub(np.float32([[1, 2], "
        "[3, 4]]), [[1], [-1]], np.float32([[1, 1], [9, 9]]), bad_indices_policy='IGNORE')]",
        "v1_tensor_scatter_policy_unknown": "tf.tensor_scatter_add([1.0], [[0]], [1.0], "
        "bad_indices_policy='SKIP')",
    }
)
GRAPH.update(
    {
        "variable_scope_object_methods": """
with tf.variable_scope('block') as scope:
    scope.set_initializer(tf.constant_initializer(3.0))
    scope.set_regularizer(lambda v: tf.reduce_sum(v))
    a = tf.get_variable('a', [2])
    scope.set_dtype(tf.float64)
    b = tf.get_variable('b', [1])
with tf.variable_scope(scope, reuse=True):
    c = tf.get_variable('a')
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result = [scope.name, scope.reuse, a.name, b.dtype.name, c.name, sess.run([a, b, c]),
              len(tf.losses.get_regularization_losses())]
""",
    }
)

# TF1's assertions (data= shows extra items on failure)
EAGER.update(
    {
        "v1_asserts_pass": "result = [tf.assert_less(1.0, 2.0), tf.assert_greater_equal([2, 3], 2), "
        "tf.assert_near(1.0, 1.0 + 1e-8, data=['close']), tf.assert_non_negative([0.0, 1.0], "
        "data=['x']), tf.assert_none_equal(1, 2, data=[]), tf.assert_integer([1, 2]), "
        "tf.assert_rank_at_least([[1.0]], 2), tf.assert_rank_in([1.0], (1, 3)), "
        "tf.assert_scalar(3.0).numpy()]",
        "v1_assert_data_fails": "tf.assert_equal([1, 2], [1, 3], data=['mismatch', tf.constant(7)])",
        "v1_assert_positive_fails": "tf.assert_positive([1.0, -1.0], message='bad')",
        "v1_assert_integer_fails": "tf.assert_integer([1.0])",
        "v1_assert_scalar_fails": "tf.assert_scalar([1.0, 2.0])",
        "v1_assert_rank_at_least_fails": "tf.assert_rank_at_least([1.0], 2)",
        "v1_assert_rank_in_fails": "tf.assert_rank_in([1.0], (0, 2))",
    }
)
GRAPH.update(
    {
        "v1_assert_in_graph": """
x = tf.placeholder(tf.float32, [None])
check = tf.assert_less(x, 5.0, data=['x too large', x])
with tf.control_dependencies([check]):
    y = tf.identity(x) * 2.0
with tf.Session() as sess:
    ok = sess.run(y, {x: [1.0, 2.0]})
    try:
        sess.run(y, {x: [1.0, 9.0]})
        result = [ok, 'no error']
    except tf.errors.InvalidArgumentError:
        result = [ok, 'InvalidArgumentError']
""",
    }
)

# more TF1 names: space/depth blocks, lin_space, count_nonzero, clipping, finiteness
EAGER.update(
    {
        "v1_space_depth": "x = np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3)\n"
        "s = tf.space_to_depth(x, 2)\n"
        "result = [s, tf.depth_to_space(s, 2)]",
        "v1_depth_to_space_indivisible": "tf.nn.depth_to_space(np.ones((1, 2, 2, 3), np.float32), 2)",
        "v1_space_to_depth_indivisible": "tf.space_to_depth(np.ones((1, 3, 4, 1), np.float32), 2)",
        "v1_space_depth_gradient": "x = tf.constant(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))\n"
        "with tf.GradientTape() as tape:\n"
        "    tape.watch(x)\n"
        "    y = tf.reduce_sum(tf.space_to_depth(x, 2) * np.arange(4, dtype=np.float32))\n"
        "result = tape.gradient(y, x)",
        "v1_lin_space_count_nonzero": "result = [tf.lin_space(1.0, 2.0, 5), "
        "tf.count_nonzero([[0, 1, 2], [0, 0, 3]], reduction_indices=1, keep_dims=True), "
        "tf.count_nonzero(input=[0.0, 1.5], dtype=tf.int32), tf.math.count_nonzero([1, 0, 1])]",
        "v1_clip_by_average_norm": "result = [tf.clip_by_average_norm(np.float32([3, 4]), 1.0), "
        "tf.clip_by_average_norm(np.float32([[0.3, 0.4]]), 1.0)]",
        "v1_verify_finite": "tf.verify_tensor_all_finite(np.float32([1, np.inf]), 'not finite')",
    }
)
GRAPH.update(
    {
        "adam_own_namescope": """
w = tf.get_variable('w', initializer=np.float32([1.0, 2.0]))
opt = tf.train.AdamOptimizer(0.1, use_own_namescope_for_non_slot_vars=True)
train = opt.minimize(tf.reduce_sum(tf.square(w)))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train)
    result = [sorted(v.name for v in tf.global_variables()), sess.run(w)]
""",
    }
)
