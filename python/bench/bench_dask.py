"""Dask over a 10-file dataset: groupby(device).s_double.mean() on LocalClusters of 1 and 2
worker processes, checked against pandas (tsread.read_table).

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/bench_dask.py [DIR]

DIR (default /tmp/tsread_dask_bench) is made with `tsread gen DIR --files 10 --rows 3200` when
absent: 1000 devices x 32,000 rows in 10 time slices (the benchmark file's shape, ten times over).
Best of three computes per cluster size.
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


def timed_mean(client_workers, path, split_bytes):
    from distributed import Client, LocalCluster

    import tsread.dask

    with LocalCluster(n_workers=client_workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        best, result = None, None
        for _ in range(3):
            t0 = time.perf_counter()
            ddf = tsread.dask.read_tsfile(str(path), columns=["device", "s_double"], split_bytes=split_bytes)
            result = ddf.groupby("device", observed=True)["s_double"].mean().compute()
            seconds = time.perf_counter() - t0
            best = seconds if best is None else min(best, seconds)
        return best, result


def main():
    import tsread

    path = ensure_dataset(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/tsread_dask_bench"))
    split_bytes = 8 << 20
    df = tsread.read_table(str(path), columns=["device", "s_double"])
    want = df.groupby("device", observed=True)["s_double"].mean()
    print(f"dataset {path}: {len(tsread.open(str(path)).files)} files, {len(df)} rows")
    times = {}
    for workers in (1, 2):
        seconds, got = timed_mean(workers, path, split_bytes)
        got = got.sort_index()
        got.index = got.index.astype(object)
        w = want.sort_index()
        w.index = w.index.astype(object)
        assert list(got.index) == list(w.index)
        np.testing.assert_allclose(got.to_numpy(), w.to_numpy(), rtol=1e-12)
        times[workers] = seconds
        print(f"{workers} worker process(es): {seconds:.3f} s (equal to pandas), load average {os.getloadavg()[0]:.2f}")
    print(f"speed-up 2 vs 1: {times[1] / times[2]:.2f}x")


if __name__ == "__main__":
    main()
