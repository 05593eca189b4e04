"""tsread.scan(): the Arrow PyCapsule interface, checked by a real consumer (DuckDB's C library, the
one tools/setup.sh fetches, driven through ctypes: duckdb_arrow_scan takes the capsule's stream)
and by reading the capsules' C structs directly (lifetime rules of the Arrow C stream interface)."""

import ctypes
import errno
import os
import pathlib

import pytest

import tsread
from conftest import parse_csv

# ---------------------------------------------------------------------------------------------
# The Arrow C structs, to read capsules as a C consumer does.


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", ctypes.c_char_p),
    ("flags", ctypes.c_int64), ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))), ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))), ("private_data", ctypes.c_void_p)]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64), ("n_children", ctypes.c_int64), ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))), ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))), ("private_data", ctypes.c_void_p)]


class ArrowArrayStream(ctypes.Structure):
    pass


ArrowArrayStream._fields_ = [
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowSchema))),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowArray))),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream))),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))), ("private_data", ctypes.c_void_p)]

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def stream_of(capsule):
    """The ArrowArrayStream inside a capsule (still owned by the capsule)."""
    return ArrowArrayStream.from_address(_capsule_pointer(capsule, b"arrow_array_stream"))


def schema_of(capsule):
    return ArrowSchema.from_address(_capsule_pointer(capsule, b"arrow_schema"))


def children(schema):
    return [(schema.children[k].contents.name.decode(), schema.children[k].contents.format.decode())
            for k in range(schema.n_children)]


def read_stream(stream):
    """Reads a stream to its end: (rows, batches, error or None); does not release it."""
    rows = batches = 0
    while True:
        batch = ArrowArray()
        result = stream.get_next(ctypes.byref(stream), ctypes.byref(batch))
        if result != 0:
            return rows, batches, (result, stream.get_last_error(ctypes.byref(stream)))
        if not batch.release:
            return rows, batches, None
        rows += batch.length
        batches += 1
        batch.release(ctypes.byref(batch))


# ---------------------------------------------------------------------------------------------
# DuckDB through its C API.

def _libduckdb():
    cache = pathlib.Path(os.environ.get("TSREAD_DUCKDB_CACHE", pathlib.Path.home() / ".cache" / "tsread" / "npm"))
    path = cache / "node_modules" / "@duckdb" / "node-bindings-linux-x64" / "libduckdb.so"
    return str(path) if path.exists() else None


class DuckDB:
    def __init__(self, path):
        lib = self.lib = ctypes.CDLL(path)
        p = ctypes.c_void_p
        lib.duckdb_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(p)]
        lib.duckdb_connect.argtypes = [p, ctypes.POINTER(p)]
        lib.duckdb_query.argtypes = [p, ctypes.c_char_p, p]
        lib.duckdb_result_error.argtypes = [p]
        lib.duckdb_result_error.restype = ctypes.c_char_p
        lib.duckdb_value_int64.argtypes = [p, ctypes.c_uint64, ctypes.c_uint64]
        lib.duckdb_value_int64.restype = ctypes.c_int64
        lib.duckdb_destroy_result.argtypes = [p]
        lib.duckdb_arrow_scan.argtypes = [p, ctypes.c_char_p, p]
        lib.duckdb_disconnect.argtypes = [ctypes.POINTER(p)]
        lib.duckdb_close.argtypes = [ctypes.POINTER(p)]
        self.db, self.con = p(), p()
        assert lib.duckdb_open(None, ctypes.byref(self.db)) == 0
        assert lib.duckdb_connect(self.db, ctypes.byref(self.con)) == 0
        self.query("SET threads = 1")

    def close(self):
        self.lib.duckdb_disconnect(ctypes.byref(self.con))
        self.lib.duckdb_close(ctypes.byref(self.db))

    def query(self, sql):
        result = ctypes.create_string_buffer(64)  # duckdb_result: 48 bytes
        if self.lib.duckdb_query(self.con, sql.encode(), result) != 0:
            message = self.lib.duckdb_result_error(result)
            self.lib.duckdb_destroy_result(result)
            raise RuntimeError(f"DuckDB: {message.decode() if message else '?'} in {sql[:200]}")
        return result

    def scalar(self, sql):
        result = self.query(sql)
        value = self.lib.duckdb_value_int64(result, 0, 0)
        self.lib.duckdb_destroy_result(result)
        return value

    def execute(self, sql):
        self.lib.duckdb_destroy_result(self.query(sql))

    def load(self, name, reader):
        """CREATE TABLE name AS the reader's rows, through duckdb_arrow_scan on its capsule."""
        capsule = reader.__arrow_c_stream__()
        if self.lib.duckdb_arrow_scan(self.con, f"{name}_stream".encode(), _capsule_pointer(capsule, b"arrow_array_stream")) != 0:
            raise RuntimeError("duckdb_arrow_scan refused the stream")
        self.execute(f'CREATE TABLE {name} AS SELECT * FROM "{name}_stream"')
        del capsule  # releases the stream (DuckDB did not take it)


