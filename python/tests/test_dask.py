"""tsread.dask.read_tsfile: one partition per serialized split, read in worker processes."""

import numpy as np
import pandas as pd
import pytest

import tsread
import tsread.dask
from conftest import generate_dataset


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as c:
            yield c


@pytest.fixture(scope="module")
def comp_glob(fixtures):
    return str(fixtures / "table_comp_*.tsfile")


def test_partitions_and_meta(comp_glob):
    ddf = tsread.dask.read_tsfile(comp_glob, split_bytes=1)
    assert ddf.npartitions > len(tsread.open(comp_glob).files)  # several splits per file
    full = tsread.read_table(comp_glob)
    assert list(ddf.columns) == list(full.columns)
    for name in full.columns:  # read_table's dtypes (categories unknown to dask until computed)
        if isinstance(full[name].dtype, pd.CategoricalDtype):
            assert isinstance(ddf._meta[name].dtype, pd.CategoricalDtype), name
        else:
            assert ddf._meta[name].dtype == full[name].dtype, name


def test_equals_pandas_on_local_cluster(client, comp_glob):
    ddf = tsread.dask.read_tsfile(comp_glob, split_bytes=4096)
    result = ddf.compute()
    full = tsread.read_table(comp_glob)
    assert len(result) == len(full)
    for name in full.columns:
        if isinstance(full[name].dtype, pd.CategoricalDtype):
            result[name] = result[name].astype(object)
            full[name] = full[name].astype(object)
    pd.testing.assert_frame_equal(result.reset_index(drop=True), full)


def test_groupby_mean_equals_pandas(client, comp_glob):
    schema = tsread.open(comp_glob).schema()
    tag = next(c["name"] for c in schema if c["category"] == "TAG")
    field = next(c["name"] for c in schema if c["type"] == "DOUBLE")
    ddf = tsread.dask.read_tsfile(comp_glob, columns=[tag, field], split_bytes=4096)
    got = ddf.groupby(tag, observed=True)[field].mean().compute().sort_index()
    df = tsread.read_table(comp_glob, columns=[tag, field])
    want = df.groupby(tag, observed=True)[field].mean().sort_index()
    got.index = got.index.astype(object)
    want.index = want.index.astype(object)
    np.testing.assert_allclose(got.to_numpy(), want.to_numpy(), rtol=1e-12)
    assert list(got.index) == list(want.index)


def test_filters_pass_through(client, comp_glob):
    full = tsread.read_table(comp_glob, time_as="int")
    lo, hi = int(full["time"].quantile(0.3)), int(full["time"].quantile(0.6))
    ddf = tsread.dask.read_tsfile(comp_glob, start=lo, end=hi, time_as="int", split_bytes=4096)
    assert len(ddf.compute()) == int(((full["time"] >= lo) & (full["time"] <= hi)).sum())


@pytest.fixture(scope="module")
def time_sliced(tmp_path_factory):
    """Three files, each a consecutive time slice of the same 6 devices (tsread gen --files)."""
    out = tmp_path_factory.mktemp("sliced") / "data"
    return generate_dataset(out, "--files", 3, "--devices", 6, "--rows", 900, "--page-points", 100, "--null-ratio", 0.1)


def _objects(frame):
    for name in frame.columns:
        if isinstance(frame[name].dtype, pd.CategoricalDtype):
            frame[name] = frame[name].astype(object)
    return frame


def _per_file(paths):
    """A split_bytes that makes one partition of each file (files of about equal size): the
    largest file's projected chunk bytes."""
    return max(tsread.dask.splits(f, split_bytes=1 << 40)[0]["bytes"] for f in tsread.open(paths).files)


def test_splits_announce_rows_and_time_ranges(time_sliced):
    parts = tsread.dask.splits(time_sliced, split_bytes=_per_file(time_sliced))
    files = tsread.open(time_sliced).files
    assert [p["files"] for p in parts] == [[f] for f in files]
    for part in parts:
        df = tsread.read_table(part["file"], time_as="int")
        assert part["rows"] == len(df)
        assert (part["start_time"], part["end_time"]) == (df["time"].min(), df["time"].max())
    fine = tsread.dask.splits(time_sliced, split_bytes=1)
    assert len(fine) > len(parts) and sum(p["rows"] for p in fine) == sum(p["rows"] for p in parts)


