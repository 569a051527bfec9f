"""Every op row runs with records that keep only the values their gradient function reads
(``core.reads`` derives which from the rule's source), however small the values: a value a
rule reads but the derivation missed would be a zero stand-in, and the row's comparison with
finite differences (first and second order) would fail. So the op tables check the derived
reads of every rule they reach."""

import pytest

from retrograd.core import records


@pytest.fixture(autouse=True)
def _records_drop_every_unread_value(monkeypatch):
    monkeypatch.setattr(records, "LEAN_BYTES", 0)
