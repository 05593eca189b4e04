"""Every reference fixture table through read_table equals its expected CSV, value by value."""

import math
import struct

import numpy as np
import pandas as pd
import pytest

import tsread
from conftest import FIXTURES, parse_csv, strtof

TABLE_CSVS = sorted(p for p in FIXTURES.glob("*.csv") if not p.name.endswith(".tree.csv")) if FIXTURES.is_dir() else []
TREE_CSVS = sorted(FIXTURES.glob("*.tree.csv")) if FIXTURES.is_dir() else []


def test_fixtures_present():
    assert TABLE_CSVS and TREE_CSVS, f"no fixture CSVs under {FIXTURES}"


def column_values(series):
    """A column as Python values with None for null (masked arrays read through their mask)."""
    array = series.array
    if isinstance(array, pd.Categorical):
        return [None if pd.isna(v) else v for v in array]
    if hasattr(array, "_mask"):
        return [None if m else v.item() for v, m in zip(array._data, array._mask)]
    return list(series.to_numpy())


def bits64(x):
    return struct.pack("<d", x)


def expected_value(text, type_name):
    """A CSV field as the Python value read_table should give (time_as/date_as='int')."""
    if text is None:
        return None
    if isinstance(text, tuple):
        return text[1]
    if type_name == "BOOLEAN":
        return {"true": True, "false": False}[text]
    if type_name in ("INT32", "INT64", "TIMESTAMP", "DATE", "TIME"):
        return int(text)
    if type_name == "FLOAT":
        return strtof(text)
    if type_name == "DOUBLE":
        return float(text)
    if type_name == "BLOB":
        assert text.startswith("0x")
        return bytes.fromhex(text[2:])
    raise AssertionError(f"unexpected unquoted {type_name} field {text!r}")


def same(actual, expected, type_name):
    if expected is None or actual is None:
        return actual is None and expected is None
    if type_name == "FLOAT":
        return np.float32(actual).tobytes() == np.float32(expected).tobytes()
    if type_name == "DOUBLE":
        return bits64(float(actual)) == bits64(expected)
    return actual == expected


@pytest.mark.parametrize("csv_path", TABLE_CSVS, ids=lambda p: p.name)
def test_table_equals_csv(csv_path):
    fixture, table = csv_path.name[: -len(".csv")].rsplit(".", 1)
    f = tsread.open(FIXTURES / f"{fixture}.tsfile")
    types = {c["name"]: c["type"] for c in f.schema(table)}
    types["time"] = "TIME"
    df = tsread.read_table(f, table=table, time_as="int", date_as="int", nullable="always", nullable_float=True)
    header, rows = parse_csv(csv_path)
    assert list(df.columns) == header
    assert len(df) == len(rows)
    for j, name in enumerate(header):
        actual = column_values(df[name])
        mismatches = [
            (r, actual[r], rows[r][j])
            for r in range(len(rows))
            if not same(actual[r], expected_value(rows[r][j], types[name]), types[name])
        ]
        assert not mismatches, f"{csv_path.name} column {name}: {len(mismatches)} rows differ, first {mismatches[:3]}"


def tree_value_matches(value, text):
    if isinstance(text, tuple):
        return value == text[1]
    if isinstance(value, bool):
        return text == ("true" if value else "false")
    if isinstance(value, int):
        return int(text) == value
    if isinstance(value, float):
        if math.isnan(value):
            return math.isnan(float(text))
        return bits64(value) == bits64(float(text)) or np.float32(value) == np.float32(strtof(text))
    if isinstance(value, bytes):
        return text == "0x" + value.hex()
    return False


@pytest.mark.parametrize("csv_path", TREE_CSVS, ids=lambda p: p.name)
def test_tree_equals_csv(csv_path):
    fixture = csv_path.name[: -len(".tree.csv")]
    df = tsread.read_tree(FIXTURES / f"{fixture}.tsfile", time_as="int")
    header, rows = parse_csv(csv_path)
    assert list(df.columns) == header
    assert len(df) == len(rows)
    for r, (device, measurement, time, value) in enumerate(df.itertuples(index=False)):
        row = rows[r]
        assert (device, measurement, time) == (row[0][1] if isinstance(row[0], tuple) else row[0],
                                               row[1][1] if isinstance(row[1], tuple) else row[1], int(row[2])), r
        assert tree_value_matches(value, row[3]), (r, value, row[3])
