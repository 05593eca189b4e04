"""tsread.dask.read_tsfile: a TsFile dataset as a dask DataFrame, one partition per group of splits.

The client plans the scan once (DatasetScanner::Splits) and serializes every split
(SerializeSplit); each partition is read inside a worker from those bytes alone
(SplitReader::Open), so workers need only the files, not the client's dataset.

Each split comes with what the metadata announces for its devices: rows and the time range
they span. start/end drop the splits whose range misses them before the graph is built, and
index="time" turns sorted, non-overlapping ranges (time-sliced files, say) into known divisions.
"""

import os

import pandas as pd

import dask.dataframe as dd
from dask.dataframe.utils import clear_known_categories

import tsread as _tsread_pkg
from . import _frame, _tsread

# Projected chunk bytes per partition by default: TsFile's encodings and compression make a
# partition of 16 MB about 100 MB of pandas columns (the benchmark file: 33 MB, 3.2M rows, ~200 MB
# as a DataFrame), the size dask's documentation recommends, and a 33 MB file several partitions.
_SPLIT_BYTES = 16 << 20


def _with_time_index(frame, time_as):
    """The time column as the index (int64 ms or datetime64[ns]), rows sorted by it (stable)."""
    time = frame.pop("time")
    values = time.to_numpy(dtype="int64") if time_as == "int" else time.to_numpy()
    frame.index = pd.Index(values, name="time")
    return frame.sort_index(kind="stable")


class _PartitionRead:
    """A dask DataFrameIOFunction: dask's optimizer narrows `columns` to those the graph uses (a
    groupby's key and value, say) and only those are read; the time column too is made only when
    used (or when it is the index). Subclasses read a partition in __call__."""

    def __init__(self, columns, options, index, extra):
        self._columns = list(columns)  # the partition's columns, in order (the index not among them)
        self._options = options
        self._index = index
        self._extra = extra  # what the subclass reads with

    @property
    def columns(self):
        return self._columns

    def project_columns(self, columns):
        if list(columns) == self._columns:
            return self
        return type(self)(columns, self._options, self._index, self._extra)


class _SplitRead(_PartitionRead):
    """Reads one split into a partition; `extra` is the [column] to read when only the time is
    wanted (a TAG column costs no chunks)."""

    @property
    def _filler(self):
        return self._extra

    def __dask_tokenize__(self):
        return ("tsread-split-read", self._columns, sorted(self._options.items()), self._index, self._filler)

    def __call__(self, part):
        split_list, rows = part  # rows: what the metadata announced, so the columns are sized once
        wanted = (["time"] if self._index == "time" else []) + self._columns
        values = [c for c in wanted if c != "time"]
        columns = _tsread.read_split(split_list, rows_hint=rows, columns=values or self._filler,
                                     with_time="time" in wanted, **_tsread_pkg._convert_args(self._options))
        by_name = {c["name"]: c for c in columns}
        frame = _frame.to_frame([by_name[name] for name in wanted], self._options)
        return _with_time_index(frame, self._options["time_as"]) if self._index == "time" else frame


class _GroupRead(_PartitionRead):
    """Reads one IoTDB group (the files whose points may meet, merged as IoTDB answers) into a
    partition: the same rows tsread.read_table gives for them; `extra` holds read_table's table,
    start, end, tags, filters, database and ignore_errors."""

    @property
    def _read_args(self):
        return self._extra

    def __dask_tokenize__(self):
        return ("tsread-group-read", self._columns, sorted(self._options.items()), self._index,
                repr(sorted(self._read_args.items())))

    def __call__(self, files):
        a = self._read_args
        ds = _tsread_pkg.TsFile(list(files), False, "read_tsfile", database=a["database"],
                                ignore_errors=a["ignore_errors"])
        spec = ds.schema(a["table"])
        # The dataset's nullable columns (in self._options): every partition gets meta's dtypes.
        options = _tsread_pkg._with_tag_categories(self._options, ds, a["table"], spec)
        wanted = [c for c in self._columns if c != "time"]
        scan = _tsread_pkg._scan_args(a["table"], wanted, a["start"], a["end"], a["tags"], a["filters"], "read_tsfile")
        drop = _tsread_pkg._time_only(scan, spec)
        data = _tsread.read_table(ds._dataset(), threads=1, **_tsread_pkg._convert_args(options), **scan)
        frame = _tsread_pkg._frame_of(data, options, drop)
        if self._index == "time":
            return _with_time_index(frame, options["time_as"])
        return frame[self._columns]


