"""What TensorFlow 1's namespace shares with retrograd's: every public name of ``retrograd``
(its ops, ``nn``, ``linalg``, ...) and, as at TensorFlow 1's top level, of ``retrograd.math``
(``log``, ``rsqrt``, ``squared_difference``, ...). Looked up when asked for, so a name
added to retrograd is there without a second list; a name retrograd lacks raises an
AttributeError that says so. TensorFlow 1 names whose TensorFlow 2 home is another
namespace (``matrix_inverse`` is ``linalg.inv``) are found there (``V1_HOMES``).

>>> shared_value("matmul", "tf.compat.v1").__name__
'matmul'
>>> import retrograd
>>> shared_value("matrix_inverse", "tf.compat.v1") is retrograd.linalg.inv
True
>>> shared_value("no_such_op", "tf.compat.v1")
Traceback (most recent call last):
...
AttributeError: retrograd does not implement tf.compat.v1.no_such_op
"""

from __future__ import annotations

from typing import Any

__all__ = ["V1_HOMES", "shared_names", "shared_value"]

# TensorFlow 1 top-level names whose TensorFlow 2 home is another namespace (the object
# there is the one TensorFlow 1 exports): compat.v1 reaches them in retrograd's namespace of
# that name, when retrograd has it. Listed from TensorFlow 2.21's own objects.
V1_HOMES: dict[str, str] = {
    "COMPILER_VERSION": "version.COMPILER_VERSION",
    "CXX11_ABI_FLAG": "sysconfig.CXX11_ABI_FLAG",
    "CXX_VERSION": "sysconfig.CXX_VERSION",
    "FIFOQueue": "queue.FIFOQueue",
    "FixedLenFeature": "io.FixedLenFeature",
    "FixedLenSequenceFeature": "io.FixedLenSequenceFeature",
    "GIT_VERSION": "version.GIT_VERSION",
    "GRAPH_DEF_VERSION": "version.GRAPH_DEF_VERSION",
    "GRAPH_DEF_VERSION_MIN_CONSUMER": "version.GRAPH_DEF_VERSION_MIN_CONSUMER",
    "GRAPH_DEF_VERSION_MIN_PRODUCER": "version.GRAPH_DEF_VERSION_MIN_PRODUCER",
    "MONOLITHIC_BUILD": "sysconfig.MONOLITHIC_BUILD",
    "OpError": "errors.OpError",
    "PaddingFIFOQueue": "queue.PaddingFIFOQueue",
    "PriorityQueue": "queue.PriorityQueue",
    "QUANTIZED_DTYPES": "dtypes.QUANTIZED_DTYPES",
    "QueueBase": "queue.QueueBase",
    "RandomShuffleQueue": "queue.RandomShuffleQueue",
    "SparseFeature": "io.SparseFeature",
    "VERSION": "version.VERSION",
    "VarLenFeature": "io.VarLenFeature",
    "accumulate_n": "math.accumulate_n",
    "angle": "math.angle",
    "assert_proper_iterable": "debugging.assert_proper_iterable",
    "assert_same_float_dtype": "debugging.assert_same_float_dtype",
    "betainc": "math.betainc",
    "ceil": "math.ceil",
    "check_numerics": "debugging.check_numerics",
    "cholesky": "linalg.cholesky",
    "cholesky_solve": "linalg.cholesky_solve",
    "conj": "math.conj",
    "cross": "linalg.cross",
    "cumprod": "math.cumprod",
    "decode_base64": "io.decode_base64",
    "decode_compressed": "io.decode_compressed",
    "decode_json_example": "io.decode_json_example",
    "dequantize": "quantization.dequantize",
    "deserialize_many_sparse": "io.deserialize_many_sparse",
    "diag": "linalg.tensor_diag",
    "diag_part": "linalg.tensor_diag_part",
    "digamma": "math.digamma",
    "div_no_nan": "math.divide_no_nan",
    "encode_base64": "io.encode_base64",
    "erf": "math.erf",
    "erfc": "math.erfc",
    "expm1": "math.expm1",
    "fake_quant_with_min_max_args": "quantization.fake_quant_with_min_max_args",
    "fake_quant_with_min_max_args_gradient": "quantization.fake_quant_with_min_max_args_gradient",
    "fake_quant_with_min_max_vars": "quantization.fake_quant_with_min_max_vars",
    "fake_quant_with_min_max_vars_gradient": "quantization.fake_quant_with_min_max_vars_gradient",
    "fake_quant_with_min_max_vars_per_channel": (
        "quantization.fake_quant_with_min_max_vars_per_channel"
    ),
    "fake_quant_with_min_max_vars_per_channel_gradient": (
        "quantization.fake_quant_with_min_max_vars_per_channel_gradient"
    ),
    "fft": "signal.fft",
    "fft2d": "signal.fft2d",
    "fft3d": "signal.fft3d",
    "floordiv": "math.floordiv",
    "floormod": "math.floormod",
    "global_norm": "linalg.global_norm",
    "ifft": "signal.ifft",
    "ifft2d": "signal.ifft2d",
    "ifft3d": "signal.ifft3d",
    "igamma": "math.igamma",
    "igammac": "math.igammac",
    "imag": "math.imag",
    "invert_permutation": "math.invert_permutation",
    "is_finite": "math.is_finite",
    "is_inf": "math.is_inf",
    "is_nan": "math.is_nan",
    "is_non_decreasing": "math.is_non_decreasing",
    "is_numeric_tensor": "debugging.is_numeric_tensor",
    "is_strictly_increasing": "math.is_strictly_increasing",
    "lbeta": "math.lbeta",
    "lgamma": "math.lgamma",
    "log": "math.log",
    "log1p": "math.log1p",
    "log_sigmoid": "math.log_sigmoid",
    "logical_xor": "math.logical_xor",
    "matching_files": "io.matching_files",
    "matrix_band_part": "linalg.band_part",
    "matrix_determinant": "linalg.det",
    "matrix_diag": "linalg.diag",
    "matrix_diag_part": "linalg.diag_part",
    "matrix_inverse": "linalg.inv",
    "matrix_set_diag": "linalg.set_diag",
    "matrix_solve": "linalg.solve",
    "matrix_solve_ls": "linalg.lstsq",
    "matrix_transpose": "linalg.matrix_transpose",
    "matrix_triangular_solve": "linalg.triangular_solve",
    "mod": "math.floormod",
    "parse_single_sequence_example": "io.parse_single_sequence_example",
    "parse_tensor": "io.parse_tensor",
    "polygamma": "math.polygamma",
    "qr": "linalg.qr",
    "quantize": "quantization.quantize",
    "quantized_concat": "quantization.quantized_concat",
    "random_crop": "image.random_crop",
    "random_gamma": "random.gamma",
    "random_normal": "random.normal",
    "random_shuffle": "random.shuffle",
    "random_uniform": "random.uniform",
    "read_file": "io.read_file",
    "real": "math.real",
    "reciprocal": "math.reciprocal",
    "regex_replace": "strings.regex_replace",
    "rint": "math.rint",
    "rsqrt": "math.rsqrt",
    "segment_max": "math.segment_max",
    "segment_mean": "math.segment_mean",
    "segment_min": "math.segment_min",
    "segment_prod": "math.segment_prod",
    "segment_sum": "math.segment_sum",
    "self_adjoint_eig": "linalg.eigh",
    "self_adjoint_eigvals": "linalg.eigvalsh",
    "serialize_tensor": "io.serialize_tensor",
    "sparse_fill_empty_rows": "sparse.fill_empty_rows",
    "sparse_mask": "sparse.mask",
    "sparse_maximum": "sparse.maximum",
    "sparse_minimum": "sparse.minimum",
    "sparse_reorder": "sparse.reorder",
    "sparse_reset_shape": "sparse.reset_shape",
    "sparse_reshape": "sparse.reshape",
    "sparse_retain": "sparse.retain",
    "sparse_slice": "sparse.slice",
    "sparse_softmax": "sparse.softmax",
    "sparse_tensor_dense_matmul": "sparse.sparse_dense_matmul",
    "sparse_tensor_to_dense": "sparse.to_dense",
    "sparse_to_indicator": "sparse.to_indicator",
    "sparse_transpose": "sparse.transpose",
    "squared_difference": "math.squared_difference",
    "string_join": "strings.join",
    "string_strip": "strings.strip",
    "string_to_hash_bucket_fast": "strings.to_hash_bucket_fast",
    "string_to_hash_bucket_strong": "strings.to_hash_bucket_strong",
    "svd": "linalg.svd",
    "trace": "linalg.trace",
    "truncated_normal": "random.truncated_normal",
    "unsorted_segment_max": "math.unsorted_segment_max",
    "unsorted_segment_mean": "math.unsorted_segment_mean",
    "unsorted_segment_min": "math.unsorted_segment_min",
    "unsorted_segment_prod": "math.unsorted_segment_prod",
    "unsorted_segment_sqrt_n": "math.unsorted_segment_sqrt_n",
    "unsorted_segment_sum": "math.unsorted_segment_sum",
    "write_file": "io.write_file",
    "zeta": "math.zeta",
}


