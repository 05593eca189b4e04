"""tsread: read Apache TsFile files into pandas (and Dask) with the tsread C++ reader.

    import tsread
    with tsread.open("data/") as f:               # a file, a directory, a glob or a list of them
        f.tables, f.schema("sensors"), f.devices("sensors"), f.info()
    df = tsread.read_table("data/", table="sensors", columns=["device", "s_double"],
                           start="2024-01-01", tags={"region": ["north", "south"]})

dtypes (read_table, iter_batches, tsread.dask.read_tsfile):
    time                      datetime64[ns] (time_as='int': int64 ms)
    TAG                       category (the values of the dataset's devices, sorted)
    BOOLEAN                   bool, or boolean where the metadata says nulls may occur
    INT32 / INT64             int32 / int64, or Int32 / Int64 likewise (nullable='always': always)
    FLOAT / DOUBLE            float32 / float64 with NaN for null (nullable_float=True: Float32/64)
    TIMESTAMP                 datetime64[ns] with NaT (time_as='int': int64 / Int64 ms)
    DATE                      datetime64 with NaT (date_as='date': datetime.date; 'int': yyyyMMdd)
    TEXT / STRING             str (invalid_utf8='bytes': bytes), None for null
    BLOB                      bytes, None for null
    ATTRIBUTE                 str, None (table scans carry no attribute values)

Errors: CorruptFileError (a ValueError, with .file and .offset) for a file whose bytes are corrupt
or truncated, including values that contradict the format (a DATE naming no day, TEXT that is not
UTF-8, times outside their page's statistics); UnsupportedFileError for features tsread lacks;
ValueError for arguments and for values the chosen representation cannot hold (a message naming
the option that reads them); OSError for I/O.
"""

import os as _os
import warnings as _warnings

from . import _aggregates, _args, _arrow, _frame
from ._tsread import CorruptFileError, UnsupportedFileError
from . import _tsread

__all__ = ["open", "read_table", "iter_batches", "scan", "ArrowReader", "read_tree", "scan_tree", "aggregate", "last", "aggregate_tree", "last_tree", "TsFile", "CorruptFileError",
           "UnsupportedFileError", "__version__"]
__version__ = _tsread.__version__
ArrowReader = _arrow.ArrowReader


