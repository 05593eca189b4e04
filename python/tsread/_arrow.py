"""tsread.scan()'s and tsread.scan_tree()'s reader: a scan exported through the Arrow PyCapsule interface.

    import pyarrow as pa, polars as pl, duckdb
    r = tsread.scan("data/", table="weather", columns=["region", "temperature"], filters=[("temperature", ">", 20)])
    pa.table(r)                              # a pyarrow Table
    pa.RecordBatchReader.from_stream(r)      # batch by batch
    pl.from_arrow(r)                         # a Polars DataFrame
    duckdb.sql("SELECT region, avg(temperature) FROM r GROUP BY region")

Each consumer call starts a new scan of the same rows (the reader can be read any number of
times). The batches' buffers are handed over, not copied. Arrow types: time and TIMESTAMP as
timestamp[ms] (time_unit), TAG as string (or dictionary<int32, string>), BOOLEAN bool, INT32
int32, INT64 int64, FLOAT float32, DOUBLE float64, TEXT/STRING string (a value that is not UTF-8
ends the stream with an error), BLOB binary, DATE date32, ATTRIBUTE string (null). scan_tree():
time, device and measurement, then value_<type> columns of those types, one per type of the series read.
"""


class ArrowReader:
    """A table or tree-model scan as an Arrow stream: pass it to any library that takes Arrow PyCapsule
    objects (pyarrow, Polars, DuckDB, nanoarrow, ...)."""

    def __init__(self, scan, description):
        self._scan = scan
        self._description = description

    def __arrow_c_stream__(self, requested_schema=None):
        """A new PyCapsule 'arrow_array_stream' of the scan's batches (requested_schema is not
        honoured: the batches have the scan's own schema, as the interface allows)."""
        return self._scan.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self):
        """A PyCapsule 'arrow_schema': the batches' schema, a struct of time and the columns."""
        return self._scan.__arrow_c_schema__()

    def __repr__(self):
        return f"tsread.ArrowReader({self._description})"
