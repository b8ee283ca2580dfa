"""Inside the layers: no import circles, no undeclared internal API, deferred imports say why (docs/design.md).

The layer contract (tests/project/test_layers.py) forbids imports that run up a layer; it says nothing about
modules of one layer importing each other in a circle, nor about a module reaching into another one's
``_private`` names.  Both are checked here over every import of ``exactdp/`` — module-level and
function-local ones alike (grimp reads both):

1. **Circles.**  The strongly connected components of the import graph among the modules of ``exactdp``
   (grimp, external packages excluded) are the circles.  The only one allowed is the deliberate tie of
   ``numbers/{rb,digits,exact_zero}`` (the ball type, its decimal printer and its exact zero test use each
   other), :data:`ALLOWED_CIRCLE`.

2. **Private names.**  No module imports a ``_name`` (one leading underscore; dunder names such as
   ``__version__`` are public) from another module — neither ``from m import _name`` nor ``m._name`` on a
   module ``m`` it imported.  A helper two modules share is a public name of a lower module.  Rule for
   private *modules* (``pkg/_m.py``): they are the private implementation files of their package ``pkg``,
   so modules inside ``pkg`` (and its subpackages) may import them and their public names; a module outside
   ``pkg`` may not.

3. **Deferred imports.**  A function-local import of a module of the same package (a sibling) exists only to
   keep start-up time down (e.g. the CLI imports a command's heavy machinery only when that command runs),
   and says so with the comment ``# deferred: start-up`` on its line; inside :data:`ALLOWED_CIRCLE` the
   comment ``# deferred: circle`` marks the imports that close the deliberate tie.  A sibling import that
   is neither belongs at the top of the module.

"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "exactdp"

#: the one deliberate circle: the ball type, its decimal printer and its exact zero test
ALLOWED_CIRCLE = frozenset({"exactdp.numbers.rb", "exactdp.numbers.digits", "exactdp.numbers.exact_zero"})


DEFERRED_MARK = "# deferred: start-up"
CIRCLE_MARK = "# deferred: circle"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _package_of(module: str) -> str:
    return module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]


def _may_import_module(target: str, importer: str) -> bool:
    """A private module ``pkg._m`` (or anything below it) is importable only from inside ``pkg``."""
    parts = target.split(".")
    for i, part in enumerate(parts):
        if _private(part):
            owner = ".".join(parts[:i])
            if not (importer == owner or importer.startswith(owner + ".")):
                return False
    return True


def _absolute(node: ast.ImportFrom, module: str) -> str:
    if not node.level:
        return node.module or ""
    base = _package_of(module).split(".")
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def strongly_connected_components(graph) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.find_modules_directly_imported_by(w)))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def private_imports(module: str, source: str) -> list[str]:
    """``"line: what"`` for every private name (or private module outside its package) ``module`` imports."""
    tree = ast.parse(source)
    found = []
    aliases: dict[str, str] = {}  # local name -> module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            src = _absolute(node, module)
            if src.partition(".")[0] != "exactdp":
                continue
            if not _may_import_module(src, module):
                found.append(f"{node.lineno}: {src} is private to its package")
            for a in node.names:
                full = f"{src}.{a.name}"
                if full in MODULES:
                    aliases[a.asname or a.name] = full
                    if not _may_import_module(full, module):
                        found.append(f"{node.lineno}: {full} is private to its package")
                elif _private(a.name) and src != module:
                    found.append(f"{node.lineno}: {full}")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.partition(".")[0] == "exactdp":
                    if a.asname:
                        aliases[a.asname] = a.name
                    if not _may_import_module(a.name, module):
                        found.append(f"{node.lineno}: {a.name} is private to its package")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _private(node.attr)
                and aliases.get(node.value.id, module) != module):
            found.append(f"{node.lineno}: {aliases[node.value.id]}.{node.attr}")
    return found


def unmarked_deferred_imports(module: str, source: str) -> list[str]:
    """Function-local imports of a sibling module (same package) without the ``# deferred:`` reason."""
    package = _package_of(module)
    if package == "exactdp":
        return []  # top-level modules are not one package's parts: the layer contract orders them
    lines = source.splitlines()
    found = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, ast.ImportFrom):
                continue
            src = _absolute(node, module)
            targets = {f"{src}.{a.name}" if f"{src}.{a.name}" in MODULES else src for a in node.names}
            if not any(t.startswith(package + ".") and t != module for t in targets):
                continue
            text = "\n".join(lines[node.lineno - 1:node.end_lineno])
            ok = DEFERRED_MARK in text or (CIRCLE_MARK in text and module in ALLOWED_CIRCLE)
            if not ok:
                found.append(f"{node.lineno}: {lines[node.lineno - 1].strip()}")
    return found


def test_the_import_graph_has_only_the_deliberate_circle():
    graph = grimp.build_graph("exactdp", include_external_packages=False)
    assert "exactdp.algebra.prover" in graph.modules and len(graph.modules) == len(MODULES)
    circles = [c for c in strongly_connected_components(graph)
               if set(c) != ALLOWED_CIRCLE]
    assert circles == [], "import circles inside exactdp:\n" + "\n".join(map(str, circles))


def test_the_deliberate_circle_is_still_a_circle():
    """If the numbers tie is ever untied, :data:`ALLOWED_CIRCLE` must go: it may not allow what is gone."""
    graph = grimp.build_graph("exactdp", include_external_packages=False)
    assert sorted(ALLOWED_CIRCLE) in strongly_connected_components(graph)


