"""Makes goldens/<program>.txt: what each TF1 program here prints when run by real
TensorFlow. Run with the TensorFlow venv (never imported by the test suite):

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 TF1_LEGACY_KERAS=/path/to/tf_keras_2.21 \\
        /work/tfenv/bin/python tests/programs/tf1/make_goldens.py [program.py ...]

(only the programs named, when some are). TensorFlow 2.21 has ``tf.layers`` (compat.v1's)
only with tf_keras' legacy layers (TF_USE_LEGACY_KERAS=1; with Keras 3 every layer is "not
available"): with TF1_LEGACY_KERAS set to a folder holding tf_keras 2.21 (``pip install
--target DIR tf-keras==2.21.0``), the programs run with it on the path and that variable set.

Programs written as `import tensorflow as tf` (run by `retrograd run --tf1`) are run with
`tensorflow` aliased to `tensorflow.compat.v1` with v2 behaviour disabled, as `--tf1` does;
programs importing `tensorflow.compat.v1` themselves run as they are. Each program runs in
its own process.
"""

import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent

ALIAS = """
import runpy, sys
import tensorflow.compat.v1 as v1
v1.disable_v2_behavior()
sys.modules["tensorflow"] = v1
sys.argv = [sys.argv[1]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def _env() -> dict:
    legacy = os.environ.get("TF1_LEGACY_KERAS")
    if not legacy:
        return dict(os.environ)
    return dict(os.environ, TF_USE_LEGACY_KERAS="1", PYTHONPATH=legacy)


def main() -> None:
    (HERE / "goldens").mkdir(exist_ok=True)
    chosen = set(sys.argv[1:])
    for program in sorted(HERE.glob("*.py")):
        if program.name == "make_goldens.py" or (chosen and program.name not in chosen):
            continue
        command = [sys.executable, "-c", ALIAS, str(program)]
        result = subprocess.run(command, capture_output=True, text=True, cwd=HERE, env=_env())
        if result.returncode != 0:
            raise SystemExit(f"{program.name} failed on TensorFlow:\n{result.stderr}")
        (HERE / "goldens" / (program.stem + ".txt")).write_text(result.stdout)
        print("wrote", program.stem)


if __name__ == "__main__":
    main()
