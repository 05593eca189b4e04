"""tsread.aggregate and tsread.last: the C++ Aggregate (per device or table and time bucket, from
statistics where they are exact) as pandas DataFrames with read_table's dtypes."""

import numpy as np
import pandas as pd

from . import _frame

import datetime as _dt

_INT_DTYPES = {"INT32": "Int32", "INT64": "Int64", "DATE": "Int32", "TIMESTAMP": "Int64"}
_HAS_MIN_MAX = ("INT32", "INT64", "FLOAT", "DOUBLE", "DATE", "TIMESTAMP", "STRING")
_HAS_SUM = ("INT32", "INT64", "FLOAT", "DOUBLE", "BOOLEAN")
_HAS_AVG = ("INT32", "INT64", "FLOAT", "DOUBLE")


def _dates(values, name, date_as):
    """DATE aggregates (stored yyyyMMdd ints) as read_table gives them: datetime64 (NaT for none),
    datetime.date objects, or the ints; a value naming no day is a ValueError naming the column."""
    if date_as == "int":
        return pd.array(values, dtype="Int32")
    days = []
    for v in values:
        if v is None:
            days.append(None)
            continue
        try:
            days.append(_dt.date(v // 10000, v // 100 % 100, v % 100))
        except ValueError:
            raise ValueError(f"aggregate: column \"{name}\": DATE value {v} names no calendar day "
                             "(date_as='int' gives the stored ints)") from None
    if date_as == "date":
        return np.array(days, dtype=object)
    return np.array([np.datetime64("NaT") if d is None else np.datetime64(d, "D") for d in days],
                    dtype="datetime64[D]")


def _times(values, time_as):
    """int ms (None for none) -> datetime64[ns] with NaT, or Int64 with time_as='int'."""
    if time_as == "int":
        return pd.array(values, dtype="Int64")
    ms = np.array([np.iinfo(np.int64).min if v is None else v for v in values], dtype=np.int64)
    present = ms != np.iinfo(np.int64).min
    out = np.full(len(ms), np.datetime64("NaT"), dtype="datetime64[ns]")
    if present.any():
        out[present] = _frame.ms_to_datetime64(ms[present], "aggregate")
    return out


def _values(values, type_name, name, options):
    """One aggregate's values (None = null) in the column's read_table dtype."""
    time_as = options["time_as"]
    if type_name == "DATE":
        return _dates(values, name, options["date_as"])
    if type_name == "TIMESTAMP" and time_as != "int":
        return _times(values, time_as)
    if type_name in _INT_DTYPES:
        return pd.array(values, dtype=_INT_DTYPES[type_name])
    if type_name == "BOOLEAN":
        return pd.array(values, dtype="boolean")
    if type_name in ("FLOAT", "DOUBLE"):
        return np.array([np.nan if v is None else v for v in values],
                        dtype=np.float32 if type_name == "FLOAT" else np.float64)
    return np.array(values, dtype=object)  # TEXT, STRING (str), BLOB (bytes)


def _sums(values, type_name):
    if type_name in ("FLOAT", "DOUBLE"):
        return np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    if all(v is None or -2**63 <= v < 2**63 for v in values):
        return pd.array(values, dtype="Int64")
    return np.array(values, dtype=object)  # an INT64 sum beyond int64: Python ints


def _head(data):
    """The device id (as `device`, or `_device` where a TAG or FIELD column has that name) and the
    TAG columns (categoricals of sorted values)."""
    out = {data["device_column"]: np.array(data["device"], dtype=object)}
    for k, name in enumerate(data["tag_columns"]):
        values = [tags[k] for tags in data["tags"]]
        out[name] = pd.Categorical(values, categories=_frame.sorted_categories(v for v in values if v is not None))
    return out


def aggregate_frame(data, options, by_device=True, buckets=False):
    time_as = options["time_as"]
    out = _head(data) if by_device else {}
    if buckets:
        out["bucket"] = _times(data["bucket"], time_as)
    out["rows"] = np.array(data["rows"], dtype=np.int64)
    out["first_time"] = _times(data["first_time"], time_as)
    out["last_time"] = _times(data["last_time"], time_as)
    for (name, type_name), agg in zip(data["columns"], data["aggregates"]):
        out[f"{name}_count"] = np.array(agg["count"], dtype=np.int64)
        for what in ("min", "max", "first", "last"):
            if what in ("min", "max") and type_name not in _HAS_MIN_MAX:
                continue
            out[f"{name}_{what}"] = _values(agg[what], type_name, name, options)
        if type_name in _HAS_SUM:
            out[f"{name}_sum"] = _sums(agg["sum"], type_name)
        if type_name in _HAS_AVG:
            out[f"{name}_avg"] = np.array([np.nan if v is None else v for v in agg["avg"]], dtype=np.float64)
    frame = pd.DataFrame(out)
    frame.attrs["pages"] = {"from_statistics": data["pages_from_statistics"], "decoded": data["pages_decoded"]}
    frame.attrs["chunks"] = {"from_statistics": data["chunks_from_statistics"], "read": data["chunks_read"]}
    return frame


def last_frame(data, options):
    time_as = options["time_as"]
    out = _head(data)
    out["time"] = _times(data["last_time"], time_as)
    for (name, type_name), agg in zip(data["columns"], data["aggregates"]):
        out[name] = _values(agg["last"], type_name, name, options)
        out[f"{name}_time"] = _times(agg["last_time"], time_as)
    return pd.DataFrame(out)


def tree_aggregate_frame(data, options):
    """aggregate_tree's frame: one row per series; its values are objects of the series' type
    (one column holds series of every type, as read_tree's `value`)."""
    time_as = options["time_as"]
    out = {
        "device": pd.Series(data["device"], dtype=object),
        "measurement": pd.Series(data["measurement"], dtype=object),
        "data_type": pd.Series(data["data_type"], dtype=object),
        "count": np.array(data["count"], dtype=np.int64),
    }
    for what in ("min", "max", "first", "last", "sum"):
        out[what] = pd.Series(data[what], dtype=object)
    out["avg"] = np.array([np.nan if v is None else v for v in data["avg"]], dtype=np.float64)
    out["first_time"] = _times(data["first_time"], time_as)
    out["last_time"] = _times(data["last_time"], time_as)
    frame = pd.DataFrame(out)
    frame.attrs["series"] = {"from_statistics": data["series_from_statistics"], "decoded": data["series_decoded"]}
    frame.attrs["pages"] = {"decoded": data["pages_decoded"]}
    return frame


def tree_last_frame(data, options):
    """last_tree's frame: device, measurement, time, value (object), one row per series."""
    return pd.DataFrame({
        "device": pd.Series(data["device"], dtype=object),
        "measurement": pd.Series(data["measurement"], dtype=object),
        "time": _times(data["last_time"], options["time_as"]),
        "value": pd.Series(data["last"], dtype=object),
    })
