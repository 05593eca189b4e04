"""read_table options (projection, time range, tags, threads, dtypes), iter_batches, open()."""

import datetime as dt

import numpy as np
import pandas as pd
import pytest

import tsread
import tsread.dask
from conftest import generate_dataset


@pytest.fixture(scope="module")
def alltypes(fixtures):
    return fixtures / "table_alltypes.tsfile"


@pytest.fixture(scope="module")
def full(alltypes):
    return tsread.read_table(alltypes)


def test_dtypes(full):
    d = full.dtypes
    assert str(d["time"]).startswith("datetime64")
    assert isinstance(d["region"], pd.CategoricalDtype)
    assert str(d["f_int32"]) == "Int32" and str(d["f_int64"]) == "Int64" and str(d["f_boolean"]) == "boolean"
    assert d["f_float"] == np.float32 and d["f_double"] == np.float64
    assert str(d["f_date"]).startswith("datetime64")
    text = full["f_text"].dropna()
    assert all(isinstance(v, str) for v in text)
    assert all(isinstance(v, bytes) for v in full["f_blob"].dropna())
    assert full["f_text"].isna().any()


def test_plain_dtypes_without_nulls(fixtures):
    df = tsread.read_table(fixtures / "table_comp_LZ4.tsfile")
    for name, dtype in df.dtypes.items():
        if name != "time" and not isinstance(dtype, pd.CategoricalDtype) and dtype != object:
            if df[name].notna().all():
                assert isinstance(dtype, np.dtype), (name, dtype)


def test_projection(alltypes, full):
    df = tsread.read_table(alltypes, columns=["f_double", "id"])
    assert list(df.columns) == ["time", "f_double", "id"]
    pd.testing.assert_series_equal(df["f_double"], full["f_double"])
    pd.testing.assert_series_equal(df["id"], full["id"])


@pytest.mark.parametrize("kind", ["int", "datetime", "datetime64", "timestamp", "str"])
def test_time_range(alltypes, full, kind):
    t = full["time"].astype("int64") // 1_000_000
    lo, hi = int(t.quantile(0.25)), int(t.quantile(0.5))
    as_kind = {
        "int": lambda ms: ms,
        "datetime": lambda ms: dt.datetime(1970, 1, 1) + dt.timedelta(milliseconds=ms),
        "datetime64": lambda ms: np.datetime64(ms, "ms"),
        "timestamp": lambda ms: pd.Timestamp(ms, unit="ms"),
        "str": lambda ms: str(np.datetime64(ms, "ms")),
    }[kind]
    df = tsread.read_table(alltypes, start=as_kind(lo), end=as_kind(hi))
    expected = full[(t >= lo) & (t <= hi)].reset_index(drop=True)
    pd.testing.assert_frame_equal(df, expected, check_dtype=False, check_categorical=False)


def test_tags(alltypes, full):
    ids = sorted(full["id"].dropna().unique())[:2]
    df = tsread.read_table(alltypes, tags={"id": ids})
    expected = full[full["id"].isin(ids)].reset_index(drop=True)
    pd.testing.assert_frame_equal(df, expected, check_dtype=False, check_categorical=False)
    one = tsread.read_table(alltypes, tags={"id": ids[0]})
    assert set(one["id"].unique()) == {ids[0]}
    nulls = tsread.read_table(alltypes, tags={"region": None})
    assert len(nulls) == full["region"].isna().sum()


def test_threads_equal_one_thread(alltypes, full):
    pd.testing.assert_frame_equal(tsread.read_table(alltypes, threads=3), full)


def _batches_read(path, **kwargs):
    """What the batch-by-batch reader (iter_batches, not read_table's planned read) gathers."""
    return pd.concat(list(tsread.iter_batches(path, batch_rows=1 << 30, **kwargs)), ignore_index=True)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("filters", ["none", "time", "tags", "time_and_tags"])
