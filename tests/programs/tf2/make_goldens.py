"""Runs every program in this folder on real TensorFlow and keeps its output as the golden
(goldens/<program>.txt) that tests/programs/test_tf2_programs.py compares retrograd with.

    /work/tfenv/bin/python tests/programs/tf2/make_goldens.py [program.py ...]

TensorFlow is never a dependency of retrograd: only this script uses it.
"""

import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent
ENV = {
    **os.environ,
    "TF_ENABLE_ONEDNN_OPTS": "0",
    "TF_CPP_MIN_LOG_LEVEL": "3",
    "CUDA_VISIBLE_DEVICES": "",
}


def main(names):
    programs = [HERE / n for n in names] or sorted(
        p for p in HERE.glob("*.py") if p.name != "make_goldens.py"
    )
    (HERE / "goldens").mkdir(exist_ok=True)
    for program in programs:
        result = subprocess.run(
            [sys.executable, str(program)], env=ENV, capture_output=True, text=True, cwd=HERE
        )
        if result.returncode != 0:
            print(f"{program.name} failed:\n{result.stderr[-3000:]}")
            continue
        (HERE / "goldens" / f"{program.stem}.txt").write_text(result.stdout)
        print(f"{program.name}: {len(result.stdout.splitlines())} lines")


if __name__ == "__main__":
    main(sys.argv[1:])