class TsFile:
    """One TsFile or a dataset of many (paths, globs, directories), opened once.

    Opening reads every file's metadata; errors: CorruptFileError (a ValueError) for a corrupt or
    truncated file, OSError for I/O. skip_unreadable=True leaves out the files whose metadata
    cannot be read instead (a warning lists them; .skipped holds (path, reason) pairs). Use it in
    a `with` block, or close() it, to let go of the files at once.
    """

    def __init__(self, path, skip_unreadable=False, _function="open", *, raw=False, database=None,
                 ignore_errors=False):
        self._inputs = _args.inputs(path, _function)
        self._skip_unreadable = bool(skip_unreadable)
        if database is not None and not isinstance(database, str):
            raise TypeError(f"{_function}: database is a str, not {database!r}")
        self._ds = _tsread.Dataset(self._inputs, bool(skip_unreadable), bool(raw), database or "",
                                   bool(ignore_errors))
        self.skipped = self._ds.skipped()
        if self.skipped:
            listed = "; ".join(f"{p}: {why}" for p, why in self.skipped)
            _warnings.warn(f"tsread: skipped {len(self.skipped)} unreadable file(s): {listed}", stacklevel=3)
        # Read as written (raw=True), IoTDB deletion files beside the files are not applied: say
        # so, once per open. Read as IoTDB answers: its leftovers resolved, damaged deletion files.
        for text in self._ds.deletion_warnings():
            _warnings.warn(f"tsread: {text}", UserWarning, stacklevel=3)

    def _dataset(self):
        if self._ds is None:
            raise ValueError("tsread: the TsFile is closed")
        return self._ds

    def close(self):
        """Lets go of the files (and their cached metadata); the object is unusable afterwards."""
        self._ds = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def files(self):
        return self._dataset().files()

    @property
    def is_iotdb(self):
        """Whether the input is read as IoTDB answers (an IoTDB data directory, or files with
        IoTDB deletion files beside them, opened without raw=True): overlapping files merged by
        IoTDB's priority, deletions applied."""
        return self._dataset().is_iotdb()

    @property
    def tables(self):
        return self._dataset().tables()

    def schema(self, table=None):
        """[{name, category, type}] of the table (reconciled by name across a dataset's files)."""
        return [{"name": n, "category": c, "type": t} for n, c, t in self._dataset().schema(table)]

    def scan(self, table=None, columns=None, start=None, end=None, tags=None, threads=1, **options):
        """tsread.scan() on this open file or dataset: an ArrowReader."""
        return scan(self, table, columns, start, end, tags, threads, **options)

    def scan_tree(self, start=None, end=None, devices=None, measurements=None, **options):
        """tsread.scan_tree() on this open file or dataset: an ArrowReader."""
        return scan_tree(self, start, end, devices, measurements, **options)

    def devices(self, table=None):
        """The table's devices, each as {tag column: value or None}, each once."""
        tag_names = [c["name"] for c in self.schema(table) if c["category"] == "TAG"]
        out = []
        for segments in self._dataset().devices(table):
            values = list(segments) + [None] * (len(tag_names) - len(segments))
            out.append(dict(zip(tag_names, values)))
        return out

    def info(self):
        """{"files": [per-file metadata summary], "tables": {name: {rows, start_time, end_time}}}."""
        files = self._dataset().info()
        tables = {}
        for f in files:
            for t in f["tables"]:
                total = tables.setdefault(t["name"], {"rows": 0, "start_time": None, "end_time": None})
                total["rows"] += t["rows"]
                if t["start_time"] is not None:
                    total["start_time"] = t["start_time"] if total["start_time"] is None else min(total["start_time"], t["start_time"])
                    total["end_time"] = t["end_time"] if total["end_time"] is None else max(total["end_time"], t["end_time"])
        return {"files": files, "tables": tables}

    def __repr__(self):
        if self._ds is None:
            return f"tsread.TsFile({self._inputs!r}, closed)"
        return f"tsread.TsFile({self._inputs!r}, tables={self.tables!r})"


def open(path, skip_unreadable=False, *, raw=False, database=None, ignore_errors=False):  # noqa: A001 - like io.open
    """Opens a file or a dataset (a path, glob, directory or list of them).

    IoTDB data — an IoTDB data directory (a folder with sequence/ and unsequence/ folders, one
    containing it, or one of its database, region or partition folders), or files with IoTDB
    deletion files (X.tsfile.mods2, X.tsfile.mods) beside them — is read as IoTDB answers: points
    of overlapping files merged by IoTDB's priority (per column for tables), deletions applied.
    raw=True reads the files as written. database names the database of a table or of tree
    devices (needed when a table name is in several); ignore_errors=True applies a deletion file's
    entries before one of a kind tsread does not know, instead of raising.
    """
    return TsFile(path, skip_unreadable, raw=raw, database=database, ignore_errors=ignore_errors)


def _dataset(path, skip_unreadable=False, function="open", iotdb=None):
    """An open TsFile, or one opened from paths (errors about them name `function`); `iotdb` holds
    the raw/database/ignore_errors arguments (given with an open TsFile: a ValueError)."""
    iotdb = iotdb or {}
    if isinstance(path, TsFile):
        if any(iotdb.values()):
            raise ValueError(f"{function}: raw, database and ignore_errors are tsread.open's when given an open TsFile")
        return path
    return TsFile(path, skip_unreadable, function, **iotdb)


def _iotdb(raw, database, ignore_errors):
    return {"raw": bool(raw), "database": database, "ignore_errors": bool(ignore_errors)}


