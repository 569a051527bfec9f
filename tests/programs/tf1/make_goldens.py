"""Makes goldens/<program>.txt: what each TF1 program here prints when run by real
TensorFlow. Run with the TensorFlow venv (never imported by the test suite):

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \\
        tests/programs/tf1/make_goldens.py

Programs written as `import tensorflow as tf` (run by `retrograd run --tf1`) are run with
`tensorflow` aliased to `tensorflow.compat.v1` with v2 behaviour disabled, as `--tf1` does;
programs importing `tensorflow.compat.v1` themselves run as they are. Each program runs in
its own process.
"""

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


def main() -> None:
    (HERE / "goldens").mkdir(exist_ok=True)
    for program in sorted(HERE.glob("*.py")):
        if program.name == "make_goldens.py":
            continue
        command = [sys.executable, "-c", ALIAS, str(program)]
        result = subprocess.run(command, capture_output=True, text=True, cwd=HERE)
        if result.returncode != 0:
            raise SystemExit(f"{program.name} failed on TensorFlow:\n{result.stderr}")
        (HERE / "goldens" / (program.stem + ".txt")).write_text(result.stdout)
        print("wrote", program.stem)


if __name__ == "__main__":
    main()
