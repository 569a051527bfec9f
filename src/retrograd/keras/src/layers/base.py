"""``tf.keras.layers.Layer``: weights made by ``add_weight`` in a lazy ``build``, ``call``
with an inherited ``training`` flag, sublayers tracked through attributes, and symbolic
calls on ``Input`` tensors (the functional API).

>>> import retrograd as rg
>>> class Scale(rg.keras.layers.Layer):
...     def build(self, input_shape):
...         self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones")
...     def call(self, x):
...         return x * self.w
>>> layer = Scale()
>>> layer(rg.constant([[1.0, 2.0]])).numpy()
array([[1., 2.]], dtype=float32)
>>> [w.shape.as_list() for w in layer.trainable_weights]
[[2]]
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import numpy as np

from retrograd.core import backends, dtypes, nest
from retrograd.core.shapes import TensorShape
from retrograd.core.variables import Variable
from retrograd.keras.src import (
    backend,
    constraints,
    dtype_policies,
    initializers,
    load_limits,
    regularizers,
    tf_ops,
)
from retrograd.keras.src.keras_tensor import KerasTensor, Node, any_symbolic, is_keras_tensor
from retrograd.keras.src.layers import arguments, building
from retrograd.keras.src.layers.calls import (
    check_input_rank,
    check_positional_tensors,
    named_error,
)
from retrograd.keras.src.ops.operation import Operation
from retrograd.keras.src.variables import AutocastScope, LayerScope, weight_path
from retrograd.keras.src.variables import Variable as KerasVariable
from retrograd.training.module import Module

__all__ = ["Layer", "KerasTensor", "Node", "is_keras_tensor", "add_kernel_and_bias"]


def _shape_tuple(value: Any) -> Any:
    """The build shape of a layer's inputs: a tuple, or a list of them (a dict of inputs is
    built by its values' shapes, in key order)."""
    if isinstance(value, dict):
        return [_shape_tuple(value[k]) for k in sorted(value)]
    if isinstance(value, (list, tuple)):
        return [_shape_tuple(v) for v in value]
    if value is None or not hasattr(value, "shape"):
        raise ValueError(f"A layer's inputs must be tensors, got {value!r:.80}")
    return tuple(TensorShape(value.shape).as_list())


