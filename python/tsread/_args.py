"""Normalization of the arguments the readers share: inputs, times and tag filters."""

import datetime as _dt
import os

import numpy as np


def _one_input(p, function):
    if hasattr(p, "read"):  # a file object: read by its path when it has one
        name = getattr(p, "name", None)
        if isinstance(name, (str, os.PathLike)) and os.path.isfile(name):
            return os.fsdecode(name)
        raise TypeError(f"{function}: tsread reads files by path; got a {type(p).__name__} without one "
                        "(write it to a file, or pass the path)")
    if isinstance(p, (bytes, bytearray, memoryview)):
        data = bytes(p[:4097])
        if isinstance(p, bytes) and b"\0" not in data and len(data) <= 4096 and not data.startswith(b"TsFile"):
            return os.fsdecode(p)  # a path spelled as bytes
        raise TypeError(f"{function}: tsread reads files by path; got {len(p)} bytes of data, not a path "
                        "(write them to a file, or pass the path)")
    if isinstance(p, (str, os.PathLike)):
        return os.fsdecode(p)
    raise TypeError(f"{function}: a path, glob, directory or list of them, not {type(p).__name__}")


def inputs(path, function="open"):
    """A path, PathLike, glob, directory, file object with a path, or a list of them -> list of str."""
    if isinstance(path, (str, bytes, bytearray, memoryview, os.PathLike)) or hasattr(path, "read"):
        path = [path]
    return [_one_input(p, function) for p in path]


