"""Dask over a 10-file dataset: groupby(device).s_double.mean() on LocalClusters of 1 and 2
worker processes, checked against pandas (tsread.read_table).

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/bench_dask.py [DIR]
        [--split-bytes N] [--repeats K] [--rounds R] [--glibc-malloc]

DIR (default /tmp/tsread_dask_bench) is made with `tsread gen DIR --files 10 --rows 32000` when
absent: 1000 devices x 32,000 rows in 10 time slices (the benchmark file's shape, ten times over).
Each round times a 1-worker then a 2-worker cluster (best of K computes each, graph construction
included); R rounds give R speed-ups and their median. --split-bytes is read_tsfile's (default:
its own default). --glibc-malloc starts workers without Dask's default MALLOC_TRIM_THRESHOLD_=65536
(distributed.nanny.pre-spawn-environ), i.e. with glibc's own malloc thresholds (docs/benchmarks.md).
"""

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


def timed_mean(client_workers, path, split_bytes, repeats):
    from distributed import Client, LocalCluster

    import tsread.dask

    with LocalCluster(n_workers=client_workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        best, result = None, None
        for _ in range(repeats):
            t0 = time.perf_counter()
            ddf = tsread.dask.read_tsfile(str(path), columns=["device", "s_double"], split_bytes=split_bytes)
            result = ddf.groupby("device", observed=True)["s_double"].mean().compute()
            seconds = time.perf_counter() - t0
            best = seconds if best is None else min(best, seconds)
        return best, result


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
    speedups = []
    for round_ in range(args.rounds):
        times = {}
        for workers in (1, 2):
            seconds, got = timed_mean(workers, path, split_bytes, args.repeats)
            got = got.sort_index()
            got.index = got.index.astype(object)
            assert list(got.index) == list(want.index)
            np.testing.assert_allclose(got.to_numpy(), want.to_numpy(), rtol=1e-12)
            times[workers] = seconds
        speedups.append(times[1] / times[2])
        print(f"round {round_ + 1}: 1 worker {times[1]:.3f} s, 2 workers {times[2]:.3f} s (both equal to pandas), "
              f"speed-up {speedups[-1]:.2f}x, load average {os.getloadavg()[0]:.2f}")
    print(f"median speed-up over {len(speedups)} rounds: {statistics.median(speedups):.2f}x")


if __name__ == "__main__":
    main()
