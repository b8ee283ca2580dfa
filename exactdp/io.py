"""Reading and writing kernels as files: JSON (a list of rows, or ``{"rows": ...}``) or CSV.

Entries are exact: JSON strings ``"3/7"``/``"0.25"`` or integers; JSON numbers with a fraction part or
exponent are floats and are refused by the kernel's own coercion (a :class:`CoercionError` naming the
entry, e.g. ``K[0][1]``; write them as strings).  CSV cells are read as exact strings.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from exactdp.errors import ExactDPError, InvalidKernelError
from exactdp.kernels import Kernel


def kernel_from_text(text: str, fmt: str = "json", name: str | None = None) -> Kernel:
    """Parse a kernel from JSON or CSV text.

    >>> kernel_from_text('{"rows": [["1/2", "1/2"], [1, 0]]}').rows
    ((1/2, 1/2), (1, 0))
    >>> kernel_from_text("0.25,0.75", "csv").rows
    ((1/4, 3/4),)
    """
    if fmt == "json":
        try:
            data = json.loads(text)  # JSON floats become Python floats, refused by Kernel
        except json.JSONDecodeError as exc:
            raise InvalidKernelError(f"kernel file: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        if isinstance(data, dict):
            if "rows" not in data:
                raise InvalidKernelError("kernel file: a JSON object must have a 'rows' field")
            name = data.get("name") or name
            data = data["rows"]
        if not isinstance(data, list):
            raise InvalidKernelError(f"kernel file: expected a list of rows, got {type(data).__name__}")
        return Kernel(data, name=name)
    if fmt == "csv":
        rows = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text)) if any(c.strip() for c in row)]
        return Kernel(rows, name=name)
    raise ExactDPError(f"kernel file: unknown format {fmt!r}; use json or csv")


def read_kernel(path: str | Path) -> Kernel:
    """Read a kernel file; the format follows the suffix (``.csv`` → CSV, anything else → JSON)."""
    p = Path(path)
    try:
        text = p.read_text()
    except FileNotFoundError:
        raise ExactDPError(f"FILE: no such file: {p}") from None
    except IsADirectoryError:
        raise ExactDPError(f"FILE: is a directory: {p}") from None
    except UnicodeDecodeError:
        raise ExactDPError(f"FILE: not a text file: {p}") from None
    fmt = "csv" if p.suffix.lower() == ".csv" else "json"
    return kernel_from_text(text, fmt, name=p.stem)


def kernel_to_json(K: Kernel, **extra) -> str:
    """A JSON document that :func:`read_kernel` (and ``exactdp analyze``) accepts back."""
    doc = {"rows": K.as_strings()}
    if K.name:
        doc["name"] = K.name
    doc.update(extra)
    return json.dumps(doc, indent=2)