_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def to_ms(value):
    """A time bound as int milliseconds since the epoch (tsread's time unit), or None.

    Accepts ints (already ms), datetime (naive = UTC), date, numpy.datetime64, pandas Timestamp
    and ISO strings. Sub-millisecond parts are truncated toward negative infinity.
    """
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("a time bound cannot be a bool")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, str):
        # Digits alone are a number in the file's unit (ms), as in the CLI and SQL; numpy would
        # read '1700003000000' as a year.
        digits = value.strip()
        if digits.lstrip("+-").isdigit() and digits[:1] in "+-0123456789":
            return int(digits)
        value = np.datetime64(value.rstrip("Z"))
    if isinstance(value, np.datetime64):
        if np.isnat(value):
            return None
        return int(value.astype("datetime64[ms]").astype(np.int64))
    try:
        import pandas as pd

        if isinstance(value, pd.Timestamp):
            if value.tzinfo is not None:
                value = value.tz_convert("UTC").tz_localize(None)
            return int(value.value // 1_000_000)
    except ImportError:  # pragma: no cover - pandas is a dependency
        pass
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        delta = value - _EPOCH
        return (delta.days * 86_400_000 + delta.seconds * 1000 + delta.microseconds // 1000)
    if isinstance(value, _dt.date):
        return (value - _EPOCH.date()).days * 86_400_000
    raise TypeError(f"cannot use {type(value).__name__} as a time bound")


def tags(value):
    """{tag: value or list of values} -> {tag: [str or None, ...]} (None matches a null tag)."""
    if value is None:
        return None
    out = {}
    for column, values in dict(value).items():
        if values is None or isinstance(values, str):
            values = [values]
        out[str(column)] = [None if v is None else str(v) for v in values]
    return out


def columns(value):
    """The value columns asked for, in order: `time` (always the first column) dropped; [] for none."""
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    return [str(c) for c in value if str(c) != "time"]


_DURATION_UNITS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


def calendar_bucket(value, function, time_zone):
    """A bucket string naming calendar units as (unit, count) — "2w", "1mo" always, "1d" when a
    time zone is given — else None (a fixed width, for duration_ms)."""
    if not isinstance(value, str):
        if time_zone is not None:
            raise ValueError(f"{function}: time_zone applies to calendar buckets ('1d', '1w', '1mo'), not {value!r}")
        return None
    from . import _tsread  # the CLI's and SQL's reading (aggregate/time_bucket.h)

    parsed = _tsread.parse_calendar_bucket(value, time_zone is not None)
    if parsed is None and time_zone is not None:
        raise ValueError(f"{function}: time_zone applies to calendar buckets ('1d', '1w', '1mo'), not {value!r}")
    return parsed


def duration_ms(value, function):
    """A bucket width as a positive int in milliseconds (tsread's time unit), or None.

    Accepts ints (already ms), strings with a unit as the CLI's --bucket ("500ms", "30s", "10m",
    "1h", "7d"), datetime.timedelta, numpy.timedelta64 and pandas Timedelta (sub-millisecond
    parts are refused: a bucket is a whole number of ms)."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{function}: bucket cannot be a bool")
    if isinstance(value, (int, np.integer)):
        ms = int(value)
    elif isinstance(value, str):
        number = value.rstrip("abcdefghijklmnopqrstuvwxyz")
        unit = value[len(number):] or "ms"
        if not number.isdigit() or unit not in _DURATION_UNITS:
            raise ValueError(f"{function}: bucket {value!r} is not a duration such as '10m', '1h' or an int of ms")
        ms = int(number) * _DURATION_UNITS[unit]
    else:
        if isinstance(value, _dt.timedelta):
            value = np.timedelta64(value)
        try:
            import pandas as pd

            if isinstance(value, pd.Timedelta):
                value = value.to_timedelta64()
        except ImportError:  # pragma: no cover - pandas is a dependency
            pass
        if not isinstance(value, np.timedelta64):
            raise TypeError(f"{function}: bucket must be an int (ms), a string such as '10m' or a timedelta, "
                            f"not {type(value).__name__}")
        ns = int(value.astype("timedelta64[ns]").astype(np.int64))
        if ns % 1_000_000:
            raise ValueError(f"{function}: bucket {value} is not a whole number of milliseconds")
        ms = ns // 1_000_000
    if ms <= 0 or ms >= 2**63:
        raise ValueError(f"{function}: bucket must be a positive duration, not {value!r}")
    return ms


_FILTER_OPS = {"=": "=", "==": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def _filter_value(value, function):
    """A filter operand as the library binds it: bool, int, float or str (datetimes as int ms,
    dates as YYYY-MM-DD, which a DATE column reads)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, _dt.date) and not isinstance(value, _dt.datetime):
        return value.isoformat()
    try:
        return to_ms(value)
    except TypeError:
        raise TypeError(f"{function}: a filter value cannot be {type(value).__name__}") from None


def _is_filter_tuple(f):
    return isinstance(f, tuple) or (isinstance(f, list) and len(f) == 3 and not isinstance(f[0], (list, tuple)))


def _conjunction(value, function):
    """[(column, op, value), ...] -> [[(column, op, [values]), ...], ...]: clauses ANDed, each
    a list of alternatives ORed (`in` with None is `= values OR IS NULL`)."""
    out = []
    for f in value:
        if not isinstance(f, (list, tuple)) or len(f) != 3 or isinstance(f[0], (list, tuple)):
            raise ValueError(f"{function}: a filter is a (column, op, value) tuple, not {f!r}")
        column, op, operand = str(f[0]), str(f[1]).strip().lower(), f[2]
        if op in ("in", "not in"):
            if isinstance(operand, (str, bytes)) or not hasattr(operand, "__iter__"):
                raise ValueError(f"{function}: filter {f!r}: '{op}' takes a list of values")
            operand = list(operand)
            # None in the list matches a null (pyarrow's is_in with nulls matching): `in` keeps
            # null rows too, `not in` drops them.
            with_null = any(v is None for v in operand)
            values = [_filter_value(v, function) for v in operand if v is not None]
            if op == "in":
                alternatives = [(column, "=", values)] if values or not with_null else []
                if with_null:
                    alternatives.append((column, "IS NULL", []))
                out.append(alternatives)
            else:
                out.extend([(column, "!=", [v])] for v in values)
                if with_null:
                    out.append([(column, "IS NOT NULL", [])])
            continue
        if op not in _FILTER_OPS:
            raise ValueError(f"{function}: filter {f!r}: op is one of {', '.join(list(_FILTER_OPS) + ['in', 'not in'])}")
        op = _FILTER_OPS[op]
        if operand is None:
            if op not in ("=", "!="):
                raise ValueError(f"{function}: filter {f!r}: None compares only with = or !=")
            out.append([(column, "IS NULL" if op == "=" else "IS NOT NULL", [])])
            continue
        out.append([(column, op, [_filter_value(operand, function)])])
    return out


def filters(value, function):
    """filters=[(column, op, value), ...], ANDed, or [[...], [...], ...], an OR of such lists (the
    disjunctive normal form of pandas' and pyarrow's Parquet readers) -> a list of conjunctions
    (ORed), each a list of clauses (ANDed), each a list of (column, op, [values]) alternatives
    (ORed), in the library's operators. op: = == != < <= > >= in "not in"; a None value with = or !=
    means IS NULL / IS NOT NULL, and None in the list of `in` / `not in` matches a null."""
    if value is None:
        return None
    value = list(value)
    if value and all(isinstance(f, list) and not _is_filter_tuple(f) for f in value):
        if not all(f for f in value):
            raise ValueError(f"{function}: filters: an empty list inside a list of lists (OR) matches nothing; "
                             "leave it out")
        return [_conjunction(f, function) for f in value]
    if any(isinstance(f, list) and not _is_filter_tuple(f) for f in value):
        raise ValueError(f"{function}: filters is a list of (column, op, value) tuples (ANDed) or a list of "
                         "such lists (ORed), not a mix of both")
    return [_conjunction(value, function)]
