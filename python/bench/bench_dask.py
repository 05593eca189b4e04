"""Dask over a 10-file dataset: groupby(device).s_double.mean() on LocalClusters of 1 and 2
worker processes, checked against pandas (tsread.read_table).

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/bench_dask.py [DIR]
        [--split-bytes N] [--repeats K] [--rounds R] [--glibc-malloc] [--task-times] [--cpu-only MS]

DIR (default /tmp/tsread_dask_bench) is made with `tsread gen DIR --files 10 --rows 32000` when
absent: 1000 devices x 32,000 rows in 10 time slices (the benchmark file's shape, ten times over).
Each round times a 1-worker then a 2-worker cluster (best of K computes each, graph construction
included); R rounds give R speed-ups and their median. --split-bytes is read_tsfile's (default:
its own default). --glibc-malloc starts workers without Dask's default MALLOC_TRIM_THRESHOLD_=65536
(distributed.nanny.pre-spawn-environ), i.e. with glibc's own malloc thresholds (docs/benchmarks.md).
--task-times also prints, per cluster, the seconds the workers spent in each kind of task (the read,
pandas' groupby chunks...) in its best compute. --cpu-only MS replaces the reads by partitions that
spin MS ms of CPU each and touch no memory (the same number of partitions, the same groupby): Dask's
own ceiling for this graph on this machine, whatever the reader.
"""

import contextlib
import os
import pathlib
import subprocess
import sys
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[2]


def ensure_dataset(directory):
    if not directory.exists():
        cli = REPO / "build" / "release" / "tsread"
        subprocess.run([str(cli), "gen", str(directory), "--files", "10", "--rows", "32000"], check=True,
                       capture_output=True)
    return directory


def spin(index, ms, devices):
    """A partition that costs `ms` ms of CPU and no memory traffic (--cpu-only)."""
    import pandas as pd

    x = np.arange(1024, dtype=np.float64)
    start = time.thread_time()
    while time.thread_time() - start < ms / 1000:
        np.multiply(x, 1.0000001, out=x)
    return pd.DataFrame({"device": pd.Categorical(devices), "s_double": np.ones(len(devices))})


def spinning_frame(ms, partitions, devices):
    import dask.dataframe as dd

    meta = spin(0, 0, devices).iloc[:0]
    return dd.from_map(spin, range(partitions), args=[ms, devices], meta=meta, enforce_metadata=False,
                       token=f"spin-{time.perf_counter_ns()}")  # a fresh graph each time


def task_seconds(task_stream):
    """Seconds of compute per kind of task (key prefix), over all workers."""
    from dask.utils import key_split

    out = {}
    for task in task_stream:
        kind = key_split(task["key"])  # "getitem" is the read (dask fuses it with the column selection)
        for part in task["startstops"]:
            if part["action"] == "compute":
                out[kind] = out.get(kind, 0.0) + part["stop"] - part["start"]
    return out


def timed_mean(client_workers, make_frame, repeats, task_times):
    from distributed import Client, LocalCluster, get_task_stream

    with LocalCluster(n_workers=client_workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        best, result, tasks = None, None, None
        for _ in range(repeats):
            with get_task_stream() if task_times else contextlib.nullcontext() as stream:
                t0 = time.perf_counter()
                ddf = make_frame()
                result = ddf.groupby("device", observed=True)["s_double"].mean().compute()
                seconds = time.perf_counter() - t0
            if best is None or seconds < best:
                best, tasks = seconds, stream.data if task_times else None
        return best, result, tasks


def main():
    import argparse
    import statistics

    import dask
    import distributed  # noqa: F401 (loads its configuration)

    import tsread
    import tsread.dask

    parser = argparse.ArgumentParser()
    parser.add_argument("dir", nargs="?", default="/tmp/tsread_dask_bench")
    parser.add_argument("--split-bytes", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--glibc-malloc", action="store_true")
    parser.add_argument("--task-times", action="store_true")
    parser.add_argument("--cpu-only", type=float, default=None, metavar="MS")
    args = parser.parse_args()
    if args.glibc_malloc:
        environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ"))
        environ.pop("MALLOC_TRIM_THRESHOLD_", None)
        dask.config.set({"distributed.nanny.pre-spawn-environ": environ})
    path = ensure_dataset(pathlib.Path(args.dir))
    split_bytes = args.split_bytes if args.split_bytes is not None else 64 << 20  # read_tsfile's default
    df = tsread.read_table(str(path), columns=["device", "s_double"])
    want = df.groupby("device", observed=True)["s_double"].mean().sort_index()
    want.index = want.index.astype(object)
    partitions = len(tsread.dask.splits(str(path), columns=["device", "s_double"], split_bytes=split_bytes))
    print(f"dataset {path}: {len(tsread.open(str(path)).files)} files, {len(df)} rows, {partitions} partitions, "
          f"worker environment {dask.config.get('distributed.nanny.pre-spawn-environ')}")
    if args.cpu_only is None:
        def make_frame():
            return tsread.dask.read_tsfile(str(path), columns=["device", "s_double"], split_bytes=split_bytes)
    else:
        devices = list(want.index)
        print(f"--cpu-only: {partitions} partitions of {args.cpu_only:g} ms of CPU each instead of reads")

        def make_frame():
            return spinning_frame(args.cpu_only, partitions, devices)
    speedups = []
    for round_ in range(args.rounds):
        times = {}
        for workers in (1, 2):
            seconds, got, tasks = timed_mean(workers, make_frame, args.repeats, args.task_times)
            if args.cpu_only is None:
                got = got.sort_index()
                got.index = got.index.astype(object)
                assert list(got.index) == list(want.index)
                np.testing.assert_allclose(got.to_numpy(), want.to_numpy(), rtol=1e-12)
            times[workers] = seconds
            if tasks is not None:
                kinds = ", ".join(f"{k} {v:.3f}" for k, v in sorted(task_seconds(tasks).items(), key=lambda kv: -kv[1]))
                print(f"  {workers} worker(s), task seconds (all workers): {kinds}")
        speedups.append(times[1] / times[2])
        checked = "both equal to pandas" if args.cpu_only is None else "no reads"
        print(f"round {round_ + 1}: 1 worker {times[1]:.3f} s, 2 workers {times[2]:.3f} s ({checked}), "
              f"speed-up {speedups[-1]:.2f}x, load average {os.getloadavg()[0]:.2f}")
    print(f"median speed-up over {len(speedups)} rounds: {statistics.median(speedups):.2f}x")


if __name__ == "__main__":
    main()
