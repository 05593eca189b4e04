"""Shared helpers: where the reference fixtures are, and their CSV rules (fixtures/README.md)."""

import ctypes
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = pathlib.Path(os.environ.get("TSREAD_FIXTURES", REPO.parent / "shared" / "fixtures"))

_libc = ctypes.CDLL(None)
_libc.strtof.restype = ctypes.c_float
_libc.strtof.argtypes = [ctypes.c_char_p, ctypes.c_void_p]


def strtof(text):
    """The float32 C's strtof makes of text (the fixtures' FLOAT contract), as a Python float."""
    return _libc.strtof(text.encode(), None)


@pytest.fixture(scope="session")
def fixtures():
    if not FIXTURES.is_dir():
        pytest.fail(f"reference fixtures not found at {FIXTURES} (set TSREAD_FIXTURES)")
    return FIXTURES


def parse_csv(path):
    """RFC 4180 rows where an unquoted empty field is None (null) and a quoted one is a str.

    Quoted fields come back as ("q", text) so that TEXT/STRING values are told apart from numbers.
    """
    data = pathlib.Path(path).read_text(encoding="utf-8")
    rows, row, i, n = [], [], 0, len(data)
    while i < n:
        if data[i] == '"':
            j, parts = i + 1, []
            while True:
                k = data.index('"', j)
                parts.append(data[j:k])
                if k + 1 < n and data[k + 1] == '"':
                    parts.append('"')
                    j = k + 2
                else:
                    i = k + 1
                    break
            row.append(("q", "".join(parts)))
        else:
            j = i
            while j < n and data[j] not in ",\n":
                j += 1
            row.append(data[i:j] if j > i else None)
            i = j
        if i < n and data[i] == ",":
            i += 1
            if i == n or data[i] == "\n":
                row.append(None)
        if i < n and data[i] == "\n":
            rows.append(row)
            row = []
            i += 1
    if row:
        rows.append(row)
    header = [h[1] if isinstance(h, tuple) else h for h in rows[0]]
    return header, rows[1:]


def generate_dataset(out, *args):
    """Writes a benchmark-shaped dataset with the tsread CLI (`tsread gen OUT ARGS...`), found next to
    the package in a build tree (<build>/tsread) or at $TSREAD_CLI; skips the test without it."""
    import subprocess

    import tsread

    cli = os.environ.get("TSREAD_CLI") or str(pathlib.Path(tsread.__file__).resolve().parents[2] / "tsread")
    if not os.path.exists(cli):
        pytest.skip("the tsread CLI (to write the dataset) is not next to the package; set TSREAD_CLI")
    subprocess.run([cli, "gen", str(out), *map(str, args)], check=True, capture_output=True)
    return str(out)


@pytest.fixture(scope="session")
def test_files(tmp_path_factory):
    """The directory of the small files python/tests/support/write_test_files.cc writes (found next
    to the package in a build tree, <build>/python/write_test_files, or at $TSREAD_TEST_WRITER)."""
    import subprocess

    import tsread

    writer = os.environ.get("TSREAD_TEST_WRITER") or str(
        pathlib.Path(tsread.__file__).resolve().parents[1] / "write_test_files")
    if not os.path.exists(writer):
        pytest.skip("write_test_files (python/tests/support) is not next to the package; set TSREAD_TEST_WRITER")
    out = tmp_path_factory.mktemp("test_files")
    subprocess.run([writer, str(out)], check=True, capture_output=True)
    return out