def test_time_index_known_divisions(client, time_sliced):
    ddf = tsread.dask.read_tsfile(time_sliced, index="time", split_bytes=_per_file(time_sliced))
    parts = tsread.dask.splits(time_sliced, split_bytes=_per_file(time_sliced))
    assert ddf.known_divisions and ddf.npartitions == 3
    assert ddf.divisions == tuple(pd.Timestamp(p["start_time"], unit="ms") for p in parts) + (
        pd.Timestamp(parts[-1]["end_time"], unit="ms"),)
    full = tsread.read_table(time_sliced)
    want = _objects(full.set_index("time").sort_index(kind="stable"))
    pd.testing.assert_frame_equal(_objects(ddf.compute()), want)
    lo, hi = want.index[len(want) // 3 - 5], want.index[2 * len(want) // 3 + 5]
    pd.testing.assert_frame_equal(_objects(ddf.loc[lo:hi].compute()), want.loc[lo:hi])


def test_overlapping_splits_leave_divisions_unknown(time_sliced):
    ddf = tsread.dask.read_tsfile(time_sliced, index="time", split_bytes=1)
    assert ddf.npartitions > 3 and not ddf.known_divisions
    assert ddf.index.name == "time"


def test_start_end_prune_partitions(client, time_sliced):
    parts = tsread.dask.splits(time_sliced, split_bytes=_per_file(time_sliced))
    start, end = parts[1]["start_time"] + 10_000, parts[1]["end_time"] - 10_000
    ddf = tsread.dask.read_tsfile(time_sliced, start=start, end=end, index="time", time_as="int",
                                  split_bytes=_per_file(time_sliced))
    assert ddf.npartitions == 1 and ddf.divisions == (start, end)
    full = tsread.read_table(time_sliced, time_as="int")
    full["time"] = full["time"].astype("int64")  # an index of plain int64 ms
    want = full[(full["time"] >= start) & (full["time"] <= end)].set_index("time").sort_index(kind="stable")
    pd.testing.assert_frame_equal(_objects(ddf.compute()), _objects(want))


@pytest.mark.parametrize("hint", ["none", "half", "exact", "double", "absurd"])
def test_rows_hint_is_only_a_hint(comp_glob, hint):
    """A partition sizes its columns from the rows its split announced; fewer, more or absurdly many
    announced rows read the same values (an absurd hint is capped by the file's size)."""
    from tsread import _tsread

    for split, rows in [(s[0], s[2]) for s in tsread.dask._plan(comp_glob, None, None, None, None, None, 4096)[2]]:
        given = {"none": 0, "half": rows // 2, "exact": rows, "double": 2 * rows, "absurd": 1 << 62}[hint]
        want = _tsread.read_split(split, float_nan=True, time_ns=True)
        got = _tsread.read_split(split, float_nan=True, time_ns=True, rows_hint=given)
        assert [c["name"] for c in got] == [c["name"] for c in want]
        for g, w in zip(got, want):
            assert g["values"].dtype == w["values"].dtype
            np.testing.assert_array_equal(g["values"], w["values"])
            assert ("mask" in g) == ("mask" in w)


class _RecordedReads:
    """Runs a collection in this process (dask's synchronous scheduler) and records the columns each
    partition's read asked the C++ reader for."""

    def __init__(self, monkeypatch):
        from tsread import _tsread

        self.calls = []
        read_split = _tsread.read_split

        def recording(split, **kwargs):
            self.calls.append((tuple(kwargs["columns"]), kwargs["with_time"]))
            return read_split(split, **kwargs)

        monkeypatch.setattr(_tsread, "read_split", recording)

    def compute(self, collection):
        return collection.compute(scheduler="sync")


SYNC_WITH_CLIENT = "ignore:Running on a single-machine scheduler"  # the module's cluster may be up: fine here


@pytest.mark.filterwarnings(SYNC_WITH_CLIENT)
@pytest.mark.parametrize("pick", [["s_double"], ["s_double", "device"], ["s_int64", "time"], ["time"]])
def test_column_selection_reads_only_those_columns(monkeypatch, time_sliced, pick):
    """Dask's column projection reaches the read: a selection reads only its columns, the time column
    only when selected (a time-only selection reads a TAG column, which costs no chunks); values,
    order and dtypes as selected."""
    ddf = tsread.dask.read_tsfile(time_sliced, split_bytes=4096)
    assert "time" in ddf.columns and len(ddf.columns) > 4
    selected = ddf[pick]
    reads = _RecordedReads(monkeypatch)
    got = reads.compute(selected)
    values = tuple(sorted(c for c in pick if c != "time")) or ("region",)
    assert len(reads.calls) == ddf.npartitions
    assert {(tuple(sorted(columns)), with_time) for columns, with_time in reads.calls} == {(values, "time" in pick)}
    assert list(got.columns) == pick
    assert [str(d) for d in got.dtypes] == [str(d) for d in selected._meta.dtypes]  # categories: unknown in meta
    want = tsread.read_table(time_sliced)[pick]
    pd.testing.assert_frame_equal(_objects(got.reset_index(drop=True)), _objects(want))


@pytest.mark.filterwarnings(SYNC_WITH_CLIENT)
def test_groupby_reads_only_its_key_and_value(monkeypatch, time_sliced):
    ddf = tsread.dask.read_tsfile(time_sliced, split_bytes=4096)
    mean = ddf.groupby("device", observed=True)["s_double"].mean()
    reads = _RecordedReads(monkeypatch)
    got = reads.compute(mean).sort_index()
    assert {(tuple(sorted(columns)), with_time) for columns, with_time in reads.calls} == {(("device", "s_double"), False)}
    df = tsread.read_table(time_sliced)
    want = df.groupby("device", observed=True)["s_double"].mean().sort_index()
    assert list(got.index.astype(object)) == list(want.index.astype(object))
    np.testing.assert_allclose(got.to_numpy(), want.to_numpy(), rtol=1e-12)


def test_column_selection_keeps_the_time_index(client, time_sliced):
    ddf = tsread.dask.read_tsfile(time_sliced, index="time", split_bytes=_per_file(time_sliced))
    got = ddf[["s_double"]].compute()
    full = tsread.read_table(time_sliced)
    want = full.set_index("time").sort_index(kind="stable")[["s_double"]]
    pd.testing.assert_frame_equal(got, want)


def test_read_split_rejects_a_column_it_does_not_project(comp_glob):
    from tsread import _tsread

    split = tsread.dask._plan(comp_glob, None, None, None, None, None, 4096)[2][0][0]
    schema = [c["name"] for c in tsread.open(comp_glob).schema()]
    narrowed = _tsread.read_split(split, float_nan=True, time_ns=True, columns=[schema[-1]], with_time=False)
    assert [c["name"] for c in narrowed] == [schema[-1]]
    with pytest.raises(ValueError, match="not one the split projects"):
        _tsread.read_split(split, float_nan=True, time_ns=True, columns=["no_such_column"])
    planned = tsread.dask._plan(comp_glob, None, [schema[-1]], None, None, None, 4096)[2][0][0]
    with pytest.raises(ValueError, match="not one the split projects"):
        _tsread.read_split(planned, float_nan=True, time_ns=True, columns=[schema[0]])


def test_partitions_are_sized_by_split_bytes_both_ways(time_sliced, tmp_path):
    files = tsread.open(time_sliced).files
    whole = tsread.dask.splits(time_sliced, split_bytes=1 << 40)
    assert len(whole) == 1 and whole[0]["files"] == files  # small files grouped
    assert whole[0]["rows"] == len(tsread.read_table(time_sliced))
    fine = tsread.dask.splits(files[0], split_bytes=1)
    assert len(fine) > 1 and all(p["files"] == [files[0]] for p in fine)  # a file cut by devices
    ddf = tsread.dask.read_tsfile(time_sliced, split_bytes=1 << 40)
    assert ddf.npartitions == 1
    pd.testing.assert_frame_equal(_objects(ddf.compute().reset_index(drop=True)), _objects(tsread.read_table(time_sliced)))


def test_the_benchmark_file_makes_several_partitions_by_default(fixtures):
    bench = fixtures.parent / "bench" / "table_large.tsfile"
    if not bench.exists():
        pytest.skip(f"{bench} (the benchmark file) is missing")
    parts = tsread.dask.splits(str(bench))
    assert len(parts) >= 2 and sum(p["rows"] for p in parts) == 3_200_000


def test_splits_hold_absolute_paths(time_sliced, monkeypatch):
    import os

    directory, name = os.path.split(tsread.open(time_sliced).files[0])
    monkeypatch.chdir(directory)
    ddf = tsread.dask.read_tsfile(name)
    assert tsread.dask.splits(name)[0]["file"] == os.path.join(directory, name)
    monkeypatch.chdir("/")  # a worker elsewhere
    assert len(ddf.compute(scheduler="sync")) == len(tsread.read_table(os.path.join(directory, name)))