@pytest.fixture
def duckdb():
    path = _libduckdb()
    if path is None:
        pytest.skip("libduckdb.so is not in the npm cache (tools/setup.sh fetches it)")
    db = DuckDB(path)
    yield db
    db.close()


def quoted(name):
    return '"' + name.replace('"', '""') + '"'


def comparable(column, got):
    """A column as tsread's rows (got) or the CSV's text (want) spell it alike: the CSV's text cast
    to the column's type, tsread's BLOB as 0x-hex and DATE as the stored yyyyMMdd integer."""
    name, category, kind = quoted(column["name"]), column["category"], column["type"]
    if category != "FIELD" or kind in ("TEXT", "STRING"):
        return name
    if kind == "BLOB":
        return f"'0x' || lower(hex({name}))" if got else name
    if kind == "DATE":
        return f"(year({name}) * 10000 + month({name}) * 100 + day({name}))::INTEGER" if got else f"CAST({name} AS INTEGER)"
    cast = {"BOOLEAN": "BOOLEAN", "INT32": "INTEGER", "INT64": "BIGINT", "TIMESTAMP": "BIGINT", "FLOAT": "FLOAT",
            "DOUBLE": "DOUBLE"}[kind]
    return name if got else f"CAST({name} AS {cast})"


def differences(db, schema, csv, ordered=True):
    """(rows in got, rows in the CSV, rows of either not in the other) after loading `got`."""
    path = str(csv).replace("'", "''")
    db.execute(f"CREATE TABLE want AS SELECT * FROM read_csv('{path}', header = true, all_varchar = true, "
               "allow_quoted_nulls = false, delim = ',', quote = '\"', escape = '\"')")
    sides = []
    for got in (True, False):
        columns = ["rowid"] if ordered else []
        columns.append('"time"' if got else 'CAST("time" AS BIGINT)')
        columns += [comparable(c, got) for c in schema]
        sides.append(f"SELECT {', '.join(columns)} FROM {'got' if got else 'want'}")
    extra = db.scalar(f"SELECT count(*) FROM ({sides[0]} EXCEPT ALL {sides[1]})")
    missing = db.scalar(f"SELECT count(*) FROM ({sides[1]} EXCEPT ALL {sides[0]})")
    return db.scalar("SELECT count(*) FROM got"), db.scalar("SELECT count(*) FROM want"), extra + missing


def table_csvs():
    from conftest import FIXTURES
    return sorted(p.name for p in FIXTURES.glob("table_*.csv"))


# ---------------------------------------------------------------------------------------------
# Tests

@pytest.mark.parametrize("csv_name", table_csvs())
def test_every_table_fixture_reaches_duckdb_as_its_csv(fixtures, duckdb, csv_name):
    stem, table, _ = csv_name.rsplit(".", 2)
    path = fixtures / f"{stem}.tsfile"
    schema = tsread.open(path).schema(table)
    duckdb.load("got", tsread.scan(path, table=table, time_unit="int"))
    got, want, different = differences(duckdb, schema, fixtures / csv_name)
    assert (got, different) == (want, 0)


