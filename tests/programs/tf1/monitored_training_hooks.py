"""A TF1 training script in the MonitoredTrainingSession style: hooks stop at a step,
watch for NaN, feed batches (FeedFnHook), collect the loss through a custom
SessionRunHook, run final ops, and a CheckpointSaverHook (with a listener) checkpoints
every 4 steps; a second session restores the latest checkpoint and trains on."""

import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(19)
X = rng.randn(48, 3).astype(np.float32)
Y = X @ np.array([[0.5], [-1.0], [2.0]], np.float32) + 0.3
batches = [(X[i : i + 8], Y[i : i + 8]) for i in range(0, 48, 8)]


class LossRecorder(tf.train.SessionRunHook):
    def __init__(self, loss):
        self.loss, self.values = loss, []

    def begin(self):
        self.values = []

    def before_run(self, run_context):
        return tf.train.SessionRunArgs({"loss": self.loss, "step": tf.train.get_global_step()})

    def after_run(self, run_context, run_values):
        self.values.append((int(run_values.results["step"]), float(run_values.results["loss"])))


class Listener(tf.train.CheckpointSaverListener):
    def __init__(self):
        self.saved = []

    def after_save(self, session, global_step_value):
        self.saved.append(global_step_value)


folder = tempfile.mkdtemp()
for run in range(2):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        y = tf.placeholder(tf.float32, [None, 1])
        w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        step = tf.train.get_or_create_global_step()
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)

        def feeder(x, y, counter):
            def feed():
                bx, by = batches[next(counter) % len(batches)]
                return {x: bx, y: by}

            return feed

        recorder, listener = LossRecorder(loss), Listener()
        final = tf.train.FinalOpsHook([w, step])
        hooks = [
            tf.train.StopAtStepHook(last_step=6 * (run + 1)),
            tf.train.NanTensorHook(loss),
            tf.train.FeedFnHook(feeder(x, y, iter(range(1000)))),
            recorder,
            final,
            tf.train.CheckpointSaverHook(folder, save_steps=4, listeners=[listener]),
        ]
        with tf.train.MonitoredTrainingSession(
            checkpoint_dir=folder,
            hooks=hooks,
            save_checkpoint_secs=None,
            save_summaries_steps=None,
            log_step_count_steps=None,
        ) as sess:
            while not sess.should_stop():
                sess.run(train)
        print("run", run, "losses", [(s, round(v, 5)) for s, v in recorder.values])
        print(
            "run",
            run,
            "final w",
            final.final_ops_values[0].ravel(),
            "step",
            final.final_ops_values[1],
        )
        print(
            "run",
            run,
            "checkpoints at",
            listener.saved,
            "latest",
            os.path.basename(tf.train.latest_checkpoint(folder)),
        )
shutil.rmtree(folder)
