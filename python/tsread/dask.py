"""tsread.dask.read_tsfile: a TsFile dataset as a dask DataFrame, one partition per split.

The client plans the scan once (DatasetScanner::Splits) and serializes every split
(SerializeSplit); each partition is read inside a worker from those bytes alone
(SplitReader::Open), so workers need only the files, not the client's dataset.
"""

import dask.dataframe as dd
from dask.dataframe.utils import clear_known_categories

import tsread as _tsread_pkg
from . import _frame, _tsread


def _read_split(split, options):
    columns = _tsread.read_split(split, float_nan=not options["nullable_float"], time_ns=options["time_as"] == "datetime")
    return _frame.to_frame(columns, options)


def read_tsfile(paths, table=None, columns=None, start=None, end=None, tags=None, split_bytes=64 << 20,
                **value_options):
    """A dask DataFrame over every file of `paths` (files, globs, directories).

    Arguments as tsread.read_table; split_bytes is the projected chunk bytes per partition.
    Integer and boolean columns use pandas nullable dtypes (a partition cannot know whether
    another has nulls); TAG columns are categoricals with unknown categories.
    """
    value_options.setdefault("nullable", "always")
    options = _tsread_pkg._value_options(**value_options)
    ds = _tsread_pkg._dataset(paths)
    plan = _tsread.plan_splits(ds._ds, split_bytes=int(split_bytes),
                               **_tsread_pkg._scan_args(table, columns, start, end, tags))
    # Each partition knows only its own tags: categories unknown to dask until computed.
    meta = clear_known_categories(_frame.to_frame(_frame.empty_columns(plan["columns"]), options))
    splits = [split for split, _path in plan["splits"]]
    if not splits:
        return dd.from_pandas(meta, npartitions=1)
    frame = dd.from_map(_read_split, splits, args=[options], meta=meta, label="read-tsfile",
                        enforce_metadata=False)
    return frame
