"""The demo runs and shows the seeds' numbers; the command line reaches it."""

from __future__ import annotations

import io
import subprocess
import sys

from retrograd import demo


def test_demo_prints_each_section_with_its_numbers():
    out = io.StringIO()
    demo.run(out)
    text = out.getvalue()
    for expected in [
        "x=2.0\tupstream=256.0\tcurrent=4.0\t\tdownstream=1024.0",
        "final dy/dx=1024.0",
        "autodiff gradient at x=100: nan",
        "custom   gradient at x=100: 1",
        "step  loss      gradient             x   y",
        "  10     0             0  0.0995739922   1",
        "Adam's momentum",
        "x=1, ddy: -1.71828198 (the seed's rule 1 - e)",
        "x=1, true second derivative: 0.196611926",
        "exp(100) overflows float32 to inf",
        "[[573 816]\n [1295 1844]]",
        "x=100, ddy: -inf",
    ]:
        assert expected in text


def test_command_line_runs_the_demo():
    done = subprocess.run(
        [sys.executable, "-m", "retrograd", "demo"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "final dy/dx=1024.0" in done.stdout and done.stderr == ""
