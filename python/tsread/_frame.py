"""Columns from the C++ module (dicts of numpy arrays) -> pandas objects.

The C++ side hands over one dict per column: kind, values (numpy, already filled from tsread's
buffers), an optional null mask (True = null) and, for TAG columns, categories. This module picks
the pandas dtype for each kind; it never loops over values in Python except for DATE -> date.
"""

import numpy as np
import pandas as pd

def _masked_int(values, mask, nullable):
    if mask is None and nullable != "always":
        return values
    if mask is None:
        mask = np.zeros(len(values), dtype=bool)
    return pd.arrays.IntegerArray(values, mask)


def _bool(values, mask, nullable):
    if mask is None and nullable != "always":
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
    """DATE is stored as the int yyyyMMdd."""
    if date_as == "int":
        return _masked_int(values, mask, nullable)
    v = values.astype(np.int64)
    years = (v // 10000 - 1970).astype("datetime64[Y]")
    days = (years.astype("datetime64[M]") + (v // 100 % 100 - 1).astype("timedelta64[M]")).astype("datetime64[D]")
    days = days + (v % 100 - 1).astype("timedelta64[D]")
    if mask is not None:
        days[mask] = np.datetime64("NaT")
    if date_as == "date":
        out = np.empty(len(days), dtype=object)
        out[:] = [None if np.isnat(d) else d.item() for d in days]
        return out
    return days


def _categorical(codes, categories):
    """A Categorical over codes the C++ side made (in range by construction, -1 for null)."""
    dtype = pd.CategoricalDtype(pd.Index(categories, dtype=object))
    simple_new = getattr(pd.Categorical, "_simple_new", None)
    if simple_new is not None:
        try:
            # Skips from_codes' O(n) validation of codes that are valid by construction.
            return simple_new(codes, dtype)
        except TypeError:
            pass
    return pd.Categorical.from_codes(codes, dtype=dtype)


def to_series_data(column, options):
    kind = column["kind"]
    values = column["values"]
    mask = column.get("mask")
    nullable = options["nullable"]
    if kind == "time":
        return _times(values, None, options["time_as"], nullable)
    if kind == "timestamp":
        return _times(values, mask, options["time_as"], nullable)
    if kind == "tag":
        return _categorical(values, column["categories"])
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
