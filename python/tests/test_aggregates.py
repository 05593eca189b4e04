"""tsread.aggregate and tsread.last against a pandas aggregation, computed here, of read_table's rows."""

import numpy as np
import pandas as pd
import pytest

import tsread
from conftest import generate_dataset


@pytest.fixture(scope="module")
def alltypes(fixtures):
    return str(fixtures / "table_alltypes.tsfile")


def _expected(rows, column):
    """Per device id: count, min, max, first, last, sum of `column` over the non-null rows."""
    out = {}
    for device, g in rows.groupby(rows["id"].astype(object).fillna("<null>").astype(str) + "|" +
                                  rows["region"].astype(object).fillna("<null>").astype(str)):
        v = g[["time", column]].dropna()
        out[device] = (len(v), v[column].min(), v[column].max(), v[column].iloc[0], v[column].iloc[-1],
                       v[column].sum()) if len(v) else (0,)
    return out


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("window", [{}, {"start": 1700000500000, "end": 1700003000000}])
def test_aggregate_equals_pandas_on_the_rows(alltypes, window, threads):
    columns = ["f_int32", "f_int64", "f_double", "f_boolean"]
    got = tsread.aggregate(alltypes, columns=columns, threads=threads, **window)
    rows = tsread.read_table(alltypes, columns=["region", "id"] + columns, **window)
    assert got["rows"].sum() == len(rows)
    keys = got["id"].astype(object).fillna("<null>").astype(str) + "|" + got["region"].astype(object).fillna("<null>").astype(str)
    for column in columns:
        want = _expected(rows, column)
        for key, (_, g) in zip(keys, got.iterrows()):
            w = want[key]
            assert g[f"{column}_count"] == w[0], (column, key)
            if w[0] == 0:
                continue
            if column != "f_boolean":
                assert g[f"{column}_min"] == w[1] and g[f"{column}_max"] == w[2], (column, key)
            assert g[f"{column}_first"] == w[3] and g[f"{column}_last"] == w[4], (column, key)
            if column == "f_double":
                assert g[f"{column}_sum"] == pytest.approx(w[5], rel=1e-12)
            else:
                assert int(g[f"{column}_sum"]) == int(w[5]), (column, key)


@pytest.mark.parametrize("threads", [1, 2])
def test_filters_aggregate_the_rows_they_hold(alltypes, threads):
    """filters= as read_table's: the rows pandas keeps of a plain read, then aggregated (and last)."""
    rows = tsread.read_table(alltypes, columns=["region", "id", "f_int32", "f_double"], time_as="int")
    cases = [
        ([("f_int32", ">", 100)], rows["f_int32"] > 100),
        ([[("f_int32", "<=", 5)], [("region", "=", "east")]], (rows["f_int32"] <= 5) | (rows["region"] == "east")),
        ([("f_double", "=", None), ("id", "!=", None)], rows["f_double"].isna() & rows["id"].notna()),
    ]
    for filters, keep in cases:
        kept = rows[keep.fillna(False).astype(bool)]
        got = tsread.aggregate(alltypes, columns=["f_int32"], filters=filters, threads=threads, time_as="int")
        assert got["rows"].sum() == len(kept), filters
        assert got["f_int32_count"].sum() == kept["f_int32"].count(), filters
        assert int(got["f_int32_sum"].sum()) == int(kept["f_int32"].sum()), filters
        assert got["last_time"].max() == kept["time"].max(), filters
        last = tsread.last(alltypes, columns=["f_int32"], filters=filters, time_as="int")
        assert len(last) == len(got), filters
        assert last["time"].tolist() == got["last_time"].tolist(), filters
        assert last["f_int32"].tolist() == got["f_int32_last"].tolist(), filters


