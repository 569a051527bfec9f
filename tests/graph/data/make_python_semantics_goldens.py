"""Makes python_semantics_goldens.json: what real TensorFlow gives for each case of
python_semantics_cases.CASES, traced with tf.function (the value, or the error's type).
Run with TensorFlow's Python (never imported by the test suite):

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \\
        tests/graph/data/make_python_semantics_goldens.py
"""

import json
import os
import pathlib
import sys

import tensorflow as tf

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from python_semantics_cases import CASES  # noqa: E402


def outcome(case) -> list:
    try:
        return ["value", case(tf, tf.function)]
    except Exception as error:  # the error's type is the golden
        return ["error", type(error).__name__]


def main() -> None:
    goldens = {name: outcome(case) for name, case in sorted(CASES.items())}
    tmp = HERE / "python_semantics_goldens.json.tmp"
    tmp.write_text(json.dumps(goldens, indent=1) + "\n")
    os.replace(tmp, HERE / "python_semantics_goldens.json")
    print("wrote", len(goldens), "cases")


if __name__ == "__main__":
    main()
