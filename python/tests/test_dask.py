"""tsread.dask.read_tsfile: one partition per serialized split, read in worker processes."""

import numpy as np
import pandas as pd
import pytest

import tsread
import tsread.dask


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
    full = tsread.read_table(comp_glob, nullable="always")
    assert list(ddf.columns) == list(full.columns)
    for name in full.columns:
        assert type(ddf._meta[name].dtype) is type(full[name].dtype), name


def test_equals_pandas_on_local_cluster(client, comp_glob):
    ddf = tsread.dask.read_tsfile(comp_glob, split_bytes=4096)
    result = ddf.compute()
    full = tsread.read_table(comp_glob, nullable="always")
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
