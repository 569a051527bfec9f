"""tf.train's moving averages, coordinator, cluster specs, checkpoint reading utilities and
CheckpointManager's options: as TensorFlow gives them. Plain code: no TensorFlow import."""

CASES = {
    "ema": """
v, w = tf.Variable(1.0, name="v"), tf.Variable([1.0, 2.0], name="w")
ema = tf.train.ExponentialMovingAverage(decay=0.9)
ema.apply([v, w])
first = [float(ema.average(v)), ema.average(w).numpy()]
v.assign(3.0)
w.assign([0.0, 0.0])
ema.apply([v, w])
step = tf.Variable(0.0)
fast = tf.train.ExponentialMovingAverage(0.99, num_updates=step)
fast.apply([v])
v.assign(5.0)
fast.apply([v])
result = first + [float(ema.average(v)), ema.average(w).numpy(), ema.average_name(v),
                  ema.name, float(fast.average(v)), ema.average(tf.Variable(1.0)) is None,
                  sorted(ema.variables_to_restore([v]).keys())]
""",
    "ema_zero_debias": """
v = tf.Variable(2.0)
ema = tf.train.ExponentialMovingAverage(0.5, zero_debias=True)
values = []
for target in [2.0, 4.0, 6.0]:
    v.assign(target)
    ema.apply([v])
    values.append(float(ema.average(v)))
result = values
""",
    "ema_integer": "tf.train.ExponentialMovingAverage(0.9).apply([tf.Variable(1)])",
    "coordinator": """
import threading
coord = tf.train.Coordinator()
log = []
def worker(i):
    while not coord.should_stop():
        if i == 1:
            coord.request_stop()
        coord.wait_for_stop(0.01)
    log.append(i)
threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
for t in threads:
    t.start()
coord.join(threads)
with coord.stop_on_exception():
    raise tf.errors.OutOfRangeError(None, None, "done")
coord.clear_stop()
result = [sorted(log), coord.should_stop(), coord.joined]
""",
    "coordinator_raises": """
coord = tf.train.Coordinator()
with coord.stop_on_exception():
    raise ValueError("boom")
coord.join([])
""",
    "cluster_spec": """
spec = tf.train.ClusterSpec({"worker": ["w0:2222", "w1:2222"], "ps": {1: "p1:2222", 3: "p3:2222"}})
result = [spec.jobs, spec.num_tasks("ps"), spec.task_indices("ps"), spec.task_address("ps", 3),
          spec.job_tasks("ps"), spec.as_dict(), bool(spec), bool(tf.train.ClusterSpec({})),
          spec == tf.train.ClusterSpec(spec.as_dict())]
""",
    "cluster_spec_bad_job": "tf.train.ClusterSpec({'a': ['x']}).num_tasks('b')",
    "checkpoint_reading": """
import tempfile, os
d = tempfile.mkdtemp()
m = tf.Module()
m.w = tf.Variable([[1.0, 2.0]])
path = tf.train.Checkpoint(model=m, v=tf.Variable(3, dtype=tf.int64)).save(os.path.join(d, "ck"))
names = [(n, s) for n, s in tf.train.list_variables(d) if n != "_CHECKPOINTABLE_OBJECT_GRAPH"]
reader = tf.train.load_checkpoint(path)
state = tf.train.get_checkpoint_state(d)
result = [names, tf.train.load_variable(d, "model/w/.ATTRIBUTES/VARIABLE_VALUE"),
          tf.train.load_variable(path, "v/.ATTRIBUTES/VARIABLE_VALUE"),
          reader.has_tensor("v/.ATTRIBUTES/VARIABLE_VALUE"), reader.has_tensor("nope"),
          reader.get_variable_to_shape_map()["model/w/.ATTRIBUTES/VARIABLE_VALUE"],
          reader.get_variable_to_dtype_map()["v/.ATTRIBUTES/VARIABLE_VALUE"].name,
          os.path.basename(state.model_checkpoint_path),
          [os.path.basename(p) for p in state.all_model_checkpoint_paths],
          tf.train.get_checkpoint_state(tempfile.mkdtemp()),
          [os.path.basename(p) for p in tf.train.checkpoints_iterator(d, timeout=0.1)]]
""",
    "load_from_empty_dir": "import tempfile; tf.train.load_checkpoint(tempfile.mkdtemp())",
    "load_missing_key": """
import tempfile, os
d = tempfile.mkdtemp()
tf.train.Checkpoint(v=tf.Variable(1.0)).save(os.path.join(d, "ck"))
tf.train.load_variable(d, "missing")
""",
    "manager_interval_and_init": """
import tempfile, os
d = tempfile.mkdtemp()
step = tf.Variable(0, dtype=tf.int64)
ckpt = tf.train.Checkpoint(step=step)
calls = []
manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=5, step_counter=step,
                                     checkpoint_interval=3, init_fn=lambda: calls.append(1))
restored = manager.restore_or_initialize()
saved = []
for i in range(8):
    step.assign(i)
    p = manager.save()
    saved.append(None if p is None else os.path.basename(p))
forced = os.path.basename(manager.save(check_interval=False))
manager.sync()
result = [restored, calls, saved, forced, manager.checkpoint_interval,
          os.path.basename(manager.directory) == os.path.basename(d),
          [os.path.basename(p) for p in manager.checkpoints],
          len(tf.train.get_checkpoint_state(d).all_model_checkpoint_timestamps)]
""",
    "manager_needs_step_counter": """
import tempfile
tf.train.CheckpointManager(tf.train.Checkpoint(), tempfile.mkdtemp(), 1, checkpoint_interval=2)
""",
    "manager_keeps_every_n_hours": """
import tempfile, os
d = tempfile.mkdtemp()
manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), d, max_to_keep=1,
                                     keep_checkpoint_every_n_hours=0.0)
for _ in range(3):
    manager.save()
result = [sorted(f for f in os.listdir(d) if f.startswith("ckpt-") and f.endswith(".index")
                 or f.endswith(".npz")) != [], [os.path.basename(p) for p in manager.checkpoints]]
""",
    "checkpoint_options": """
opts = tf.train.CheckpointOptions(experimental_io_device="/job:localhost", enable_async=False)
import tempfile, os
d = tempfile.mkdtemp()
c = tf.train.Checkpoint(v=tf.Variable(1.0))
p = c.save(os.path.join(d, "c"), options=opts)
c.write(os.path.join(d, "w"), options=opts)
c.restore(p, options=opts)
c.read(os.path.join(d, "w"), options=opts)
c.sync()
result = [opts.experimental_io_device, opts.enable_async, os.path.basename(p)]
""",
}

CASES["views"] = """
import tempfile, os
m = tf.Module()
m.w = tf.Variable([1.0])
m.sub = tf.Module()
m.sub.b = tf.Variable(2.0)
view = tf.train.TrackableView(m)
kids = view.children(m)
d = tempfile.mkdtemp()
ckpt = tf.train.Checkpoint(model=m)
path = ckpt.save(os.path.join(d, "c"))
cv = tf.train.CheckpointView(path)
matched, missing, extra = cv.diff(ckpt)
result = [sorted(kids), view.root is m, len(view.descendants()), sorted(cv.children(0)),
          len(cv.descendants()), len(cv.match(ckpt)), len(matched),
          len(missing), len(extra)]
"""
