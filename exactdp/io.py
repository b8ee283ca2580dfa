"""Reading and writing kernels as files: JSON (a list of rows, or ``{"rows": ...}``) or CSV.

Entries are exact: JSON strings ``"3/7"``/``"0.25"`` or integers; JSON numbers with a fraction part or
exponent are floats and are refused by the kernel's own coercion (a :class:`CoercionError` naming the
entry, e.g. ``K[0][1]``; write them as strings).  CSV cells are read as exact strings.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from exactdp.errors import InputError, InvalidKernelError
from exactdp.kernels import Kernel
from exactdp.limits import require
from exactdp.regular_files import read_text


def kernel_from_text(text: str, fmt: str = "json", name: str | None = None, check_shape=None,
                     report=None, header: bool | None = None, row_labels: bool | None = None) -> Kernel:
    """Parse a kernel from JSON or CSV text.

    >>> kernel_from_text('{"rows": [["1/2", "1/2"], [1, 0]]}').rows
    ((1/2, 1/2), (1, 0))
    >>> kernel_from_text("0.25,0.75", "csv").rows
    ((1/4, 3/4),)
    >>> kernel_from_text("x,y=0,y=1\\na,1/4,3/4\\nb,1/2,1/2", "csv", report=print).rows
    CSV: header row 'y=0, y=1' and row labels 'a, b' skipped
    ((1/4, 3/4), (1/2, 1/2))

    A CSV header row and a first column of row labels are detected (:func:`csv_labels`) and skipped;
    ``report(line)``, if given, is told what was skipped.  ``header`` / ``row_labels`` (CSV only) say
    whether the first row / column are labels (``True``: skipped whatever they hold, e.g. outputs named
    0, 1, 2; ``False``: read as entries; ``None``: detected).  ``check_shape(N, M)``, if given, is called with the
    shape before any entry is parsed (a cost guard of the caller, e.g. :func:`exactdp.analysis.check_cost`).
    """
    # a cheap count before parsing: every entry but the last is followed by a separator (an upper bound when
    # an entry contains one), so a file with millions of entries is refused before it is parsed at all
    separators = text.count(",") + (text.count("\n") if fmt == "csv" else 0)
    require("max_entries", separators + 1, "kernel file: entries counted by their separators")
    if fmt == "json" and (header is not None or row_labels is not None):
        flag = "--header" if header is not None else "--row-labels"
        raise InputError(f"{flag}: only for a CSV kernel file (a JSON kernel file is a list of rows, no labels)")
    if fmt == "json":
        try:
            data = json.loads(text)  # JSON floats become Python floats, refused by Kernel
        except json.JSONDecodeError as exc:
            raise InvalidKernelError(f"kernel file: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        if isinstance(data, dict):
            if "rows" not in data:
                raise InvalidKernelError("kernel file: a JSON object must have a 'rows' field")
            name = file_name(data) or name
            data = data["rows"]
        if not isinstance(data, list):
            raise InvalidKernelError(f"kernel file: expected a list of rows, got {type(data).__name__}")
        _require_entries(data, check_shape)
        return Kernel(data, name=name)
    if fmt == "csv":
        reader = csv.reader(io.StringIO(text))
        try:
            rows = [[cell.strip() for cell in row] for row in reader if any(c.strip() for c in row)]
        except csv.Error as exc:  # a field over csv's own size limit (131072 characters), a stray NUL, ...
            from exactdp.limits import limit

            raise InvalidKernelError(f"kernel file: not valid CSV at line {reader.line_num} ({exc}); an entry may "
                                     f"hold at most max_text_length = {limit('max_text_length')} characters") from None
        rows, labels, column_labels = csv_labels(rows, header, row_labels)
        if report is not None and (labels or column_labels):
            report(_labels_note(labels, column_labels))
        _require_entries(rows, check_shape)
        return Kernel(rows, name=name)
    raise InputError(f"kernel file: unknown format {fmt!r}; use json or csv")


def _is_number(cell: str) -> bool:
    """Is a CSV cell an exact number for the kernel reader (the one safe reader, no symbols)?"""
    from exactdp.numbers.reader import read_expression

    try:
        read_expression(cell, name="cell", symbols={}, constants={})
    except InputError:
        return False
    return True


#: a CSV label: a word (letters, digits, _ . - + = : and spaces) starting with a letter, at most 64 characters
_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9_ .=:+-]{0,63}")


def _is_label(cell: str) -> bool:
    """A row or column label (never a dunder-like name such as ``x.__class__``: that stays an entry)."""
    return bool(_LABEL.fullmatch(cell)) and "__" not in cell and not _is_number(cell)


def csv_labels(rows: list[list[str]], header: bool | None = None,
               row_labels: bool | None = None) -> tuple[list[list[str]], tuple[str, ...], tuple[str, ...]]:
    """``(entries, row labels, column labels)`` of a CSV table whose first row and first column may be labels.

    Rule: the first column holds row labels when every cell of it below the first row is a label (a word:
    letters, digits, ``_ . - + = :`` and spaces, starting with a letter, no ``__``, not a number for the safe
    reader); the first row is a header when each of its cells past that column is a label or a number and at
    least one is a label.  Anything else stays an entry and meets the kernel's reader and its errors (a
    formula or code in a header cell is never skipped silently).  A header of numbers only (outputs named 0,
    1, 2) is not told from a row: it is read as one and fails the row-sum check, the sum in the message;
    ``header=True`` (``--header``) says the first row is a header whatever it holds, ``row_labels=True``
    (``--row-labels``) the same of the first column, and ``False`` that there is none (``None``: detect)."""
    if not rows:
        return rows, (), ()
    if header and len(rows) < 2:
        raise InvalidKernelError("--header: the CSV file has no row below its header row")
    body = rows[1:] if header or (header is None and len(rows) > 1) else rows
    if row_labels is None:
        labelled = all(r and _is_label(r[0]) for r in body)
    else:
        labelled = row_labels
        if labelled and not all(r for r in body):
            raise InvalidKernelError("--row-labels: a CSV row is empty; every row needs its label first")
    head = rows[0][1 if labelled else 0:]
    if header is None:
        header = len(rows) > 1 and any(_is_label(c) for c in head) and all(_is_label(c) or _is_number(c) for c in head)
    column_labels = tuple(head) if header else ()
    data = rows[1:] if header else rows
    labels = tuple(r[0] for r in data) if labelled else ()
    return ([r[1:] for r in data] if labelled else data), labels, column_labels


def _labels_note(row_labels: tuple[str, ...], column_labels: tuple[str, ...]) -> str:
    from exactdp.limits import quote

    parts = []
    if column_labels:
        parts.append(f"header row {quote(', '.join(column_labels), 60)}")
    if row_labels:
        parts.append(f"row labels {quote(', '.join(row_labels), 60)}")
    return f"CSV: {' and '.join(parts)} skipped"


def file_name(data: dict) -> str | None:
    """The ``"name"`` of a kernel file's JSON object (None when absent): a string, as the schema
    ``exactdp/schemas/kernel.json`` says; a list, a number or null is refused in one line."""
    if "name" in data and not isinstance(data["name"], str):
        raise InvalidKernelError(f"kernel file: \"name\" must be a string (exactdp/schemas/kernel.json), "
                                 f"got {type(data['name']).__name__}")
    return data.get("name")


def _require_entries(rows, check_shape=None) -> None:
    """Refuse more than ``max_entries`` entries before any entry is parsed (rows x the longest row)."""
    width = max((len(r) for r in rows if isinstance(r, (list, tuple))), default=0)
    require("max_entries", len(rows) * max(width, 1), f"kernel file: {len(rows)} rows of up to {width} entries")
    if check_shape is not None and rows and width:
        check_shape(len(rows), width)


def read_text_file(path: str | Path, name: str = "FILE") -> str:
    """The UTF-8 text of a user's regular file (:func:`exactdp.regular_files.read_text`: a FIFO, a device or
    a socket is refused without being opened), its size checked (``max_file_bytes``) before it is read and
    the read itself bounded; a missing file, a directory or a binary file is one clear error naming ``name``."""
    return read_text(path, name)


def read_kernel(path: str | Path, *, check_shape=None, report=None, header: bool | None = None,
                row_labels: bool | None = None) -> Kernel:
    """Read a kernel file; the format follows the suffix (``.csv`` → CSV, anything else → JSON).

    The file's size is checked (``max_file_bytes``) before it is read and its number of entries
    (``max_entries``) before any entry is parsed; a binary file is refused with one line.
    ``check_shape(N, M)`` is the caller's own guard, called with the shape before the entries are parsed;
    ``report(line)`` is told about a CSV header row or row labels that were skipped; ``header`` and
    ``row_labels`` are :func:`kernel_from_text`'s (CSV only).
    """
    p = Path(path)
    text = read_text_file(p)
    fmt = "csv" if p.suffix.lower() == ".csv" else "json"
    return kernel_from_text(text, fmt, name=p.stem, check_shape=check_shape, report=report, header=header,
                            row_labels=row_labels)


def kernel_to_json(K: Kernel, **extra) -> str:
    """A JSON document that :func:`read_kernel` (and ``exactdp analyze``) accepts back."""
    doc: dict[str, Any] = {"rows": K.as_strings()}
    if K.name:
        doc["name"] = K.name
    doc.update(extra)
    return json.dumps(doc, indent=2)
