"""tf.Module: names, name scopes, variables and submodules found with TensorFlow's rules
(expected values observed on TensorFlow 2.21)."""

import pytest

import retrograd as rg


class Inner(rg.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = rg.Variable(1.0, name="w")
        self.l = [rg.Variable(2.0, trainable=False), {"k": rg.Variable(3.0)}]

    @rg.Module.with_name_scope
    def __call__(self, x):
        self.created = rg.Variable(0.0, name="created")
        return x * self.w


class Outer(rg.Module):
    def __init__(self):
        super().__init__()
        self.a = Inner()
        self.b = (Inner("bee"),)
        self.shared = self.a  # reachable twice, listed once


def test_names_and_scopes():
    m = Inner()
    assert (m.name, m.name_scope.name, m.w.name) == ("inner", "inner/", "inner/w:0")
    assert rg.Module().name == "module"
    with rg.name_scope("outer"):
        nested = Inner()
    assert nested.name_scope.name == "outer/inner/"
    assert nested.w.name == "outer/inner/w:0"


def test_camel_case_class_names_become_snake_case():
    class MyDenseLayer2(rg.Module):
        pass

    assert MyDenseLayer2().name == "my_dense_layer2"


def test_variables_in_tensorflow_order():
    m = Inner()
    # attributes sorted by name: "l" (list, then the dict inside) before "w"
    assert [v.name for v in m.variables] == ["Variable:0", "Variable:0", "inner/w:0"]
    assert [float(v.numpy()) for v in m.variables] == [2.0, 3.0, 1.0]
    assert [float(v.numpy()) for v in m.trainable_variables] == [3.0, 1.0]
    assert [float(v.numpy()) for v in m.non_trainable_variables] == [2.0]


def test_submodules_depth_first_each_once():
    o = Outer()
    assert [s.name for s in o.submodules] == ["inner", "bee"]
    values = [float(v.numpy()) for v in o.variables]
    assert values == [2.0, 3.0, 1.0, 2.0, 3.0, 1.0]
    assert len({id(v) for v in o.variables}) == 6


def test_with_name_scope_scopes_the_call():
    m = Inner()
    y = m(rg.constant(3.0))
    assert float(y.numpy()) == 3.0
    assert m.created.name == "inner/created:0"


def test_trainable_variables_feed_a_tape():
    m = Inner()
    variables = m.trainable_variables
    with rg.GradientTape() as tape:
        y = m(rg.constant(3.0)) * m.l[1]["k"]
    grads = tape.gradient(y, variables)
    assert [float(g.numpy()) for g in grads] == [3.0, 9.0]
    # the call created a variable: it is found now, sorted first by attribute name
    assert [v.name for v in m.trainable_variables] == ["inner/created:0", "Variable:0", "inner/w:0"]


@pytest.mark.parametrize("bad", ["bad name", "1abc", ""])
def test_invalid_names_are_errors(bad):
    with pytest.raises(ValueError, match="not a valid module name"):
        Inner(bad)


def test_ignored_properties_are_not_walked():
    class Cached(rg.Module):
        _TF_MODULE_IGNORED_PROPERTIES = frozenset({"cache"})

        def __init__(self):
            super().__init__()
            self.cache = [rg.Variable(1.0)]
            self.kept = rg.Variable(2.0)

    assert [float(v.numpy()) for v in Cached().variables] == [2.0]