def test_no_module_imports_a_private_name_of_another():
    bad = {m: found for m, p in MODULES.items()
           for found in [private_imports(m, p.read_text(encoding="utf-8"))] if found}
    assert bad == {}, "imports of private names:\n" + "\n".join(f"{m} {f}" for m, fs in bad.items() for f in fs)


def test_function_local_sibling_imports_say_why():
    bad = {m: found for m, p in MODULES.items()
           for found in [unmarked_deferred_imports(m, p.read_text(encoding="utf-8"))] if found}
    assert bad == {}, ("function-local imports of a sibling module without '# deferred: start-up':\n"
                       + "\n".join(f"{m} {f}" for m, fs in bad.items() for f in fs))


# -- the checks can fail ----------------------------------------------------------------------------------


class _Graph:
    def __init__(self, edges: dict):
        self.edges = edges
        self.modules = set(edges) | {w for ws in edges.values() for w in ws}

    def find_modules_directly_imported_by(self, m):
        return set(self.edges.get(m, ()))


def test_circles_are_found_in_a_small_graph():
    g = _Graph({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}})
    assert sorted(strongly_connected_components(g)) == [["a", "b", "c"], ["d", "e"]]
    assert strongly_connected_components(_Graph({"a": {"b"}, "b": {"c"}})) == []


@pytest.mark.parametrize("source, expected", [
    ("from exactdp.algebra.regions import Region, _s\n", ["1: exactdp.algebra.regions._s"]),
    ("def f():\n    from exactdp.theory.extremal import _Entries\n", ["2: exactdp.theory.extremal._Entries"]),
    ("from exactdp.numbers import linalg\nlinalg._pareto(1)\n", ["2: exactdp.numbers.linalg._pareto"]),
    ("import exactdp.numbers.linalg as L\nL._pareto(1)\n", ["2: exactdp.numbers.linalg._pareto"]),
    ("from .regions import _q\n", ["1: exactdp.algebra.regions._q"]),
    ("from exactdp.cli import _common\n", ["1: exactdp.cli._common is private to its package"]),
    ("from exactdp.cli._common import fail\n", ["1: exactdp.cli._common is private to its package"]),
    ("from exactdp import __version__\nfrom exactdp.algebra.regions import Region\n", []),
    ("def _own():\n    pass\n_own()\n", []),
])
def test_the_private_scan_can_fail(source, expected):
    assert private_imports("exactdp.algebra.prover", source) == expected


def test_a_private_module_is_open_to_its_own_package():
    assert private_imports("exactdp.cli.check", "from exactdp.cli import _common\n_common.fail('x')\n") == []
    assert private_imports("exactdp.cli.check", "from exactdp.cli._common import fail\n") == []
    assert private_imports("exactdp.cli.check", "from exactdp.cli import _common\n_common._x\n") == [
        "2: exactdp.cli._common._x"]


def test_the_deferred_scan_can_fail():
    plain = "def f():\n    from exactdp.algebra.boolean import decide_formula\n"
    assert unmarked_deferred_imports("exactdp.algebra.prover", plain) == [
        "2: from exactdp.algebra.boolean import decide_formula"]
    marked = "def f():\n    from exactdp.algebra.boolean import decide_formula  # deferred: start-up\n"
    assert unmarked_deferred_imports("exactdp.algebra.prover", marked) == []
    lower = "def f():\n    from exactdp.numbers.qq import to_qq\n"  # another package: the layer contract's business
    assert unmarked_deferred_imports("exactdp.algebra.prover", lower) == []
    circle = "def f():\n    from exactdp.numbers.rb import arb_eval  # deferred: circle\n"
    assert unmarked_deferred_imports("exactdp.numbers.digits", circle) == []
    assert unmarked_deferred_imports("exactdp.numbers.display", circle) != []


if __name__ == "__main__":  # pragma: no cover - a quick report while refactoring
    g = grimp.build_graph("exactdp", include_external_packages=False)
    for c in strongly_connected_components(g):
        print("circle:", c)
    for m, p in MODULES.items():
        for f in private_imports(m, p.read_text(encoding="utf-8")) + unmarked_deferred_imports(
                m, p.read_text(encoding="utf-8")):
            print(m, f)
    sys.exit(0)


# -- numbers/ knows nothing of the measures (issue 22 item 2) ---------------------------------------------

#: words naming a measure of the papers; a function of numbers/ with one of them in its name is a measure's
#: route living in the bottom layer (it belongs in measures/, e.g. measures/candidate_filter.py)
MEASURE_WORDS = ("hockey_stick", "pml", "ldp", "leakage", "privacy", "profile", "eta_", "divergence")


def measure_named_definitions(source: str) -> list[str]:
    """The functions and classes of a module whose name holds a measure word."""
    return [f"{node.lineno}: {node.name}" for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and any(w in node.name.lower() for w in MEASURE_WORDS)]


def test_numbers_defines_no_measure():
    bad = {m: found for m, p in MODULES.items() if m.startswith("exactdp.numbers")
           for found in [measure_named_definitions(p.read_text(encoding="utf-8"))] if found}
    assert bad == {}, "measure routes in numbers/:\n" + "\n".join(f"{m} {f}" for m, fs in bad.items() for f in fs)


def test_the_measure_scan_can_fail():
    assert measure_named_definitions("def ldp_columns(R):\n    pass\nclass X:\n    def max_pairwise_hockey_stick(s):"
                                     "\n        pass\n") == ["1: ldp_columns", "4: max_pairwise_hockey_stick"]
    assert measure_named_definitions("def column_argext(R):\n    pass\n") == []
