"""The package's contract as a user meets it: errors that name the public function, file
objects and bytes, columns=, closing, skipped files, TAG categories, the version."""

import io
import os
import warnings

import pandas as pd
import pytest

import tsread


@pytest.fixture(scope="module")
def alltypes(fixtures):
    return str(fixtures / "table_alltypes.tsfile")


def test_version():
    assert isinstance(tsread.__version__, str) and tsread.__version__.count(".") == 2


def test_wrong_keywords_and_counts_name_the_public_function(alltypes):
    with pytest.raises(TypeError, match="read_table"):
        tsread.read_table(alltypes, colums=["f_int32"])
    with pytest.raises(TypeError, match="iter_batches"):
        next(tsread.iter_batches(alltypes, batchrows=3))
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="read_table: threads"):
            tsread.read_table(alltypes, threads=bad)
        with pytest.raises(ValueError, match="iter_batches: batch_rows"):
            next(tsread.iter_batches(alltypes, batch_rows=bad))
    with pytest.raises(ValueError, match="read_table: time_as"):
        tsread.read_table(alltypes, time_as="seconds")


def test_columns_may_name_time_and_may_be_empty(alltypes):
    assert list(tsread.read_table(alltypes, columns=["time", "f_int32"]).columns) == ["time", "f_int32"]
    assert list(tsread.read_table(alltypes, columns=["f_int32", "time"]).columns) == ["time", "f_int32"]
    only_time = tsread.read_table(alltypes, columns=[])
    assert list(only_time.columns) == ["time"]
    assert len(only_time) == len(tsread.read_table(alltypes, columns=["f_int32"]))


def test_file_objects_and_bytes(alltypes):
    with open(alltypes, "rb") as f:
        assert len(tsread.read_table(f)) == len(tsread.read_table(alltypes))
    data = open(alltypes, "rb").read()
    for value in (data, io.BytesIO(data), bytearray(data)):
        with pytest.raises(TypeError) as e:
            tsread.read_table(value)
        message = str(e.value)
        assert "read_table" in message and "by path" in message and len(message) < 200, message[:300]


def test_close_and_with(alltypes):
    with tsread.open(alltypes) as f:
        assert f.tables == ["t_all"]
    with pytest.raises(ValueError, match="closed"):
        f.schema()
    with pytest.raises(ValueError, match="closed"):
        tsread.read_table(f)
    assert "closed" in repr(f)