def test_planned_read_equals_batches_on_datasets(fixtures, threads, filters):
    """read_table writes each split's rows at offsets planned from the metadata: across files,
    with several threads and with a time range (slices left short, then closed up) it must give
    exactly what reading batch by batch gives, categories in the same order."""
    path = str(fixtures / "table_comp_*.tsfile")
    kwargs = {}
    if filters in ("time", "time_and_tags"):
        t = tsread.read_table(path, columns=[], time_as="int")["time"]
        kwargs.update(start=int(t.quantile(0.2)), end=int(t.quantile(0.7)))
    if filters in ("tags", "time_and_tags"):
        schema = tsread.open(path).schema()
        tag = next(c["name"] for c in schema if c["category"] == "TAG")
        values = sorted(tsread.read_table(path, columns=[tag])[tag].dropna().unique())
        kwargs.update(tags={tag: values[1::2]})
    expected = _batches_read(path, **kwargs)
    assert 0 < len(expected) < len(_batches_read(path)) or filters == "none"
    pd.testing.assert_frame_equal(tsread.read_table(path, threads=threads, **kwargs), expected)


def test_planned_read_nulls_and_binary(alltypes, full):
    """Null masks, NaN floats, str/bytes objects and null tags through the planned read."""
    start = int(full["time"].quantile(0.4).value // 1_000_000)
    for kwargs in ({"start": start}, {"nullable": "always", "nullable_float": True, "time_as": "int"}):
        pd.testing.assert_frame_equal(tsread.read_table(alltypes, threads=2, **kwargs), _batches_read(alltypes, **kwargs))


def test_devices_are_the_tag_combinations_read(fixtures):
    f = tsread.open(fixtures / "table_multi.tsfile")
    schema = f.schema("tbl_c")
    tags = [c["name"] for c in schema if c["category"] == "TAG"]
    df = tsread.read_table(f, table="tbl_c", columns=tags)
    read = {tuple(None if pd.isna(v) else v for v in row) for row in df[tags].itertuples(index=False)}
    devices = f.devices("tbl_c")
    assert len(devices) == len(read)
    assert {tuple(d[t] for t in tags) for d in devices} == read


@pytest.mark.parametrize("batch_rows", [1, 777, 4096, 1 << 20])
def test_iter_batches_concat_equals_read_table(fixtures, batch_rows):
    path = fixtures / ("table_comp_LZ4.tsfile" if batch_rows == 1 else "table_alltypes.tsfile")
    full = tsread.read_table(path, time_as="int", nullable="always")
    batches = list(tsread.iter_batches(path, batch_rows=batch_rows, time_as="int", nullable="always"))
    assert all(len(b) <= batch_rows for b in batches)
    df = pd.concat(batches, ignore_index=True)
    for name in full.columns:
        if isinstance(full[name].dtype, pd.CategoricalDtype):
            df[name] = df[name].astype(object)
            full[name] = full[name].astype(object)
    pd.testing.assert_frame_equal(df, full)


def test_open_metadata(fixtures):
    f = tsread.open(fixtures / "table_multi.tsfile")
    assert f.tables == ["tbl_a", "tbl_b", "tbl_c"]
    schema = f.schema("tbl_c")
    assert [c["category"] for c in schema].count("TAG") == 3
    devices = f.devices("tbl_c")
    assert devices and set(devices[0]) == {c["name"] for c in schema if c["category"] == "TAG"}
    info = f.info()
    assert info["files"][0]["version"] == 4
    assert info["tables"]["tbl_a"]["rows"] == len(tsread.read_table(f, table="tbl_a"))


def test_dataset_glob(fixtures):
    paths = sorted(fixtures.glob("table_comp_*.tsfile"))
    df = tsread.read_table(str(fixtures / "table_comp_*.tsfile"))
    parts = [tsread.read_table(p) for p in paths]
    assert len(df) == sum(len(p) for p in parts)
    assert tsread.open([str(p) for p in paths]).files == [str(p) for p in paths]


def test_date_as_date(alltypes, full):
    df = tsread.read_table(alltypes, columns=["f_date"], date_as="date")
    values = df["f_date"].dropna()
    assert all(isinstance(v, dt.date) for v in values)
    assert [pd.Timestamp(v) for v in values[:5]] == list(full["f_date"].dropna()[:5])


def test_unknown_table_or_column(alltypes):
    with pytest.raises(ValueError):
        tsread.read_table(alltypes, table="nope")
    with pytest.raises(ValueError):
        tsread.read_table(alltypes, columns=["nope"])


def test_gil_released_during_read(fixtures):
    """Two threads reading at once both finish with the right rows (the scan drops the GIL)."""
    import threading

    path = fixtures / "table_alltypes.tsfile"
    expected = len(tsread.read_table(path, columns=["f_int32"]))
    results = []
    threads = [threading.Thread(target=lambda: results.append(len(tsread.read_table(path)))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


def test_tree_dataset_long_form(fixtures):
    df = tsread.read_tree([fixtures / "tree_aligned.tsfile", fixtures / "tree_nonaligned.tsfile"])
    assert list(df.columns) == ["device", "measurement", "time", "value"]
    assert len(df) == len(tsread.read_tree(fixtures / "tree_aligned.tsfile")) + len(
        tsread.read_tree(fixtures / "tree_nonaligned.tsfile"))


def _uvarint(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        if not n:
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


def _with_time_count(src, dst, delta):
    """A copy of src whose first device's time column statistics (count varint, then start and end
    time as big-endian int64, format reference §4-5) announce `delta` more rows than it holds."""
    import struct

    df = tsread.read_table(src, time_as="int")
    tags = [c["name"] for c in tsread.open(src).schema() if c["category"] == "TAG"]
    data = bytearray(src.read_bytes())
    for _key, row in df.groupby(tags, dropna=False, observed=True)["time"].agg(["count", "min", "max"]).iterrows():
        count = int(row["count"])
        old = _uvarint(count) + struct.pack(">qq", int(row["min"]), int(row["max"]))
        new = _uvarint(count + delta) + old[len(_uvarint(count)):]
        at = data.find(old)
        if at >= 0 and data.find(old, at + 1) < 0 and len(new) == len(old):
            data[at:at + len(old)] = new
            dst.write_bytes(bytes(data))
            return
    pytest.skip("no device statistics found to alter")


@pytest.mark.parametrize("delta", [-1, 1])
@pytest.mark.parametrize("threads", [1, 2])
def test_metadata_row_counts_that_lie(fixtures, tmp_path, delta, threads):
    """read_table plans from the metadata's row counts: a file announcing one row fewer than a
    device holds falls back to reading batch by batch, one announcing more closes the gap; both
    give exactly the rows the pages hold."""
    src = fixtures / "table_comp_LZ4.tsfile"
    lying = tmp_path / "lying.tsfile"
    _with_time_count(src, lying, delta)
    announced = sum(s["rows"] for s in tsread.dask.splits(str(lying), split_bytes=1))
    expected = tsread.read_table(src)
    assert announced == len(expected) + delta
    pd.testing.assert_frame_equal(tsread.read_table(lying, threads=threads), expected)


@pytest.mark.parametrize("threads", [1, 3])
def test_planned_read_of_many_files(tmp_path, threads):
    """Past the first files, a file's scan is planned again when its first split is read (few files
    open at once); the rows are the same, nulls included."""
    path = generate_dataset(tmp_path / "many", "--files", 24, "--devices", 4, "--rows", 480, "--page-points", 50,
                            "--null-ratio", 0.2)
    assert len(tsread.open(path).files) == 24
    pd.testing.assert_frame_equal(tsread.read_table(path, threads=threads), _batches_read(path))
    t = tsread.read_table(path, columns=[], time_as="int")["time"]
    kwargs = {"start": int(t.quantile(0.4)), "end": int(t.quantile(0.9)), "nullable": "always"}
    pd.testing.assert_frame_equal(tsread.read_table(path, threads=threads, **kwargs), _batches_read(path, **kwargs))


@pytest.mark.parametrize("devices", [3, 200])
def test_tag_codes_have_pandas_own_width(tmp_path, devices):
    """TAG codes come as pandas itself would store them for that many categories (int8 below 127,
    int16 below 32767): wider codes make pandas convert them in every groupby."""
    import tsread.dask

    path = generate_dataset(tmp_path / "d", "--files", 2, "--devices", devices, "--rows", 50)
    whole = tsread.read_table(path)
    # Dask partitions of whole files, and of a few devices each (codes written at the width for
    # the split's devices, then narrowed to the width for the categories that occurred).
    per_file = max(tsread.dask.splits(f, split_bytes=1 << 40)[0]["bytes"] for f in tsread.open(path).files)
    partitions = [ddf.get_partition(i).compute(scheduler="sync")
                  for ddf in (tsread.dask.read_tsfile(path, split_bytes=per_file), tsread.dask.read_tsfile(path, split_bytes=1))
                  for i in range(ddf.npartitions)]
    assert len(partitions) > 2
    for df in [whole, tsread.read_table(path, threads=2), *tsread.iter_batches(path, batch_rows=64), *partitions]:
        for tag in ("region", "device"):
            codes = df[tag].cat.codes
            canonical = pd.Categorical.from_codes(codes.to_numpy(dtype=np.int64), dtype=df[tag].dtype).codes
            assert codes.dtype == canonical.dtype, tag
    assert whole["device"].cat.codes.dtype == (np.int8 if devices < 127 else np.int16)
    for tag in ("region", "device"):
        want = list(whole[tag].astype(object))
        assert sum((list(p[tag].astype(object)) for p in partitions[:2]), []) == want, tag  # whole files
        assert sum((list(p[tag].astype(object)) for p in partitions[2:]), []) == want, tag  # a few devices each


def test_read_tree_selects_and_gives_time_like_read_table(fixtures):
    path = fixtures / "tree_nonaligned.tsfile"
    every = tsread.read_tree(path, time_as="int")
    assert str(tsread.read_tree(path)["time"].dtype) == "datetime64[ns]"
    assert list(tsread.read_tree(path)["time"].astype("int64") // 1_000_000) == list(every["time"])
    device = every["device"].iloc[-1]
    measurement = every["measurement"].iloc[-1]
    times = every["time"]
    lo, hi = int(times.quantile(0.25)), int(times.quantile(0.75))
    got = tsread.read_tree(path, start=lo, end=hi, devices=device, measurements=[measurement], time_as="int")
    want = every[(every["device"] == device) & (every["measurement"] == measurement) & (times >= lo) & (times <= hi)]
    assert len(want) > 0
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True))
    assert len(tsread.read_tree(path, devices="root.no.such.device")) == 0


def test_read_tree_of_a_table_model_file_is_an_error(fixtures):
    with pytest.raises(ValueError, match="no tree-model data.*read_table"):
        tsread.read_tree(fixtures / "table_alltypes.tsfile")


def test_digit_strings_are_times_in_the_files_unit(fixtures):
    """start='1700003000000' is a number of ms, as in the CLI and SQL (numpy read it as a year)."""
    path = str(fixtures / "table_alltypes.tsfile")
    by_int = tsread.read_table(path, start=1700003000000, end=1700005000000, time_as="int")
    assert len(by_int) > 0
    by_text = tsread.read_table(path, start="1700003000000", end=" 1700005000000 ", time_as="int")
    assert by_text.time.tolist() == by_int.time.tolist()
    assert by_text.time.min() >= 1700003000000 and by_text.time.max() <= 1700005000000
    # ISO text is still a date.
    assert len(tsread.read_table(path, start="2023-11-14T22:13:20", time_as="int")) > 0


def test_a_table_without_rows_reads_empty_with_its_schema(tmp_path):
    """A table in the file's schema without a device: empty results with the schema's dtypes."""
    path = generate_dataset(tmp_path / "empty.tsfile", "--devices", 0)
    with tsread.open(path) as f:
        assert f.tables == ["sensors"]
        assert f.devices("sensors") == []
    df = tsread.read_table(path)
    assert len(df) == 0
    assert list(df.columns) == ["time", "region", "device", "s_int64", "s_double", "s_float", "s_int32", "s_bool"]
    assert str(df.s_double.dtype) == "float64"
    assert len(tsread.read_table(path, filters=[("s_double", ">", 1)])) == 0
    assert sum(len(b) for b in tsread.iter_batches(path, batch_rows=10)) == 0
    assert len(tsread.dask.read_tsfile(path).compute()) == 0


@pytest.mark.parametrize("call", ["read_table", "iter_batches", "aggregate", "dask", "read_tree"])
def test_a_start_after_the_end_is_an_error(fixtures, call):
    """The CLI's and SQL's rule: a mistake, not an empty result."""
    table = str(fixtures / "table_alltypes.tsfile")
    window = dict(start=1700000600001, end=1700000600000)
    with pytest.raises(ValueError, match="after end"):
        if call == "read_table":
            tsread.read_table(table, **window)
        elif call == "iter_batches":
            list(tsread.iter_batches(table, **window))
        elif call == "aggregate":
            tsread.aggregate(table, **window)
        elif call == "dask":
            tsread.dask.read_tsfile(table, **window)
        else:
            tsread.read_tree(str(fixtures / "tree_aligned.tsfile"), **window)
