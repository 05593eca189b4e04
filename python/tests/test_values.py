"""Values a file may hold that must not silently become others: DATEs that name no day, bytes
that are not UTF-8, times that contradict their page, and dtypes that must not depend on the rows
a read keeps. The files come from support/write_test_files.cc (conftest.test_files)."""

import datetime

import numpy as np
import pandas as pd
import pytest

import tsread
import tsread.dask


# --- DATE ---------------------------------------------------------------------------------------

def test_invalid_date_is_an_error_naming_file_column_and_value(test_files):
    path = str(test_files / "dates.tsfile")
    for read in (lambda: tsread.read_table(path), lambda: list(tsread.iter_batches(path)),
                 lambda: tsread.read_table(path, date_as="date")):
        with pytest.raises(tsread.CorruptFileError) as e:
            read()
        message = str(e.value)
        assert path in message and 'column "d"' in message and "20230231" in message, message
        assert "invalid_dates='null'" in message, message
        assert e.value.file == path


def test_invalid_date_reads_as_null_when_asked(test_files):
    path = str(test_files / "dates.tsfile")
    df = tsread.read_table(path, invalid_dates="null")
    assert df["d"].dtype == np.dtype("datetime64[ns]")
    assert list(df["d"].isna()) == [False, True, True, False]
    assert df["d"][0] == pd.Timestamp("2024-01-01") and df["d"][3] == pd.Timestamp("2024-03-15")
    dates = tsread.read_table(path, date_as="date", invalid_dates="null")["d"]
    assert list(dates) == [datetime.date(2024, 1, 1), None, None, datetime.date(2024, 3, 15)]
    assert list(tsread.read_table(path, columns=["n"])["n"]) == [1, 2, 3, 4]


def test_date_as_int_gives_the_stored_ints_unchecked(test_files):
    df = tsread.read_table(str(test_files / "dates.tsfile"), date_as="int")
    assert str(df["d"].dtype) == "Int32"  # d has a null (metadata: 3 values in 4 rows)
    assert df["d"].tolist()[:2] == [20240101, 20230231] and df["d"].isna().tolist() == [False, False, True, False]


def test_a_date_outside_datetime64_names_the_option_that_reads_it(test_files):
    path = str(test_files / "old_dates.tsfile")
    with pytest.raises(ValueError) as e:
        tsread.read_table(path)
    assert not isinstance(e.value, tsread.CorruptFileError)
    assert 'column "d"' in str(e.value) and "15000101" in str(e.value) and "date_as='date'" in str(e.value)
    assert list(tsread.read_table(path, date_as="date")["d"]) == [datetime.date(1500, 1, 1), datetime.date(2024, 1, 1)]


def test_a_time_or_timestamp_outside_datetime64_names_the_column_and_time_as(test_files):
    for name, column in (("far_time.tsfile", '"time"'), ("far_timestamp.tsfile", '"ts"')):
        path = str(test_files / name)
        for read in (lambda: tsread.read_table(path), lambda: list(tsread.iter_batches(path))):
            with pytest.raises(ValueError) as e:
                read()
            assert not isinstance(e.value, tsread.CorruptFileError)
            assert f"column {column}" in str(e.value) and "time_as='int'" in str(e.value), str(e.value)
        df = tsread.read_table(path, time_as="int")  # the option named reads the whole table
        assert len(df) == 2 and str(df["time"].dtype) == "int64" and str(df["ts"].dtype) == "int64"
    assert list(tsread.read_table(str(test_files / "far_timestamp.tsfile"), time_as="int")["ts"]) == [5, 9 * 10**15]


# --- UTF-8 --------------------------------------------------------------------------------------

def test_invalid_utf8_is_an_error_naming_file_column_and_time(test_files):
    path = str(test_files / "utf8.tsfile")
    for read in (lambda: tsread.read_table(path), lambda: list(tsread.iter_batches(path, batch_rows=1))):
        with pytest.raises(tsread.CorruptFileError) as e:
            read()
        message = str(e.value)
        assert path in message and 'column "s"' in message and "time 20" in message, message
        assert "invalid_utf8='replace'" in message and "invalid_utf8='bytes'" in message, message
        assert e.value.file == path


def test_invalid_utf8_replaced_or_bytes_when_asked(test_files):
    path = str(test_files / "utf8.tsfile")
    assert list(tsread.read_table(path, invalid_utf8="replace")["s"]) == ["ok", "a\ufffd", "fine"]
    as_bytes = tsread.read_table(path, invalid_utf8="bytes")
    assert list(as_bytes["s"]) == [b"ok", b"a\xe6\x97", b"fine"]  # every value of the column: one type
    # BLOB holds the same bytes and was never text.
    assert list(tsread.read_table(path, columns=["b"])["b"]) == [b"ok", b"a\xe6\x97", b"fine"]


