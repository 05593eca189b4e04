"""read_table throughput and memory on the benchmark file, against the C++ scan (tsread scan).

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/bench_read.py [FILE] [--threads N]

Prints rows/s of the best of three read_table runs, the C++ scan's rows/s (the CLI, one thread),
the DataFrame's size and the process's peak RSS growth over the read (Linux ru_maxrss), in a
fresh process per measurement so that peaks do not mix.
"""

import argparse
import json
import os
import pathlib
import resource
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[2]


def measure_once(path, threads):
    import tsread

    import pandas  # noqa: F401 - imported before the baseline RSS

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = time.perf_counter()
    df = tsread.read_table(path, threads=threads)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    frame_bytes = int(df.memory_usage(deep=False, index=False).sum())
    print(json.dumps({"rows": len(df), "seconds": seconds, "frame_bytes": frame_bytes, "peak_growth": peak - base}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file", nargs="?", default=str(REPO.parent / "shared" / "bench" / "table_large.tsfile"))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cli", default=str(REPO / "build" / "release" / "tsread"))
    args = parser.parse_args()
    if args.once:
        measure_once(args.file, args.threads)
        return
    runs = []
    for _ in range(3):
        out = subprocess.run([sys.executable, __file__, args.file, "--threads", str(args.threads), "--once"],
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out))
    best = min(runs, key=lambda r: r["seconds"])
    cxx = []
    for _ in range(3):
        out = subprocess.run([args.cli, "scan", args.file, "--threads", str(args.threads), "--json"],
                             check=True, capture_output=True, text=True).stdout
        cxx.append(json.loads(out))
    cxx_best = min(cxx, key=lambda r: r["seconds"])
    print(f"rows {best['rows']}, threads {args.threads}, load average {os.getloadavg()[0]:.2f}")
    print(f"read_table: {best['seconds']:.3f} s, {best['rows'] / best['seconds'] / 1e6:.1f} M rows/s")
    print(f"C++ scan:   {cxx_best['seconds']:.3f} s, {cxx_best['rows'] / cxx_best['seconds'] / 1e6:.1f} M rows/s")
    print(f"ratio read_table / C++ time: {best['seconds'] / cxx_best['seconds']:.2f}")
    print(f"DataFrame {best['frame_bytes'] / 2**20:.0f} MiB, peak RSS growth {best['peak_growth'] / 2**20:.0f} MiB "
          f"({best['peak_growth'] / best['frame_bytes']:.2f}x)")


if __name__ == "__main__":
    main()
