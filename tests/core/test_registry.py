"""The gradient registry: registration, lookup, non-differentiable ops, duplicates."""

from __future__ import annotations

import pytest

import retrograd as rg


def test_lookup_returns_the_registered_function():
    fn = rg.gradient_registry.lookup("MatMul")
    assert fn.__name__ == "_matmul_grad" and "linalg_ops.py:" in rg.gradient_registry.location(
        "MatMul"
    )


def test_registering_a_type_twice_is_a_key_error_naming_it():
    with pytest.raises(KeyError, match="Registering two gradient with name 'Abs'"):
        rg.RegisterGradient("Abs")(lambda op, grad: grad)


def test_no_gradient_registers_none():
    rg.no_gradient("TestRegistryNoGrad")
    try:
        assert rg.gradient_registry.lookup("TestRegistryNoGrad") is None
        assert "TestRegistryNoGrad" in rg.gradient_registry
    finally:
        rg.gradient_registry.unregister("TestRegistryNoGrad")


def test_unknown_types_raise_lookup_error():
    with pytest.raises(LookupError, match="No gradient defined for operation type 'Nope'"):
        rg.gradient_registry.lookup("Nope")


def test_names_must_be_strings():
    with pytest.raises(TypeError):
        rg.RegisterGradient(3)


def test_calling_a_registered_gradient_by_hand_on_a_recorded_op():
    """Seed 003's experiment, eagerly: the MatMul rule applied to upstream ones and to c."""
    a = rg.constant([[1.0, 2.0], [3.0, 4.0]])
    b = rg.constant([[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]])
    with rg.GradientTape() as tape:
        tape.watch(a)
        c = rg.matmul(a, b)
    (op,) = {id(o): o for o in tape.producers().values() if o is not None}.values()
    assert op.type == "MatMul" and op.get_attr("transpose_a") is False
    with pytest.raises(ValueError, match="no attr named 'nope'"):
        op.get_attr("nope")
    matmul_grad = rg.gradient_registry.lookup("MatMul")
    assert matmul_grad(op, rg.ones_like(c))[0].numpy().tolist() == [[21.0, 30.0], [21.0, 30.0]]
    assert matmul_grad(op, c)[0].numpy().tolist() == [[573.0, 816.0], [1295.0, 1844.0]]
