"""``tf.keras.callbacks``: hooks ``fit``/``evaluate``/``predict`` call at each stage;
``History`` (returned by ``fit``), ``ProgbarLogger``, ``EarlyStopping``,
``ModelCheckpoint`` (weights), ``LambdaCallback``.

>>> import retrograd as rg
>>> seen = []
>>> callback = rg.keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append(e))
>>> callback.on_epoch_end(3, {}); seen
[3]
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from retrograd.checking.progress import is_terminal
from retrograd.core import nest
from retrograd.keras.src.progbar import Progbar

__all__ = [
    "Callback",
    "CallbackList",
    "History",
    "ProgbarLogger",
    "EarlyStopping",
    "ModelCheckpoint",
    "LambdaCallback",
]

_HOOKS = (
    [f"on_{stage}_{when}" for stage in ("train", "test", "predict") for when in ("begin", "end")]
    + [
        f"on_{stage}_batch_{when}"
        for stage in ("train", "test", "predict")
        for when in ("begin", "end")
    ]
    + ["on_epoch_begin", "on_epoch_end"]
)


class Callback:
    """Base class: every hook does nothing; ``self.model`` and ``self.params`` are set.

    >>> import retrograd as rg
    >>> model = rg.keras.Sequential([rg.keras.layers.Dense(1, kernel_initializer='zeros')])
    >>> model.compile(optimizer='sgd', loss='mse')
    >>> x, y = rg.ones([4, 1]), rg.ones([4, 1])
    >>> class CountEpochs(rg.keras.callbacks.Callback):
    ...     def on_train_begin(self, logs=None):
    ...         self.epochs = 0
    ...     def on_epoch_end(self, epoch, logs=None):
    ...         self.epochs += 1
    >>> counter = CountEpochs()
    >>> _ = model.fit(x, y, epochs=3, verbose=0, callbacks=[counter])
    >>> counter.epochs
    3
    """

    def __init__(self) -> None:
        self.model: Any = None
        self.params: dict = {}

    def set_model(self, model: Any) -> None:
        self.model = model

    def set_params(self, params: dict) -> None:
        self.params = params

    def on_train_begin(self, logs=None): ...
    def on_train_end(self, logs=None): ...
    def on_test_begin(self, logs=None): ...
    def on_test_end(self, logs=None): ...
    def on_predict_begin(self, logs=None): ...
    def on_predict_end(self, logs=None): ...
    def on_epoch_begin(self, epoch, logs=None): ...
    def on_epoch_end(self, epoch, logs=None): ...

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)  # (Keras: its backwards-compatible alias)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None): ...
    def on_test_batch_end(self, batch, logs=None): ...
    def on_predict_batch_begin(self, batch, logs=None): ...
    def on_predict_batch_end(self, batch, logs=None): ...

    # Keras 2 names of the train-batch hooks, which Keras 3's on_train_batch_* call
    def on_batch_begin(self, batch, logs=None): ...
    def on_batch_end(self, batch, logs=None): ...


class CallbackList:
    """Calls a hook on every callback in order.

    >>> import retrograd as rg
    >>> seen = []
    >>> hook = rg.keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append(e))
    >>> callbacks = rg.keras.callbacks.CallbackList([hook], add_history=True, epochs=1)
    >>> callbacks.on_epoch_end(0, {})
    >>> seen, [type(c).__name__ for c in callbacks.callbacks], hook.params
    ([0], ['LambdaCallback', 'History'], {'epochs': 1})
    """

    def __init__(
        self,
        callbacks: list[Callback] | None = None,
        add_history: bool = False,
        add_progbar: bool = False,
        model: Any = None,
        **params: Any,
    ) -> None:
        self.callbacks = list(nest.flatten(callbacks)) if callbacks else []
        for callback in self.callbacks:
            if not isinstance(callback, Callback):
                raise TypeError(f"callbacks must be Callback objects, got {callback!r}")
        history = next((c for c in self.callbacks if isinstance(c, History)), None)
        if history is None and add_history:
            history = History()
            self.callbacks.append(history)
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        self.model, self.params = None, params
        if model:  # (Keras sets no model when none is given)
            self.model = model
            if history is not None:
                model.history = history
            for callback in self.callbacks:
                callback.set_model(model)
        if params:
            for callback in self.callbacks:
                callback.set_params(params)

    def set_model(self, model: Any) -> None:
        """Gives ``model`` to every callback."""
        self.model = model
        for callback in self.callbacks:
            callback.set_model(model)

    def set_params(self, params: dict) -> None:
        """Gives ``params`` to every callback."""
        self.params = params
        for callback in self.callbacks:
            callback.set_params(params)

    def __getattr__(self, hook: str) -> Callable:
        if hook not in _HOOKS:
            raise AttributeError(hook)

        takes_index = "epoch" in hook or "batch" in hook

        def call(*args: Any) -> None:
            if len(args) == (1 if takes_index else 0):
                args = (*args, {})  # hooks always receive logs, as in Keras
            for callback in self.callbacks:
                getattr(callback, hook)(*args)

        return call


class History(Callback):
    """Records each epoch's logs: ``history.history['loss']``, ``history.epoch``.

    >>> import retrograd as rg
    >>> model = rg.keras.Sequential([rg.keras.layers.Dense(1, kernel_initializer='zeros')])
    >>> model.compile(optimizer='sgd', loss='mse')
    >>> x, y = rg.ones([4, 1]), rg.ones([4, 1])
    >>> history = model.fit(x, y, epochs=3, verbose=0)
    >>> history.epoch, len(history.history['loss'])
    ([0, 1, 2], 3)
    """

    def __init__(self) -> None:
        super().__init__()
        self.history: dict[str, list[float]] = {}
        self.epoch: list[int] = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        if self.model is not None:
            self.model.history = self


class ProgbarLogger(Callback):
    """Prints ``Epoch i/n`` and a progress bar (a terminal) or one line per epoch.

    >>> import retrograd as rg
    >>> model = rg.keras.Sequential([rg.keras.layers.Dense(1, kernel_initializer='zeros')])
    >>> model.compile(optimizer='sgd', loss='mse')
    >>> x, y = rg.ones([4, 1]), rg.ones([4, 1])
    >>> _ = model.fit(x, y, epochs=2, verbose=2)  # doctest: +ELLIPSIS
    Epoch 1/2
    1/1 - ... - loss: 1.0000
    Epoch 2/2
    1/1 - ... - loss: 0.9216
    """

    def __init__(self, verbose: Any = "auto") -> None:
        super().__init__()
        self.verbose = verbose
        self._bar: Progbar | None = None
        self._seen = 0

    def _mode(self) -> int:
        verbose = self.params.get("verbose", self.verbose)
        if verbose == "auto":
            return 1 if is_terminal(sys.stdout) else 2
        return int(verbose)

    def on_epoch_begin(self, epoch, logs=None):
        mode = self._mode()
        self._bar = Progbar(self.params.get("steps"), verbose=mode) if mode else None
        if mode and self.params.get("epochs", 1) > 1:
            print(f"Epoch {epoch + 1}/{self.params['epochs']}", flush=True)

    def on_train_batch_end(self, batch, logs=None):
        self._seen = batch + 1
        if self._bar is not None and self._bar.verbose == 1:
            self._bar.update(batch + 1, list((logs or {}).items()), finalize=False)

    def on_epoch_end(self, epoch, logs=None):
        if self._bar is not None:
            if self._bar.target is None:  # a dataset of unknown length: now it is known
                self._bar.target = self._seen
                self.params["steps"] = self._seen
            self._bar.update(self._seen, list((logs or {}).items()), finalize=True)


class EarlyStopping(Callback):
    """Stops training when ``monitor`` has not improved by ``min_delta`` for ``patience``
    epochs; optionally restores the best weights.

    >>> import retrograd as rg
    >>> model = rg.keras.Sequential([rg.keras.layers.Dense(1, kernel_initializer='zeros')])
    >>> model.compile(optimizer='sgd', loss='mse')
    >>> x, y = rg.ones([4, 1]), rg.ones([4, 1])
    >>> stop = rg.keras.callbacks.EarlyStopping(monitor='loss', min_delta=10.0, patience=1)
    >>> history = model.fit(x, y, epochs=10, verbose=0, callbacks=[stop])
    >>> history.epoch  # no improvement of 10 for one epoch: stopped
    [0, 1]
    """

    def __init__(
        self,
        monitor: str = "val_loss",
        min_delta: float = 0.0,
        patience: int = 0,
        verbose: int = 0,
        mode: str = "auto",
        baseline: float | None = None,
        restore_best_weights: bool = False,
        start_from_epoch: int = 0,
    ) -> None:
        super().__init__()
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"EarlyStopping: mode must be 'auto', 'min' or 'max', got {mode!r}")
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.restore_best_weights = baseline, restore_best_weights
        self.start_from_epoch = start_from_epoch
        if mode == "auto":
            mode = "max" if "acc" in monitor or monitor.endswith("auc") else "min"
        self.mode = mode
        self.min_delta = abs(min_delta) * (1 if mode == "max" else -1)
        self.stopped_epoch = 0

    def _better(self, value: float, reference: float) -> bool:
        if self.mode == "max":
            return value - self.min_delta > reference
        return value - self.min_delta < reference

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch, self.best_epoch = 0, 0, 0
        self.best = math.inf if self.mode == "min" else -math.inf
        self.best_weights = None

    def on_epoch_end(self, epoch, logs=None):
        value = (logs or {}).get(self.monitor)
        if value is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self._better(value, self.best):
            self.best, self.best_epoch = value, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._better(value, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None and self.stopped_epoch:
            if self.verbose > 0:
                print(
                    f"Restoring model weights from the end of the best epoch: "
                    f"{self.best_epoch + 1}."
                )
            self.model.set_weights(self.best_weights)


class ModelCheckpoint(Callback):
    """Saves the model's weights after each epoch to ``filepath`` (formatted with
    ``epoch`` and the logs), or only when ``monitor`` improves (``save_best_only``).

    >>> import retrograd as rg
    >>> model = rg.keras.Sequential([rg.keras.layers.Dense(1, kernel_initializer='zeros')])
    >>> model.compile(optimizer='sgd', loss='mse')
    >>> x, y = rg.ones([4, 1]), rg.ones([4, 1])
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, 'best.weights.h5')
    ...     save = rg.keras.callbacks.ModelCheckpoint(path, monitor='loss', save_weights_only=True)
    ...     _ = model.fit(x, y, epochs=2, verbose=0, callbacks=[save])
    ...     print(os.path.exists(path))
    True
    """

    def __init__(
        self,
        filepath: str,
        monitor: str = "val_loss",
        verbose: int = 0,
        save_best_only: bool = False,
        save_weights_only: bool = False,
        mode: str = "auto",
        save_freq: Any = "epoch",
        initial_value_threshold: float | None = None,
    ) -> None:
        super().__init__()
        if not save_weights_only and not str(filepath).endswith(".keras"):
            raise ValueError(
                "The filepath provided must end in `.keras` (Keras model format). Received: "
                f"filepath={filepath}"
            )
        if save_weights_only and not str(filepath).endswith(".weights.h5"):
            raise ValueError(
                "When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided "
                f"must end in `.weights.h5` (Keras weights format). Received: filepath={filepath}"
            )
        self.save_weights_only = save_weights_only
        if save_freq != "epoch" and (
            isinstance(save_freq, bool) or not isinstance(save_freq, int) or save_freq < 1
        ):
            raise ValueError(
                f"Unrecognized save_freq: {save_freq}. Expected save_freq are 'epoch' or "
                "integer values"
            )
        self.save_freq = save_freq
        self._current_epoch, self._last_batch_seen, self._since_saving = 0, -1, 0
        if mode == "auto":
            mode = "max" if "acc" in monitor else "min"
        self.filepath, self.monitor, self.verbose = str(filepath), monitor, verbose
        self.save_best_only, self.mode = save_best_only, mode
        default = np.inf if mode == "min" else -np.inf
        self.best = default if initial_value_threshold is None else initial_value_threshold

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        """With an integer ``save_freq``: saves every ``save_freq`` batches (counted across
        epochs), the path formatted with ``epoch`` and ``batch`` (from 1), as Keras."""
        if self.save_freq == "epoch":
            return
        seen = batch + 1 if batch <= self._last_batch_seen else batch - self._last_batch_seen
        self._since_saving += seen
        self._last_batch_seen = batch
        if self._since_saving >= self.save_freq:
            self._since_saving = 0
            self._save(self._current_epoch, batch, logs or {})

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save(epoch, None, logs or {})

    def _save(self, epoch, batch, logs):
        if batch is None or "batch" in logs:
            path = self.filepath.format(epoch=epoch + 1, **logs)
        else:
            path = self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        if self.save_best_only:
            value = logs.get(self.monitor)
            if value is None:
                return
            improved = value < self.best if self.mode == "min" else value > self.best
            if not improved:
                return
            if self.verbose > 0:
                print(
                    f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} to "
                    f"{value:.5f}, saving model to {path}"
                )
            self.best = value
        if self.save_weights_only:
            self.model.save_weights(path)
        else:  # the whole model, as a .keras file
            self.model.save(path)


class LambdaCallback(Callback):
    """A callback from functions: ``on_epoch_begin(epoch, logs)``, ``on_epoch_end``,
    ``on_batch_begin(batch, logs)``, ``on_batch_end``, ``on_train_begin(logs)``,
    ``on_train_end``.

    >>> import retrograd as rg
    >>> model = rg.keras.Sequential([rg.keras.layers.Dense(1, kernel_initializer='zeros')])
    >>> model.compile(optimizer='sgd', loss='mse')
    >>> x, y = rg.ones([4, 1]), rg.ones([4, 1])
    >>> log = rg.keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: print('epoch', e))
    >>> _ = model.fit(x, y, epochs=2, verbose=0, callbacks=[log])
    epoch 0
    epoch 1
    """

    def __init__(
        self,
        on_epoch_begin=None,
        on_epoch_end=None,
        on_train_begin=None,
        on_train_end=None,
        on_train_batch_begin=None,
        on_train_batch_end=None,
        **kwargs: Any,
    ) -> None:
        super().__init__()
        self.__dict__.update(kwargs)  # (as Keras: on_batch_begin=... and any other hook)
        given = {
            "on_epoch_begin": on_epoch_begin,
            "on_epoch_end": on_epoch_end,
            "on_train_begin": on_train_begin,
            "on_train_end": on_train_end,
            "on_train_batch_begin": on_train_batch_begin,
            "on_train_batch_end": on_train_batch_end,
        }
        for hook, function in given.items():
            if function is not None:
                setattr(self, hook, function)
