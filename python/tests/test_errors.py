"""Corrupt, truncated and missing inputs raise exceptions (never crash the interpreter)."""

import random

import pytest

import tsread


@pytest.fixture(scope="module")
def original(fixtures):
    return (fixtures / "table_alltypes.tsfile").read_bytes()


@pytest.mark.parametrize("keep", [0, 5, 100, 3000, 0.5, -100, -1])
def test_truncated_raises_corrupt_file_error(tmp_path, original, keep):
    n = int(len(original) * keep) if isinstance(keep, float) else (keep if keep >= 0 else len(original) + keep)
    path = tmp_path / "t.tsfile"
    path.write_bytes(original[:n])
    with pytest.raises(tsread.CorruptFileError) as e:
        tsread.read_table(path)
    assert isinstance(e.value, ValueError)
    assert e.value.file == str(path)
    assert str(path) in str(e.value)
    if n > 20:
        assert e.value.offset is not None


def test_corrupted_bytes_raise_or_read(tmp_path, original):
    """Byte flips anywhere: the read succeeds or raises ValueError/OSError, 60 times."""
    rng = random.Random(12)
    path = tmp_path / "c.tsfile"
    raised = 0
    for _ in range(60):
        data = bytearray(original)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        path.write_bytes(bytes(data))
        try:
            tsread.read_table(path)
            list(tsread.iter_batches(path, batch_rows=10000))
        except (ValueError, OSError):
            raised += 1
    assert raised > 0


def test_missing_file_is_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        tsread.open(tmp_path / "missing.tsfile")
    with pytest.raises(OSError):
        tsread.read_table(tmp_path / "missing.tsfile")


def test_not_a_tsfile(tmp_path):
    path = tmp_path / "x.tsfile"
    path.write_bytes(b"hello, this is not a TsFile at all" * 10)
    with pytest.raises(tsread.CorruptFileError):
        tsread.open(path)


def test_corrupt_file_in_dataset_names_it(tmp_path, fixtures, original):
    (tmp_path / "a.tsfile").write_bytes((fixtures / "table_alltypes.tsfile").read_bytes())
    (tmp_path / "b.tsfile").write_bytes(original[: len(original) // 2])
    with pytest.raises(tsread.CorruptFileError) as e:
        tsread.read_table(tmp_path)
    assert e.value.file == str(tmp_path / "b.tsfile")


@pytest.mark.parametrize("name", [b"t_all", b"f_int32", b"f_string", b"region", b"dev_17", b"mode_5"])
def test_damaged_names_raise_corrupt_file_error_never_unicode_errors(tmp_path, original, name):
    """A byte of a stored string (table, column, tag value, statistics) turned into one that is
    not UTF-8: every call reads or raises tsread's errors, never a raw UnicodeDecodeError."""
    at = [i for i in range(len(original)) if original.startswith(name, i)]
    assert at, name
    for where in at[:4]:
        data = bytearray(original)
        data[where + 1] = 0xFF
        path = tmp_path / "n.tsfile"
        path.write_bytes(bytes(data))
        for call in (lambda: tsread.read_table(path), lambda: list(tsread.iter_batches(path, batch_rows=50000)),
                     lambda: tsread.open(path).devices(), lambda: tsread.open(path).info(),
                     lambda: tsread.last(path), lambda: tsread.aggregate(path),
                     lambda: tsread.read_table(path, filters=[("f_string", "=", "mode_5")])):
            try:
                call()
            except UnicodeError as e:  # before ValueError: UnicodeDecodeError is one
                pytest.fail(f"{name!r} damaged at {where}: {e!r}")
            except tsread.CorruptFileError as e:
                assert e.file == str(path)
            except (ValueError, OSError):
                pass