@pytest.mark.parametrize("tags", ["tags_as_dictionary", "tags_as_run_end"])
@pytest.mark.parametrize("csv_name", ["table_alltypes.t_all.csv", "table_multi.tbl_b.csv"])
def test_encoded_tags_reach_duckdb_as_the_csvs(fixtures, duckdb, csv_name, tags):
    stem, table, _ = csv_name.rsplit(".", 2)
    path = fixtures / f"{stem}.tsfile"
    schema = tsread.open(path).schema(table)
    duckdb.load("got", tsread.scan(path, table=table, time_unit="int", batch_rows=1000, **{tags: True}))
    got, want, different = differences(duckdb, schema, fixtures / csv_name)
    assert (got, different) == (want, 0)


def test_iotdb_data_reaches_duckdb_as_iotdb_answers(fixtures, duckdb):
    path = fixtures / "iotdb_datadir"
    schema = tsread.open(path).schema("t")
    duckdb.load("got", tsread.scan(path, table="t", time_unit="int"))
    got, want, different = differences(duckdb, schema, path / "expected" / "t.csv", ordered=False)
    assert (got, different) == (want, 0)


def test_threads_filters_and_an_open_file_give_the_csvs_rows(fixtures, duckdb):
    path = fixtures / "table_multi.tsfile"
    header, rows = parse_csv(fixtures / "table_multi.tbl_b.csv")
    running = header.index("running")
    expected = sum(1 for r in rows if r[running] == "true")
    with tsread.open(path) as f:
        duckdb.load("got", f.scan("tbl_b", columns=["running", "power"], threads=2, ordered=False, batch_rows=500,
                                  filters=[("running", "=", True)]))
    assert duckdb.scalar("SELECT count(*) FROM got") == expected
    assert duckdb.scalar("SELECT count(*) FROM got WHERE running IS DISTINCT FROM true") == 0


def test_the_schema_capsule_names_time_and_the_columns(fixtures):
    path = fixtures / "table_multi.tsfile"
    capsule = tsread.scan(path, table="tbl_b", columns=["voltage", "region", "day", "running"]).__arrow_c_schema__()
    schema = schema_of(capsule)
    assert schema.format == b"+s"
    assert children(schema) == [("time", "tsm:"), ("voltage", "g"), ("region", "u"), ("day", "tdD"), ("running", "b")]
    capsule = tsread.scan(path, table="tbl_b", columns="region", time_unit="ns", tags_as_dictionary=True,
                          file_column="file").__arrow_c_schema__()
    schema = schema_of(capsule)
    assert children(schema) == [("time", "tsn:"), ("region", "i"), ("file", "u")]
    assert schema.children[1].contents.dictionary.contents.format == b"u"
    capsule = tsread.scan(path, table="tbl_a", time_unit="int").__arrow_c_schema__()  # kept while read
    assert children(schema_of(capsule))[0] == ("time", "l")


def test_run_end_encoded_tags_have_arrows_layout(fixtures):
    path = fixtures / "table_multi.tsfile"
    capsule = tsread.scan(path, table="tbl_b", columns="region", tags_as_run_end=True).__arrow_c_schema__()
    region = schema_of(capsule).children[1].contents
    assert region.format == b"+r" and region.n_children == 2
    assert [region.children[i].contents.format for i in range(2)] == [b"i", b"u"]
    assert [region.children[i].contents.name for i in range(2)] == [b"run_ends", b"values"]
    with pytest.raises(ValueError, match="exclude each other"):
        tsread.scan(path, table="tbl_b", tags_as_dictionary=True, tags_as_run_end=True)


