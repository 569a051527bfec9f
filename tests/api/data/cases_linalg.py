"""tf.linalg's LU family, eig, least squares, ranks, banded/tridiagonal products and solves,
matrix functions: values, gradients (TensorFlow's) and errors. Plain code: no TensorFlow
import here."""

GRADS = """
def grads(f, *xs):
    xs = [tf.constant(x, tf.float64) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = f(*xs)
    return [y, tape.gradient(y, xs)]
"""

A = "[[1.0, 2.0, 0.0], [3.0, 1.0, 1.0], [0.0, 4.0, 2.0]]"

CASES = {
    "lu": f"""
lu, p = tf.linalg.lu(tf.constant({A}))
lu64, p64 = tf.linalg.lu(tf.constant({A}, tf.float64), output_idx_type=tf.int64)
result = [lu, p, p64, tf.linalg.lu_reconstruct(lu, p), tf.linalg.lu_matrix_inverse(lu, p),
          tf.linalg.lu_solve(lu, p, [[1.0], [2.0], [3.0]])]
""",
    "lu_batch": """
x = tf.constant([[[4.0, 3.0], [6.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
lu, p = tf.linalg.lu(x)
result = [lu, p, tf.linalg.lu_reconstruct(lu, p), tf.linalg.lu_solve(lu, p, tf.ones([2, 2, 1]))]
""",
    "lu_singular": "tf.linalg.lu(tf.zeros([2, 2]))",
    "lu_not_square": "tf.linalg.lu(tf.zeros([2, 3]))",
    "lu_no_gradient": f"""
x = tf.constant({A})
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(tf.linalg.lu(x).lu)
tape.gradient(y, x)
""",
    "lu_solve_gradients": GRADS
    + f"""
lu, p = tf.linalg.lu(tf.constant({A}, tf.float64))
result = grads(lambda lu, b: tf.linalg.lu_solve(lu, p, b), lu.numpy(), [[1.0], [2.0], [3.0]])
""",
    "eig": GRADS
    + """
e, v = tf.linalg.eig(tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64))
result = [e, tf.abs(v), tf.linalg.eigvals(tf.constant([[0.0, -1.0], [1.0, 0.0]])),
          tf.eigvals(tf.constant([[2.0, 1.0], [0.0, 3.0]], tf.float64)),
          grads(lambda a: tf.math.real(tf.linalg.eigvals(a)), [[1.0, 2.0], [3.0, 4.0]])[1],
          grads(lambda a: tf.abs(tf.linalg.eig(a)[1]) ** 2, [[1.0, 2.0], [3.0, 4.0]])[1],
          grads(lambda a: tf.math.imag(tf.linalg.eigvals(a)) ** 2, [[1.0, -2.0], [3.0, 1.0]])[1]]
""",
    "cholesky_solve_lstsq": GRADS
    + """
chol = tf.linalg.cholesky(tf.constant([[2.0, 1.0], [1.0, 3.0]]))
a, b = [[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]], [[1.0], [2.0], [2.0]]
result = [tf.linalg.cholesky_solve(chol, [[1.0], [2.0]]), tf.linalg.lstsq(a, b),
          tf.linalg.lstsq(a, b, fast=False), tf.linalg.lstsq(a, b, l2_regularizer=0.5),
          tf.linalg.lstsq([[1.0, 2.0, 0.5]], [[1.0]]),
          grads(lambda a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.25), a, b)]
""",
    "lstsq_slow_gradient": """
a = tf.constant([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
with tf.GradientTape() as tape:
    tape.watch(a)
    y = tf.linalg.lstsq(a, [[1.0], [2.0], [2.0]], fast=False)
tape.gradient(y, a)
""",
    "rank_normalize": """
result = [tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]])),
          tf.linalg.matrix_rank(tf.eye(3, batch_shape=[2])),
          tf.linalg.matrix_rank(tf.constant([[1.0, 0.0], [0.0, 1e-3]]), tol=1e-2),
          tf.linalg.normalize(tf.constant([3.0, 4.0])),
          tf.linalg.normalize(tf.constant([[3.0, 4.0], [1.0, 1.0]]), ord=1, axis=1)]
""",
    "tensor_diag": """
result = [tf.linalg.tensor_diag([1, 2]), tf.linalg.tensor_diag([[1.0, 2.0], [3.0, 4.0]]),
          tf.linalg.tensor_diag_part(tf.reshape(tf.range(16), [2, 2, 2, 2])),
          tf.linalg.tensor_diag_part([[1, 5], [7, 2]])]
""",
    "tridiagonal": GRADS
    + """
d = [[1.0, 2.0, 9.0], [3.0, 4.0, 5.0], [9.0, 6.0, 7.0]]
rhs = tf.constant([[1.0], [2.0], [3.0]])
dt = tf.constant(d)
result = [tf.linalg.tridiagonal_matmul(dt, rhs), tf.linalg.tridiagonal_solve(dt, rhs),
          tf.linalg.tridiagonal_solve(dt, tf.constant([1.0, 2.0, 3.0])),
          tf.linalg.tridiagonal_solve(dt, tf.constant([[1.0, 2.0, 3.0]]), transpose_rhs=True),
          tf.linalg.tridiagonal_solve([tf.constant([1.0, 2.0, 0.0]), tf.constant([3.0, 4.0, 5.0]),
                                       tf.constant([0.0, 6.0, 7.0])], rhs,
                                      diagonals_format="sequence"),
          tf.linalg.tridiagonal_solve(tf.constant([[3.0, 1.0, 0.0], [6.0, 4.0, 2.0],
                                                   [0.0, 7.0, 5.0]]), rhs,
                                      diagonals_format="matrix"),
          grads(lambda d, r: tf.linalg.tridiagonal_solve(d, r), d, rhs.numpy())[1],
          grads(lambda d, r: tf.linalg.tridiagonal_matmul(d, r), d, rhs.numpy())[1]]
""",
    "banded": GRADS
    + """
rhs = [[1.0], [2.0], [3.0]]
result = [tf.linalg.banded_triangular_solve([[1.0, 2.0, 3.0], [9.0, 4.0, 5.0]], rhs),
          tf.linalg.banded_triangular_solve([[4.0, 5.0, 9.0], [1.0, 2.0, 3.0]], rhs, lower=False),
          tf.linalg.banded_triangular_solve([[1.0, 2.0, 3.0], [9.0, 4.0, 5.0]], rhs,
                                            adjoint=True),
          grads(lambda b, r: tf.linalg.banded_triangular_solve(b, r),
                [[1.0, 2.0, 3.0], [0.0, 4.0, 5.0]], rhs)[1]]
""",
    "eigh_tridiagonal": """
a, b = tf.constant([1.0, 2.0, 3.0]), tf.constant([0.5, 0.5])
values, vectors = tf.linalg.eigh_tridiagonal(a, b, eigvals_only=False)
result = [tf.linalg.eigh_tridiagonal(a, b), values, tf.abs(vectors),
          tf.linalg.eigh_tridiagonal(a, b, select="i", select_range=[1, 2]),
          tf.linalg.eigh_tridiagonal(a, b, select="v", select_range=[1.5, 5.0])]
""",
    "sqrtm_logm": GRADS
    + """
result = [tf.linalg.sqrtm(tf.constant([[2.0, 1.0], [1.0, 3.0]])),
          tf.linalg.sqrtm(tf.constant([[-1.0, 0.0], [0.0, 1.0]])),
          tf.matrix_square_root(tf.constant([[4.0, 0.0], [0.0, 9.0]])),
          tf.linalg.logm(tf.constant([[2.0, 1.0], [1.0, 3.0]], tf.complex64)),
          grads(tf.linalg.sqrtm, [[2.0, 1.0], [0.5, 3.0]])[1]]
""",
    "logm_real": "tf.linalg.logm(tf.constant([[2.0, 1.0], [1.0, 3.0]]))",
}
