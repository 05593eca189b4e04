"""filters= on read_table, iter_batches and tsread.dask.read_tsfile against a pandas filter,
computed here, of the unfiltered read's rows."""

import datetime as dt

import numpy as np
import pandas as pd
import pytest

import tsread
import tsread.dask


@pytest.fixture(scope="module")
def alltypes(fixtures):
    return str(fixtures / "table_alltypes.tsfile")


@pytest.fixture(scope="module")
def rows(alltypes):
    return tsread.read_table(alltypes)


def _same(got, want):
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True))


# (filters, the same condition on the unfiltered frame). NaN matches only != (IEEE), null nothing.
CASES = [
    ([("f_int32", ">", 100)], lambda r: r.f_int32 > 100),
    ([("f_int32", ">=", 100), ("f_int64", "!=", 1000000566189)],
     lambda r: (r.f_int32 >= 100) & (r.f_int64 != 1000000566189) & r.f_int64.notna()),
    ([("f_double", "<", -50.5)], lambda r: r.f_double < -50.5),
    ([("f_float", ">=", 18.5)], lambda r: r.f_float >= np.float32(18.5)),
    ([("f_boolean", "==", True)], lambda r: r.f_boolean == True),  # noqa: E712
    ([("f_text", "=", None)], lambda r: r.f_text.isna()),
    ([("f_string", "in", ["mode_5", "mode_7"])], lambda r: r.f_string.isin(["mode_5", "mode_7"])),
    ([("f_string", "not in", ["mode_5", "mode_7"])], lambda r: r.f_string.notna() & ~r.f_string.isin(["mode_5", "mode_7"])),
    ([("f_date", ">=", dt.date(2024, 7, 5))], lambda r: r.f_date >= pd.Timestamp("2024-07-05")),
    ([("id", "=", "dev_17"), ("f_int32", "!=", None)], lambda r: (r.id == "dev_17") & r.f_int32.notna()),
    ([("region", "=", None)], lambda r: r.region.isna()),
    ([("f_int64", "<", 0)], lambda r: r.f_int64 < 0),
    ([("f_int32", "<", 101.5)], lambda r: r.f_int32 < 101.5),
    # None in the list of `in` matches a null (pyarrow's is_in with nulls matching); it was read
    # as False and returned the false rows too.
    ([("f_boolean", "in", [True, None])], lambda r: (r.f_boolean == True) | r.f_boolean.isna()),  # noqa: E712
    ([("f_int32", "in", [101, None])], lambda r: (r.f_int32 == 101) | r.f_int32.isna()),
    ([("f_string", "in", [None])], lambda r: r.f_string.isna()),
    ([("region", "in", ["east", None])], lambda r: (r.region == "east") | r.region.isna()),
    ([("f_int32", "not in", [101, None])], lambda r: (r.f_int32 != 101) & r.f_int32.notna()),
    # A list of lists: an OR of ANDs (pyarrow's DNF).
    ([[("region", "=", "east")], [("region", "=", "west")]], lambda r: r.region.isin(["east", "west"])),
    ([[("f_int32", ">", 100), ("f_double", "<", 0)], [("region", "=", None)]],
     lambda r: ((r.f_int32 > 100) & (r.f_double < 0)) | r.region.isna()),
    ([[("f_boolean", "=", True)], [("f_int64", "<", 0), ("id", "in", ["dev_17", None])]],
     lambda r: (r.f_boolean == True) | ((r.f_int64 < 0) & ((r.id == "dev_17") | r.id.isna()))),  # noqa: E712
    # A BLOB operand in the form cat prints.
    ([("f_blob", "=", "0x75")], lambda r: r.f_blob == b"u"),
    ([("f_blob", "=", b"u")], lambda r: r.f_blob == b"u"),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_read_table_filters_equal_pandas(alltypes, rows, case):
    filters, condition = CASES[case]
    want = rows[condition(rows).fillna(False).astype(bool)]
    _same(tsread.read_table(alltypes, filters=filters), want)
    # The filters' columns need not be read.
    _same(tsread.read_table(alltypes, columns=["f_blob"], filters=filters), want[["time", "f_blob"]])


def test_iter_batches_and_dask_take_filters(alltypes, rows):
    filters = [("f_int32", ">", 100), ("f_double", "<", 0)]
    want = rows[(rows.f_int32 > 100).fillna(False) & (rows.f_double < 0)]
    _same(pd.concat(tsread.iter_batches(alltypes, filters=filters, batch_rows=1000)), want)
    got = tsread.dask.read_tsfile(alltypes, filters=filters, split_bytes=1 << 16).compute()
    assert len(got) == len(want)
    assert sorted(got.time.tolist()) == sorted(want.time.tolist())



@pytest.mark.parametrize("filters, error", [
    ([("nope", ">", 1)], ValueError),
    ([("f_int32", ">", "abc")], ValueError),
    ([("f_int32", "~", 1)], ValueError),
    ([("f_int32", ">")], ValueError),
    ([[("f_int32", ">", 1)], ("f_int32", "<", 0)], ValueError),  # a mix of a conjunction and a tuple
    ([[("f_int32", ">", 1)], []], ValueError),  # an empty conjunction would match everything
    ([("f_date", ">", "2024-13-45")], ValueError),
    ([("f_date", ">", 20240231)], ValueError),
    ([("f_blob", "=", "0xzz")], ValueError),
    ([("f_int32", ">", None)], ValueError),
    ([("f_int32", ">", object())], TypeError),
])
def test_bad_filters_raise(alltypes, filters, error):
    with pytest.raises(error):
        tsread.read_table(alltypes, filters=filters)


def test_dnf_filters_reach_iter_batches_and_dask(alltypes, rows):
    filters = [[("region", "=", "east")], [("f_int32", "in", [101, None])]]
    want = rows[((rows.region == "east") | (rows.f_int32 == 101) | rows.f_int32.isna()).fillna(False).astype(bool)]
    _same(pd.concat(tsread.iter_batches(alltypes, filters=filters, batch_rows=5000)), want)
    got = tsread.dask.read_tsfile(alltypes, filters=filters, split_bytes=1 << 16).compute()
    assert len(got) == len(want)
    assert sorted(got.time.tolist()) == sorted(want.time.tolist())
