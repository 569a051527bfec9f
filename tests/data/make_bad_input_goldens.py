"""Makes bad_input_goldens.json: what TensorFlow 2.21 gives for each case of
bad_input_cases.CASES (``["value", result]`` or ``["error", type name]``). Run with
TensorFlow's Python (never imported by the test suite):

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \\
        tests/data/make_bad_input_goldens.py
"""

import json
import os
import pathlib
import sys
import tempfile

import tensorflow as tf

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bad_input_cases import CASES  # noqa: E402


def outcome(case) -> list:
    with tempfile.TemporaryDirectory() as folder:
        try:
            return ["value", case(tf, folder)]
        except Exception as error:  # the error's type is the golden
            return ["error", type(error).__name__]


def main() -> None:
    goldens = {name: outcome(case) for name, case in sorted(CASES.items())}
    tmp = HERE / "bad_input_goldens.json.tmp"
    tmp.write_text(json.dumps(goldens, indent=1) + "\n")
    os.replace(tmp, HERE / "bad_input_goldens.json")
    print("wrote", len(goldens), "cases")


if __name__ == "__main__":
    main()