def _overlaps(split, start, end):
    """Whether the split's announced time range may hold rows in [start, end] (ms, inclusive)."""
    lo, hi = split[3], split[4]
    if lo is None:
        return True  # nothing announced: keep it
    return (start is None or hi >= start) and (end is None or lo <= end)


def _absolute(paths):
    """The dataset with absolute paths: a split names its file, and a worker may run elsewhere
    (another working directory)."""
    if isinstance(paths, _tsread_pkg.TsFile):
        if all(os.path.isabs(p) for p in paths.files):
            return paths
        return _tsread_pkg.TsFile([os.path.abspath(p) for p in paths.files], paths._skip_unreadable,
                                  "read_tsfile")
    return _tsread_pkg.TsFile([os.path.abspath(p) for p in _tsread_pkg._args.inputs(paths, "read_tsfile")],
                              False, "read_tsfile")


def _plan(paths, table, columns, start, end, tags, split_bytes, filters=None):
    ds = _absolute(paths)
    scan = _tsread_pkg._scan_args(table, columns, start, end, tags, filters, "read_tsfile")
    plan = _tsread.plan_splits(ds._dataset(), split_bytes=int(split_bytes), **scan)
    kept = [s for s in plan["splits"] if _overlaps(s, scan["start"], scan["end"])]
    return ds, plan["columns"], kept, scan["start"], scan["end"]


def _partitions(kept, split_bytes):
    """Consecutive splits grouped into partitions of at most split_bytes projected chunk bytes
    (a split larger than that, already cut as finely as its devices allow, stays alone):
    [{"splits": [bytes], "files": [path], "rows", "bytes", "start_time", "end_time"}]."""
    out = []
    for serialized, path, rows, lo, hi, size in kept:
        last = out[-1] if out else None
        if last is None or last["bytes"] + size > split_bytes:
            last = {"splits": [], "files": [], "rows": 0, "bytes": 0, "start_time": None, "end_time": None,
                    "announced": True}
            out.append(last)
        last["splits"].append(serialized)
        if not last["files"] or last["files"][-1] != path:
            last["files"].append(path)
        last["rows"] += rows
        last["bytes"] += size
        if lo is None:
            last["announced"] = False
        else:
            last["start_time"] = lo if last["start_time"] is None else min(last["start_time"], lo)
            last["end_time"] = hi if last["end_time"] is None else max(last["end_time"], hi)
    return out


def splits(paths, table=None, columns=None, start=None, end=None, tags=None, split_bytes=_SPLIT_BYTES):
    """The partitions read_tsfile makes with these arguments, in order, from metadata alone:
    [{"file", "files", "rows", "bytes", "start_time", "end_time"}]. files: the (absolute) paths
    whose devices the partition reads, file the first; rows is what the metadata announces for
    its devices (a bound when start/end cut into them); bytes their projected chunk bytes;
    start_time/end_time (int ms, None when not announced for every device) bound the times of the
    partition's rows."""
    _ds, _spec, kept, start_ms, end_ms = _plan(paths, table, columns, start, end, tags, split_bytes)
    return _bounds(_partitions(kept, split_bytes), start_ms, end_ms)


def _bounds(partitions, start_ms, end_ms):
    """Each partition's files, rows, bytes and time range (clamped to start/end)."""
    out = []
    for part in partitions:
        lo, hi = part["start_time"], part["end_time"]
        if not part["announced"]:
            lo = hi = None
        elif lo is not None:
            lo = lo if start_ms is None else max(lo, start_ms)
            hi = hi if end_ms is None else min(hi, end_ms)
        out.append({"file": part["files"][0], "files": part["files"], "rows": part["rows"], "bytes": part["bytes"],
                    "start_time": lo, "end_time": hi})
    return out


def _divisions(bounds, time_as):
    """Known divisions when every partition's time range is announced, ranges sorted and
    disjoint: partition i holds times in [start_i, start_(i+1)); else None (unknown)."""
    if not bounds or any(b["start_time"] is None for b in bounds):
        return None
    for a, b in zip(bounds, bounds[1:]):
        if not a["end_time"] < b["start_time"]:
            return None
    edges = [b["start_time"] for b in bounds] + [bounds[-1]["end_time"]]
    if time_as == "int":
        return tuple(int(e) for e in edges)
    return tuple(pd.Timestamp(e, unit="ms") for e in edges)


