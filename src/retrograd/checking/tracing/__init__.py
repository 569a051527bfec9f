"""Backward traces: the forward ops and every gradient rule call, as a table and a picture."""

from retrograd.checking.tracing.record import GradientRecord, OpRecord, Trace, trace

__all__ = ["trace", "Trace", "OpRecord", "GradientRecord"]