class Layer(Module, Operation):
    """Base class of Keras layers (see the module docstring).

    >>> import retrograd as rg
    >>> class Scale(rg.keras.layers.Layer):
    ...     def build(self, input_shape):
    ...         self.w = self.add_weight(shape=(), initializer='ones', name='w')
    ...     def call(self, inputs):
    ...         return inputs * self.w
    >>> layer = Scale()
    >>> layer(rg.constant([1.0, 2.0])).numpy().tolist(), len(layer.trainable_weights)
    ([1.0, 2.0], 1)
    """

    def __init__(
        self,
        trainable: bool = True,
        name: str | None = None,
        dtype: Any = None,
        autocast: bool = True,
        input_shape: Any = None,
        input_dim: int | None = None,
        batch_size: int | None = None,
        activity_regularizer: Any = None,
        **kwargs: Any,
    ) -> None:
        kwargs.pop("input_length", None)
        if kwargs:
            raise TypeError(
                f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}"
            )
        if name is None:
            name = backend.unique_name(backend.snake_case(type(self).__name__))
        elif not isinstance(name, str) or "/" in name or not name:
            raise ValueError(f"{type(self).__name__}: invalid layer name {name!r}")
        object.__setattr__(self, "_sublayers", [])
        self._name = name
        self.built = False
        self._trainable = bool(trainable)
        self._trainable_own: list[Variable] = []
        self._non_trainable_own: list[Variable] = []
        self._regularized: list[tuple[Variable, Any]] = []
        self._call_losses: list[Any] = []
        self._weight_names: dict[str, Variable] = {}
        self.dtype_policy = (
            dtype_policies.dtype_policy() if dtype is None else dtype_policies.get(dtype)
        )
        self.compute_dtype = self.dtype_policy.compute_dtype
        self.variable_dtype = self.dtype_policy.variable_dtype
        self.autocast = autocast
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        self._input_shape_arg = None if input_shape is None else tuple(input_shape)
        self._build_shape: Any = None
        self.activity_regularizer = regularizers.get(activity_regularizer)

    @property
    def _name_scope(self) -> LayerScope:
        """The scope this layer's weights are made in: its name nested in the scope entered
        now (Keras 3's rule: a sublayer built during its parent's call or build gets
        ``parent/child/`` paths), entered once however often the layer re-enters it."""
        return LayerScope(self)

    _TF_MODULE_IGNORED_PROPERTIES = frozenset(
        {
            "_sublayers",
            "_trainable_own",
            "_non_trainable_own",
            "_regularized",
            "_call_losses",
            "_call_arguments",
        }
    )

    # -- tracking ------------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        Module.__setattr__(self, name, value)
        if name in type(self)._TF_MODULE_IGNORED_PROPERTIES:
            return
        sublayers = self.__dict__.get("_sublayers")
        if sublayers is None:
            return
        for leaf in nest.flatten(value) if isinstance(value, (list, tuple, dict)) else [value]:
            if isinstance(leaf, Layer) and leaf is not self and leaf not in sublayers:
                sublayers.append(leaf)
            elif isinstance(leaf, KerasVariable):  # Keras tracks variables set as attributes
                own = self._trainable_own if leaf.trainable else self._non_trainable_own
                if all(leaf is not v for v in self._trainable_own + self._non_trainable_own):
                    own.append(leaf)

    def _checkpoint_children(self) -> dict[str, Any]:
        ignored = self._TF_MODULE_IGNORED_PROPERTIES | Module._INTERNAL_PROPERTIES
        children = dict(self._weight_names)
        for key in sorted(vars(self)):
            if key not in ignored and key not in children:
                children[key] = vars(self)[key]
        return children

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> str:
        """The dtype of the layer's variables (Keras 3: the policy's variable dtype)."""
        return self.variable_dtype

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self._trainable = bool(value)
        for layer in self._flat_layers():
            layer._trainable = bool(value)

    def _flat_layers(self) -> list[Layer]:
        """Every sublayer, depth first, each once."""
        found, seen, stack = [], {id(self)}, list(reversed(self._sublayers))
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            found.append(layer)
            stack.extend(reversed(layer._sublayers))
        return found

    # -- weights -------------------------------------------------------------------------
    def add_weight(
        self,
        shape: Any = None,
        initializer: Any = None,
        dtype: Any = None,
        trainable: bool = True,
        autocast: bool = True,
        regularizer: Any = None,
        constraint: Any = None,
        aggregation: str = "none",
        overwrite_with_gradient: bool = False,
        name: str | None = None,
        **kwargs: Any,
    ) -> Variable:
        """Creates a weight of this layer (Keras' argument order; a string first argument
        is taken as the name, as in older Keras)."""
        if isinstance(shape, str):
            name, shape = shape, kwargs.pop("shape", None)
        if kwargs:
            raise TypeError(f"{type(self).__name__}.add_weight: unexpected arguments {kwargs}")
        shape = () if shape is None else tuple(int(d) for d in shape)
        dtype = dtypes.as_dtype(dtype or self.variable_dtype)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = initializers.get(initializer)
        load_limits.check_weight(self.name, shape, dtype)  # (a model loaded from a file)
        base = name or "variable"
        key, count = base, 1
        while key in self._weight_names:
            key, count = f"{base}_{count}", count + 1
        variable = KerasVariable(
            init(shape, dtype=dtype),
            trainable=trainable,
            autocast=autocast,
            aggregation=aggregation,
            name=key,
            constraint=constraints.get(constraint),
            path=weight_path(self, key),
        )
        (self._trainable_own if trainable else self._non_trainable_own).append(variable)
        self._weight_names[key] = variable
        if regularizer is not None:
            self._regularized.append((variable, regularizers.get(regularizer)))
        self._track_child(key, variable)
        return variable

    add_variable = add_weight

    @property
    def trainable_weights(self) -> list[Variable]:
        if not self._trainable:
            return []
        own = [w for w in self._trainable_own + self._non_trainable_own if w.trainable]
        return _unique(own + [w for s in self._sublayers for w in s.trainable_weights])

    @property
    def non_trainable_weights(self) -> list[Variable]:
        if not self._trainable:
            return self.weights
        own = [w for w in self._trainable_own + self._non_trainable_own if not w.trainable]
        return _unique(own + [w for s in self._sublayers for w in s.non_trainable_weights])

    @property
    def weights(self) -> list[Variable]:
        own = self._trainable_own + self._non_trainable_own
        return _unique(own + [w for s in self._sublayers for w in s.weights])

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    def get_weights(self) -> list[np.ndarray]:
        return [np.array(backends.to_host(w._value)) for w in self.weights]  # host copies

    def set_weights(self, weights: list[Any]) -> None:
        own = self.weights
        if len(weights) != len(own):
            raise ValueError(
                f"Layer {self.name} expects {len(own)} weights, but the given list has "
                f"{len(weights)}"
            )
        for variable, value in zip(own, weights):
            value = np.asarray(backends.to_host(value))
            if value.shape != variable._value.shape:
                raise ValueError(
                    f"Layer {self.name}: weight '{variable.name}' has shape "
                    f"{variable._value.shape}, the given value {value.shape}"
                )
            variable.assign(value.astype(variable._value.dtype))

    def count_params(self) -> int:
        return int(sum(np.prod(w._value.shape) for w in self.weights))

    # -- losses --------------------------------------------------------------------------
    def add_loss(self, loss: Any) -> None:
        """Adds a loss (a tensor computed in ``call``) to ``losses``."""
        self._call_losses.append(loss)

    @property
    def losses(self) -> list[Any]:
        """Losses added during the last call and weight regularization penalties, this
        layer's and its sublayers'."""
        found = []
        for layer in [self, *self._flat_layers()]:
            found += layer._call_losses
            found += [regularizer(variable) for variable, regularizer in layer._regularized]
        return found

    # -- calling -------------------------------------------------------------------------
    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A subclass's build runs in the layer's name scope however it is called (Keras
        # wraps it so): weights made by a direct ``layer.build(shape)`` get the layer's path,
        # and the layer is built afterwards (a later call does not build it again).
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not getattr(build, "_scoped", False):

            @functools.wraps(build)
            def scoped_build(self: Layer, *args: Any, **kw: Any) -> Any:
                with self._name_scope:
                    result = build(self, *args, **kw)
                self.built = True
                return result

            scoped_build._scoped = True  # type: ignore[attr-defined]
            cls.build = scoped_build  # type: ignore[method-assign]

    @building.default_build
    def build(self, input_shape: Any) -> None:
        """Creates the weights, given the input's shape (called once, before the first call);
        this default makes none and marks the layer built (warning, as Keras, when a layer it
        holds is not built yet)."""
        building.warn_unbuilt_state(self)
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return inputs

    def _accepts(self, argument: str) -> bool:
        """Whether ``call`` takes ``argument`` (looked up once per layer and argument)."""
        cache = self.__dict__.setdefault("_call_arguments", {})
        if argument not in cache:
            parameters = inspect.signature(self.call).parameters
            cache[argument] = argument in parameters or any(
                p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()
            )
        return cache[argument]

    def _cast_inputs(self, value: Any) -> Any:
        return arguments.cast_inputs(self, value, tf_ops.constant, tf_ops.cast)

    def _maybe_build(self, args: tuple, kwargs: dict) -> None:
        """Builds the layer for a call on ``args``/``kwargs`` (see ``building``)."""
        if self.built:
            return
        with self._name_scope:
            building.build_on_call(self, args, kwargs)
        self.built = True

    def _cast_arguments(self, args: tuple) -> tuple:
        """The positional arguments, float tensors and arrays cast to the compute dtype."""
        return tuple(self._cast_inputs(a) if a is not None else a for a in args)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not args and "inputs" in kwargs:
            args = (kwargs.pop("inputs"),)
        if args and (args[0] is None or (nest.is_nested(args[0]) and not nest.flatten(args[0]))):
            raise ValueError(f"Layer '{self.name}' was called without input tensors: {args[0]!r}")
        check_positional_tensors(self, args)
        if any_symbolic(args, kwargs):
            return self._symbolic_call(args, kwargs)
        args = self._cast_arguments(args)
        if args:
            check_input_rank(self, args[0])
        training = kwargs.pop("training", None)
        if training is None:
            training = backend.layer_calls.training
        if self._accepts("training"):
            kwargs["training"] = training
        outer = backend.layer_calls.training
        backend.layer_calls.training = training
        try:
            with self._name_scope:
                return self._scoped_call(args, kwargs)
        except Exception as error:  # named after this layer (the innermost one), same type
            named = named_error(self, error)
            if named is error:
                raise
            raise named.with_traceback(error.__traceback__) from error.__cause__
        finally:
            backend.layer_calls.training = outer

    def _scoped_call(self, args: tuple, kwargs: dict) -> Any:
        """Builds (the first time) and calls the layer, inside its name scope."""
        if not self.built:
            self._maybe_build(args, kwargs)
        self._call_losses = []
        with AutocastScope(self.compute_dtype if self.autocast else None):
            outputs = self.call(*args, **kwargs)
        if self.activity_regularizer is not None:
            for output in nest.flatten(outputs):
                penalty = self.activity_regularizer(output)
                if output.shape.rank:  # per sample, as Keras 3 does
                    penalty = penalty / float(output.shape[0] or 1)
                self.add_loss(penalty)
        return outputs

    def _symbolic_call(self, args: tuple, kwargs: dict) -> Any:
        """A call on KerasTensors: builds the layer, finds the output shapes by running
        ``call`` on zeros (batch size 1), and returns KerasTensors for the outputs."""
        first = args[0] if args else None
        check_input_rank(self, first)
        if not self.built:
            with self._name_scope:
                self._maybe_build(args, kwargs)

        def concrete(t: Any) -> Any:
            if not isinstance(t, KerasTensor):
                return t
            shape = [1 if d is None else d for d in t.shape]
            load_limits.check_activation(self.name, shape, t.dtype, "take")
            return tf_ops.zeros(shape, dtype=t.dtype)

        if load_limits.active():
            load_limits.check_call_outputs(self, args, kwargs, KerasTensor)
        c_args, c_kwargs = nest.map_structure(concrete, (args, kwargs))
        c_args = self._cast_arguments(c_args)
        if self._accepts("training"):
            c_kwargs["training"] = False
        outer, backend.layer_calls.symbolic = backend.layer_calls.symbolic, True
        try:
            with np.errstate(all="ignore"), self._name_scope:
                outputs = self.call(*c_args, **c_kwargs)
        finally:
            backend.layer_calls.symbolic = outer
        self._call_losses = []
        node = Node(self, args, kwargs)
        batch_unknown = any(
            isinstance(t, KerasTensor) and t.shape and t.shape[0] is None
            for t in nest.flatten(first if first is not None else (args, kwargs))
        )
        symbolic = []
        for i, out in enumerate(nest.flatten(outputs)):
            shape = TensorShape(out.shape).as_list()
            if batch_unknown and shape:
                shape[0] = None
            symbolic.append(KerasTensor(shape, out.dtype, node=node, index=i))
        node.outputs = nest.pack_sequence_as(outputs, symbolic)
        self._last_output_shape = tuple(symbolic[0].shape) if symbolic else None
        return node.outputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        inputs = KerasTensor(input_shape, self.compute_dtype, name="spec")
        return tuple(self._symbolic_call((inputs,), {}).shape)

    supports_masking = False  # whether the layer passes a timestep mask on (Keras' rule)
    input_rank: Any = None  # (lowest, highest) rank of the first input (Keras' InputSpec)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        """The mask of the outputs: the inputs' where the layer supports masking."""
        return mask if self.supports_masking else None

    def get_config(self) -> dict:
        dtype = self.dtype_policy.name if self.compute_dtype != self.variable_dtype else self.dtype
        return {"name": self.name, "trainable": self.trainable, "dtype": dtype}

    @classmethod
    def from_config(cls, config: dict) -> Layer:
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


# The layers whose name scopes are entered now, innermost last (a context stack).


def _unique(variables: list[Variable]) -> list[Variable]:
    seen, found = set(), []
    for v in variables:
        if id(v) not in seen:
            seen.add(id(v))
            found.append(v)
    return found


def add_kernel_and_bias(layer: Layer, kernel_shape: tuple, bias_size: int) -> None:
    """Dense's and the convolutions' weights: ``layer.kernel`` of ``kernel_shape`` and, when
    ``layer.use_bias``, ``layer.bias`` of ``(bias_size,)`` (else None), made with the layer's
    kernel/bias initializers and regularizers, in Keras' order (kernel first)."""
    layer.kernel = layer.add_weight(
        shape=kernel_shape,
        initializer=layer.kernel_initializer,
        regularizer=layer.kernel_regularizer,
        constraint=getattr(layer, "kernel_constraint", None),
        name="kernel",
    )
    layer.bias = (
        layer.add_weight(
            shape=(bias_size,),
            initializer=layer.bias_initializer,
            regularizer=layer.bias_regularizer,
            constraint=getattr(layer, "bias_constraint", None),
            name="bias",
        )
        if layer.use_bias
        else None
    )