def test_dtypes_and_what_each_type_has(alltypes):
    got = tsread.aggregate(alltypes, columns=["f_int32", "f_text", "f_date", "f_boolean"])
    assert str(got["f_int32_min"].dtype) == "Int32" and str(got["f_int32_sum"].dtype) == "Int64"
    assert "f_text_min" not in got and "f_text_sum" not in got and "f_boolean_min" not in got
    assert "f_date_sum" not in got and str(got["f_date_min"].dtype).startswith("datetime64")
    assert isinstance(got["region"].dtype, pd.CategoricalDtype)
    assert str(got["first_time"].dtype) == "datetime64[ns]"
    assert str(tsread.aggregate(alltypes, columns=["f_date"], date_as="int")["f_date_min"].dtype) == "Int32"


def _keys(frame):
    """A device's key from its TAG columns (null as a word of its own)."""
    return (frame["id"].astype(object).fillna("<null>").astype(str) + "|" +
            frame["region"].astype(object).fillna("<null>").astype(str))


def test_last_equals_the_latest_non_null_rows(alltypes):
    got = tsread.last(alltypes, columns=["f_int32", "f_text"])
    rows = tsread.read_table(alltypes, columns=["region", "id", "f_int32", "f_text"])
    assert len(got) == 20
    rows["key"] = _keys(rows)
    for key, (_, g) in zip(_keys(got), got.iterrows()):
        sel = rows[rows["key"] == key]
        assert g["time"] == sel["time"].iloc[-1]
        for column in ("f_int32", "f_text"):
            v = sel[["time", column]].dropna()
            if len(v) == 0:  # the device has no value of the column
                assert pd.isna(g[column]) and pd.isna(g[f"{column}_time"])
                continue
            assert g[column] == v[column].iloc[-1]
            assert g[f"{column}_time"] == v["time"].iloc[-1]


def test_errors(alltypes):
    with pytest.raises(ValueError, match="no FIELD column"):
        tsread.aggregate(alltypes, columns=["region"])
    with pytest.raises(TypeError, match="aggregate"):
        tsread.aggregate(alltypes, colums=["f_int32"])
    with pytest.raises(ValueError, match="threads"):
        tsread.aggregate(alltypes, threads=0)


@pytest.mark.parametrize("bucket", ["10m", 3_600_000, pd.Timedelta(minutes=10)])
def test_by_table_in_buckets_equals_pandas_resampling_the_rows(alltypes, bucket):
    got = tsread.aggregate(alltypes, columns=["f_int32", "f_double"], by="table", bucket=bucket, time_as="int")
    rows = tsread.read_table(alltypes, columns=["f_int32", "f_double"], time_as="int")
    width = 600_000 if bucket != 3_600_000 else 3_600_000
    rows["bucket"] = rows["time"] // width * width
    want = rows.groupby("bucket")
    assert list(got.columns[:4]) == ["bucket", "rows", "first_time", "last_time"]
    assert list(got["bucket"]) == list(want.size().index)
    assert list(got["rows"]) == list(want.size())
    assert list(got["f_int32_count"]) == list(want["f_int32"].count())
    assert list(got["f_int32_sum"]) == list(want["f_int32"].sum())
    assert list(got["f_int32_max"]) == list(want["f_int32"].max())
    np.testing.assert_allclose(got["f_double_sum"], want["f_double"].sum(), rtol=1e-12)
    # avg: the mean of the non-null values, as pandas takes it.
    np.testing.assert_allclose(got["f_int32_avg"], np.asarray(want["f_int32"].mean(), dtype=float), rtol=1e-12)
    np.testing.assert_allclose(got["f_double_avg"], np.asarray(want["f_double"].mean(), dtype=float), rtol=1e-12)
    assert "f_boolean_avg" not in got and "f_text_avg" not in got
    assert list(got["first_time"]) == list(want["time"].min())