def _value_options(function, time_as="datetime", date_as="datetime64", nullable="auto", nullable_float=False,
                   invalid_dates="error", invalid_utf8="error"):
    def check(name, value, allowed):
        if value not in allowed:
            raise ValueError(f"{function}: {name} is " + " or ".join(repr(a) for a in allowed) + f", not {value!r}")

    check("time_as", time_as, ("datetime", "int"))
    check("date_as", date_as, ("datetime64", "date", "int"))
    check("nullable", nullable, ("auto", "always"))
    check("invalid_dates", invalid_dates, ("error", "null"))
    check("invalid_utf8", invalid_utf8, ("error", "replace", "bytes"))
    return {"time_as": time_as, "date_as": date_as, "nullable": nullable, "nullable_float": bool(nullable_float),
            "invalid_dates": invalid_dates, "invalid_utf8": invalid_utf8}


def _convert_args(options):
    """The value options as the C++ module's keyword arguments."""
    return dict(float_nan=not options["nullable_float"], time_ns=options["time_as"] == "datetime",
                date_as=options["date_as"], invalid_dates=options["invalid_dates"],
                invalid_utf8=options["invalid_utf8"])


def _with_nullable_columns(options, ds, table):
    """options plus the columns that may hold nulls by the dataset's metadata (nullable='auto'
    gives those, and only those, pandas' nullable dtypes: the same dtypes whatever rows a read
    keeps, and in every Dask partition)."""
    nullable = frozenset(ds._dataset().nullable_columns(table)) if options["nullable"] == "auto" else frozenset()
    return dict(options, nullable_columns=nullable)


def _with_tag_categories(options, ds, table, spec):
    """options plus, per TAG column (of `spec`, the table's schema), the sorted values of the
    dataset's devices: every batch of a read (iter_batches) gets the same categories, so pd.concat
    keeps them categorical."""
    names = [c["name"] for c in spec if c["category"] == "TAG"]
    if not names:
        return options
    devices = ds._dataset().devices(table, invalid_utf8=options["invalid_utf8"])
    categories = {}
    for i, name in enumerate(names):
        categories[name] = _frame.sorted_categories(d[i] for d in devices if i < len(d) and d[i] is not None)
    return dict(options, tag_categories=categories)


def _scan_args(table, columns, start, end, tags, filters=None, function="read_table"):
    scan = dict(table=table, columns=_args.columns(columns), start=_args.to_ms(start), end=_args.to_ms(end),
                tags=_args.tags(tags))
    if scan["start"] is not None and scan["end"] is not None and scan["start"] > scan["end"]:
        # The CLI's and SQL's rule: a mistake, not an empty result.
        raise ValueError(f"{function}: start {start!r} is after end {end!r}")
    if filters is not None:
        scan["filters"] = _args.filters(filters, function)
    return scan


def _cheapest_column(columns):
    """The column of [(name, category)] that costs a scan least when only the rows' times are wanted
    (a TAG column costs no chunks), or None for no columns."""
    columns = list(columns)
    return next((name for name, category in columns if category == "TAG"), columns[0][0] if columns else None)


def _time_only(scan, spec):
    """columns=[] (the time column alone): the scan reads the cheapest column of `spec` (the
    table's schema), dropped from each frame; returns the column to drop, or None."""
    if scan["columns"] != []:
        return None
    filler = _cheapest_column((c["name"], c["category"]) for c in spec)
    scan["columns"] = [filler] if filler is not None else None
    return filler


def _frame_of(columns_data, options, drop):
    frame = _frame.to_frame(columns_data, options)
    return frame.drop(columns=[drop]) if drop is not None else frame


