"""The tensors whose TF1 ``tf.Print`` output tests/compat/test_v1_print.py compares with
real TensorFlow's (data/print_goldens.json, made by data/make_print_goldens.py): name ->
(list of (value, dtype name), summarize or None). Plain data: no TensorFlow import here."""

import numpy as np

_THIRD = 1 / 3
CASES = {
    "matrix": ([([[1, 2], [3, 4]], "int32")], None),
    "matrix_all": ([([[1, 2], [3, 4]], "int32")], 4),
    "matrix_one": ([([[1, 2], [3, 4]], "int32")], 1),
    "floats": ([([[1.5, 2.25, 3.0], [4.0, 5.0, 6.0]], "float32")], 5),
    "rank3": ([(np.arange(24).reshape(2, 3, 4).tolist(), "int32")], None),
    "rank3_five": ([(np.arange(12).reshape(3, 2, 2).tolist(), "int32")], 5),
    "rank3_all": ([(np.arange(24).reshape(2, 3, 4).tolist(), "int64")], 100),
    "vector": ([(list(range(10)), "int32")], None),
    "vector_two": ([(list(range(10)), "int32")], 2),
    "vector_none": ([(list(range(10)), "int32")], 0),
    "vector_every": ([(list(range(10)), "int32")], -1),
    "scalar": ([(3.5, "float32")], None),
    "bools": ([([[True, False]], "bool")], None),
    "empty": ([(np.zeros((0, 3)).tolist(), "float32")], None),
    "column": ([([[1], [2], [3], [4]], "int32")], 2),
    "several": ([([[1, 2], [3, 4]], "int32"), (3.5, "float32"), (list(range(10)), "int64")], 4),
    "float_digits": ([([[-1.5, 2e10], [1e-7, 0.1]], "float32")], None),
    "specials": ([([_THIRD, float("nan"), float("inf"), -float("inf"), -0.0], "float32")], 10),
    "doubles": ([([0.1, _THIRD], "float64")], None),
    "halves": ([([0.1, _THIRD], "float16")], None),
    "unsigned": ([([1, 255], "uint8")], None),
}
