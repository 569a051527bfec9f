"""The sequence_mask cases (lengths, maxlen, dtype) compared with TensorFlow."""

CASES = [
    [[1, 3, 2], 5, "bool"],
    [[[1, 0], [2, 3]], None, "bool"],
    [[2, 1], 3, "float32"],
    [2, 4, "bool"],
    [[1, 3], 2, "int32"],
    [[-1, 3], 2, "bool"],
    [[0, 0], None, "bool"],
]
