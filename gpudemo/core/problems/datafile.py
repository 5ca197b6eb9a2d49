"""A person's own data: a CSV file of `x,y` (a regression) or `x1,x2,label` (a classification).

The file is untrusted input. It is read whole or not at all: a file that is missing,
empty, binary, not UTF-8 text or larger than MAX_BYTES is refused with the reason; a row
that is not two or three finite numbers (or has the wrong count, or a label that is not a
whole number from 0 to MAX_CLASSES - 1) is refused with its line number; more than
MAX_ROWS rows are refused. A first line of names (a header) is skipped. Nothing of a
refused file is kept.

Good files are read at numpy's speed (np.loadtxt: about a second per million rows here);
a bad one is then scanned line by line to name the first bad line. A file read once is
kept while it stays unchanged (same size and modification time), so each run, compare
and sweep of the same data does not read it again.
"""

from __future__ import annotations

import errno
import io
import math
import os
import re
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from gpudemo.core.base.errors import DataFileError
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, message
from gpudemo.core.settings.rules import SAMPLES_MAX, SAMPLES_MIN, quoted

MAX_ROWS = SAMPLES_MAX  # 10,000,000
MAX_BYTES = 1 << 30  # 1 GiB: 10,000,000 rows of three numbers with 30 characters each fit
MAX_CLASSES = 100
FLOAT32_MAX = float(np.finfo(np.float32).max)  # training is in float32: a larger value would be inf
SNIFF_BYTES = 64 * 1024  # the start of the file, checked for binary content before anything is parsed


@dataclass(frozen=True)
class DataSet:
    path: str  # absolute
    x: torch.Tensor  # (rows, 1) or (rows, 2), float32
    y: torch.Tensor  # (rows, 1) float32 (a regression) or (rows,) int64 classes
    header: bool  # its first line names the columns (the script skips it too)
    classes: int  # 0: a regression

    @property
    def rows(self) -> int:
        return len(self.y)

    @property
    def columns(self) -> int:
        return 3 if self.classes else 2


SMALL_ROWS = 100  # a regression this small starts from the linear model (starting_depth)


def starting_depth(data: DataSet) -> int | None:
    """The depth a person's first run of `data` starts from, where the usual one does not learn it: a small
    regression fits nn.Linear(1, 1), the tutorial's own model (depth 0), while the default 2 x 32 MLP at lr
    0.1 took the tutorial's three points to a loss of 1.8e20. None: the usual depth."""
    return 0 if not data.classes and data.rows <= SMALL_ROWS else None


def _refuse(template: str, **fields: object) -> DataFileError:
    return DataFileError(message(template, **fields))


NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")  # as a CSV writes one: no "1_000", no "nan"


def _is_number(text: str) -> bool:
    return NUMBER.fullmatch(text) is not None and math.isfinite(float(text))


def _first_bad_line(text: str, columns: int | None, first_line: int) -> DataFileError:
    """The error for the first line of `text` that is not `columns` finite numbers (line numbers from 1)."""
    for number, line in enumerate(text.splitlines(), first_line):
        if not line.strip():
            continue
        fields = line.split(",")
        if columns is None:
            columns = len(fields)
        if len(fields) != columns:
            return _refuse(
                QT_TRANSLATE_NOOP("core", "line {line} has {count} values, not {columns} like the first row"),
                line=number,
                count=len(fields),
                columns=columns,
            )
        for field in fields:
            if _is_number(field.strip()) and abs(float(field)) > FLOAT32_MAX:
                return _refuse(
                    QT_TRANSLATE_NOOP(
                        "core", "line {line}: {value} is too large to train on (float32 holds up to 3.4e38)"
                    ),
                    line=number,
                    value=quoted(field.strip()),
                )
            if not _is_number(field.strip()):
                return _refuse(
                    QT_TRANSLATE_NOOP(
                        "core", "line {line}: {value} is not a finite number (values are separated by commas)"
                    ),
                    line=number,
                    value=quoted(field.strip()),
                )
    return _refuse(QT_TRANSLATE_NOOP("core", "the file could not be read as numbers"))


def _parse(path: Path) -> DataSet:
    """The data set in `path`: its bytes read within the limit, decoded, its header split off, its rows
    parsed as numbers and checked as a regression or a classification."""
    text = _decode(path, _read(path))
    header, body = _split_header(text)
    skipped = 1 if header else 0
    if "\0" in body:
        raise _refuse(QT_TRANSLATE_NOOP("core", "{path} is a binary file, not CSV text"), path=path.name)
    values = _numbers(path, body, skipped)
    if values.shape[1] == 2:
        x = torch.from_numpy(values[:, :1].astype(np.float32))
        return DataSet(str(path), x, torch.from_numpy(values[:, 1:].astype(np.float32)), header, 0)
    return _classification(path, values, body, skipped, header)


