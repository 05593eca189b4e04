"""IoTDB data directories through Python: the visible fixture read as IoTDB answers (its expected
CSVs), as written with raw=True, and the same rows through every reader (Dask partitions too)."""

import csv
import warnings

import pandas as pd
import pytest

import tsread
import tsread.dask


@pytest.fixture(scope="module")
def datadir(fixtures):
    return fixtures / "iotdb_datadir"


def _csv_rows(path):
    with open(path, newline="") as f:
        return [tuple(row) for row in csv.reader(f)][1:]


def _table_rows(frame):
    out = []
    for r in frame.itertuples(index=False):
        time = r.time if isinstance(r.time, int) else int(pd.Timestamp(r.time).value // 1_000_000)
        s1 = "" if pd.isna(r.s1) else str(int(r.s1))
        s2 = "" if pd.isna(r.s2) else repr(float(r.s2))
        out.append((str(time), r.tag1, "" if pd.isna(r.tag2) else r.tag2, s1, s2))
    return sorted(out)


def _expected_table(path):
    return sorted((t, a, b, s1, "" if s2 == "" else repr(float(s2))) for t, a, b, s1, s2 in _csv_rows(path))


def test_read_table_is_what_iotdb_answers(datadir):
    data = str(datadir / "data")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # deletions applied: nothing to warn of
        frame = tsread.read_table(data, time_as="int")
    assert _table_rows(frame) == _expected_table(datadir / "expected" / "t.csv")
    batches = pd.concat(list(tsread.iter_batches(data, batch_rows=2, time_as="int")), ignore_index=True)
    assert _table_rows(batches) == _table_rows(frame)
    with pytest.warns(UserWarning, match="does not apply them"):
        raw = tsread.read_table(data, time_as="int", raw=True)
    assert _table_rows(raw) == _expected_table(datadir / "raw" / "t.csv")


def test_filters_apply_to_the_merged_rows(datadir):
    data = str(datadir / "data")
    # The sequence file's s1 = 3 at T0+2 was replaced by the unsequence file's 30.
    assert len(tsread.read_table(data, filters=[("s1", "==", 3)])) == 0
    assert list(tsread.read_table(data, filters=[("s1", ">", 20)])["s1"]) == [30]


def test_read_tree_is_what_iotdb_answers(datadir):
    frame = tsread.read_tree(str(datadir / "data"), time_as="int")
    got = sorted((r.device, r.measurement, str(r.time), repr(r.value) if isinstance(r.value, float) else str(r.value))
                 for r in frame.itertuples(index=False))
    expected = sorted((d, m, t, repr(float(v)) if "." in v else v) for d, m, t, v in
                      _csv_rows(datadir / "expected" / "tree.csv"))
    assert got == expected
    assert len(tsread.read_tree(str(datadir / "data"), raw=True)) == 9


def test_aggregates_answer_from_the_merged_rows(datadir):
    data = str(datadir / "data")
    agg = tsread.aggregate(data, columns=["s1"]).set_index("tag1")
    assert agg.loc["a", "s1_sum"] == 37 and agg.loc["a", "rows"] == 4
    assert agg.loc["b", "rows"] == 1
    assert tsread.aggregate(data, columns=["s1"], raw=True).set_index("tag1").loc["b", "rows"] == 2
    # On threads (each time partition's devices in shares): the same frame, devices in the same order.
    pd.testing.assert_frame_equal(tsread.aggregate(data, columns=["s1"], threads=3).set_index("tag1"), agg)
    last = tsread.last(data).set_index("tag1")
    assert last.loc["a", "s1"] == 4 and last.loc["b", "s2"] == 10.5
    tree = tsread.last_tree(data).set_index(["device", "measurement"])
    assert tree.loc[("root.sg1.d1", "s1"), "value"] == 30
    counts = tsread.aggregate_tree(data).set_index(["device", "measurement"])
    assert counts.loc[("root.sg1.d1", "s1"), "count"] == 2


def test_dask_partitions_equal_read_table(datadir):
    data = str(datadir / "data")
    ddf = tsread.dask.read_tsfile(data, time_as="int")
    assert _table_rows(ddf.compute(scheduler="sync")) == _table_rows(tsread.read_table(data, time_as="int"))
    only_s1 = tsread.dask.read_tsfile(data, columns=["s1"], time_as="int").compute(scheduler="sync")
    assert sorted(only_s1["s1"]) == [1, 2, 4, 10, 30]


def test_info_and_database(datadir):
    data = str(datadir / "data")
    with tsread.open(data) as f:
        assert f.is_iotdb
        spaces = sorted((x["iotdb"]["database"], x["iotdb"]["space"], x["iotdb"]["deletions"] is not None)
                        for x in f.info()["files"])
    assert spaces == [("db1", "sequence", True), ("db1", "unsequence", False),
                      ("root.sg1", "sequence", True), ("root.sg1", "unsequence", False)]
    assert not tsread.open(data, raw=True).is_iotdb
    assert len(tsread.read_tree(data, database="root.sg1")) == 4
    with pytest.raises(ValueError, match="no such database"):
        tsread.read_table(data, database="nope")
    with pytest.raises(ValueError, match="has no table"):
        tsread.read_table(data, database="root.sg1")
    with pytest.raises(ValueError, match="raw"):
        tsread.read_table(data, raw=True, database="db1")


def test_unsealed_files_are_read_in_place(datadir, tmp_path):
    """A crashed server's files (no tail, no .resource): the fixture's unsequence files cut just
    after their data sections read as IoTDB answers, with a warning naming each."""
    import shutil
    data = tmp_path / "data"
    shutil.copytree(datadir / "data", data)
    cut = []
    # Each file's SEPARATOR (end of its data section), as `tsread sketch` shows it.
    for database, separator in (("db1/1", 113), ("root.sg1/2", 156)):
        path = data / "unsequence" / database / "2810" / "1700000003600-2-0-0.tsfile"
        raw = path.read_bytes()
        assert raw[separator] == 0x02
        path.write_bytes(raw[:separator + 1])
        (path.parent / (path.name + ".resource")).unlink()
        cut.append(str(path))
    with pytest.warns(UserWarning) as caught:
        frame = tsread.read_table(str(data), time_as="int")
    assert _table_rows(frame) == _expected_table(datadir / "expected" / "t.csv")
    messages = " ".join(str(w.message) for w in caught)
    for path in cut:
        assert path + ": no valid tail" in messages
    with pytest.warns(UserWarning, match="no valid tail"):
        ddf = tsread.dask.read_tsfile(str(data), time_as="int")
        assert _table_rows(ddf.compute(scheduler="sync")) == _table_rows(frame)
    with pytest.warns(UserWarning, match="no valid tail"):
        tree = tsread.read_tree(str(data), time_as="int")
    assert len(tree) == len(_csv_rows(datadir / "expected" / "tree.csv"))
    with pytest.warns(UserWarning, match="no valid tail"):
        with tsread.open(str(data)) as f:
            unsealed = sorted(x["path"] for x in f.info()["files"] if x["iotdb"]["unsealed"] is not None)
    assert unsealed == sorted(cut)


def test_dask_reads_an_unsealed_file_alone_in_its_partition(datadir, tmp_path):
    """A Dask partition names one time partition's files: a crashed file alone there takes its
    table's schema from the database's other partitions, as read_table does."""
    import shutil
    data = tmp_path / "data"
    shutil.copytree(datadir / "data", data)
    region = data / "unsequence" / "db1" / "1"
    (region / "2811").mkdir()
    moved = region / "2811" / "1700000003600-2-0-0.tsfile"
    (region / "2810" / "1700000003600-2-0-0.tsfile").rename(moved)
    raw = moved.read_bytes()
    assert raw[113] == 0x02  # its SEPARATOR, as `tsread sketch` shows it
    moved.write_bytes(raw[:114])
    with pytest.warns(UserWarning, match="no valid tail"):
        frame = tsread.read_table(str(data), time_as="int")
        ddf = tsread.dask.read_tsfile(str(data), time_as="int")
        parts = ddf.compute(scheduler="sync")
    assert "tag0" not in frame.columns
    assert _table_rows(parts) == _table_rows(frame)
