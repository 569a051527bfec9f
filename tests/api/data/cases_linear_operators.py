"""tf.linalg's LinearOperators: their matrices, products, solves, determinants, hints,
shapes and derived operators as TensorFlow gives them. Plain code: no TensorFlow import."""

SUMMARY = """
def summary(op, x=None):
    n = int(op.shape[-1])
    x = tf.reshape(tf.range(1, n * 2 + 1, dtype=tf.float32), [n, 2]) if x is None else x
    x = tf.cast(x, op.dtype)
    out = [op.to_dense(), op.shape.as_list(), op.batch_shape.as_list(), int(op.domain_dimension),
           int(op.range_dimension), int(op.tensor_rank), op.shape_tensor(), op.is_square,
           op.is_self_adjoint, op.is_non_singular, op.is_positive_definite, op.dtype.name,
           op.matmul(x), op.matmul(x, adjoint=True), op.matvec(x[:, 0]), op.diag_part(),
           op.trace(), op.add_to_tensor(tf.ones(op.shape, op.dtype)), op.adjoint().to_dense(),
           op.H.to_dense()]
    if op.is_square and op.is_non_singular is not False:
        out += [op.solve(x), op.solve(x, adjoint=True), op.solvevec(x[:, 0]), op.determinant(),
                op.log_abs_determinant(), op.inverse().to_dense()]
    return out
"""

M = "[[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]"

