"""The benchmarks run on small sizes and check their own results; no timing is asserted.
The memory saving of recompute_grad is deterministic, so it is."""

from __future__ import annotations

import runpy
from pathlib import Path

from benchmarks.__main__ import main


def test_benchmarks_run_in_quick_mode(capsys, monkeypatch):
    monkeypatch.setenv("RETROGRAD_PROGRESS", "1")  # progress on stderr, even off a terminal
    assert main(["--quick", "--no-frameworks"]) == 0
    captured = capsys.readouterr()
    for name in ["chain", "custom", "mlp", "matmul", "hvp", "elementwise", "peak memory"]:
        assert name in captured.out
    assert "benchmarks  6/6 [########################] 100%" in captured.err


BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _main(name):
    return runpy.run_path(str(BENCHMARKS / name))["main"]


def test_recompute_grad_lowers_peak_memory(capsys):
    ratios = _main("recompute_memory.py")(
        ["--blocks", "4", "--layers", "4", "--width", "16", "--batch", "256"]
    )
    assert ratios["memory_ratio"] > 1.5
    assert "peak memory" in capsys.readouterr().out


def test_jacobian_benchmark_runs_and_checks_its_values(capsys):
    ratios = _main("jacobian_speed.py")(["--size", "8", "--repeats", "1"])
    assert set(ratios) == {
        "elementwise sin(x) exp(x) + x^2, x[n]",
        "dense tanh(W x + b), x[n, 1]",
        "tall jacfwd vs jacrev",
    }
    assert "speedup" in capsys.readouterr().out


def test_framework_columns_measured_elsewhere_join_their_workloads():
    from benchmarks.__main__ import merge

    rows = [{"workload": "chain", "numpy_ms": 0.1, "retrograd": 5.0}]
    merge(rows, [{"workload": "chain", "numpy_ms": 0.2, "pytorch": 14.0}, {"workload": "x"}])
    assert rows == [{"workload": "chain", "numpy_ms": 0.1, "retrograd": 5.0, "pytorch": 14.0}]


def test_repeated_runs_report_each_cells_median():
    from benchmarks.__main__ import median_rows

    runs = [
        [{"workload": "chain", "retrograd": r, "pytorch": p}]
        for r, p in [(3.0, 9.0), (1.0, 7.0), (2.0, 8.0)]
    ]
    assert median_rows(runs) == [{"workload": "chain", "retrograd": 2.0, "pytorch": 8.0}]


def test_tracing_speed_benchmark_runs_and_checks_its_chain(capsys):
    results = _main("tracing_speed.py")(
        ["--ops", "200", "--repeats", "1", "--framework", "retrograd"]
    )
    (result,) = results.values()
    assert result["ops"] >= 200 and result["trace_s"] > 0
    assert "us/op" in capsys.readouterr().out