def _read(path: Path) -> bytes:
    """The file's bytes: a file, within MAX_BYTES, readable."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise _refuse(QT_TRANSLATE_NOOP("core", "{path} is not a file"), path=path.name)
        if size > MAX_BYTES:
            raise _refuse(
                QT_TRANSLATE_NOOP("core", "{path} is {size} MiB: more than gpudemo reads ({limit} MiB); not loaded"),
                path=path.name,
                size=f"{size / 2**20:,.0f}",
                limit=f"{MAX_BYTES // 2**20:,}",
            )
        return path.read_bytes()
    except OSError as error:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "cannot read {path}: {reason}"),
            path=path.name,
            reason=error.strerror or str(error),
        ) from None


def _decode(path: Path, raw: bytes) -> str:
    """The bytes as text, refused with the reason where they are not a UTF-8 CSV (UTF-16, binary, CR-only
    lines, other encodings, nothing)."""
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16's byte-order mark, and its NULs after every ASCII letter
        raise _refuse(QT_TRANSLATE_NOOP("core", "{path} is UTF-16 text; save it as CSV in UTF-8"), path=path.name)
    if b"\0" in raw[:SNIFF_BYTES]:
        raise _refuse(QT_TRANSLATE_NOOP("core", "{path} is a binary file, not CSV text"), path=path.name)
    if b"\r" in raw and b"\n" not in raw:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} ends its lines with CR alone (old Mac); save it with LF or CRLF"),
            path=path.name,
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} is not UTF-8 text (byte {offset}); save it as CSV in UTF-8"),
            path=path.name,
            offset=f"{error.start:,}",
        ) from None
    if not text.strip():
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} is empty: write one row per sample, x,y or x1,x2,label"), path=path.name
        )
    return text


def _split_header(text: str) -> tuple[bool, str]:
    """(whether the first line is a header, the rows after it): a header is a first line with no number in it
    ("x,y", "x1,x2,label")."""
    first_end = text.find("\n")
    first = text[: first_end if first_end >= 0 else len(text)].strip()
    header = bool(first) and not any(_is_number(field.strip()) for field in first.split(","))
    body = text[first_end + 1 :] if header and first_end >= 0 else ("" if header else text)
    return header, body


def _numbers(path: Path, body: str, skipped: int) -> np.ndarray:
    """The rows as a (rows, 2 or 3) float64 array: finite, float32-sized, within the row limits; the first bad
    line named."""
    if body.count("\n") > MAX_ROWS + 1000:  # cheap: refused before parsing
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} has more than {limit} rows; gpudemo trains on at most {limit}"),
            path=path.name,
            limit=f"{MAX_ROWS:,}",
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "input contained no data": an empty body is refused below
            values = np.loadtxt(io.StringIO(body), delimiter=",", dtype=np.float64, ndmin=2, comments=None)
    except ValueError:
        raise _first_bad_line(body, None, 1 + skipped) from None
    if values.size == 0:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} has no rows of numbers: write one row per sample, x,y or x1,x2,label"),
            path=path.name,
        )
    rows, columns = values.shape
    if not np.isfinite(values).all() or (np.abs(values) > FLOAT32_MAX).any():
        raise _first_bad_line(body, columns, 1 + skipped)
    if columns not in (2, 3):
        raise _refuse(
            QT_TRANSLATE_NOOP(
                "core", "{path} has {columns} values a row: write x,y (a regression) or x1,x2,label (a classification)"
            ),
            path=path.name,
            columns=columns,
        )
    if rows < SAMPLES_MIN:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} has fewer than {low} rows: gpudemo trains on {low} to {high}"),
            path=path.name,
            low=SAMPLES_MIN,
            high=f"{MAX_ROWS:,}",
        )
    if rows > MAX_ROWS:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} has more than {limit} rows; gpudemo trains on at most {limit}"),
            path=path.name,
            limit=f"{MAX_ROWS:,}",
        )
    return values


def _classification(path: Path, values: np.ndarray, body: str, skipped: int, header: bool) -> DataSet:
    """Rows of x1,x2,label: whole labels from 0 to MAX_CLASSES - 1, at least two classes."""
    labels = values[:, 2]
    bad = (labels != np.round(labels)) | (labels < 0) | (labels >= MAX_CLASSES)
    if bad.any():
        index = int(bad.argmax())
        line = _line_of_row(body, index)
        fields = body.splitlines()[line - 1].split(",") if line <= len(body.splitlines()) else []
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "line {line}: the label {value} is not a whole number from 0 to {high}"),
            line=line + skipped,
            value=quoted(fields[2].strip() if len(fields) == 3 else f"{labels[index]:g}"),  # as written in the file
            high=MAX_CLASSES - 1,
        )
    if len(np.unique(labels)) < 2:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} has one class only: a classification needs at least two labels"),
            path=path.name,
        )
    x = torch.from_numpy(values[:, :2].astype(np.float32))
    return DataSet(str(path), x, torch.from_numpy(labels.astype(np.int64)), header, int(labels.max()) + 1)


def _line_of_row(body: str, index: int) -> int:
    """The 1-based line of `body` that holds row `index` (blank lines are not rows)."""
    row = -1
    for number, line in enumerate(body.splitlines(), 1):
        if line.strip():
            row += 1
            if row == index:
                return number
    return index + 1


_cache: dict[str, tuple[tuple[int, int], DataSet]] = {}
_lock = threading.Lock()


def read_data(path: str | os.PathLike) -> DataSet:
    """The data in `path`, read whole or refused with a DataFileError that says why."""
    try:
        resolved = Path(path).expanduser().resolve()  # a symlink loop: RuntimeError on Python 3.11, OSError after
        stat = resolved.stat()
    except RuntimeError:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "cannot read {path}: {reason}"),
            path=Path(path).name,
            reason=os.strerror(errno.ELOOP),
        ) from None
    except OSError as error:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "cannot read {path}: {reason}"),
            path=Path(path).name,
            reason=error.strerror or str(error),
        ) from None
    stamp = (stat.st_size, stat.st_mtime_ns)
    with _lock:
        kept = _cache.get(str(resolved))
        if kept is not None and kept[0] == stamp:
            return kept[1]
    data = _parse(resolved)
    with _lock:
        _cache.clear()  # one file kept: a large one is large
        _cache[str(resolved)] = (stamp, data)
    return data