CASES = {
    "full_matrix": SUMMARY
    + f"""
op = tf.linalg.LinearOperatorFullMatrix({M}, is_self_adjoint=True, is_positive_definite=True)
result = summary(op) + [op.eigvals(), op.cond(), op.cholesky().to_dense(), op.matrix]
""",
    "full_matrix_batch": SUMMARY
    + """
m = tf.constant([[[2.0, 1.0], [0.0, 3.0]], [[1.0, 0.0], [4.0, 5.0]]])
op = tf.linalg.LinearOperatorFullMatrix(m)
result = [op.shape.as_list(), op.batch_shape.as_list(), op.determinant(), op.log_abs_determinant(),
          op.matvec([1.0, 1.0]), op.solvevec([1.0, 1.0]), op.cond(), op.is_square]
""",
    "diag": SUMMARY
    + """
op = tf.linalg.LinearOperatorDiag([2.0, -3.0, 4.0])
result = summary(op) + [op.eigvals(), op.diag, op.is_self_adjoint]
""",
    "diag_cholesky": """
op = tf.linalg.LinearOperatorDiag([4.0, 9.0], is_positive_definite=True)
result = [op.cholesky().to_dense(), op.inverse().to_dense()]
""",
    "lower_triangular": SUMMARY
    + f"""
op = tf.linalg.LinearOperatorLowerTriangular({M})
result = summary(op) + [op.tril]
""",
    "identity_scaled_zeros": SUMMARY
    + """
i = tf.linalg.LinearOperatorIdentity(3, batch_shape=[2])
s = tf.linalg.LinearOperatorScaledIdentity(3, 2.5)
z = tf.linalg.LinearOperatorZeros(2, 3, is_square=False, is_self_adjoint=False)
result = [i.to_dense(), i.shape.as_list(), i.matvec([1.0, 2.0, 3.0]), i.determinant(),
          i.log_abs_determinant(), i.add_to_tensor(tf.ones([2, 3, 3])), summary(s),
          s.multiplier, z.to_dense(), z.shape.as_list(), z.is_square,
          z.matvec([1.0, 1.0, 1.0]), z.add_to_tensor(tf.ones([2, 3]))]
""",
    "permutation_householder_toeplitz": SUMMARY
    + """
p = tf.linalg.LinearOperatorPermutation([2, 0, 1])
h = tf.linalg.LinearOperatorHouseholder([1.0, 2.0, 2.0])
t = tf.linalg.LinearOperatorToeplitz([1.0, 2.0, 3.0], [9.0, 4.0, 5.0])
result = [summary(p), p.perm, summary(h), h.reflection_axis, summary(t), t.col, t.row]
""",
    "tridiag": SUMMARY
    + """
op = tf.linalg.LinearOperatorTridiag(tf.constant([[1.0, 2.0, 0.0], [3.0, 4.0, 5.0],
                                                  [0.0, 6.0, 7.0]]))
result = summary(op) + [op.diagonals_format]
""",
    "circulant": SUMMARY
    + """
c = tf.linalg.LinearOperatorCirculant(tf.constant([6.0, -2.0, -2.0], tf.complex64),
                                      input_output_dtype=tf.float32)
c2 = tf.linalg.LinearOperatorCirculant2D(tf.constant([[4.0, 1.0], [1.0, 2.0]], tf.complex64),
                                         input_output_dtype=tf.float32)
c3 = tf.linalg.LinearOperatorCirculant3D(tf.ones([2, 2, 2], tf.complex64))
result = [c.to_dense(), c.matvec([1.0, 2.0, 3.0]), c.block_depth, c.block_shape.as_list(),
          c.convolution_kernel(), c2.to_dense(), c2.shape.as_list(), c2.block_depth,
          c3.to_dense(), c3.dtype.name, c.spectrum, c.determinant()]
""",
    "made_of_others": SUMMARY
    + f"""
a = tf.linalg.LinearOperatorFullMatrix({M})
d = tf.linalg.LinearOperatorDiag([2.0, 3.0])
comp = tf.linalg.LinearOperatorComposition([a, tf.linalg.LinearOperatorDiag([1.0, 2.0, 3.0])])
adj = tf.linalg.LinearOperatorAdjoint(tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]]))
inv = tf.linalg.LinearOperatorInversion(a)
block = tf.linalg.LinearOperatorBlockDiag([d, a])
kron = tf.linalg.LinearOperatorKronecker([d, tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [0.5, 1.0]])])
tri = tf.linalg.LinearOperatorBlockLowerTriangular([[d], [tf.linalg.LinearOperatorFullMatrix(
    [[1.0, 1.0], [0.0, 1.0]]), d]])
result = [summary(comp), summary(adj), adj.operator.to_dense(), summary(inv), summary(block),
          len(block.operators), summary(kron), tri.to_dense(), tri.determinant(),
          (a @ d.adjoint() if False else a.matmul(a)).to_dense()]
""",
    "low_rank_update": SUMMARY
    + """
base = tf.linalg.LinearOperatorDiag([1.0, 2.0, 3.0])
u = tf.constant([[1.0], [0.5], [0.0]])
op = tf.linalg.LinearOperatorLowRankUpdate(base, u, diag_update=[2.0])
op2 = tf.linalg.LinearOperatorLowRankUpdate(base, u, v=tf.constant([[0.0], [1.0], [1.0]]))
result = [summary(op), op.u, op.v, op.diag_update, op.is_self_adjoint, op2.to_dense(),
          op.diag_operator.to_dense(), op2.base_operator.to_dense()]
""",
    "gradients": """
m = tf.constant([[4.0, 1.0], [0.5, 3.0]])
d = tf.constant([2.0, -3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([m, d])
    a = tf.linalg.LinearOperatorFullMatrix(m)
    b = tf.linalg.LinearOperatorDiag(d)
    y1 = a.log_abs_determinant()
    y2 = tf.reduce_sum(b.solvevec([1.0, 1.0]))
    y3 = tf.reduce_sum(tf.linalg.LinearOperatorComposition([a, b]).matvec([1.0, 2.0]))
result = [tape.gradient(y1, m), tape.gradient(y2, d), tape.gradient(y3, [m, d])]
""",
    "eigvals_not_self_adjoint": "tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]]).eigvals()",
    "cholesky_not_pd": "tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]]).cholesky()",
    "inverse_singular": "tf.linalg.LinearOperatorZeros(2).inverse()",
    "diag_not_self_adjoint": "tf.linalg.LinearOperatorDiag([1.0], is_self_adjoint=False)",
    "pd_singular": "tf.linalg.LinearOperatorFullMatrix([[1.0]], is_positive_definite=True, is_non_singular=False)",
    "determinant_not_square": "tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0]]).determinant()",
    "assertions": """
ok = tf.linalg.LinearOperatorFullMatrix([[2.0, 1.0], [1.0, 2.0]], is_self_adjoint=True)
result = [ok.assert_non_singular() is None, ok.assert_positive_definite() is None,
          ok.assert_self_adjoint() is None]
""",
    "assert_singular": "tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [2.0, 4.0]]).assert_non_singular()",
}