def read_tsfile(paths, table=None, columns=None, start=None, end=None, tags=None, split_bytes=_SPLIT_BYTES,
                index=None, *, filters=None, time_as="datetime", date_as="datetime64", nullable="auto", nullable_float=False,
                invalid_dates="error", invalid_utf8="error", raw=False, database=None, ignore_errors=False):
    """A dask DataFrame over every file of `paths` (files, globs, directories).

    Arguments as tsread.read_table (filters too: each partition applies them); split_bytes is the projected chunk bytes per partition, in both
    directions: a large file is cut into several partitions (by devices), small files are grouped.
    Column dtypes are read_table's (nullable='auto' decides from the dataset's metadata, so `meta`
    is every partition's); TAG columns are categoricals with unknown categories. Splits whose
    metadata time range misses start/end are left out. index="time": the time column becomes
    the index, each partition sorted by it, with known divisions when the partitions' time
    ranges (tsread.dask.splits) are sorted and disjoint.

    IoTDB data (tsread.open) is read as IoTDB answers unless raw=True: one partition per group of
    files whose points may meet (a region's time partition), merged as read_table merges them, so
    the partitions together equal read_table's rows.
    """
    if index not in (None, "time"):
        raise ValueError("index is None or 'time'")
    if not raw:
        iotdb = _iotdb_groups(paths, table, database, ignore_errors)
        if iotdb is not None:
            return _read_iotdb(iotdb, table, columns, start, end, tags, index, filters, database, ignore_errors,
                               (time_as, date_as, nullable, nullable_float, invalid_dates, invalid_utf8))
    options = _tsread_pkg._value_options("read_tsfile", time_as, date_as, nullable, nullable_float, invalid_dates,
                                         invalid_utf8)
    split_bytes = _tsread_pkg._positive("read_tsfile", "split_bytes", split_bytes)
    ds, spec, kept, start_ms, end_ms = _plan(paths, table, columns, start, end, tags, split_bytes, filters)
    options = _tsread_pkg._with_nullable_columns(options, ds, table)
    # Each partition knows only its own tags: categories unknown to dask until computed.
    meta = clear_known_categories(_frame.to_frame(_frame.empty_columns(spec), options))
    if index == "time":
        meta = _with_time_index(meta, options["time_as"])
    if not kept:
        return dd.from_pandas(meta, npartitions=1)
    partitions = _partitions(kept, split_bytes)
    divisions = _divisions(_bounds(partitions, start_ms, end_ms), options["time_as"]) if index == "time" else None
    cheapest = _tsread_pkg._cheapest_column((name, category) for name, category, _type in spec)
    filler = [cheapest] if cheapest is not None else []
    return dd.from_map(_SplitRead(meta.columns, options, index, filler), [(p["splits"], p["rows"]) for p in partitions],
                       meta=meta, divisions=divisions, label="read-tsfile", enforce_metadata=False)


def _iotdb_groups(paths, table, database, ignore_errors):
    """(dataset, [[absolute file paths] per group]) when `paths` hold IoTDB data, else None."""
    if isinstance(paths, _tsread_pkg.TsFile):
        ds = paths
    else:
        inputs = [os.path.abspath(p) for p in _tsread_pkg._args.inputs(paths, "read_tsfile")]
        ds = _tsread_pkg.TsFile(inputs, False, "read_tsfile", database=database, ignore_errors=ignore_errors)
    if not ds.is_iotdb:
        return None
    groups = [[os.path.abspath(f) for f in group] for group in ds._dataset().iotdb_groups(table)]
    return ds, groups


def _read_iotdb(iotdb, table, columns, start, end, tags, index, filters, database, ignore_errors, value_options):
    ds, groups = iotdb
    options = _tsread_pkg._value_options("read_tsfile", *value_options)
    options = _tsread_pkg._with_nullable_columns(options, ds, table)
    spec = ds.schema(table)
    if columns is not None:
        wanted = [c for c in columns if c != "time"]
        spec = [next(s for s in spec if s["name"] == c) if any(s["name"] == c for s in spec) else None
                for c in wanted]
        if any(s is None for s in spec):
            missing = [c for c, s in zip(wanted, spec) if s is None]
            raise ValueError(f"read_tsfile: no column {missing[0]!r}")
    spec = [(s["name"], s["category"], s["type"]) for s in spec]
    meta = clear_known_categories(_frame.to_frame(_frame.empty_columns(spec), options))
    if index == "time":
        meta = _with_time_index(meta, options["time_as"])
    if not groups:
        return dd.from_pandas(meta, npartitions=1)
    read_args = {"table": table, "start": start, "end": end, "tags": tags, "filters": filters,
                 "database": database, "ignore_errors": ignore_errors}
    names = [c for c in meta.columns]
    return dd.from_map(_GroupRead(names, options, index, read_args), groups, meta=meta, label="read-tsfile-iotdb",
                       enforce_metadata=False)
