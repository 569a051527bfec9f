"""More Keras callbacks: TerminateOnNaN, ReduceLROnPlateau, LearningRateScheduler,
CSVLogger (atomic rewrite of the whole file at each epoch), SwapEMAWeights and
BackupAndRestore.

>>> import retrograd as rg
>>> model = rg.keras.Sequential([rg.keras.layers.Dense(1, kernel_initializer='zeros')])
>>> model.compile(optimizer='sgd', loss='mse')
>>> schedule = rg.keras.callbacks.LearningRateScheduler(lambda epoch: 0.1 / (epoch + 1))
>>> history = model.fit(rg.ones([4, 1]), rg.ones([4, 1]), epochs=2, verbose=0,
...                     callbacks=[schedule])
>>> [round(v, 4) for v in history.history['learning_rate']]
[0.1, 0.05]
"""

from __future__ import annotations

import csv
import io
import json
import os
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.core.atomic_files import write_text as write_text_atomically
from retrograd.keras.src.callbacks import Callback

__all__ = [
    "TerminateOnNaN",
    "ReduceLROnPlateau",
    "LearningRateScheduler",
    "CSVLogger",
    "SwapEMAWeights",
    "BackupAndRestore",
]


def _learning_rate(optimizer: Any) -> float:
    """The optimizer's learning rate as Keras reads it (a float32 variable's value)."""
    rate = optimizer.learning_rate
    if callable(rate) and not isinstance(rate, (int, float)):
        raise TypeError(
            "This callback needs a float learning rate, but the optimizer's is a schedule "
            f"({rate!r}), which it cannot change"
        )
    return float(np.float32(rate))


