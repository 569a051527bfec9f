"""Prints the conformance table (tests/conformance/report.py) after a run that checked it."""

from tests.conformance.test_api_conformance import TABLE


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    table = config.stash.get(TABLE, None)
    if table:
        terminalreporter.section("retrograd against TensorFlow 2.21's API (baseline)")
        terminalreporter.write_line(table)
