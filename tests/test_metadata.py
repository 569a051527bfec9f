"""The package metadata says what PyPI readers look for: Python versions, license, entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

PROJECT = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]


def test_python_versions_in_classifiers_match_requires_python():
    lowest = PROJECT["requires-python"].removeprefix(">=")
    versions = [
        c.rsplit(" :: ", 1)[1]
        for c in PROJECT["classifiers"]
        if c.startswith("Programming Language :: Python :: 3.")
    ]
    assert versions and versions[0] == lowest
    assert all(int(v.split(".")[1]) >= int(lowest.split(".")[1]) for v in versions)


def test_license_is_stated_once_in_both_forms():
    assert PROJECT["license"] == {"text": "Apache-2.0"}
    assert "License :: OSI Approved :: Apache Software License" in PROJECT["classifiers"]


def test_the_license_file_is_the_apache_license_the_metadata_names():
    text = (Path(__file__).parents[1] / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text


def test_authors_are_named():
    assert PROJECT["authors"] and all(a.get("name") for a in PROJECT["authors"])


def test_version_matches_the_package():
    import retrograd

    assert PROJECT["version"] == retrograd.__version__


def test_console_script():
    assert PROJECT["scripts"] == {"retrograd": "retrograd.cli:console"}