def _prepare(function, path, table, columns, start, end, tags, filters, skip_unreadable, value_options, iotdb=None):
    """What read_table and iter_batches start from: the dataset, the value options (with the
    metadata's nullable columns and TAG categories), the scan's arguments and the column a
    time-only read drops."""
    options = _value_options(function, *value_options)
    ds = _dataset(path, skip_unreadable, function, iotdb)
    spec = ds.schema(table)
    options = _with_tag_categories(_with_nullable_columns(options, ds, table), ds, table, spec)
    scan = _scan_args(table, columns, start, end, tags, filters, function)
    return ds, options, scan, _time_only(scan, spec)


def _positive(function, name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{function}: {name} is a positive int, not {value!r}")
    return value


def read_table(path, table=None, columns=None, start=None, end=None, tags=None, threads=1, *, filters=None,
               time_as="datetime", date_as="datetime64", nullable="auto", nullable_float=False,
               invalid_dates="error", invalid_utf8="error", skip_unreadable=False, raw=False, database=None,
               ignore_errors=False):
    """A table's rows as a pandas DataFrame: a `time` column, then the columns (all by default).

    path: a file, directory, glob or list of them, or an open TsFile. columns: names in the order
    wanted (`time` may be among them: it always comes first; [] gives the time column alone).
    start/end (inclusive) accept int ms, datetime (naive = UTC), numpy.datetime64, pandas
    Timestamp or ISO strings; tags is {tag: value or [values]} (None matches a null tag).
    filters: [(column, op, value), ...], ANDed, as pandas' and pyarrow's Parquet readers take them
    (op = == != < <= > >= in "not in"; None with =/!= is IS NULL / IS NOT NULL), on FIELD or TAG
    columns, which need not be among `columns`: pages their statistics rule out are not read, and
    the other columns are decoded only for pages with matching rows. SQL semantics: null matches
    no comparison, NaN only !=, strings compare as UTF-8 bytes, a FLOAT column compares in float.
    threads: decoding threads (>= 1). Value options (the dtypes in the module's docstring):
    - time_as: 'datetime' (datetime64[ns]) or 'int' (the stored ms).
    - date_as: 'datetime64', 'date' (datetime.date objects) or 'int' (the stored yyyyMMdd, unchecked).
    - invalid_dates: a DATE value that names no calendar day (20230231) is an error
      (CorruptFileError naming file, column, value and time) with 'error', null with 'null'.
    - invalid_utf8: a TEXT/STRING value that is not UTF-8 is an error (CorruptFileError naming
      file, column, row and time) with 'error', str with U+FFFD replacements with 'replace', and
      with 'bytes' every TEXT/STRING value is bytes.
    - nullable: 'auto' gives pandas' nullable dtypes (Int32, Int64, boolean) to the integer,
      boolean, TIMESTAMP (time_as='int') and DATE (date_as='int') columns that the dataset's
      metadata says may hold nulls (a device lacks the column, or its statistics count fewer
      values than rows), whatever rows the read keeps; 'always' to every such column.
    - nullable_float: False gives NaN for null FLOAT/DOUBLE; True pandas' Float32/Float64.
    A time or TIMESTAMP outside datetime64[ns] (years 1677-2262), or a DATE outside what date_as
    holds, is a ValueError naming the column and the option that reads it. skip_unreadable, raw,
    database, ignore_errors: as tsread.open (IoTDB data is read on one thread, as IoTDB answers:
    filters apply to the merged rows).
    """
    threads = _positive("read_table", "threads", threads)
    ds, options, scan, drop = _prepare("read_table", path, table, columns, start, end, tags, filters, skip_unreadable,
                                       (time_as, date_as, nullable, nullable_float, invalid_dates, invalid_utf8),
                                       _iotdb(raw, database, ignore_errors))
    columns_data = _tsread.read_table(ds._dataset(), threads=threads, **_convert_args(options), **scan)
    return _frame_of(columns_data, options, drop)


def iter_batches(path, table=None, columns=None, start=None, end=None, tags=None, batch_rows=1 << 20, *,
                 filters=None, time_as="datetime", date_as="datetime64", nullable="auto", nullable_float=False,
                 invalid_dates="error", invalid_utf8="error", skip_unreadable=False, raw=False, database=None,
                 ignore_errors=False):
    """DataFrames of at most batch_rows rows, in the order read_table returns them, with
    read_table's arguments and dtypes (the same in every batch)."""
    batch_rows = _positive("iter_batches", "batch_rows", batch_rows)
    ds, options, scan, drop = _prepare("iter_batches", path, table, columns, start, end, tags, filters, skip_unreadable,
                                       (time_as, date_as, nullable, nullable_float, invalid_dates, invalid_utf8),
                                       _iotdb(raw, database, ignore_errors))
    reader = _tsread.BatchReader(ds._dataset(), batch_rows=batch_rows, **_convert_args(options), **scan)
    while True:
        columns_data = reader.next()
        if columns_data is None:
            return
        yield _frame_of(columns_data, options, drop)


def scan(path, table=None, columns=None, start=None, end=None, tags=None, threads=1, *, filters=None, ordered=True,
         batch_rows=None, time_unit="ms", tags_as_dictionary=False, tags_as_run_end=False, file_column=None,
         skip_unreadable=False, raw=False, database=None, ignore_errors=False):
    """A table's rows as an ArrowReader: an object implementing the Arrow PyCapsule interface
    (__arrow_c_stream__, __arrow_c_schema__), for pyarrow, Polars or DuckDB without a copy of
    the columns (tsread._arrow has the lines for each and the Arrow types).

    path, table, columns, start, end, tags, filters, skip_unreadable, raw, database and
    ignore_errors: as read_table (columns=[] is refused: an Arrow batch needs a column besides
    time). threads: decoding threads, ahead of the consumer; ordered=False delivers batches as
    they are decoded (faster with threads; IoTDB data reads on one thread). batch_rows: most rows
    per batch (None: a batch per page as stored). time_unit: of time and TIMESTAMP columns, 's',
    'ms' (TsFile's usual), 'us', 'ns' or 'int' (int64 as stored). tags_as_dictionary: TAG columns
    as dictionary<int32, string>; tags_as_run_end: as run_end_encoded<int32, string> (a batch, one
    device's rows, is one run: no per-row value; not with tags_as_dictionary). file_column: a last string column of that name holding each
    row's file. Errors in the arguments raise here; errors in the data end the consumer's stream
    with its error.
    """
    threads = _positive("scan", "threads", threads)
    if batch_rows is not None:
        batch_rows = _positive("scan", "batch_rows", batch_rows)
    if columns is not None and _args.columns(columns) == []:
        raise ValueError("scan: columns=[] (time alone) is not supported: name a column")
    if tags_as_dictionary and tags_as_run_end:
        raise ValueError("scan: tags_as_dictionary and tags_as_run_end exclude each other")
    if file_column is not None and (not isinstance(file_column, str) or not file_column):
        raise ValueError(f"scan: file_column is a non-empty str, not {file_column!r}")
    ds = _dataset(path, skip_unreadable, "scan", _iotdb(raw, database, ignore_errors))
    args = _scan_args(table, columns, start, end, tags, filters, "scan")
    reader = _tsread.ArrowScan(ds._dataset(), threads=threads, ordered=bool(ordered), batch_rows=batch_rows or 0,
                               time_unit=time_unit, tags_as_dictionary=bool(tags_as_dictionary),
                               tags_as_run_end=bool(tags_as_run_end), file_column=file_column or "", **args)
    return ArrowReader(reader, f"table={table!r}, columns={columns!r}")


def scan_tree(path, start=None, end=None, devices=None, measurements=None, *, batch_rows=None, time_unit="ms",
              names_as_dictionary=False, skip_unreadable=False, raw=False, database=None, ignore_errors=False):
    """Tree-model points as an ArrowReader (the Arrow PyCapsule interface, as scan()), in long
    form: time, device, measurement, then one column per data type of the selected series,
    "value_<type>" (value_int64, value_double, ...; each row fills its series' type's column, the
    others are null), one row per non-null point, by device, measurement and time (IoTDB data:
    each series merged as IoTDB answers it; files as written: file after file).

    start/end (inclusive) as read_tree's. devices: a device path ("root.sg1.d1") or a prefix
    ending at a level ("root.sg1": every device below it), or a list of them, as the CLI's
    `cat --tree --devices`; measurements: a name or a list; None: all. batch_rows: most points
    per batch (None: 65536; a batch holds one series). time_unit: as scan(). names_as_dictionary:
    device and measurement as dictionary<int32, string>. skip_unreadable, raw, database,
    ignore_errors: as read_tree. A dataset without tree-model data is a ValueError.
    """
    if batch_rows is not None:
        batch_rows = _positive("scan_tree", "batch_rows", batch_rows)
    start_ms, end_ms = _args.to_ms(start), _args.to_ms(end)
    if start_ms is not None and end_ms is not None and start_ms > end_ms:
        raise ValueError(f"scan_tree: start {start!r} is after end {end!r}")
    devices = _names("scan_tree", "devices", devices)
    measurements = _names("scan_tree", "measurements", measurements)
    ds = _dataset(path, skip_unreadable, "scan_tree", _iotdb(raw, database, ignore_errors))
    reader = _tsread.ArrowTreeScan(ds._dataset(), start=start_ms, end=end_ms, devices=sorted(devices or ()),
                                   measurements=sorted(measurements or ()), batch_rows=batch_rows or 0,
                                   time_unit=time_unit, names_as_dictionary=bool(names_as_dictionary))
    return ArrowReader(reader, f"tree, devices={devices!r}, measurements={measurements!r}")


def _names(function, name, value):
    """None, one name or a list of them -> None or a set of str."""
    if value is None:
        return None
    if isinstance(value, str):
        return {value}
    if not all(isinstance(v, str) for v in value):
        raise TypeError(f"{function}: {name} is a str or a list of str")
    return set(value)


def read_tree(path, start=None, end=None, devices=None, measurements=None, *, time_as="datetime",
              invalid_utf8="error", skip_unreadable=False, raw=False, database=None, ignore_errors=False):
    """Tree-model points in long form: device, measurement, time, value (object), every non-null
    point, by device then measurement then time.

    start/end (inclusive) as read_table's; devices/measurements: a name or a list of them (the
    device as a dotted path, e.g. "root.sg1.d1"; all when None). time_as: 'datetime'
    (datetime64[ns]) or 'int' (ms). invalid_utf8: what a TEXT/STRING value that is not UTF-8
    becomes: 'error' (CorruptFileError naming the file, device, measurement and time), 'replace'
    (U+FFFD) or 'bytes'. A dataset without tree-model data is a ValueError.
    """
    import numpy as np
    import pandas as pd

    options = _value_options("read_tree", time_as=time_as, invalid_utf8=invalid_utf8)
    start_ms, end_ms = _args.to_ms(start), _args.to_ms(end)
    if start_ms is not None and end_ms is not None and start_ms > end_ms:
        raise ValueError(f"read_tree: start {start!r} is after end {end!r}")
    ds = _dataset(path, skip_unreadable, "read_tree", _iotdb(raw, database, ignore_errors))
    data = _tsread.read_tree(ds._dataset(), start=start_ms,
                             end=end_ms, devices=_names("read_tree", "devices", devices),
                             measurements=_names("read_tree", "measurements", measurements),
                             invalid_utf8=invalid_utf8)
    times = np.asarray(data["time"], dtype=np.int64)
    if options["time_as"] == "datetime":
        times = _frame.ms_to_datetime64(times, "read_tree")
    return pd.DataFrame({
        "device": pd.Series(data["device"], dtype=object),
        "measurement": pd.Series(data["measurement"], dtype=object),
        "time": pd.Series(times),
        "value": pd.Series(data["value"], dtype=object),
    })


def _tree_aggregates(function, path, start, end, devices, measurements, time_as, invalid_utf8, skip_unreadable,
                     last_only, iotdb):
    options = _value_options(function, time_as=time_as, invalid_utf8=invalid_utf8)
    start_ms, end_ms = _args.to_ms(start), _args.to_ms(end)
    if start_ms is not None and end_ms is not None and start_ms > end_ms:
        raise ValueError(f"{function}: start {start!r} is after end {end!r}")
    devices = _names(function, "devices", devices)
    data = _tsread.aggregate_tree(_dataset(path, skip_unreadable, function, iotdb)._dataset(), start=start_ms, end=end_ms,
                                  devices=sorted(devices) if devices is not None else None,
                                  measurements=_names(function, "measurements", measurements),
                                  invalid_utf8=invalid_utf8, last_only=last_only)
    return options, data


def aggregate_tree(path, start=None, end=None, devices=None, measurements=None, *, time_as="datetime",
                   invalid_utf8="error", skip_unreadable=False, raw=False, database=None, ignore_errors=False):
    """Per tree-model series (device, measurement; a dataset's files merged): its data_type,
    count, min, max (numeric, DATE, TIMESTAMP, STRING), first, last, sum (INT32, INT64, FLOAT,
    DOUBLE; BOOLEAN: the trues), avg (float, NaN where the type has none) and first_time/last_time — from statistics wherever they give
    exactly what decoding the points would. One row per series with a point in [start, end];
    values are objects of the series' type (DATE and TIMESTAMP as their stored ints, as read_tree
    gives them). devices: a name or a list, each a device ("root.sg1.d1") or a prefix ending at a
    level ("root.sg1": every device below it), as the CLI's `agg --tree --devices`; measurements:
    names. `frame.attrs["series"]` says how many series were answered from statistics and how many
    decoded. A dataset without tree-model data is a ValueError."""
    options, data = _tree_aggregates("aggregate_tree", path, start, end, devices, measurements, time_as,
                                     invalid_utf8, skip_unreadable, False, _iotdb(raw, database, ignore_errors))
    return _aggregates.tree_aggregate_frame(data, options)


def last_tree(path, start=None, end=None, devices=None, measurements=None, *, time_as="datetime",
              invalid_utf8="error", skip_unreadable=False, raw=False, database=None, ignore_errors=False):
    """IoTDB's `SELECT last * FROM root.**`: per tree-model series its latest point as device,
    measurement, time, value (read_tree's columns), from statistics where they are exact;
    arguments as aggregate_tree's."""
    options, data = _tree_aggregates("last_tree", path, start, end, devices, measurements, time_as, invalid_utf8,
                                     skip_unreadable, True, _iotdb(raw, database, ignore_errors))
    return _aggregates.tree_last_frame(data, options)


def aggregate(path, table=None, columns=None, by="device", bucket=None, start=None, end=None, tags=None, *,
              origin=None, fill_empty=False, time_zone=None, threads=1, filters=None, time_as="datetime",
              date_as="datetime64", invalid_utf8="error", skip_unreadable=False, raw=False, database=None,
              ignore_errors=False):
    """Per device (a dataset's files merged) or, with by="table", for the whole table — and per
    time bucket `floor(t / bucket) * bucket` with `bucket` (an int of ms, a string such as "10m"
    or "1h", or a timedelta; `origin`, a time as start takes, shifts the buckets to start at
    origin + k * bucket, as IoTDB's GROUP BY ([start, end), step) starts them at start;
    `fill_empty=True` adds the buckets without rows from start to end, rows 0 and counts 0; calendar
    buckets: "2w" (weeks from Monday), "1mo" (months), "1d" with `time_zone` — local midnight to
    midnight in `time_zone` ("Europe/Berlin", "UTC", "+05:30"; UTC by default), counted from
    `origin`'s local day, 2000-01-03 by default) — from the files' statistics wherever they give exactly what decoding
    the rows would (only the pages a range end or bucket boundary cuts are decoded): a DataFrame
    with `device` (the id; `_device` where a TAG or FIELD column is named device) and the TAG
    columns (by device), `bucket` (its first time, with buckets),
    `rows`, `first_time`, `last_time`, then per FIELD column (`columns`, all by default)
    `<c>_count`, `<c>_min`, `<c>_max` (numeric, DATE, TIMESTAMP), `<c>_first`, `<c>_last` (the
    values at the earliest/latest time among the non-null ones), `<c>_sum` (INT32, INT64,
    FLOAT, DOUBLE; BOOLEAN: the trues) and `<c>_avg` (float64: sum / count, INT32, INT64, FLOAT,
    DOUBLE), each only for the types that have it. Values have
    read_table's dtypes (nullable ones: a group may have no value); time_as/date_as as
    read_table's; start/end/tags and invalid_utf8 as read_table's. `frame.attrs["pages"]` and
    `frame.attrs["chunks"]` say how many were answered from statistics and how many decoded/read.
    filters: the rows that count, as read_table's (pyarrow's DNF; `WHERE ... GROUP BY`): conditions on
    TAG values alone name devices and statistics still answer; any other leaves statistics to rule
    pages out and the rest is decoded.
    threads (>= 1): files, or shares of a file's devices (IoTDB data: of each time partition's
    devices), aggregated at once and merged in order — the same frame, but for FLOAT/DOUBLE sums of
    a group over several files or shares, which may differ in the last bits (the CLI's `agg --threads`).
    """
    options = _value_options("aggregate", time_as=time_as, date_as=date_as, invalid_utf8=invalid_utf8)
    threads = _positive("aggregate", "threads", threads)
    if by not in ("device", "table"):
        raise ValueError(f"aggregate: by must be 'device' or 'table', not {by!r}")
    calendar = _args.calendar_bucket(bucket, "aggregate", time_zone)
    width = None if calendar else _args.duration_ms(bucket, "aggregate")
    if calendar:
        width = 0  # buckets, of the calendar
    if origin is not None and width is None:
        raise ValueError("aggregate: origin needs bucket")
    if fill_empty and width is None:
        raise ValueError("aggregate: fill_empty needs bucket")
    ds = _dataset(path, skip_unreadable, "aggregate", _iotdb(raw, database, ignore_errors))
    data = _tsread.aggregate(ds._dataset(), **_scan_args(table, columns, start, end, tags, filters, "aggregate"),
                             by=by, bucket=width or 0, origin=_args.to_ms(origin),
                             fill_empty=bool(fill_empty), invalid_utf8=invalid_utf8, threads=threads,
                             calendar_unit=calendar[0] if calendar else "", calendar_count=calendar[1] if calendar else 0,
                             time_zone=time_zone)
    return _aggregates.aggregate_frame(data, options, by_device=by == "device", buckets=width is not None)


def last(path, table=None, columns=None, tags=None, *, start=None, end=None, filters=None, time_as="datetime",
         date_as="datetime64", invalid_utf8="error", skip_unreadable=False, raw=False, database=None,
         ignore_errors=False):
    """Per device: `device` (`_device` as in aggregate), the TAG columns, `time` (its last), then per FIELD column its latest
    non-null value (`<c>`) and that value's time (`<c>_time`): what a dashboard shows, from
    statistics where they are exact. filters: of the rows they hold for, as aggregate's."""
    options = _value_options("last", time_as=time_as, date_as=date_as, invalid_utf8=invalid_utf8)
    ds = _dataset(path, skip_unreadable, "last", _iotdb(raw, database, ignore_errors))
    data = _tsread.aggregate(ds._dataset(), **_scan_args(table, columns, start, end, tags, filters, "last"),
                             invalid_utf8=invalid_utf8, last_only=True)
    return _aggregates.last_frame(data, options)