def test_by_device_in_buckets_and_the_counters(alltypes):
    got = tsread.aggregate(alltypes, columns=["f_int32"], bucket="1h", start=1700000500000)
    rows = tsread.read_table(alltypes, columns=["region", "id", "f_int32"], start=1700000500000, time_as="int")
    assert list(got.columns[:4]) == ["device", "region", "id", "bucket"]
    assert str(got["bucket"].dtype) == "datetime64[ns]"
    assert got["rows"].sum() == len(rows)
    assert len(got) == len(rows.groupby([_keys(rows), rows["time"] // 3_600_000]))
    assert got.attrs["pages"]["decoded"] > 0  # the range's start cuts pages
    whole = tsread.aggregate(alltypes, columns=["f_int32"])
    assert whole.attrs["pages"]["decoded"] == 0 and whole.attrs["chunks"]["from_statistics"] > 0


def test_bad_by_and_bucket(alltypes):
    with pytest.raises(ValueError, match="by must be"):
        tsread.aggregate(alltypes, by="region")
    for bad in ("10x", "-5m", 0, -1, pd.Timedelta(microseconds=1500)):
        with pytest.raises(ValueError, match="bucket"):
            tsread.aggregate(alltypes, bucket=bad)
    with pytest.raises(TypeError, match="bucket"):
        tsread.aggregate(alltypes, bucket=1.5)


def test_the_device_ids_column_never_takes_a_columns_name(tmp_path):
    """The benchmark table has a TAG named device: the id is `_device` and the tag keeps its values
    (aggregate and last replaced the id with the tag)."""
    path = generate_dataset(tmp_path / "bench.tsfile", "--devices", 3, "--rows", 20)
    for got in (tsread.aggregate(path, columns=["s_double"]), tsread.last(path, columns=["s_double"])):
        assert list(got.columns[:3]) == ["_device", "region", "device"]
        assert got["_device"].tolist() == ["sensors.region_0.dev_000", "sensors.region_0.dev_001",
                                           "sensors.region_0.dev_002"]
        assert got["device"].astype(str).tolist() == ["dev_000", "dev_001", "dev_002"]


def test_last_takes_a_window(fixtures):
    """last(start=, end=): each device's latest values inside the window, as read_table's rows say."""
    path = str(fixtures / "table_alltypes.tsfile")
    window = dict(start=1700000500000, end=1700003000000)
    got = tsread.last(path, columns=["f_int32"], time_as="int", **window)
    rows = tsread.read_table(path, columns=["region", "id", "f_int32"], time_as="int", **window)
    assert len(got) > 0
    for _, device in got.iterrows():
        def same(column):
            return rows[column].isna() if pd.isna(device[column]) else rows[column] == device[column]
        mine = rows[same("region") & same("id")]
        assert device["time"] == mine.time.max()
        values = mine.dropna(subset=["f_int32"])
        assert device["f_int32"] == values.f_int32.iloc[-1]
        assert device["f_int32_time"] == values.time.iloc[-1]


@pytest.mark.parametrize("stem", ["tree_aligned", "tree_nonaligned", "tree_depths"])
def test_tree_aggregates_equal_the_points(fixtures, stem):
    """aggregate_tree and last_tree per series against read_tree's points, whole and in a window."""
    path = str(fixtures / f"{stem}.tsfile")
    for window in ({}, {"start": 1700000300000, "end": 1700001500000}):
        points = tsread.read_tree(path, time_as="int", **window)
        grouped = points.groupby(["device", "measurement"], sort=True)
        got = tsread.aggregate_tree(path, time_as="int", **window)
        assert len(got) == grouped.ngroups
        for (_, row), ((device, measurement), series) in zip(got.iterrows(), grouped):
            assert (row.device, row.measurement) == (device, measurement)
            assert row["count"] == len(series)
            assert row.first_time == series.time.iloc[0] and row.last_time == series.time.iloc[-1]
            assert row["first"] == series.value.iloc[0] and row["last"] == series.value.iloc[-1]
            if row.data_type in ("INT32", "INT64", "DOUBLE"):
                assert row["min"] == min(series.value) and row["max"] == max(series.value)
        last = tsread.last_tree(path, time_as="int", **window)
        assert list(last.columns) == ["device", "measurement", "time", "value"]
        assert last.time.tolist() == got.last_time.tolist()
        assert last.value.tolist() == got["last"].tolist()
    one = tsread.aggregate_tree(path, devices=got.device.iloc[0], measurements=got.measurement.iloc[0])
    assert len(one) == 1
    with pytest.raises(ValueError, match="no tree-model data"):
        tsread.aggregate_tree(str(fixtures / "table_alltypes.tsfile"))


def test_buckets_start_at_an_origin(fixtures):
    """origin=: buckets [origin + k * width, ...), as IoTDB's GROUP BY ([start, end), step)."""
    path = str(fixtures / "table_alltypes.tsfile")
    origin, width = 1700000000123, 600000
    got = tsread.aggregate(path, by="table", bucket=width, origin=origin, time_as="int", columns=["f_int32"])
    rows = tsread.read_table(path, columns=["f_int32"], time_as="int")
    rows["bucket"] = (rows["time"] - origin) // width * width + origin
    want = rows.groupby("bucket")
    assert list(got["bucket"]) == list(want.size().index)
    assert list(got["rows"]) == list(want.size())
    assert list(got["f_int32_count"]) == list(want["f_int32"].count())
    with pytest.raises(ValueError, match="origin needs bucket"):
        tsread.aggregate(path, origin=origin)


def test_empty_buckets_are_filled(fixtures):
    """fill_empty=True: every bucket from start to end, those without rows with rows 0."""
    path = str(fixtures / "table_alltypes.tsfile")
    window = dict(start=1699980000000, end=1700020000000)
    got = tsread.aggregate(path, by="table", bucket="1h", origin=1700000000000, fill_empty=True, time_as="int",
                           columns=["f_int32"], **window)
    assert list(got["bucket"]) == [1700000000000 + k * 3600000 for k in range(-6, 6)]
    plain = tsread.aggregate(path, by="table", bucket="1h", origin=1700000000000, time_as="int", columns=["f_int32"],
                             **window)
    assert got["rows"].sum() == plain["rows"].sum()
    empty = got[got["rows"] == 0]
    assert len(empty) == len(got) - len(plain)
    assert (empty["f_int32_count"] == 0).all() and empty["first_time"].isna().all()
    with pytest.raises(ValueError, match="fill_empty needs bucket"):
        tsread.aggregate(path, fill_empty=True)


def test_calendar_buckets(alltypes):
    """Weeks from Monday, months from the first, days from local midnight in time_zone: against
    pandas' own calendar arithmetic on read_table's times."""
    rows = tsread.read_table(alltypes, columns=["f_int32"], time_as="int")
    utc = pd.to_datetime(rows["time"], unit="ms", utc=True)
    for bucket, zone, starts in [
        ("1w", None, (utc.dt.tz_localize(None).dt.to_period("W-SUN").dt.start_time).dt.tz_localize("UTC")),
        ("1mo", None, (utc.dt.tz_localize(None).dt.to_period("M").dt.start_time).dt.tz_localize("UTC")),
        ("1d", "Europe/Berlin", utc.dt.tz_convert("Europe/Berlin").dt.normalize()),
    ]:
        want = starts.map(lambda t: t.value // 1_000_000).value_counts().sort_index()
        got = tsread.aggregate(alltypes, columns=["f_int32"], by="table", bucket=bucket, time_zone=zone, time_as="int")
        assert got["bucket"].tolist() == want.index.tolist(), bucket
        assert got["rows"].tolist() == want.tolist(), bucket
    with pytest.raises(ValueError, match="time_zone applies to calendar buckets"):
        tsread.aggregate(alltypes, bucket="1h", time_zone="UTC")
    with pytest.raises(ValueError, match="unknown time zone"):
        tsread.aggregate(alltypes, bucket="1d", time_zone="Mars/Base")
