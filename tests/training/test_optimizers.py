"""Optimizers follow Keras step for step (values recorded from TensorFlow 2.21 / Keras 3)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import retrograd as rg

GOLDEN = json.loads((Path(__file__).parent / "data" / "keras_optimizer_steps.json").read_text())[
    "steps"
]


def _gradient(t: int) -> list[float]:
    return [0.1 * t - 0.3, 0.2, -0.5 + 0.05 * t * t]


@pytest.mark.parametrize("config", sorted(GOLDEN))
def test_steps_match_keras(config):
    optimizer = eval(f"rg.optimizers.{config}")  # the configs are constructor calls
    v = rg.Variable([1.0, -2.0, 0.5])
    for t, expected in enumerate(GOLDEN[config], start=1):
        optimizer.apply_gradients([(rg.constant(_gradient(t)), v)])
        np.testing.assert_allclose(
            v.numpy(), expected, rtol=2e-6, atol=1e-7, err_msg=f"{config} step {t}"
        )
    assert int(optimizer.iterations.numpy()) == len(GOLDEN[config])


def test_keras_namespace_and_defaults():
    assert rg.keras.optimizers.Adam is rg.optimizers.Adam
    adam = rg.optimizers.Adam()
    assert (adam.learning_rate, adam.beta_1, adam.beta_2, adam.epsilon) == (0.001, 0.9, 0.999, 1e-7)
    assert rg.optimizers.SGD().learning_rate == 0.01


def test_none_gradient_skips_its_variable():
    a, b = rg.Variable(1.0), rg.Variable(2.0)
    rg.optimizers.SGD(0.5).apply_gradients([(None, a), (rg.constant(1.0), b)])
    assert a.numpy() == 1.0 and b.numpy() == 1.5


def test_all_none_gradients_is_an_error():
    with pytest.raises(ValueError, match="no gradients"):
        rg.optimizers.SGD().apply_gradients([(None, rg.Variable(1.0))])


def test_shape_mismatch_raises_before_any_variable_changes():
    a, b = rg.Variable([1.0, 1.0]), rg.Variable([1.0, 1.0])
    with pytest.raises(ValueError, match="shape"):
        rg.optimizers.SGD(1.0).apply_gradients(
            [(rg.constant([1.0, 1.0]), a), (rg.constant([1.0]), b)]
        )
    assert a.numpy().tolist() == [1.0, 1.0]


def test_non_variable_and_integer_gradients_are_refused():
    with pytest.raises(TypeError, match="not a Variable"):
        rg.optimizers.SGD().apply_gradients([(rg.constant(1.0), rg.constant(1.0))])
    with pytest.raises(TypeError, match="cannot update"):
        rg.optimizers.SGD().apply_gradients([(rg.constant(1), rg.Variable(1.0))])


def test_minimize_with_a_callable_and_with_a_tape():
    w = rg.Variable(3.0)
    opt = rg.optimizers.SGD(0.25)
    opt.minimize(lambda: w * w, [w])
    assert w.numpy() == 1.5
    with rg.GradientTape() as tape:
        loss = w * w
    opt.minimize(loss, [w], tape=tape)
    assert w.numpy() == 0.75
    with pytest.raises(ValueError, match="tape"):
        opt.minimize(w * w, [w])


def test_learning_rate_may_be_a_callable_or_a_schedule():
    w = rg.Variable(1.0)
    rg.optimizers.SGD(lambda: 0.5).apply_gradients([(rg.constant(1.0), w)])
    assert w.numpy() == 0.5
    schedule = rg.optimizers.SGD(lambda step: 0.1 * (int(step) + 1))
    schedule.apply_gradients([(rg.constant(1.0), w)])
    schedule.apply_gradients([(rg.constant(1.0), w)])
    np.testing.assert_allclose(w.numpy(), 0.5 - 0.1 - 0.2)


def test_float64_variables_update_in_float64():
    w = rg.Variable(np.array([1.0]))
    rg.optimizers.Adam(0.1).apply_gradients([(rg.constant(np.array([0.5])), w)])
    assert w.dtype == rg.float64
    # (Keras' bias correction raises float32's 0.999 to the step: 0.9000013, not 0.9; the
    # exact values are compared with Keras in tests/keras/test_optimizer_goldens.py)
    np.testing.assert_allclose(w.numpy(), [0.9], atol=2e-6)


def test_slots_are_flushed_to_zero_below_the_smallest_normal_number():
    # As TensorFlow's flush-to-zero kernels: Adam's v = 0.001 * (1e-20)² is subnormal in
    # float32, so it is 0; m = 0.1 * 1e-20 is normal and kept. Momentum decaying by 0.5
    # per step reaches zero instead of creeping through the subnormal range.
    w = rg.Variable([1.0, 1.0])
    adam = rg.optimizers.Adam(0.1)
    adam.apply_gradients([(rg.constant([1e-20, 1.0]), w)])
    m, v = (slot.numpy() for _, _, slot in adam.slot_variables())
    assert v[0] == 0.0 and v[1] > 0 and m[0] == np.float32(1e-21)
    u = rg.Variable([1.0])
    sgd = rg.optimizers.SGD(1e-29, momentum=0.5)
    sgd.apply_gradients([(rg.constant([-1e-8]), u)])  # momentum 1e-37, then halved
    seen = []
    for _ in range(5):
        sgd.apply_gradients([(rg.constant([0.0]), u)])
        seen.append(float(sgd.slot_variables()[0][2].numpy()[0]))
    tiny = float(np.finfo(np.float32).tiny)
    assert seen[:3] == pytest.approx([5e-38, 2.5e-38, 1.25e-38]) and seen[3:] == [0.0, 0.0]
    assert all(x == 0.0 or x >= tiny for x in seen)


def test_an_update_never_changes_a_tensor_read_before_it():
    for optimizer in (rg.optimizers.SGD(0.1, momentum=0.9), rg.optimizers.Adam(0.1)):
        w = rg.Variable([1.0, 2.0])
        optimizer.apply_gradients([(rg.constant([1.0, 1.0]), w)])
        before = w.read_value()
        slots = [slot.read_value() for _, _, slot in optimizer.slot_variables()]
        kept = [t.numpy().copy() for t in (before, *slots)]
        optimizer.apply_gradients([(rg.constant([1.0, 1.0]), w)])
        for tensor, value in zip((before, *slots), kept):
            np.testing.assert_array_equal(tensor.numpy(), value)
        assert not np.array_equal(w.numpy(), kept[0])


@pytest.mark.parametrize(
    "config",
    [
        "SGD(0.1)",
        "SGD(0.1, momentum=0.9, nesterov=True)",
        "Adam(0.05)",
        "Adam(0.05, amsgrad=True)",
        "RMSprop(0.01, momentum=0.5, centered=True)",
        "Adagrad(0.1)",
    ],
)
def test_apply_gradients_inside_a_function_matches_eager(config):
    def run(compiled):
        optimizer = eval(f"rg.optimizers.{config}")
        w = rg.Variable([[0.5, -1.0], [2.0, 0.25]])
        x = rg.constant([[1.0, 2.0], [-1.0, 0.5]])

        def step():
            with rg.GradientTape() as tape:
                loss = rg.reduce_sum(rg.square(rg.matmul(x, w) - 1.0))
            optimizer.apply_gradients([(tape.gradient(loss, w), w)])
            return loss

        step = rg.function(step) if compiled else step
        for _ in range(4):
            step()
        return w.numpy(), int(optimizer.iterations.numpy())

    (eager, n_eager), (traced, n_traced) = run(False), run(True)
    assert n_eager == n_traced == 4
    np.testing.assert_allclose(traced, eager, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(
    "rate",
    [
        "rg.keras.optimizers.schedules.ExponentialDecay(0.2, 2, 0.5)",
        "rg.keras.optimizers.schedules.PiecewiseConstantDecay([1, 2], [0.3, 0.2, 0.1])",
        "rg.keras.optimizers.schedules.CosineDecay(0.2, 3)",
        "lambda: 0.05",
    ],
)
def test_schedules_inside_a_function_match_eager(rate):
    def run(compiled):
        optimizer = rg.optimizers.Adam(eval(rate))
        w = rg.Variable([1.0, -2.0])

        def step():
            with rg.GradientTape() as tape:
                loss = rg.reduce_sum(w * w * w)
            optimizer.apply_gradients([(tape.gradient(loss, w), w)])

        step = rg.function(step) if compiled else step
        for _ in range(4):
            step()
        return w.numpy()

    np.testing.assert_allclose(run(True), run(False), rtol=1e-6)


def test_build_apply_and_variables_as_in_keras_3():
    w = rg.Variable([1.0, 2.0])
    adam = rg.optimizers.Adam(0.1)
    adam.build([w])
    assert [tuple(v.shape) for v in adam.variables] == [(), (2,), (2,)]
    adam.apply([rg.constant([1.0, 1.0])], [w])
    assert int(adam.iterations.numpy()) == 1 and w.numpy().tolist() != [1.0, 2.0]


# What Keras 3 / TensorFlow 2.21 does with each hyperparameter value (checked with real
# TensorFlow): learning_rate must be a Python float, a schedule or a callable (ints, NumPy
# float32 and tensors are refused at construction); SGD's momentum a float in [0, 1]; the
# other hyperparameters fail on None or a string (Keras at the first update, retrograd at
# construction, naming the argument) and accept any number, NaN, inf and negatives included.
BAD_HYPERPARAMETERS = [
    ("SGD", {"learning_rate": None}, "learning_rate"),
    ("SGD", {"learning_rate": 1}, "learning_rate"),
    ("SGD", {"learning_rate": "0.1"}, "learning_rate"),
    ("SGD", {"learning_rate": np.float32(0.5)}, "learning_rate"),
    ("Adam", {"learning_rate": True}, "learning_rate"),
    ("SGD", {"momentum": None}, "momentum"),
    ("SGD", {"momentum": 1}, "momentum"),
    ("SGD", {"momentum": 1.5}, "momentum"),
    ("SGD", {"momentum": -0.1}, "momentum"),
    ("Adam", {"epsilon": None}, "epsilon"),
    ("Adam", {"beta_1": None}, "beta_1"),
    ("Adam", {"beta_2": "0.999"}, "beta_2"),
    ("RMSprop", {"rho": None}, "rho"),
    ("RMSprop", {"momentum": None}, "momentum"),
    ("RMSprop", {"epsilon": None}, "epsilon"),
    ("Adagrad", {"initial_accumulator_value": None}, "initial_accumulator_value"),
    ("Adagrad", {"epsilon": None}, "epsilon"),
]


@pytest.mark.parametrize("name,kwargs,argument", BAD_HYPERPARAMETERS)
def test_bad_hyperparameters_raise_value_error_naming_the_argument(name, kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        getattr(rg.keras.optimizers, name)(**kwargs)


# Values Keras accepts, with the weights Keras gives after one step of gradient [0.1, 0.2]
# from [1, 2] (recorded with TensorFlow 2.21 / Keras 3.15).
KERAS_ACCEPTS = [
    ("SGD", {"learning_rate": -1.0}, [1.1, 2.2]),
    ("SGD", {"learning_rate": np.float64(1.5)}, [0.85, 1.7]),
    ("SGD", {"momentum": 0.0}, [0.999, 1.998]),
    ("Adam", {"beta_1": np.float32(0.5)}, [0.999, 1.9990001]),
    ("Adam", {"epsilon": rg.constant(0.5)}, [0.99999374, 1.9999875]),
    ("Adam", {"epsilon": True}, [0.99999684, 1.9999937]),
    ("Adam", {"beta_2": 1}, [1.0, 2.0]),
    ("RMSprop", {"rho": 1}, [0.6837722, 1.3675444]),
    ("RMSprop", {"epsilon": 1.5}, [0.9999184, 1.9998369]),
    ("Adagrad", {"initial_accumulator_value": 1.5}, [0.99991864, 1.9998388]),
    ("Adagrad", {"epsilon": 0.0}, [0.99969846, 1.9994655]),
]


@pytest.mark.parametrize("name,kwargs,expected", KERAS_ACCEPTS)
def test_hyperparameters_keras_accepts_step_like_keras(name, kwargs, expected):
    optimizer = getattr(rg.keras.optimizers, name)(**kwargs)
    w = rg.Variable([1.0, 2.0])
    optimizer.apply_gradients([(rg.constant([0.1, 0.2]), w)])
    np.testing.assert_allclose(w.numpy(), expected, rtol=1e-6)


def test_nan_hyperparameters_are_accepted_as_in_keras():
    optimizer = rg.keras.optimizers.Adam(epsilon=float("nan"))
    w = rg.Variable([1.0, 2.0])
    optimizer.apply_gradients([(rg.constant([0.1, 0.2]), w)])
    assert np.isnan(w.numpy()).all()
