"""tsread: read Apache TsFile files into pandas (and Dask) with the tsread C++ reader.

    import tsread
    f = tsread.open("data/")                      # a file, a directory, a glob or a list of them
    f.tables, f.schema("sensors"), f.devices("sensors"), f.info()
    df = tsread.read_table("data/", table="sensors", columns=["device", "s_double"],
                           start="2024-01-01", tags={"region": ["north", "south"]})
"""

from . import _args, _frame
from ._tsread import CorruptFileError, UnsupportedFileError
from . import _tsread

__all__ = ["open", "read_table", "iter_batches", "read_tree", "TsFile", "CorruptFileError", "UnsupportedFileError"]

_VALUE_OPTIONS = ("time_as", "date_as", "nullable", "nullable_float")


class TsFile:
    """One TsFile or a dataset of many (paths, globs, directories), opened once.

    Opening reads every file's metadata; errors: CorruptFileError (a ValueError) for a corrupt or
    truncated file, OSError for I/O.
    """

    def __init__(self, path, skip_unreadable=False):
        self._inputs = _args.inputs(path)
        self._ds = _tsread.Dataset(self._inputs, skip_unreadable)

    @property
    def files(self):
        return self._ds.files()

    @property
    def tables(self):
        return self._ds.tables()

    def schema(self, table=None):
        """[{name, category, type}] of the table (reconciled by name across a dataset's files)."""
        return [{"name": n, "category": c, "type": t} for n, c, t in self._ds.schema(table)]

    def devices(self, table=None):
        """The table's devices, each as {tag column: value or None}, each once."""
        tag_names = [c["name"] for c in self.schema(table) if c["category"] == "TAG"]
        out = []
        for segments in self._ds.devices(table):
            values = list(segments) + [None] * (len(tag_names) - len(segments))
            out.append(dict(zip(tag_names, values)))
        return out

    def info(self):
        """{"files": [per-file metadata summary], "tables": {name: {rows, start_time, end_time}}}."""
        files = self._ds.info()
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
        return f"tsread.TsFile({self._inputs!r}, tables={self.tables!r})"


def open(path, skip_unreadable=False):  # noqa: A001 - the package's entry point, like io.open
    """Opens a file or a dataset (a path, glob, directory or list of them)."""
    return TsFile(path, skip_unreadable)


def _dataset(path):
    return path if isinstance(path, TsFile) else TsFile(path)


def _value_options(time_as="datetime", date_as="datetime64", nullable="auto", nullable_float=False):
    if time_as not in ("datetime", "int"):
        raise ValueError("time_as is 'datetime' or 'int'")
    if date_as not in ("datetime64", "date", "int"):
        raise ValueError("date_as is 'datetime64', 'date' or 'int'")
    if nullable not in ("auto", "always"):
        raise ValueError("nullable is 'auto' or 'always'")
    return {"time_as": time_as, "date_as": date_as, "nullable": nullable, "nullable_float": bool(nullable_float)}


def _scan_args(table, columns, start, end, tags):
    return dict(table=table, columns=_args.columns(columns), start=_args.to_ms(start), end=_args.to_ms(end),
                tags=_args.tags(tags))


def read_table(path, table=None, columns=None, start=None, end=None, tags=None, threads=1, **value_options):
    """A table's rows as a pandas DataFrame: a `time` column, then the columns (all by default).

    start/end (inclusive) accept int ms, datetime, numpy.datetime64, pandas Timestamp or ISO strings;
    tags is {tag: value or [values]} (None matches a null tag). Value options: time_as ('datetime'
    or 'int'), date_as ('datetime64', 'date', 'int'), nullable ('auto': pandas nullable dtypes only
    for integer/boolean columns with nulls; 'always'), nullable_float (False: NaN for null).
    """
    options = _value_options(**value_options)
    ds = _dataset(path)
    columns_data = _tsread.read_table(ds._ds, threads=int(threads), float_nan=not options["nullable_float"],
                                      time_ns=options["time_as"] == "datetime",
                                      **_scan_args(table, columns, start, end, tags))
    return _frame.to_frame(columns_data, options)


def iter_batches(path, table=None, columns=None, start=None, end=None, tags=None, batch_rows=1 << 20,
                 **value_options):
    """DataFrames of at most batch_rows rows, in the order read_table returns them."""
    options = _value_options(**value_options)
    ds = _dataset(path)
    reader = _tsread.BatchReader(ds._ds, batch_rows=int(batch_rows), float_nan=not options["nullable_float"],
                                      time_ns=options["time_as"] == "datetime",
                                 **_scan_args(table, columns, start, end, tags))
    while True:
        columns_data = reader.next()
        if columns_data is None:
            return
        yield _frame.to_frame(columns_data, options)


def read_tree(path):
    """Tree-model points in long form: device, measurement, time (int ms), value (object)."""
    import pandas as pd

    data = _tsread.read_tree(_dataset(path)._ds)
    return pd.DataFrame({
        "device": pd.Series(data["device"], dtype=object),
        "measurement": pd.Series(data["measurement"], dtype=object),
        "time": pd.Series(data["time"], dtype="int64"),
        "value": pd.Series(data["value"], dtype=object),
    })