def test_skip_unreadable_warns_and_reads_the_rest(tmp_path, alltypes):
    good = tmp_path / "a.tsfile"
    good.write_bytes(open(alltypes, "rb").read())
    (tmp_path / "b.tsfile").write_bytes(b"not a tsfile" * 10)
    with pytest.raises(tsread.CorruptFileError):
        tsread.read_table(str(tmp_path))
    with pytest.warns(UserWarning, match="b.tsfile"):
        df = tsread.read_table(str(tmp_path), skip_unreadable=True)
    assert len(df) == len(tsread.read_table(str(good)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = tsread.open(str(tmp_path), skip_unreadable=True)
    assert [p.endswith("b.tsfile") for p, _why in f.skipped] == [True]


def test_a_column_name_that_is_not_utf8_is_corruption(test_files):
    path = str(test_files / "utf8_name.tsfile")
    with pytest.raises(tsread.CorruptFileError) as e:
        tsread.open(path)
    assert e.value.file == path and "column name is not UTF-8" in str(e.value)


def test_tag_categories_sorted_and_the_same_in_every_batch(test_files):
    path = str(test_files / "tags.tsfile")
    df = tsread.read_table(path)
    assert list(df["id"].cat.categories) == ["alpha", "mid", "zeta"]
    assert list(df.sort_values("id")["id"].astype(object)) == ["alpha", "mid", "zeta"]
    batches = list(tsread.iter_batches(path, batch_rows=1))
    assert len(batches) == 3
    for b in batches:
        assert list(b["id"].cat.categories) == ["alpha", "mid", "zeta"]
    joined = pd.concat(batches, ignore_index=True)
    assert isinstance(joined["id"].dtype, pd.CategoricalDtype)
    pd.testing.assert_frame_equal(joined, df)
    # A window that keeps one device: the dataset's categories still.
    assert list(tsread.read_table(path, tags={"id": "mid"})["id"].cat.categories) == ["alpha", "mid", "zeta"]


def test_memory_follows_the_rows_kept(fixtures, tmp_path):
    """A one-minute window over 6 copies of the benchmark file keeps 366k rows (12 MB) and must not
    peak at what reading every row takes (it peaked at ~750 MB with 2 threads: the plan sized
    columns for every announced row)."""
    import subprocess
    import sys

    bench = fixtures.parent / "bench" / "table_large.tsfile"
    if not bench.exists():
        pytest.skip(f"{bench} (the benchmark file) is missing")
    for i in range(6):
        (tmp_path / f"c{i}.tsfile").symlink_to(bench)
    script = (
        "import resource, sys, tsread\n"
        "f = tsread.open(sys.argv[1])\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "df = tsread.read_table(f, start=1700000600000, end=1700000660000, threads=2)\n"
        "print(len(df), (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)\n")
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    rows, grown_mb = map(int, out.stdout.split())
    assert rows == 366_000
    assert grown_mb < 120, f"peak RSS grew by {grown_mb} MB for a 12 MB result"


@pytest.mark.parametrize("call", ["read_table(f)", "read_table(f, threads=2)", "list(tsread.iter_batches(f))"])
def test_ctrl_c_stops_a_running_read(fixtures, tmp_path, call):
    """SIGINT a tenth of a second into a read of 12 copies of the benchmark file (38M rows: 0.43 s with
    two threads on the fastest host seen, so half a second in could come after the end) raises
    KeyboardInterrupt at once (the scan runs without the GIL, which Python needs to see it)."""
    import signal
    import subprocess
    import sys
    import time

    bench = fixtures.parent / "bench" / "table_large.tsfile"
    if not bench.exists():
        pytest.skip(f"{bench} (the benchmark file) is missing")
    for i in range(12):
        (tmp_path / f"c{i}.tsfile").symlink_to(bench)
    # The child installs Python's SIGINT handler itself: a process started in the background of a
    # non-interactive shell inherits SIGINT ignored, and Python then keeps it ignored.
    script = ("import signal, sys, time, tsread\n"
              "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
              "f = tsread.open(sys.argv[1])\n"
              "t = time.monotonic()\n"
              "try:\n"
              "    print('started', flush=True)\n"
              f"    {call.replace('read_table', 'tsread.read_table')}\n"
              "    print('finished', flush=True)\n"
              "except KeyboardInterrupt:\n"
              "    print('interrupted', time.monotonic() - t, flush=True)\n")
    p = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert p.stdout.readline().strip() == "started"
    time.sleep(0.1)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    waited = time.monotonic() - sent
    assert out.startswith("interrupted"), out
    assert waited < 1.0, f"the read went on for {waited:.2f} s after SIGINT"


def test_errors_speak_python(fixtures):
    with pytest.raises(ValueError) as e:
        tsread.read_table(fixtures / "table_multi.tsfile")
    assert "table=" in str(e.value) and "tbl_b" in str(e.value)


def test_a_dask_partition_names_the_corrupt_file(test_files, tmp_path):
    import tsread.dask

    path = tmp_path / "three_pages.tsfile"
    data = bytearray((test_files / "three_pages.tsfile").read_bytes())
    path.write_bytes(bytes(data))
    ddf = tsread.dask.read_tsfile(str(path))  # planned from the intact file
    first = (5_000_000_000_000).to_bytes(8, "big")
    in_stream = data.find(first, data.find(first) + 8)
    data[in_stream:in_stream + 8] = (5_000_000_000_001).to_bytes(8, "big")  # same size: the split still opens
    path.write_bytes(bytes(data))
    with pytest.raises(tsread.CorruptFileError) as e:
        ddf.compute(scheduler="sync")
    assert e.value.file == str(path) and e.value.offset is not None


def test_an_iotdb_deletion_file_is_applied_or_with_raw_warned_of(tmp_path, alltypes):
    path = tmp_path / "a.tsfile"
    path.write_bytes(open(alltypes, "rb").read())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tsread.read_table(str(path), columns=["f_int32"])  # no deletion file: no warning
    # A 1.x tree deletion beside a table file: applied (it matches no table device), no warning.
    (tmp_path / "a.tsfile.mods").write_bytes(b"DELETION,root.sg.d1.s1,100,0,1700000000000\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = tsread.read_table(str(path), columns=["f_int32"])
    assert len(df) == 100000
    assert tsread.open(str(path)).is_iotdb
    with pytest.warns(UserWarning, match=r"a\.tsfile\.mods .*does not apply them"):
        df = tsread.read_table(str(path), columns=["f_int32"], raw=True)
    assert len(df) == 100000  # read as the file holds them
