"""compat.v1.summary: scalar and histogram summaries merged and written by FileWriter into
an event file whose records (TFRecord framing, Event protos) hold the values; without
tensorboardX, a MissingDependencyError naming the extra."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat import summaries
from retrograd.compat import v1 as tf


def _events(path):
    from tensorboardX.proto import event_pb2

    data, out, at = path.read_bytes(), [], 0
    while at < len(data):
        (length,) = struct.unpack("<Q", data[at : at + 8])
        out.append(event_pb2.Event.FromString(data[at + 12 : at + 12 + length]))
        at += 12 + length + 4
    return out


def test_summaries_are_written_to_an_event_file(tmp_path):
    pytest.importorskip("tensorboardX")
    g = rg.Graph()
    with g.as_default():
        x = tf.placeholder(rg.float32, [None])
        with tf.name_scope("train"):
            tf.summary.scalar("mean", rg.reduce_mean(x))
        tf.summary.histogram("values", x)
        merged = tf.summary.merge_all()
    with tf.Session(graph=g) as sess, tf.summary.FileWriter(str(tmp_path), sess.graph) as writer:
        for step in range(3):
            writer.add_summary(sess.run(merged, {x: [1.0, 2.0, 3.0 + step]}), step)
    (event_file,) = tmp_path.glob("events.out.tfevents.*")
    values = [(e.step, v.tag, v.simple_value) for e in _events(event_file) for v in e.summary.value]
    scalars = [(s, t, round(v, 5)) for s, t, v in values if t == "train/mean"]
    assert scalars == [
        (0, "train/mean", 2.0),
        (1, "train/mean", 2.33333),
        (2, "train/mean", 2.66667),
    ]
    assert [t for _, t, _ in values].count("values") == 3


def test_without_tensorboardx_the_error_names_the_extra(monkeypatch):
    def missing():
        raise rg.errors.MissingDependencyError("install it with pip install 'retrograd[summary]'")

    monkeypatch.setattr(summaries, "_tensorboardx", missing)
    with pytest.raises(ImportError, match=r"retrograd\[summary\]"):
        tf.summary.scalar("loss", 1.0)
    with rg.Graph().as_default():
        assert tf.summary.merge_all() is None  # nothing collected: TensorFlow gives None too


def test_eager_summaries_are_serialized_protos():
    pytest.importorskip("tensorboardX")
    from tensorboardX.proto import summary_pb2

    data = tf.summary.scalar("loss", rg.constant(0.5)).numpy().tobytes()
    (value,) = summary_pb2.Summary.FromString(data).value
    assert (value.tag, value.simple_value) == ("loss", 0.5)
    assert np.asarray(tf.summary.merge([tf.summary.scalar("a", 1.0)])).dtype == np.uint8
