"""tf.debugging's assertion family and tf.Assert (messages as TensorFlow 2.21 words them)."""

import pytest

import retrograd as rg

D = rg.debugging


@pytest.mark.parametrize(
    "assertion, x, y, symbol",
    [
        (D.assert_less, [1.0, 2.0], [2.0, 2.0], "<"),
        (D.assert_less_equal, [1.0, 3.0], [2.0, 2.0], "<="),
        (D.assert_greater, [3.0, 2.0], [2.0, 2.0], ">"),
        (D.assert_greater_equal, [3.0, 1.0], 2.0, ">="),
        (D.assert_none_equal, [1, 2], [1, 3], "!="),
    ],
)
def test_comparisons(assertion, x, y, symbol):
    with pytest.raises(
        rg.errors.InvalidArgumentError, match=f"Condition x {symbol} y did not hold"
    ):
        assertion(rg.constant(x), rg.constant(y))
    assertion(rg.constant([10.0]), rg.constant([10.0])) if symbol in ("<=", ">=") else None


def test_passing_comparisons_return_none():
    assert D.assert_less(1.0, 2.0) is None and D.assert_greater([3, 4], 2) is None


def test_the_message_matches_tensorflow():
    with pytest.raises(rg.errors.InvalidArgumentError) as info:
        D.assert_less(rg.constant([1.0, 2.0]), rg.constant([2.0, 2.0]))
    assert str(info.value) == (
        "Condition x < y did not hold.\nIndices of first 1 different values:\n[[1]]\n"
        "Corresponding x values:\n[2.]\nCorresponding y values:\n[2.]\n"
        "First 2 elements of x:\n[1. 2.]\nFirst 2 elements of y:\n[2. 2.]"
    )


@pytest.mark.parametrize(
    "assertion, good, bad, symbol",
    [
        (D.assert_positive, [1.0], [1.0, -2.0], ">"),
        (D.assert_negative, [-1.0], [0.0], "<"),
        (D.assert_non_negative, [0.0], [-1.0], ">="),
        (D.assert_non_positive, [0.0], [1.0], "<="),
    ],
)
def test_signs(assertion, good, bad, symbol):
    assertion(good)
    with pytest.raises(rg.errors.InvalidArgumentError, match=f"Condition x {symbol} 0 did not"):
        assertion(bad, message="custom")


def test_near_type_and_assert():
    D.assert_near(rg.constant([1.0]), rg.constant([1.0 + 1e-7]))
    with pytest.raises(rg.errors.InvalidArgumentError, match="not equal to tolerance"):
        D.assert_near(rg.constant([1.0]), rg.constant([1.1]))
    D.assert_near([1.0], [1.05], atol=0.1)
    D.assert_type(rg.constant(1), rg.int32)
    with pytest.raises(TypeError, match="tensor must be of type int32; got float32"):
        D.assert_type(rg.constant(1.0), rg.int32)
    rg.Assert(True, ["never"])
    with pytest.raises(rg.errors.InvalidArgumentError, match="Summarized data: x is\n1, 2"):
        rg.Assert(rg.constant(False), ["x is", rg.constant([1, 2])])
    with pytest.raises(ValueError, match="scalar bool"):
        rg.Assert(rg.constant([True]), [])


def test_assertions_inside_a_function_check_at_every_call():
    @rg.function
    def f(x, y):
        D.assert_positive(x)
        D.assert_less(x, y, message="x below y")
        rg.debugging.Assert(rg.reduce_all(x < 10.0), ["x too big:", x])
        return x * 2.0

    assert f(rg.constant([1.0]), rg.constant([2.0])).numpy().tolist() == [2.0]
    with pytest.raises(rg.errors.InvalidArgumentError, match="Condition x > 0 did not hold"):
        f(rg.constant([-1.0]), rg.constant([2.0]))
    with pytest.raises(rg.errors.InvalidArgumentError, match="x below y"):
        f(rg.constant([3.0]), rg.constant([2.0]))
    with pytest.raises(rg.errors.InvalidArgumentError, match="x too big:\n11"):
        f(rg.constant([11.0]), rg.constant([12.0]))
    assert f.experimental_get_tracing_count() == 1  # one trace: the checks run at each call
