"""Records what TensorFlow prints for autograph_program.py (run with TensorFlow's Python):

    TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python \
        tests/graph/data/make_autograph_golden.py
"""

import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent

if __name__ == "__main__":
    env = dict(os.environ, TF_ENABLE_ONEDNN_OPTS="0", TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run(
        [sys.executable, str(HERE / "autograph_program.py")],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    tmp = HERE / "autograph_program.golden.tmp"
    tmp.write_text(done.stdout)
    os.replace(tmp, HERE / "autograph_program.golden")
