"""Makes tf1_shape_goldens.json: what real TensorFlow, with v2 behaviour disabled, gives
for each expression of tf1_shape_cases.CASES (``repr`` of the value and its type's name, or
the error's type). Run with the TensorFlow venv (never imported by the test suite):

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \\
        tests/compat/data/make_tf1_shape_goldens.py
"""

import json
import pathlib
import sys

import tensorflow as tf2
from tensorflow.python.framework import tensor_shape

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from tf1_shape_cases import CASES, KERAS_PROBE  # noqa: E402


def outcome(expression: str, scope: dict) -> list:
    try:
        value = eval(expression, scope)
    except Exception as error:  # the error's type is the golden
        return ["error", type(error).__name__]
    return ["value", repr(value), type(value).__name__]


def main() -> None:
    tf = tf2.compat.v1
    tf.disable_v2_behavior()
    x = tf.placeholder(tf.float32, [None, 4])
    scope = {
        "tf": tf,
        "D": tf.Dimension,
        "x": x,
        "s": x.get_shape(),
        "y": tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        "tensor_shape": tensor_shape,
        "keras": tf2.keras,
    }
    exec(KERAS_PROBE, scope)  # (the probe's source text, shared with the test)
    goldens = {case: outcome(case, scope) for case in CASES}
    (HERE / "tf1_shape_goldens.json").write_text(json.dumps(goldens, indent=1) + "\n")
    print("wrote", len(goldens), "cases")


if __name__ == "__main__":
    main()