def test_invalid_utf8_in_a_tag_value(test_files):
    path = str(test_files / "utf8_tag.tsfile")
    with pytest.raises(tsread.CorruptFileError) as e:
        tsread.read_table(path)
    assert "TAG value is not UTF-8" in str(e.value) and e.value.file == path
    assert list(tsread.read_table(path, invalid_utf8="replace")["id"].astype(object)) == ["d\ufffd"]
    assert list(tsread.read_table(path, invalid_utf8="bytes")["id"].astype(object)) == [b"d\xff"]


def test_value_options_are_checked():
    for kwargs in ({"invalid_utf8": "ignore"}, {"invalid_dates": "zero"}):
        with pytest.raises(ValueError):
            tsread.read_table("never-opened.tsfile", **kwargs)


# --- times that contradict their page --------------------------------------------------------

def test_a_shifted_time_stream_is_corruption_with_file_and_offset(test_files, tmp_path):
    data = bytearray((test_files / "three_pages.tsfile").read_bytes())
    first = (5_000_000_000_000).to_bytes(8, "big")
    in_statistics = data.find(first)
    in_stream = data.find(first, in_statistics + 8)  # the first page's TS_2DIFF header
    assert 0 <= in_statistics < in_stream
    data[in_stream:in_stream + 8] = (5_000_000_000_001).to_bytes(8, "big")
    path = tmp_path / "shifted.tsfile"
    path.write_bytes(bytes(data))
    assert len(tsread.read_table(str(test_files / "three_pages.tsfile"))) == 300
    with pytest.raises(tsread.CorruptFileError) as e:
        tsread.read_table(str(path))
    assert "corrupt times" in str(e.value) and "datetime64" not in str(e.value), str(e.value)
    assert e.value.file == str(path) and e.value.offset is not None


# --- dtypes from metadata ---------------------------------------------------------------------

def _dtypes(frame):
    return {name: str(dtype) for name, dtype in frame.dtypes.items()}


def test_dtypes_follow_the_metadata_not_the_rows_read(test_files):
    path = str(test_files / "nulls.tsfile")
    whole = tsread.read_table(path)
    assert _dtypes(whole) == {"time": "datetime64[ns]", "id": "category", "n": "Int32", "f": "boolean", "m": "int32"}
    window = tsread.read_table(path, start=1, end=3)  # device a only: no nulls among these rows
    assert len(window) == 3 and not window["n"].isna().any()
    assert _dtypes(window) == _dtypes(whole)
    assert _dtypes(tsread.read_table(path, tags={"id": "a"})) == _dtypes(whole)
    for batch in tsread.iter_batches(path, batch_rows=2):
        assert _dtypes(batch) == _dtypes(whole)
    assert _dtypes(tsread.read_table(path, nullable="always"))["m"] == "Int32"


def test_dask_meta_equals_every_partition(test_files):
    path = str(test_files / "nulls.tsfile")
    ddf = tsread.dask.read_tsfile(path, split_bytes=1)
    assert ddf.npartitions == 2  # one per device
    meta = _dtypes(ddf._meta)
    assert meta == _dtypes(tsread.read_table(path))
    for i in range(ddf.npartitions):
        assert _dtypes(ddf.get_partition(i).compute(scheduler="sync")) == meta, i


def test_aggregates_of_text_that_is_not_utf8(test_files):
    """last() shows only the last values: a bad min it never shows does not fail it; aggregate()
    names the file and takes invalid_utf8= as the readers do."""
    path = str(test_files / "utf8.tsfile")
    got = tsread.last(path, columns=["s"])
    assert got["s"].tolist() == ["fine"]
    with pytest.raises(tsread.CorruptFileError) as e:
        tsread.aggregate(path, columns=["s"])
    assert e.value.file == path and "invalid_utf8=" in str(e.value)
    assert tsread.aggregate(path, columns=["s"], invalid_utf8="replace")["s_min"].tolist() == ["a\ufffd"]
    assert tsread.aggregate(path, columns=["s"], invalid_utf8="bytes")["s_min"].tolist() == [b"a\xe6\x97"]
    with pytest.raises(ValueError, match="invalid_utf8"):
        tsread.last(path, invalid_utf8="ignore")
