"""Columns from the C++ module (dicts of numpy arrays) -> pandas objects.

The C++ side hands over one dict per column: kind, values (numpy, already filled from tsread's
buffers), an optional null mask (True = null) and, for TAG columns, categories. This module picks
the pandas dtype for each kind; it never loops over values in Python.
"""

import numpy as np
import pandas as pd

def _masked_int(values, mask, nullable):
    """nullable: whether the column gets pandas' nullable dtype (nullable_of)."""
    if mask is None and not nullable:
        return values
    if mask is None:
        mask = np.zeros(len(values), dtype=bool)
    return pd.arrays.IntegerArray(values, mask)


def _bool(values, mask, nullable):
    if mask is None and not nullable:
        return values
    if mask is None:
        mask = np.zeros(len(values), dtype=bool)
    return pd.arrays.BooleanArray(values, mask)


def _float(values, mask, nullable_float):
    if not nullable_float:
        return values
    if mask is None:
        mask = np.zeros(len(values), dtype=bool)
    return pd.arrays.FloatingArray(values, mask)


def _times(values, mask, time_as, nullable):
    if time_as == "int":
        return _masked_int(values, mask, nullable)
    # C++ made them nanoseconds with NaT for null (pandas 1.5 holds datetime64[ns] only).
    return values.view("datetime64[ns]")


def _dates(values, mask, date_as, nullable):
    """DATE: the stored yyyyMMdd ints with date_as='int'; otherwise C++ checked each value and made
    it days since 1970-01-01 (0 under the mask of nulls), within what date_as holds."""
    if date_as == "int":
        return _masked_int(values, mask, nullable)
    days = values.astype(np.int64).view("datetime64[D]")
    if mask is not None:
        days[mask] = np.datetime64("NaT")
    if date_as == "date":
        return days.astype(object)  # datetime.date per day (years 1-9999, checked), None for NaT
    return days


def _sort_key(value):
    """TAG values sort by their UTF-8 bytes (str's code point order; bytes, under
    invalid_utf8='bytes', among them)."""
    return value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value


def sorted_categories(values):
    return sorted(set(values), key=_sort_key)


def _code_dtype(categories):
    """The codes' dtype pandas gives a Categorical of this many categories."""
    for dtype in (np.int8, np.int16, np.int32):
        if categories < np.iinfo(dtype).max:
            return dtype
    return np.int64


_NS_LIMIT_MS = np.iinfo(np.int64).max // 1_000_000


def ms_to_datetime64(ms, function):
    """int64 ms -> datetime64[ns]; ValueError naming time_as='int' for a time outside its years
    1677-2262."""
    if len(ms) and (ms.min() <= -_NS_LIMIT_MS or ms.max() >= _NS_LIMIT_MS):
        bad = ms[(ms <= -_NS_LIMIT_MS) | (ms >= _NS_LIMIT_MS)][0]
        raise ValueError(f"{function}: time {bad} lies outside datetime64[ns] (years 1677-2262): read it with "
                         "time_as='int'")
    return (ms * 1_000_000).view("datetime64[ns]")


def _categorical(codes, categories, known=None):
    """A Categorical over codes the C++ side made (in range by construction, -1 for null) for
    `categories` in first-seen order, recoded onto `known` (the sorted values of the dataset's
    devices: the same categories for every batch of a read) or, without it, onto its own
    categories sorted."""
    categories = list(categories)
    target = known if known is not None else sorted_categories(categories)
    if categories != target:
        position = {v: i for i, v in enumerate(target)}
        if any(v not in position for v in categories):  # not among the devices: never dropped
            target = sorted_categories(list(target) + categories)
            position = {v: i for i, v in enumerate(target)}
        lookup = np.array([position[v] for v in categories] + [-1], dtype=_code_dtype(len(target)))
        codes = lookup[codes]  # -1 (null) takes lookup's last entry, -1
    dtype = pd.CategoricalDtype(pd.Index(target, dtype=object))
    simple_new = getattr(pd.Categorical, "_simple_new", None)
    if simple_new is not None:
        try:
            # Skips from_codes' O(n) validation of codes that are valid by construction.
            return simple_new(codes, dtype)
        except TypeError:
            pass
    return pd.Categorical.from_codes(codes, dtype=dtype)


def nullable_of(name, options):
    """Whether column `name` gets a pandas nullable dtype: every column under nullable='always',
    under 'auto' those the dataset's metadata says may hold nulls (options["nullable_columns"])."""
    return options["nullable"] == "always" or name in options.get("nullable_columns", ())


def to_series_data(column, options):
    kind = column["kind"]
    values = column["values"]
    mask = column.get("mask")
    nullable = nullable_of(column["name"], options)
    if kind == "time":
        return _times(values, None, options["time_as"], nullable)
    if kind == "timestamp":
        return _times(values, mask, options["time_as"], nullable)
    if kind == "tag":
        return _categorical(values, column["categories"], options.get("tag_categories", {}).get(column["name"]))
    if kind in ("int32", "int64"):
        return _masked_int(values, mask, nullable)
    if kind == "bool":
        return _bool(values, mask, nullable)
    if kind in ("float32", "float64"):
        return _float(values, mask, options["nullable_float"])
    if kind == "date":
        return _dates(values, mask, options["date_as"], nullable)
    return values  # str, bytes: object arrays


def to_frame(columns, options):
    data = {c["name"]: to_series_data(c, options) for c in columns}
    # copy=False: each column keeps its own array (no consolidation into 2-D blocks, no copy).
    return pd.DataFrame(data, copy=False)


def empty_columns(spec):
    """Zero-row columns for a projection [(name, category, type)], as the C++ side makes them."""
    kinds = {"BOOLEAN": ("bool", bool), "INT32": ("int32", np.int32), "INT64": ("int64", np.int64),
             "TIMESTAMP": ("timestamp", np.int64), "FLOAT": ("float32", np.float32),
             "DOUBLE": ("float64", np.float64), "DATE": ("date", np.int32), "BLOB": ("bytes", object),
             "TEXT": ("str", object), "STRING": ("str", object)}
    out = [{"name": "time", "kind": "time", "values": np.empty(0, dtype=np.int64)}]
    for name, category, type_name in spec:
        if category == "TAG":
            out.append({"name": name, "kind": "tag", "values": np.empty(0, dtype=np.int32), "categories": []})
        elif category == "FIELD":
            kind, dtype = kinds[type_name]
            out.append({"name": name, "kind": kind, "values": np.empty(0, dtype=dtype)})
        else:
            out.append({"name": name, "kind": "str", "values": np.empty(0, dtype=object)})
    return out
