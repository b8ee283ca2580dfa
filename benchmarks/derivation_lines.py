"""How much of a verify report's derivation is still text (issue 23 items 2 and 5): counts, over every check of
``exactdp verify --format json``, the derivation steps that are structured (their formulas stored apart and
read by the safe reader, ``steps[k].math`` non-empty; and among those the ones whose words still hold ASCII
mathematics, such as a hand-written constraint label), the text-only steps, and among those the ones whose
text still holds ASCII mathematics (a formula piece found by :func:`exactdp.output.ascii_math.segments`);
prints a few examples of the latter by their first words.

Run: ``python benchmarks/derivation_lines.py REPORT.json`` (the report of
``exactdp verify --format json -o REPORT.json``).  A count, not a test.
"""

from __future__ import annotations

import collections
import json
import re
import sys

from exactdp.output.ascii_math import segments


def count(report: dict) -> dict:
    """``{"steps", "structured", "text", "text_with_ascii_maths", "kinds"}`` of one JSON report."""
    out = {"steps": 0, "structured": 0, "structured_prose_with_ascii_maths": 0, "text": 0, "text_with_ascii_maths": 0}
    kinds: collections.Counter = collections.Counter()
    for claim in report.get("result", report)["claims"]:
        for ev in claim["evidence"]:
            for step in ev["steps"]:
                out["steps"] += 1
                if step["math"]:
                    out["structured"] += 1  # (its words may still hold ASCII maths: a hand-written label)
                    words = re.sub(r"\{\d+\}", " ", step["prose"])
                    out["structured_prose_with_ascii_maths"] += any(f for f, _ in segments(words))
                    continue
                out["text"] += 1
                if any(is_formula for is_formula, _ in segments(step["prose"])):
                    out["text_with_ascii_maths"] += 1
                    key = re.sub(r"^\s*(\[[^\]]*\]\s*)?", "", step["prose"])
                    kinds[" ".join(re.sub(r"[^A-Za-z ]", " ", key).split()[:3])] += 1
    out["kinds"] = kinds.most_common(25)
    return out


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as f:
        result = count(json.load(f))
    for k, v in result.items():
        if k != "kinds":
            print(f"{k}: {v}")
    print("text lines with ASCII maths, by their first words:")
    for kind, n in result["kinds"]:
        print(f"  {n:5d}  {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