def test_a_reader_reads_again_and_streams_outlive_their_capsules_and_files(fixtures):
    with tsread.open(fixtures / "table_multi.tsfile") as f:
        reader = f.scan("tbl_c")
    # The file is closed; the reader keeps what it reads open, and each stream is a new scan.
    first, second = reader.__arrow_c_stream__(), reader.__arrow_c_stream__()
    assert read_stream(stream_of(first))[0] == 6535  # table_multi.summary.json
    # A consumer moves the stream out of its capsule: the capsule no longer releases it.
    moved = ArrowArrayStream()
    ctypes.memmove(ctypes.byref(moved), ctypes.addressof(stream_of(second)), ctypes.sizeof(ArrowArrayStream))
    ctypes.memset(ctypes.addressof(stream_of(second)) + ArrowArrayStream.release.offset, 0, ctypes.sizeof(ctypes.c_void_p))
    del second, reader
    rows, batches, error = read_stream(moved)
    assert (rows, error) == (6535, None) and batches > 0
    moved.release(ctypes.byref(moved))
    assert not moved.release
    # Released unread, and released half read (threads still decoding): nothing is left behind.
    del first
    capsule = tsread.scan(fixtures / "table_many_devices.tsfile", threads=2, batch_rows=100).__arrow_c_stream__()
    batch = ArrowArray()
    assert stream_of(capsule).get_next(ctypes.byref(stream_of(capsule)), ctypes.byref(batch)) == 0
    batch.release(ctypes.byref(batch))
    del capsule


