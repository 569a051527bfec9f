"""The benchmark command runs (tiny sizes, one timed run): no timing is asserted."""

from __future__ import annotations

from benchmarks.__main__ import main


def test_benchmarks_run_in_quick_mode(capsys):
    assert main(["--quick", "--no-frameworks"]) == 0
    out = capsys.readouterr().out
    for name in ["chain", "custom", "mlp", "matmul", "hvp", "elementwise", "peak memory"]:
        assert name in out
