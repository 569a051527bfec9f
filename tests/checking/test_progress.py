"""One progress display for long work: drawn where someone watches, silent elsewhere."""

from __future__ import annotations

import io

import pytest

from retrograd.checking.progress import Progress, progress, wanted


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize(
    "setting, terminal, shown",
    [("", False, False), ("", True, True), ("1", False, True), ("0", True, False)],
)
def test_shown_on_terminals_unless_the_environment_says(monkeypatch, setting, terminal, shown):
    monkeypatch.setenv("RETROGRAD_PROGRESS", setting)
    stream = Terminal() if terminal else io.StringIO()
    assert wanted(stream) is shown
    with Progress(2, "work", stream=stream, interval=0) as p:
        p.update()
        p.update()
    assert bool(stream.getvalue()) is shown


def test_a_terminal_gets_one_line_redrawn():
    stream = Terminal()
    with Progress(4, "work", stream=stream, enabled=True, interval=0) as p:
        for _ in range(4):
            p.update(note="step")
    text = stream.getvalue()
    assert text.count("\r") == 5 and text.endswith("\n") and text.count("\n") == 1
    assert "work  4/4 [" in text and "100%" in text


def test_without_a_total_it_counts_and_times():
    p = Progress(None, "evaluations", enabled=False)
    p.update(3)
    assert p.line().startswith("evaluations  3  ") and p.line().endswith(" s")


def test_an_estimate_of_the_time_left_while_running():
    p = Progress(10, "work", enabled=False)
    p.update(5)
    assert "about" in p.line() and "s left" in p.line()


def test_a_closed_stream_stops_the_display_not_the_work():
    stream = io.StringIO()
    p = Progress(3, "work", stream=stream, enabled=True, interval=0)
    stream.close()
    p.update()
    p.close()
    assert p.done == 1 and not p.enabled


@pytest.mark.parametrize("total", [-1, 2.5, "3"])
def test_a_bad_total_is_an_error(total):
    with pytest.raises(ValueError, match="Progress: total must be a non-negative int"):
        Progress(total)


def test_progress_wraps_an_iterable():
    stream = io.StringIO()
    assert list(progress(range(3), "items", stream=stream, enabled=True)) == [0, 1, 2]
    assert stream.getvalue().splitlines()[-1].startswith("items  3/3 [")
