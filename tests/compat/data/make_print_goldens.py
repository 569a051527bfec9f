"""Makes print_goldens.json: what real TensorFlow's TF1 ``tf.Print`` writes to stderr for
each case of print_cases.CASES (one graph run per case, in a subprocess whose stderr is
read). Run with the TensorFlow venv (never imported by the test suite):

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \\
        tests/compat/data/make_print_goldens.py
"""

import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent

RUN_ONE = """
import sys
sys.path.insert(0, sys.argv[1])
import tensorflow as tf
from print_cases import CASES
tf1 = tf.compat.v1
tf1.disable_eager_execution()
data, summarize = CASES[sys.argv[2]]
tensors = [tf.constant(value, dtype=dtype) for value, dtype in data]
kwargs = {} if summarize is None else {"summarize": summarize}
op = tf1.Print(tf.constant(0), tensors, "value: ", **kwargs)
with tf1.Session() as sess:
    sys.stderr.write("<<<")
    sys.stderr.flush()
    sess.run(op)
"""


def main() -> None:
    sys.path.insert(0, str(HERE))
    from print_cases import CASES

    goldens = {}
    for name in CASES:
        command = [sys.executable, "-c", RUN_ONE, str(HERE), name]
        result = subprocess.run(command, capture_output=True, text=True, check=True)
        printed = result.stderr.split("<<<", 1)[1]
        goldens[name] = [line for line in printed.splitlines() if line.startswith("value: ")][0]
    (HERE / "print_goldens.json").write_text(json.dumps(goldens, indent=1) + "\n")
    print("wrote", len(goldens), "cases")


if __name__ == "__main__":
    main()
