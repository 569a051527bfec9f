"""retrograd against TensorFlow 2.21's public API (issue 22): the stored snapshot
(data/tf_api.json, made on TensorFlow by data/make_snapshot.py), the baseline that may only
grow (baseline/, raised by update_baseline.py), and the page generated from both
(docs/api-differences.md). The per-namespace table is printed at the end of the run."""

from __future__ import annotations

import fnmatch
import functools

import pytest

from tests.conformance import omissions, report, surface
from tests.conformance.namespaces import NAMESPACES, OUT_OF_SCOPE


@functools.lru_cache(maxsize=1)
def _snapshot() -> dict:
    return surface.load_snapshot()


@functools.lru_cache(maxsize=1)
def _survey() -> dict[str, surface.Namespace]:
    return surface.survey(_snapshot())


def test_the_snapshot_is_tensorflow_2_21_with_every_namespace_of_the_issue():
    snapshot = _snapshot()
    assert snapshot["tensorflow"].startswith("2.21.")
    assert snapshot["keras"].startswith("3.")
    assert list(snapshot["namespaces"]) == NAMESPACES
    total = sum(len(report.names_of(snapshot, p)) for p in NAMESPACES if p != "tf.config")
    assert total == 2703  # the issue's count: TensorFlow's own listing of these namespaces
    assert set(OUT_OF_SCOPE) <= set(snapshot["tf_modules"])


@pytest.mark.parametrize("path", NAMESPACES)
def test_nothing_the_baseline_holds_is_lost(path):
    lost = surface.regressions(_survey()[path])
    assert not lost, "retrograd lost names or signatures it had:\n" + "\n".join(lost)


@pytest.mark.parametrize("path", NAMESPACES)
def test_every_present_name_accepts_tensorflows_signature(path):
    # The issue's Done-when: 100% of present names accept TensorFlow's parameter names,
    # positions and defaults (deliberate differences are in omissions.SIGNATURES).
    ns = _survey()[path]
    differ = {n: ns.problems[n] for n in sorted(ns.present - ns.conformant)}
    assert not differ, f"signatures that differ from TensorFlow's: {differ}"


@pytest.mark.parametrize("path", NAMESPACES)
def test_baseline_files_are_as_the_script_writes_them(path):
    file = surface.baseline_file(path)
    assert file.exists(), "run: PYTHONPATH=src python -m tests.conformance.update_baseline"
    assert file.read_text() == surface.dump_baseline(surface.load_baseline(path))


def test_the_differences_page_is_generated_from_the_baseline():
    expected = report.page(_snapshot())
    assert report.PAGE.read_text() == expected, (
        "docs/api-differences.md is stale: PYTHONPATH=src python -m "
        "tests.conformance.update_baseline"
    )


@pytest.mark.parametrize("table", ["OMITTED", "SIGNATURES", "VALUES"])
def test_every_reason_covers_a_name_of_the_snapshot(table):
    snapshot = _snapshot()
    dotted = [f"{p}.{n}" for p in NAMESPACES for n in snapshot["namespaces"][p]["names"]]
    stale = [k for k in getattr(omissions, table) if not fnmatch.filter(dotted, k)]
    assert not stale, f"{table} names nothing TensorFlow has: {stale}"


def test_no_omission_reason_covers_a_name_retrograd_has():
    survey = _survey()
    present = [f"{p}.{n}" for p in NAMESPACES for n in sorted(survey[p].present)]
    stale = [n for n in present if omissions.reason(omissions.OMITTED, n)]
    assert not stale, f"omissions.OMITTED gives reasons for names that exist: {stale}"


def test_signature_checks_see_what_a_caller_sees():
    theirs = [["features", "pk"], ["name", "pk", {"value": None}]]
    assert surface.compare(theirs, [["features", "pk"], ["name", "pk", {"value": None}]]) == []
    assert surface.compare(theirs, [["x", "pk"], ["name", "pk", {"value": None}]]) == [
        "no parameter 'features'",
        "requires 'x', which TensorFlow does not have",
    ]
    assert surface.compare(theirs, [["features", "pk"], ["name", "k", {"value": None}]]) == [
        "takes 'name' positionally (position 2)"
    ]
    assert surface.compare(theirs, [["features", "pk"], ["name", "pk", {"value": "x"}]]) == [
        "'name' defaults to 'x' (TensorFlow: None)"
    ]
    dtype = [["dtype", "pk", {"dtype": "float32"}]]
    assert surface.compare(dtype, [["dtype", "pk", {"value": "float32"}]]) == []
    assert surface.compare(dtype, [["dtype", "pk", {"dtype": "int32"}]]) != []
    assert surface.compare([["x", "pk"], ["kw", "**"]], [["x", "pk"]]) == ["takes **kw"]
    assert surface.compare([["x", "pk", {"value": 1}]], [["x", "pk", {"value": True}]]) != []
    assert surface.compare([["x", "pk", {"value": 0}]], [["x", "pk", {"value": 0.0}]]) == []


def test_table(request):
    request.config.stash[TABLE] = report.table(_snapshot())


TABLE = pytest.StashKey[str]()