class TerminateOnNaN(Callback):
    """Stops training (or raises, with ``raise_error``) at a NaN or infinite loss.

    >>> import retrograd as rg
    >>> callback = rg.keras.callbacks.TerminateOnNaN(raise_error=True)
    >>> try:
    ...     callback.on_batch_end(3, {"loss": float("nan")})
    ... except RuntimeError as error:
    ...     print(str(error)[:44])
    NaN or Inf loss encountered at batch 3. Loss
    """

    def __init__(self, raise_error: bool = False) -> None:
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            if self.raise_error:
                raise RuntimeError(
                    f"NaN or Inf loss encountered at batch {batch}. Loss value: {loss}. "
                    "Terminating training immediately."
                )
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs)


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by ``factor`` when ``monitor`` has not improved by
    ``min_delta`` for ``patience`` epochs (then waits ``cooldown`` epochs), down to
    ``min_lr``; logs ``learning_rate`` each epoch.

    >>> import retrograd as rg
    >>> rg.keras.callbacks.ReduceLROnPlateau(monitor='loss', factor=0.5).factor
    0.5
    """

    def __init__(self, monitor: str = "val_loss", factor: float = 0.1, patience: int = 10,
                 verbose: int = 0, mode: str = "auto", min_delta: float = 0.0001,
                 cooldown: int = 0, min_lr: float = 0.0, **kwargs: Any) -> None:  # fmt: skip
        super().__init__()
        if factor >= 1.0:
            raise ValueError(
                f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}"
            )
        if mode not in ("auto", "min", "max"):
            warnings.warn(
                f"ReduceLROnPlateau mode {mode} is unknown, fallback to auto mode.", stacklevel=2
            )
            mode = "auto"
        self.monitor, self.factor, self.min_lr = monitor, factor, min_lr
        self.min_delta, self.patience, self.verbose = min_delta, patience, verbose
        self.cooldown, self.mode = cooldown, mode
        self.cooldown_counter = self.wait = 0
        self.best: float | None = None

    def _improved(self, current: float) -> bool:
        maximize = self.mode == "max" or (
            self.mode == "auto" and ("acc" in self.monitor or self.monitor.endswith("auc"))
        )
        if self.best is None:
            return True
        if maximize:
            return current - self.min_delta > self.best
        return current + self.min_delta < self.best

    def on_train_begin(self, logs=None):
        self.best, self.cooldown_counter, self.wait = None, 0, 0

    def in_cooldown(self) -> bool:
        """Whether the callback is waiting out its cooldown."""
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["learning_rate"] = _learning_rate(self.model.optimizer)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(
                f"Learning rate reduction is conditioned on metric `{self.monitor}` which is "
                f"not available. Available metrics are: {','.join(list(logs.keys()))}.",
                stacklevel=2,
            )
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._improved(current):
            self.best, self.wait = current, 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old = _learning_rate(self.model.optimizer)
                if old > np.float32(self.min_lr):
                    new = max(old * self.factor, self.min_lr)
                    self.model.optimizer.learning_rate = new
                    if self.verbose > 0:
                        print(
                            f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate "
                            f"to {new}."
                        )
                    self.cooldown_counter, self.wait = self.cooldown, 0


class LearningRateScheduler(Callback):
    """Sets the learning rate at each epoch's start to ``schedule(epoch, lr)`` (or
    ``schedule(epoch)``); logs ``learning_rate``.

    >>> import retrograd as rg
    >>> rg.keras.callbacks.LearningRateScheduler(lambda e, lr: lr * 0.5).verbose
    0
    """

    def __init__(self, schedule: Callable, verbose: int = 0) -> None:
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = self.model.optimizer
        if not hasattr(optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "learning_rate" attribute.')
        try:
            rate = self.schedule(epoch, _learning_rate(optimizer))
        except TypeError:  # Keras' rule: a one-argument schedule
            rate = self.schedule(epoch)
        if not isinstance(rate, (float, np.float32, np.float64)):
            raise ValueError(
                f"The output of the `schedule` function should be a float. Got: {rate}"
            )
        optimizer.learning_rate = float(rate)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {rate}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = _learning_rate(self.model.optimizer)


class CSVLogger(Callback):
    """Writes each epoch's logs as a CSV row (``epoch`` first, then the sorted keys; the
    ``val_`` columns added when validation has not logged yet).

    >>> import os, tempfile, retrograd as rg
    >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
    >>> model = rg.keras.Sequential([rg.keras.layers.Dense(1, kernel_initializer='zeros')])
    >>> model.compile(optimizer='sgd', loss='mse')
    >>> _ = model.fit(rg.ones([2, 1]), rg.ones([2, 1]), epochs=1, verbose=0,
    ...               callbacks=[rg.keras.callbacks.CSVLogger(path)])
    >>> open(path).read().splitlines()[0]
    'epoch,loss,val_loss'
    """

    def __init__(self, filename: Any, separator: str = ",", append: bool = False) -> None:
        super().__init__()
        self.sep, self.filename, self.append = separator, os.fspath(filename), append
        self.keys: list[str] | None = None
        self._text = ""
        self.append_header = True

    def on_train_begin(self, logs=None):
        self._text, self.keys, self.append_header = "", None, True
        if self.append and os.path.exists(self.filename):
            with open(self.filename, encoding="utf-8") as f:
                self._text = f.read()
            self.append_header = not self._text.split("\n", 1)[0]

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}

        def shown(value: Any) -> Any:
            if isinstance(value, str):
                return value
            if isinstance(value, (list, tuple)) or (
                isinstance(value, np.ndarray) and value.ndim > 0
            ):
                return f'"[{", ".join(map(str, value))}]"'
            return value

        if self.keys is None:
            self.keys = sorted(logs.keys())
            if self.keys and not any(k.startswith("val_") for k in self.keys):
                self.keys += [f"val_{k}" for k in self.keys]
        out = io.StringIO()

        class Dialect(csv.excel):
            delimiter = self.sep

        writer = csv.DictWriter(out, fieldnames=["epoch", *self.keys], dialect=Dialect)
        if self.append_header:
            writer.writeheader()
            self.append_header = False
        writer.writerow({"epoch": epoch, **{k: shown(logs.get(k, "NA")) for k in self.keys}})
        self._text += out.getvalue()
        write_text_atomically(self.filename, self._text)


class SwapEMAWeights(Callback):
    """With an optimizer's ``use_ema``, evaluates and predicts with the moving averages of
    the weights (swapped in and back); ``swap_on_epoch`` also swaps at each epoch's end.

    >>> import retrograd as rg
    >>> rg.keras.callbacks.SwapEMAWeights().swap_on_epoch
    False
    """

    def __init__(self, swap_on_epoch: bool = False) -> None:
        super().__init__()
        self.swap_on_epoch = swap_on_epoch
        self._ema_weights_in_model = False

    def _optimizer(self) -> Any:
        optimizer = self.model.optimizer
        optimizer = getattr(optimizer, "inner_optimizer", optimizer)
        if not getattr(optimizer, "use_ema", False):
            raise ValueError(
                "SwapEMAWeights must be used when `use_ema=True` is set on the optimizer. "
                f"Received: use_ema={getattr(optimizer, 'use_ema', False)}"
            )
        return optimizer

    def _pairs(self) -> list:
        optimizer = self._optimizer()
        pairs = []
        for variable in self.model.trainable_variables:
            average = optimizer.average_of(variable)
            if average is not None:
                pairs.append((variable, average))
        return pairs

    def _swap(self) -> None:
        for variable, average in self._pairs():
            kept = np.array(variable.numpy())
            variable.assign(average.read_value())
            average.assign(kept)

    def _finalize(self) -> None:
        for variable, average in self._pairs():
            average.assign(variable.read_value())

    def on_epoch_begin(self, epoch, logs=None):
        if self.swap_on_epoch and self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = False

    def on_epoch_end(self, epoch, logs=None):
        if self.swap_on_epoch and not self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = True
            if epoch == self.params.get("epochs", 0) - 1:
                self._finalize()

    def on_test_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = True

    def on_test_end(self, logs=None):
        if self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = False

    on_predict_begin = on_test_begin

    def on_predict_end(self, logs=None):
        # as Keras 3.15: the weights stay swapped after predict (its condition is inverted)
        if not self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = False


class BackupAndRestore(Callback):
    """Saves the weights and the epoch reached to ``backup_dir`` (each epoch, or every
    ``save_freq`` batches); a later ``fit`` resumes from there; the backup is deleted when
    training ends (``delete_checkpoint``).

    >>> import tempfile, retrograd as rg
    >>> rg.keras.callbacks.BackupAndRestore(tempfile.mkdtemp()).save_freq
    'epoch'
    """

    def __init__(self, backup_dir: Any, save_freq: Any = "epoch", double_checkpoint: bool = False,
                 delete_checkpoint: bool = True) -> None:  # fmt: skip
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(
                f"Invalid value for argument `save_freq`. Received: save_freq={save_freq}. "
                "Expected either 'epoch' or an integer value."
            )
        self.backup_dir, self.save_freq = os.fspath(backup_dir), save_freq
        self.double_checkpoint, self.delete_checkpoint = double_checkpoint, delete_checkpoint
        self._weights_path = os.path.join(self.backup_dir, "latest.weights.h5")
        self._metadata_path = os.path.join(self.backup_dir, "training_metadata.json")
        self._current_epoch = self._last_batch_seen = self._since_saving = 0

    def on_train_begin(self, logs=None):
        if os.path.exists(self._weights_path):
            self.model.load_weights(self._weights_path)
        if os.path.exists(self._metadata_path):
            with open(self._metadata_path, encoding="utf-8") as f:
                self.model._initial_epoch = int(json.loads(f.read())["epoch"])

    def _save(self) -> None:
        os.makedirs(self.backup_dir, exist_ok=True)
        self.model.save_weights(self._weights_path, overwrite=True)
        metadata = {"epoch": self._current_epoch, "batch": self._last_batch_seen}
        write_text_atomically(self._metadata_path, json.dumps(metadata))

    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch, self._last_batch_seen = epoch + 1, 0
        if self.save_freq == "epoch":
            self._save()

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        added = batch + 1 if batch <= self._last_batch_seen else batch - self._last_batch_seen
        self._since_saving += added
        self._last_batch_seen = batch
        if self._since_saving >= self.save_freq:
            self._since_saving = 0
            self._save()

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and os.path.isdir(self.backup_dir):
            for name in ("latest.weights.h5", "training_metadata.json"):
                path = os.path.join(self.backup_dir, name)
                if os.path.exists(path):
                    os.remove(path)
            if not os.listdir(self.backup_dir):
                os.rmdir(self.backup_dir)
