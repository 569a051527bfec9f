"""``Model.compile / fit / evaluate / predict`` with Keras 3's loop: ``train_step`` (which
users may override) runs per batch, the loss tracker is a mean weighted by batch size,
metrics are running means reset each epoch, and logs are sorted by name.

As in Keras, the steps are traced (``retrograd.function``: one trace per batch shape)
unless ``compile(run_eagerly=True)`` or ``model.run_eagerly = True``; the traced step
updates the same variables (weights, optimizer slots, metrics, dropout's seed state) as
the eager one, so both give the same numbers. ``steps_per_execution`` groups batches
between callbacks as Keras does (``on_train_batch_begin`` with the first step of the
group, ``on_train_batch_end`` with its last); ``jit_compile`` is accepted (the trace is
compiled into retrograd's plans either way).

>>> import numpy as np, retrograd as rg
>>> model = rg.keras.Sequential([rg.keras.Input((1,)), rg.keras.layers.Dense(1)])
>>> model.compile(optimizer=rg.keras.optimizers.SGD(0.1), loss="mse")
>>> history = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=3, verbose=0)
>>> sorted(history.history), len(history.history["loss"])
(['loss'], 3)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from retrograd.autodiff.tape import GradientTape
from retrograd.core import nest
from retrograd.distribute.losses import unscale_loss_for_distribution
from retrograd.graph.function import function
from retrograd.keras.src import callbacks as callbacks_module
from retrograd.keras.src import data_batches, distributed_fit, tf_ops
from retrograd.keras.src import losses as losses_module
from retrograd.keras.src import metrics as metrics_module
from retrograd.keras.src.compile_utils import (
    CompiledLoss,
    CompileMetrics,
    OutputLosses,
    OutputMetrics,
    class_weight_to_sample_weights,
    output_names,
    weighted_by_class,
)
from retrograd.keras.src.utils_more import unpack_x_y_sample_weight
from retrograd.training import optimizers as optimizers_module

__all__ = ["Trainer", "unpack_x_y_sample_weight"]  # (the second: utils_more's, re-exported)


class Trainer:
    """The training half of ``Model`` (mixed in before ``Layer``)."""

    def _init_trainer(self) -> None:
        self.optimizer = None
        self.loss = None
        self.compiled = False
        self.stop_training = False
        self.history = None
        self._loss_tracker = None
        self._compile_metrics = None
        self.run_eagerly = False
        self.jit_compile = "auto"
        self.steps_per_execution = 1
        self._step_functions: dict = {}

    def compile(
        self,
        optimizer="rmsprop",
        loss=None,
        loss_weights=None,
        metrics=None,
        weighted_metrics=None,
        run_eagerly=False,
        steps_per_execution=1,
        jit_compile="auto",
        auto_scale_loss=True,
    ):
        """Sets the optimizer (a name or an object), the loss and the metrics."""
        self._compile_arguments = {  # as given, for save()
            "loss": loss,
            "loss_weights": loss_weights,
            "metrics": metrics,
            "weighted_metrics": weighted_metrics,
        }
        if isinstance(optimizer, (str, dict)):
            from retrograd.keras.src import optimizer_names

            optimizer = optimizer_names.get(optimizer)
        policy = getattr(self, "dtype_policy", None)
        if auto_scale_loss and optimizer is not None and policy is not None:
            from retrograd.keras.src.loss_scale_optimizer import LossScaleOptimizer

            if policy.name == "mixed_float16" and not isinstance(optimizer, LossScaleOptimizer):
                optimizer = LossScaleOptimizer(optimizer, name="loss_scale_optimizer")
        if optimizer is not None and not isinstance(optimizer, optimizers_module.Optimizer):
            raise TypeError(f"compile: optimizer must be an Optimizer or a name, got {optimizer!r}")
        names = output_names(self)
        if isinstance(loss, (list, tuple)) and len(loss) == 1 and len(names) <= 1:
            loss = loss[0]
        if isinstance(steps_per_execution, bool) or not isinstance(steps_per_execution, int):
            raise TypeError(
                f"compile: steps_per_execution must be a positive int, got {steps_per_execution!r}"
            )
        if steps_per_execution < 1:
            raise ValueError(
                f"compile: steps_per_execution must be at least 1, got {steps_per_execution}"
            )
        self.run_eagerly, self.jit_compile = bool(run_eagerly), jit_compile
        self.steps_per_execution = steps_per_execution
        self._step_functions = {}
        distributed_fit.record_strategy(self)
        self.optimizer = optimizer
        self._loss_tracker = metrics_module.Mean(name="loss")
        if isinstance(loss, (list, tuple, dict)):  # one loss per output
            if len(names) < 2:
                raise ValueError(
                    "compile: a list or dict of losses needs a functional model with several "
                    f"outputs (this model's outputs: {names or 'unknown until called'})"
                )
            self.loss = loss
            self._loss_fn = OutputLosses(loss, loss_weights, names)
            self._compile_metrics = OutputMetrics(metrics, weighted_metrics, names)
        else:
            self.loss = losses_module.get(loss)
            self._loss_fn = (
                self.loss
                if self.loss is None or isinstance(self.loss, losses_module.Loss)
                else losses_module.LossFunctionWrapper(self.loss)
            )
            self._compile_metrics = CompileMetrics(metrics, weighted_metrics)
        self.compiled = True

    @property
    def metrics(self) -> list[Any]:
        """The loss tracker and the compiled metrics (what ``train_step`` updates)."""
        found = [m for m in (self._loss_tracker, self._compile_metrics) if m is not None]
        return found + list(getattr(self._loss_fn, "trackers", []))

    @property
    def metrics_names(self) -> list[str]:
        return [m.name for m in self.metrics]

    @property
    def compiled_loss(self) -> CompiledLoss:
        return CompiledLoss(self)

    @property
    def compiled_metrics(self) -> CompileMetrics | None:
        return self._compile_metrics

    def reset_metrics(self) -> None:
        for metric in self.metrics:
            metric.reset_state()

    def _loss_value(self, y, y_pred, sample_weight):
        if self._loss_fn is None:
            return tf_ops.constant(0.0)
        mask = self._output_mask(y_pred)
        if mask is not None:  # Keras weighs the loss by the outputs' timestep mask
            reduction = getattr(self._loss_fn, "reduction", "sum_over_batch_size")
            dtype = tf_ops.convert_to_tensor(y_pred).dtype
            sample_weight = losses_module.apply_mask(sample_weight, mask, dtype, reduction)
        return self._loss_fn(y, y_pred, sample_weight)

    def _output_mask(self, y_pred) -> Any:
        """The timestep mask of ``y_pred`` when it is this model's latest output."""
        found = getattr(self, "_latest_output_mask", None)
        if found is None or found[0]() is not y_pred:
            return None
        return found[1]

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss plus the model's added losses (regularization penalties)."""
        loss = self._loss_value(y, y_pred, sample_weight)
        for extra in self.losses:
            loss = loss + tf_ops.cast(extra, loss.dtype)
        return loss

    def compute_metrics(self, x, y, y_pred, sample_weight=None) -> dict:
        if self._compile_metrics is not None and y is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight, self._output_mask(y_pred))
        return self.get_metrics_result()

    def get_metrics_result(self) -> dict:
        logs = {}
        for metric in self.metrics:
            result = metric.result()
            if isinstance(result, dict):
                logs.update(result)
            else:
                logs[metric.name] = result
        return logs

    def _require_compiled(self, what: str) -> None:
        if not self.compiled:
            raise ValueError(f"You must call `compile()` before using the model ({what}).")

    # -- steps ---------------------------------------------------------------------------
    def _step(self, kind: str) -> Any:
        """``train_step``, ``test_step`` or ``predict_step``: traced (one function per
        step method, kept until it is overridden or the model recompiled) unless the
        model runs eagerly."""
        step = getattr(self, f"{kind}_step")
        if self.run_eagerly:
            return step
        found = self._step_functions.get(kind)
        if found is None or found[0] != step:
            found = self._step_functions[kind] = (step, function(step))
        return found[1]

    def train_step(self, data):
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)
            self._loss_tracker.update_state(
                unscale_loss_for_distribution(loss), sample_weight=data_batches.batch_size_of(x)
            )
            scale_loss = getattr(self.optimizer, "scale_loss", None)
            if scale_loss is not None:  # (Keras' loss scaling: the optimizer unscales)
                loss = scale_loss(loss)
        variables = self.trainable_weights
        if variables:
            gradients = tape.gradient(loss, variables)
            self.optimizer.apply_gradients(zip(gradients, variables))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(
            x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=False
        )
        loss = unscale_loss_for_distribution(loss)
        self._loss_tracker.update_state(loss, sample_weight=data_batches.batch_size_of(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    # -- loops ---------------------------------------------------------------------------
    def fit(
        self,
        x=None,
        y=None,
        batch_size=None,
        epochs=1,
        verbose="auto",
        callbacks=None,
        validation_split=0.0,
        validation_data=None,
        shuffle=True,
        class_weight=None,
        sample_weight=None,
        initial_epoch=0,
        steps_per_epoch=None,
        validation_steps=None,
        validation_batch_size=None,
        validation_freq=1,
    ):
        """Trains for ``epochs`` passes over the data; returns the ``History``. Under a
        ``tf.distribute`` strategy (current at ``compile``), each replica takes its share
        of each global batch of ``batch_size``."""
        self._require_compiled("fit")
        strategy = distributed_fit.strategy_of(self)
        with strategy.scope():
            return self._fit(
                strategy, x, y, batch_size, epochs, verbose, callbacks, validation_split,
                validation_data, shuffle, class_weight, sample_weight, initial_epoch,
                steps_per_epoch, validation_steps, validation_batch_size, validation_freq,
            )  # fmt: skip

    def _fit(
        self, strategy, x, y, batch_size, epochs, verbose, callbacks, validation_split,
        validation_data, shuffle, class_weight, sample_weight, initial_epoch, steps_per_epoch,
        validation_steps, validation_batch_size, validation_freq,
    ):  # fmt: skip
        if self.optimizer is None:
            raise ValueError(
                "fit: the model was compiled without an optimizer (optimizer=None); compile it "
                "with one to train"
            )
        if class_weight is not None and sample_weight is not None:
            raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
        if validation_split and validation_data is None:
            if data_batches.is_dataset(x):
                raise ValueError("validation_split is only supported for arrays, not datasets")
            x_np, y_np = data_batches.as_batchable(x), data_batches.as_batchable(y)
            n = data_batches.num_samples((x_np, y_np))
            split = int(math.floor(n * (1.0 - validation_split)))  # Keras' split
            if split in (0, n):
                raise ValueError(
                    f"Training data contains {n} samples, which is not sufficient to split it "
                    "into a validation and training set as specified by `validation_split="
                    f"{validation_split}`. Either provide more data, or a different value for "
                    "the `validation_split` argument."
                )
            cut = lambda d, s: nest.map_structure(lambda a: a[s], d)  # noqa: E731
            validation_data = (cut(x_np, slice(split, None)), cut(y_np, slice(split, None)))
            x, y = cut(x_np, slice(0, split)), cut(y_np, slice(0, split))
            if sample_weight is not None:  # Keras validates on the weights of its samples
                weights = data_batches.as_batchable(sample_weight)
                validation_data = (*validation_data, cut(weights, slice(split, None)))
                sample_weight = cut(weights, slice(0, split))
        if class_weight is not None and not data_batches.is_dataset(x):
            sample_weight = class_weight_to_sample_weights(
                data_batches.as_batchable(y), class_weight
            )
        batches = data_batches.Batches(x, y, sample_weight, batch_size, shuffle, steps_per_epoch)
        epochs_of_batches = data_batches.Epochs(batches, steps_per_epoch, self.steps_per_execution)
        history = callbacks_module.History()
        given = list(callbacks or [])
        logger = [] if verbose == 0 else [callbacks_module.ProgbarLogger()]
        params = {"verbose": verbose, "epochs": epochs, "steps": steps_per_epoch or batches.steps}
        callback_list = callbacks_module.CallbackList(given + logger + [history])
        callback_list.set_model(self)
        callback_list.set_params(params)
        self.stop_training = False
        callback_list.on_train_begin()
        # BackupAndRestore sets the epoch to resume from in on_train_begin, as in Keras
        initial_epoch = self.__dict__.pop("_initial_epoch", None) or initial_epoch
        logs: dict = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callback_list.on_epoch_begin(epoch)
            step = -1
            for first, group in epochs_of_batches.epoch():
                callback_list.on_train_batch_begin(first)
                step = first + len(group) - 1
                for data in group:
                    if class_weight is not None and batches.dataset is not None:
                        data = weighted_by_class(data, class_weight)
                    data = distributed_fit.replica_batch(strategy, data)
                    logs = self._step("train")(data)
                logs = distributed_fit.replica_logs(self, strategy, logs)
                logs = data_batches.python_logs(logs)
                callback_list.on_train_batch_end(step, logs)
                if self.stop_training:
                    break
            if step < 0:
                raise ValueError("fit: the data yielded no batch")
            epoch_logs = dict(logs)
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                val = validation_data if data_batches.is_dataset(validation_data) else None
                callback_list.on_test_begin()  # as Keras' evaluate inside fit
                if val is None:
                    vx, vy, vw = unpack_x_y_sample_weight(tuple(validation_data))
                    val_logs = self._evaluate_logs(
                        vx, vy, vw, validation_batch_size or batch_size, validation_steps
                    )
                else:
                    val_logs = self._evaluate_logs(val, None, None, None, validation_steps)
                callback_list.on_test_end(val_logs)
                epoch_logs.update({f"val_{k}": v for k, v in val_logs.items()})
            callback_list.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        finalize = getattr(self.optimizer, "finalize_variable_values", None)
        if finalize is not None and epochs > 0:  # (moving averages replace the weights)
            finalize(self.trainable_weights)
        callback_list.on_train_end(logs)
        return history

    def _evaluate_logs(self, x, y, sample_weight, batch_size, steps, callback_list=None):
        self.reset_metrics()
        logs: dict = {}
        batches = data_batches.Batches(x, y, sample_weight, batch_size)
        for first, group in data_batches.executions(batches, steps, self.steps_per_execution):
            if callback_list is not None:
                callback_list.on_test_batch_begin(first)
            for data in group:
                logs = self._step("test")(data)
            logs = data_batches.python_logs(logs)
            if callback_list is not None:
                callback_list.on_test_batch_end(first + len(group) - 1, logs)
        return logs

    def evaluate(
        self,
        x=None,
        y=None,
        batch_size=None,
        verbose="auto",
        sample_weight=None,
        steps=None,
        callbacks=None,
        return_dict=False,
    ):
        """The loss (and metrics) over the data: a number, a list, or a dict."""
        self._require_compiled("evaluate")
        callback_list = callbacks_module.CallbackList(list(callbacks or []))
        callback_list.set_model(self)
        callback_list.set_params({})
        callback_list.on_test_begin()
        logs = self._evaluate_logs(x, y, sample_weight, batch_size, steps, callback_list)
        callback_list.on_test_end(logs)
        return self._batch_result(logs, return_dict)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs over all batches, as NumPy arrays."""
        outputs = []
        for step, data in enumerate(data_batches.Batches(x, None, None, batch_size)):
            if steps is not None and step >= steps:
                break
            outputs.append(nest.map_structure(np.asarray, self._step("predict")(data)))
        if not outputs:
            raise ValueError("predict: the data yielded no batch")
        return nest.map_structure(lambda *parts: np.concatenate(parts), *outputs)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        """One training step on one batch; returns the loss (and metrics)."""
        self._require_compiled("train_on_batch")
        self.reset_metrics()
        data = (x,) if y is None else (x, y) if sample_weight is None else (x, y, sample_weight)
        data = nest.map_structure(tf_ops.convert_to_tensor, data_batches.as_batchable(data))
        return self._batch_result(data_batches.python_logs(self._step("train")(data)), return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        self._require_compiled("test_on_batch")
        self.reset_metrics()
        data = (x,) if y is None else (x, y) if sample_weight is None else (x, y, sample_weight)
        data = nest.map_structure(tf_ops.convert_to_tensor, data_batches.as_batchable(data))
        return self._batch_result(data_batches.python_logs(self._step("test")(data)), return_dict)

    def predict_on_batch(self, x):
        return nest.map_structure(np.asarray, self._step("predict")((x,)))

    def _batch_result(self, logs: dict, return_dict: bool) -> Any:
        """The logs, or their values in Keras' order: the loss, the compiled metrics (of a
        single output), the per-output losses, then the others by name."""
        if return_dict:
            return logs
        names = ["loss"]
        if isinstance(self._compile_metrics, CompileMetrics):
            names += [m.name for m in self._compile_metrics.metrics]
        names += [t.name for t in getattr(self._loss_fn, "trackers", [])]
        ordered = [logs[n] for n in names if n in logs]
        ordered += [logs[k] for k in sorted(logs) if k not in names]
        return ordered[0] if len(ordered) == 1 else ordered
