"""TF1 learning-rate schedules against values printed by real TensorFlow (compat.v1, graph
mode, fed global steps 0, 3, 5, 9, 10, 15, 23), to float32 precision."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from retrograd.compat import v1 as tf

STEPS = [0, 3, 5, 9, 10, 15, 23]
# Printed by TensorFlow 2.21 (tf.compat.v1.train.*) for the schedules below, step by step.
TENSORFLOW = [
    [0.10000000149011612, 0.10000000149011612, 0.5, 0.5, 0.10000000149011612, 0.10000000149011612, 1.0],
    [0.09087975323200226, 0.10000000149011612, 0.4166666567325592, 0.4166666567325592, 0.054099999368190765, 0.054099999368190765, 1.0],
    [0.08526652306318283, 0.10000000149011612, 0.375, 0.4166666567325592, 0.032499998807907104, 0.032499998807907104, 1.0],
    [0.07505876570940018, 0.08000000566244125, 0.3125, 0.3125, 0.010899999178946018, 0.010900000110268593, 0.5],
    [0.07270380109548569, 0.08000000566244125, 0.29999998211860657, 0.3125, 0.009999999776482582, 0.009999999776482582, 0.5],
    [0.06199200823903084, 0.06400000303983688, 0.25, 0.25, 0.009999999776482582, 0.015625, 0.10000000149011612],
    [0.048037610948085785, 0.05120000243186951, 0.19736842811107635, 0.2083333283662796, 0.009999999776482582, 0.014900000765919685, 0.10000000149011612],
]  # fmt: skip


def _schedules(g):
    return [
        tf.train.exponential_decay(0.1, g, 7, 0.8),
        tf.train.exponential_decay(0.1, g, 7, 0.8, staircase=True),
        tf.train.inverse_time_decay(0.5, g, 3, 0.2),
        tf.train.inverse_time_decay(0.5, g, 3, 0.2, True),
        tf.train.polynomial_decay(0.1, g, 10, 0.01, 2.0),
        tf.train.polynomial_decay(0.1, g, 10, 0.01, 2.0, cycle=True),
        tf.train.piecewise_constant(g, [5, 10], [1.0, 0.5, 0.1]),
    ]


def test_schedules_match_tensorflow_in_a_graph():
    graph = rg.Graph()
    with graph.as_default():
        step = tf.placeholder(rg.int64, [])
        schedules = _schedules(step)
    with tf.Session(graph=graph) as sess:
        for s, want in zip(STEPS, TENSORFLOW):
            np.testing.assert_allclose(sess.run(schedules, {step: s}), want, rtol=2e-6)


def test_schedules_follow_the_global_step_variable():
    graph = rg.Graph()
    with graph.as_default():
        step = tf.train.get_or_create_global_step()
        rate = tf.train.exponential_decay(0.1, step, 7, 0.8)
        bump = tf.assign_add(step, 5)
        init = tf.global_variables_initializer()
    with tf.Session(graph=graph) as sess:
        sess.run(init)
        sess.run(bump)
        np.testing.assert_allclose(sess.run(rate), TENSORFLOW[2][0], rtol=2e-6)


def test_piecewise_constant_needs_one_more_value_than_boundaries():
    with pytest.raises(ValueError, match="values needs len"):
        tf.train.piecewise_constant(3, [1, 2], [1.0])