def _sources(part: str) -> list[Any]:
    import retrograd  # the top level: imported when a name is asked for, never at import

    if part:
        return [getattr(retrograd, part)]
    return [retrograd, retrograd.math]


def _home(name: str) -> Any:
    """The object a TF1 name stands for in its TF2 home (``V1_HOMES``), else None."""
    import retrograd

    path = V1_HOMES.get(name)
    if path is None:
        return None
    value: Any = retrograd
    for part in path.split("."):
        namespace_names = getattr(value, "__all__", None)
        if namespace_names is not None and part not in namespace_names:
            return None
        value = getattr(value, part, None)
        if value is None:
            return None
    return value


def shared_names(part: str = "") -> list[str]:
    """The names reachable through the sources of ``part`` (``""``: the top level and
    ``math``, and the TF1 names of ``V1_HOMES`` that retrograd has; else that namespace of
    retrograd: ``"nn"`` for ``tf.nn``)."""
    names: set[str] = set()
    for module in _sources(part):
        names.update(module.__all__)
    if not part:
        names.update(n for n in V1_HOMES if _home(n) is not None)
    return sorted(names)


def shared_value(name: str, namespace: str, part: str = "") -> Any:
    """The value of ``name`` in the first source of ``part`` that has it; else an
    AttributeError naming ``namespace.name``."""
    if not name.startswith("__"):
        for module in _sources(part):
            if name in module.__all__:
                return getattr(module, name)
        found = None if part else _home(name)
        if found is not None:
            return found
    raise AttributeError(f"retrograd does not implement {namespace}.{name}")
