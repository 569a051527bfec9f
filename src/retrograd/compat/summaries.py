"""TensorFlow 1 summaries (``compat.v1.summary``): ``scalar``, ``histogram``, ``merge``,
``merge_all`` and ``FileWriter``, writing event files that TensorBoard reads through the
tensorboardX library (the optional extra ``retrograd[summary]``; without it, using a
summary raises MissingDependencyError naming the extra).

A summary op's value is the serialized ``Summary`` protocol buffer as a uint8 vector (the
bytes TensorFlow returns as a string tensor); ``FileWriter.add_summary`` takes it as it
comes from ``Session.run``, or as bytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.errors import MissingDependencyError
from retrograd.core.execute import context, define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import convert_to_tensor
from retrograd.graph.graph import get_default_graph

__all__ = ["FileWriter", "histogram", "merge", "merge_all", "scalar", "SUMMARIES"]

SUMMARIES = "summaries"


def _tensorboardx() -> Any:
    try:
        import tensorboardX  # noqa: F401
        from tensorboardX import summary, writer
        from tensorboardX.proto import summary_pb2
    except ImportError:
        raise MissingDependencyError(
            "compat.v1.summary writes TensorBoard event files with tensorboardX: install it "
            "with pip install 'retrograd[summary]'"
        ) from None
    return summary, writer, summary_pb2


def _as_bytes(proto: Any) -> np.ndarray:
    return np.frombuffer(proto.SerializeToString(), dtype=np.uint8).copy()


def _scalar_kernel(value, tag):
    summary, _, _ = _tensorboardx()
    if np.size(value) != 1:
        raise ValueError(
            f"summary.scalar '{tag}': the value must be a scalar, got {np.shape(value)}"
        )
    return _as_bytes(summary.scalar(tag, float(np.reshape(value, ()))))


def _histogram_kernel(values, tag):
    summary, _, _ = _tensorboardx()
    return _as_bytes(summary.histogram(tag, np.asarray(values, np.float64), bins="auto"))


def _merge_kernel(*summaries):
    return np.concatenate([np.asarray(s, np.uint8) for s in summaries])  # repeated fields merge


def _bytes_shape(metas, **attrs):
    return [((None,), np.dtype(np.uint8))]


_ScalarSummary = define_op("ScalarSummary", _scalar_kernel, shape_fn=_bytes_shape)
_HistogramSummary = define_op("HistogramSummary", _histogram_kernel, shape_fn=_bytes_shape)
_MergeSummary = define_op("MergeSummary", _merge_kernel, shape_fn=_bytes_shape)
for _type in ("ScalarSummary", "HistogramSummary", "MergeSummary"):
    no_gradient(_type)


def _summary(op: Any, name: str, value: Any, collections: Any) -> Any:
    _tensorboardx()  # a missing extra fails where the summary is made
    tag = name if context.graph is None else get_default_graph()._per_thread.scope + name
    out = execute(op, (convert_to_tensor(value),), {"tag": tag}, name)
    if context.graph is not None:
        for key in [SUMMARIES] if collections is None else collections:
            get_default_graph().add_to_collection(key, out)
    return out


def scalar(name: str, tensor: Any, collections: Any = None, family: Any = None) -> Any:
    """A summary of the scalar ``tensor`` tagged ``name`` (under the current name scope)."""
    return _summary(_ScalarSummary, name, tensor, collections)


def histogram(name: str, values: Any, collections: Any = None, family: Any = None) -> Any:
    """A histogram summary of ``values``."""
    return _summary(_HistogramSummary, name, values, collections)


def merge(inputs: list, collections: Any = None, name: str | None = None) -> Any:
    """One summary holding every summary in ``inputs``."""
    if not inputs:
        raise ValueError("summary.merge: inputs must not be empty")
    return execute(_MergeSummary, tuple(convert_to_tensor(i) for i in inputs), None, name)


def merge_all(key: str = SUMMARIES, scope: str | None = None, name: str | None = None) -> Any:
    """The merge of the collection ``key`` of the default graph (None when it is empty)."""
    found = get_default_graph().get_collection(key, scope)
    return merge(found, name=name) if found else None


class FileWriter:
    """Writes summaries to an event file in ``logdir`` (``graph`` is accepted; the graph
    itself is not written)."""

    def __init__(
        self,
        logdir: str,
        graph: Any = None,
        max_queue: int = 10,
        flush_secs: int = 120,
        graph_def: Any = None,
        filename_suffix: str | None = None,
        session: Any = None,
    ) -> None:
        _, writer, self._summary_pb2 = _tensorboardx()
        self._writer = writer.FileWriter(
            str(logdir), max_queue=max_queue, flush_secs=flush_secs,
            filename_suffix=filename_suffix or "",
        )  # fmt: skip

    def add_summary(self, summary: Any, global_step: Any = None) -> None:
        """Adds a summary (bytes, or the uint8 vector a summary op gives) at ``global_step``."""
        data = summary if isinstance(summary, bytes) else np.asarray(summary, np.uint8).tobytes()
        proto = self._summary_pb2.Summary.FromString(data)
        step = None if global_step is None else int(global_step)
        self._writer.add_summary(proto, step)

    def add_graph(self, graph: Any, global_step: Any = None) -> None:
        """Accepted for TensorFlow 1 programs; retrograd does not write graphs."""

    def get_logdir(self) -> str:
        return self._writer.get_logdir()

    def flush(self) -> None:
        self._writer.flush()

    def close(self) -> None:
        self._writer.close()

    def __enter__(self) -> FileWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