def test_argument_errors_raise_at_scan_and_data_errors_end_the_stream(fixtures, tmp_path):
    path = fixtures / "table_multi.tsfile"
    with pytest.raises(ValueError, match="no_such_column"):
        tsread.scan(path, table="tbl_b", columns=["no_such_column"])
    with pytest.raises(ValueError, match="time_unit"):
        tsread.scan(path, table="tbl_b", time_unit="minutes")
    with pytest.raises(ValueError, match="columns=\\[\\]"):
        tsread.scan(path, table="tbl_b", columns=[])
    with pytest.raises(ValueError, match="threads"):
        tsread.scan(path, table="tbl_b", threads=0)
    with pytest.raises(ValueError, match="tbl_a"):
        tsread.scan(path)  # several tables, none named
    # Pages damaged after the metadata: the stream starts, then fails with EIO and a message.
    data = bytearray((fixtures / "table_comp_LZ4.tsfile").read_bytes())
    for i in range(200, len(data) // 3, 97):
        data[i] ^= 0xFF
    damaged = tmp_path / "damaged.tsfile"
    damaged.write_bytes(bytes(data))
    for threads in (1, 2):
        capsule = tsread.scan(damaged, threads=threads).__arrow_c_stream__()
        rows, _, error = read_stream(stream_of(capsule))
        assert error is not None and error[0] == errno.EIO
        assert b"damaged.tsfile" in error[1]


# ---------------------------------------------------------------------------------------------
# scan_tree(): tree-model points in long form, one value column per type.

_VALUE_CHECKS = {  # value column -> how the CSV's text (w.value) equals it
    "value_boolean": "g.value_boolean = CAST(w.value AS BOOLEAN)",
    "value_int32": "g.value_int32 = CAST(w.value AS INTEGER)",
    "value_int64": "g.value_int64 = CAST(w.value AS BIGINT)",
    "value_timestamp": "g.value_timestamp = CAST(w.value AS BIGINT)",  # time_unit="int"
    "value_float": "g.value_float = CAST(w.value AS FLOAT)",
    "value_double": "g.value_double = CAST(w.value AS DOUBLE)",
    "value_date": "year(g.value_date) * 10000 + month(g.value_date) * 100 + day(g.value_date) = CAST(w.value AS INTEGER)",
    "value_text": "g.value_text = w.value",
    "value_string": "g.value_string = w.value",
    "value_blob": "'0x' || lower(hex(g.value_blob)) = w.value",
}


def tree_differences(db, csv):
    """(points in got, points in the CSV, points of got whose value is not the CSV's or missing)."""
    path = str(csv).replace("'", "''")
    db.execute(f"CREATE TABLE want AS SELECT * FROM read_csv('{path}', header = true, all_varchar = true, "
               "allow_quoted_nulls = false, delim = ',', quote = '\"', escape = '\"')")
    columns = [c for c in _VALUE_CHECKS if db.scalar(
        f"SELECT count(*) FROM information_schema.columns WHERE table_name = 'got' AND column_name = '{c}'")]
    one_set = " + ".join(f"CAST(g.{c} IS NOT NULL AS INTEGER)" for c in columns)
    matches = " OR ".join(f"(g.{c} IS NOT NULL AND {_VALUE_CHECKS[c]})" for c in columns)
    joined = ("FROM got g JOIN want w ON g.device = w.device AND g.measurement = w.measurement "
              "AND g.time = CAST(w.time AS BIGINT)")
    matched = db.scalar(f"SELECT count(*) {joined} WHERE ({one_set}) = 1 AND ({matches})")
    return db.scalar("SELECT count(*) FROM got"), db.scalar("SELECT count(*) FROM want"), \
        db.scalar("SELECT count(*) FROM got") - matched


@pytest.mark.parametrize("stem", ["tree_nonaligned", "tree_aligned", "tree_depths", "v3_sample"])
def test_every_tree_fixture_reaches_duckdb_as_its_csv(fixtures, duckdb, stem):
    duckdb.load("got", tsread.scan_tree(fixtures / f"{stem}.tsfile", time_unit="int", batch_rows=1000))
    got, want, different = tree_differences(duckdb, fixtures / f"{stem}.tree.csv")
    assert (got, different) == (want, 0)


def test_iotdb_tree_points_reach_duckdb_as_iotdb_answers(fixtures, duckdb):
    path = fixtures / "iotdb_datadir"
    with tsread.open(path) as f:
        duckdb.load("got", f.scan_tree(time_unit="int"))
    got, want, different = tree_differences(duckdb, path / "expected" / "tree.csv")
    assert (got, different) == (want, 0)


def test_scan_tree_selects_devices_by_prefix_measurements_and_times(fixtures):
    path = fixtures / "tree_depths.tsfile"
    header, rows = parse_csv(fixtures / "tree_depths.tree.csv")
    device = rows[0][0]
    prefix = device.rsplit(".", 1)[0]
    measurement = rows[0][1]
    below = [r for r in rows if (r[0] == prefix or r[0].startswith(prefix + ".")) and r[1] == measurement]
    t0 = int(below[0][2])
    expected = sum(1 for r in below if int(r[2]) >= t0 + 1)
    reader = tsread.scan_tree(path, start=t0 + 1, devices=[prefix], measurements=measurement, batch_rows=5,
                              names_as_dictionary=True)
    capsule = reader.__arrow_c_schema__()  # kept while read
    names = children(schema_of(capsule))
    assert names[:3] == [("time", "tsm:"), ("device", "i"), ("measurement", "i")]
    assert len(names) == 4 and names[3][0].startswith("value_")
    capsule = reader.__arrow_c_stream__()
    rows_read, batches, error = read_stream(stream_of(capsule))
    assert (rows_read, error) == (expected, None)
    assert batches >= (expected + 4) // 5


def test_scan_tree_argument_errors(fixtures):
    with pytest.raises(ValueError, match="no tree-model data"):
        tsread.scan_tree(fixtures / "table_multi.tsfile")
    path = fixtures / "tree_aligned.tsfile"
    with pytest.raises(ValueError, match="time_unit"):
        tsread.scan_tree(path, time_unit="minutes")
    with pytest.raises(ValueError, match="batch_rows"):
        tsread.scan_tree(path, batch_rows=0)
    with pytest.raises(ValueError, match="after end"):
        tsread.scan_tree(path, start=10, end=5)
    with pytest.raises(TypeError, match="devices"):
        tsread.scan_tree(path, devices=[1])
