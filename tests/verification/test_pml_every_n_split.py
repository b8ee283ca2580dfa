"""The every-N proof of an (eps,c)-PML bound whose lifted multipliers change sign (issue 25 item 1): N = 2 by the
per-N parametric LP, N >= 3 by split trees on t >= 1, c > 0, 3c <= u <= 1 (u = N*c), each leaf a lifted basis
checked on its cell, the coverage decided by the engine; exported, re-checked, and tampered copies rejected."""

from __future__ import annotations

import dataclasses
import json

import pytest
import sympy

from exactdp.algebra.certificates import Certificate, check
from exactdp.numbers.reader import read_expression
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, Recheck, _with_uses_met, recheck_certificate
from exactdp.verification.conjecture import check as check_conjecture
from exactdp.verification.conjecture import pieces as P

from tests.verification.test_conjecture_synthesis import PML_ZA_PLUS

#: one worker runs this module (pytest's --dist loadgroup, pyproject.toml): the proof fixture is computed once, and
#: recheck's memo of decided questions serves the tampered copies after the untouched tree.  Best effort: pytest 9.2
#: with pytest-xdist 3.8 ignores xdist_group marks (xdist issue 1386), and the module is then spread over the workers
#: as before (each computes the fixture) — slower, never wrong
pytestmark = pytest.mark.xdist_group("pml_za_plus")

#: the N >= 3 domain as the certificates write it
D3 = ("t >= 1", "c > 0", "u >= 3*c", "u <= 1")


@pytest.fixture(scope="module")
def proof():
    return check_conjecture(PML_ZA_PLUS, "pml")


def _tree(result):
    """The split-tree certificate of the N >= 3 part (filed under the conjecture, claim check)."""
    (x,) = [x for x in result.certificates if x.kind == "split-tree"]
    return x


def _both(cert: Certificate) -> tuple:
    """(engine truth, recheck status), the engine's through a JSON round trip."""
    d = cert.to_json()
    return check(Certificate.from_json(json.loads(json.dumps(d)))).truth, recheck_certificate(d).status


@pytest.mark.slow
def test_pml_za_plus_is_proved_for_every_n(proof):
    """PROVED for all N and M: N = 2 by its own parametric LP (3 regions), N >= 3 by one split-tree certificate on
    3c <= u <= 1 (a leaf for each of the arguments 1 and (t - 1)/(t(1 - u) + 1), three leaves for the third)
    carrying the statement "Min(arguments) - (a - 2b) >= 0 under the LP's constraints on D3"; every certificate
    checks TRUE in the engine and OK in the independent re-check, which re-checks that binding too."""
    assert proof.verdict == "proved"
    assert proof.scope.startswith("all N, M")
    text = "\n".join(proof.proof)
    assert "pml, N = 2: parametric LP" in text and "then every N >= 3 on the domain" in text
    assert "at u = N*c the statement of" in text and "certificate cases checked: TRUE" in text
    x = _tree(proof)
    assert x.region == D3 and len(x.arguments) == 3 and len(x.leaf_branches) == 5
    assert [tr[0] for tr in x.trees] == ["leaf", "leaf", "split"]
    assert x.statement is not None and x.statement.claim == "step of check" and x.statement.domain == D3
    assert x.statement.conclusions == (f"{x.conclusion()} >= 0",)
    statuses = [recheck_certificate(c.to_json()).status for c in proof.certificates]
    assert statuses == [OK] * len(proof.certificates)
    r = recheck_certificate(x.to_json())
    assert any(s.startswith("statement: ") for s in r.steps)
    assert sum(s.startswith("leaf ") for s in r.steps) == 5


@pytest.mark.slow
def test_the_leaves_are_the_lp_bounds_below_the_branches(proof):
    """At exact sample points of each leaf's cell (derived from the tree), the LP solved there is at most the
    leaf's bound V = E - slack (weak duality) and V is at most the leaf's branch E; the cells of the third
    argument's tree cover all 1056 sample points of the domain."""
    from flint import fmpq

    from exactdp.algebra.lp import solve
    from exactdp.verification.conjecture import synthesis as Y

    *_, problem = Y._lp("pml", sympy.Integer(2), None)
    x = _tree(proof)
    found, bad = x.leaves()
    assert bad == []
    syms = {str(s): s for s in (Y.t, Y.c, Y.u, Y.a, Y.b)}
    points = P.sample_points()
    third = [cell for _, i, cell in found if i == 2]
    assert len(third) == 3
    covered = [p for p in points if any(all(bool(r.xreplace(p)) for r in cell) for cell in third)]
    assert len(points) == 1056 and covered == points
    for k, i, cell in found:
        combo = x.leaf_combination(k, cell)
        E = read_expression(x.leaf_branches[k], symbols=syms)
        V = E - read_expression(combo.slack, symbols=syms)
        inside = [p for p in points if all(bool(r.xreplace(p)) for r in cell)]
        assert len(inside) >= 10
        for p in inside[::max(1, len(inside) // 20)]:
            lp = solve(problem.at({k2: fmpq(int(v.p), int(v.q)) for k2, v in p.items()})).value
            assert sympy.Rational(int(lp.p), int(lp.q)) <= V.xreplace(p) <= E.xreplace(p), (p, k)


def _tampered(x):
    from exactdp.claim_statement import restating

    third = x.trees[2]
    assert third[0] == "split" and third[2][0] == "split"
    trees = lambda t3: (*x.trees[:2], t3)  # noqa: E731
    yield "a split condition edited (the leaves' cells swapped)", dataclasses.replace(
        x, trees=trees((third[0], third[1], ("split", "2*c*t - 1 >= 0", *third[2][2:]), third[3])))
    yield "a leaf cell shrunk (part of it left open)", dataclasses.replace(
        x, trees=trees((*third[:3], ("split", "1 - t*u >= 0", third[3], ("open",)))))
    yield "a leaf dropped from its tree", dataclasses.replace(x, trees=trees((*third[:3], third[2])))
    yield "an open leaf instead of a leaf", dataclasses.replace(x, trees=trees((*third[:3], ("open",))))
    yield "a branch replaced by a larger expression", dataclasses.replace(
        x, leaf_branches=tuple(f"{e} + 1" if k == 2 else e for k, e in enumerate(x.leaf_branches)))
    m = x.leaf_multipliers[2]
    j = next(i for i, v in enumerate(m) if v != "0")
    yield "a multiplier changed", dataclasses.replace(x, leaf_multipliers=tuple(
        tuple(f"2*({v})" if (k, i) == (2, j) else v for i, v in enumerate(row)) if k == 2 else row
        for k, row in enumerate(x.leaf_multipliers)))
    wide = tuple("u >= 2*c" if r == "u >= 3*c" else r for r in x.region)
    y = dataclasses.replace(x.bound_to(None), region=wide)
    yield "the domain widened to u >= 2c (and the statement with it)", y.bound_to(
        restating("check", y.to_json(), wide))
    st = x.statement
    yield "the statement's domain widened to u >= 2c", x.bound_to(dataclasses.replace(st, domain=wide))
    assert st.conclusions[0].endswith(" - (a - 2*b) >= 0")
    yield "the statement edited to a stronger bound", x.bound_to(dataclasses.replace(
        st, conclusions=(st.conclusions[0].replace(" - (a - 2*b) >= 0", " - 1/10 - (a - 2*b) >= 0"),)))


@pytest.mark.slow
def test_tampered_certificates_are_rejected_by_the_engine_and_by_recheck(proof):
    seen = []
    for what, cert in _tampered(_tree(proof)):
        truth, status = _both(cert)
        assert truth is not Truth.TRUE, what
        assert status == REJECTED, what
        seen.append(what)
    assert len(seen) == 9


def test_branches_of_the_pml_za_plus_argument_are_its_two_max_cases():
    """The argument 2(u - 2c)t + Max(t - 2 + (u - c)t, 0)/(t(1 - u) + 1) has the branches 2(u - 2c)t and
    2(u - 2c)t + (t - 2 + (u - c)t)/(t(1 - u) + 1), each cancelled; at a point with t - 2 + (u - c)t < 0 the
    argument equals the first, and at one with it > 0 the second."""
    t, c, u = P.t, P.c, P.u
    A = 2 * (u - 2 * c) * t + sympy.Max(t - 2 + (u - c) * t, 0) / (t * (1 - u) + 1)
    E1, E2 = 2 * (u - 2 * c) * t, 2 * (u - 2 * c) * t + (t - 2 + (u - c) * t) / (t * (1 - u) + 1)
    got = P.branches(A)
    assert len(got) == 2 and {sympy.cancel(g - E1) for g in got} == {0, sympy.cancel(E2 - E1)}
    low = {t: sympy.Rational(9, 8), u: sympy.Rational(1, 2), c: sympy.Rational(1, 8)}  # t - 2 + (u - c)t < 0
    high = {t: sympy.Integer(3), u: sympy.Rational(1, 2), c: sympy.Rational(1, 8)}
    assert A.xreplace(low) == E1.xreplace(low) == sympy.Rational(9, 16)
    assert A.xreplace(high) == E2.xreplace(high) == sympy.Rational(3, 2) + sympy.Rational(17, 8) / sympy.Rational(5, 2)


def test_the_tree_of_the_leaves_gives_back_their_cells():
    """The split tree written from the leaves m >= 0 and s >= 0, m >= 0 and -s >= 0, -m >= 0 (m = 2 - t(1 - u + 3c),
    s = 1 - 2ct; grow's order) is split(m, split(s, leaf 0, leaf 1), leaf 2), and walking it gives back exactly
    those cells (the complement of g >= 0 is -g >= 0); a tree without leaf 2 or with an open cell is refused."""
    from exactdp.algebra.certificates.split_tree import walk_trees

    t, c, u = P.t, P.c, P.u
    m, s = sympy.expand(2 - t * (1 - u + 3 * c)), 1 - 2 * c * t
    leaves = [P.Leaf((m, s), None, None), P.Leaf((m, -s), None, None), P.Leaf((-m,), None, None)]
    tree = P.tree_of(leaves)
    assert tree == ("split", "-3*c*t + t*u - t + 2 >= 0", ("split", "-2*c*t + 1 >= 0", ("leaf", "0"), ("leaf", "1")),
                    ("leaf", "2"))
    syms = {"t": t, "c": c, "u": u}
    read = lambda txt: read_expression(txt, symbols=syms, relations=True)  # noqa: E731
    found, bad = walk_trees((tree,), 3, read)
    assert bad == [] and [(k, i, [r.lhs for r in cell]) for k, i, cell in found] == [
        (0, 0, [m, s]), (1, 0, [m, -s]), (2, 0, [-m])]
    assert walk_trees((tree[2],), 3, read)[1] == ["the trees' leaves [0, 1] are not each of the 3 leaves exactly once"]
    assert walk_trees((("split", tree[1], tree[2], ("open",)),), 3, read)[1][0].startswith("coverage gap")


def test_a_split_tree_certificate_on_one_parameter():
    """a <= Max(1, p) for 0 <= p <= 2 under 1 - a >= 0: the tree split(p - 1 >= 0, leaf p, leaf 1) with multiplier 1
    is TRUE in the engine and OK in recheck (slacks p - 1 and 0, branches p <= Max(1, p) and 1 <= Max(1, p));
    with the children swapped the leaf p sits on p <= 1, slack p - 1 < 0 at p = 0: FALSE and REJECTED; a branch
    2p (above Max(1, p) at p = 2), or one in the variables: FALSE and REJECTED."""
    from exactdp.algebra.certificates.split_tree import SplitTreeCertificate

    x = SplitTreeCertificate(parameters=("p",), assumptions=(("p", "real"),), region=("p >= 0", "p <= 2"),
                             variables=("a",), constraints=(("a <= 1", "1 - a"),), objective="a",
                             arguments=("Max(1, p)",), trees=(("split", "p - 1 >= 0", ("leaf", "0"), ("leaf", "1")),),
                             leaf_multipliers=(("1",), ("1",)), leaf_branches=("p", "1"))
    assert x.conclusion() == "Max(1, p) - (a)"
    assert _both(x) == (Truth.TRUE, OK)
    assert [x.leaf_combination(k, cell).slack for k, _, cell in x.leaves()[0]] == ["p - 1", "0"]
    swapped = dataclasses.replace(x, trees=(("split", "p - 1 >= 0", ("leaf", "1"), ("leaf", "0")),))
    assert _both(swapped) == (Truth.FALSE, REJECTED)
    assert _both(dataclasses.replace(x, leaf_branches=("2*p", "1"))) == (Truth.FALSE, REJECTED)
    # a branch in the variables (a + p - 1, slack p - 1 with multiplier 0) bounds a by nothing: refused as data
    assert _both(dataclasses.replace(x, leaf_multipliers=(("0",), ("1",)), leaf_branches=("a + p - 1", "1"))) == (
        Truth.FALSE, REJECTED)


def test_recheck_smt_confirms_a_split_tree_and_refutes_its_swapped_cells():
    """`recheck --smt` on the one-parameter split tree above, filed with its statement "for 0 <= p <= 2 and
    1 - a >= 0: Max(1, p) - a >= 0": every obligation (each leaf's combination on its derived cell, the tree's
    cells covering the domain, p <= Max(1, p), the binding) CONFIRMED by z3 and cvc5; with the children swapped
    leaf 0's slack p - 1 >= 0 on p <= 1 is REFUTED."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from exactdp.algebra.certificates.split_tree import SplitTreeCertificate
    from exactdp.claim_statement import restating
    from exactdp.smt import CONFIRMED, REFUTED, smt_check_certificate

    x = SplitTreeCertificate(parameters=("p",), assumptions=(("p", "real"),), region=("p >= 0", "p <= 2"),
                             variables=("a",), constraints=(("a <= 1", "1 - a"),), objective="a",
                             arguments=("Max(1, p)",), trees=(("split", "p - 1 >= 0", ("leaf", "0"), ("leaf", "1")),),
                             leaf_multipliers=(("1",), ("1",)), leaf_branches=("p", "1"))
    x = x.bound_to(restating("check", x.to_json(), x.region))
    r = smt_check_certificate(x.to_json())
    assert r.status == CONFIRMED, r.line()
    assert any("cover the domain" in o.label for o in r.results)
    swapped = dataclasses.replace(x, trees=(("split", "p - 1 >= 0", ("leaf", "1"), ("leaf", "0")),))
    r = smt_check_certificate(swapped.to_json())
    assert r.status == REFUTED and any(o.status == REFUTED and o.label.startswith("leaf 0: slack") for o in r.results)


def _chain(result) -> tuple:
    """(the N = 2 parametric-LP certificate, the split tree, its instance at u = N*c, the join for every N)."""
    (lp,) = [x for x in result.certificates if x.kind == "parametric-lp"]
    (inst,) = [x for x in result.certificates if x.kind == "instantiation"]
    (join,) = [x for x in result.certificates if x.kind == "cases"]
    return lp, _tree(result), inst, join


@pytest.mark.slow
def test_the_change_of_variable_and_the_split_at_n_3_are_certificates(proof):
    """The split tree's statement in u is instantiated at u = N*c on t >= 1, c > 0, N >= 3, N*c <= 1 (the source's
    name and statement copied), and joined with the N = 2 parametric LP into the conjecture for every integer
    N >= 2 (claim check): each TRUE in the engine and OK in recheck, which decides N*c >= 3*c on the N >= 3 part and
    checks the cases 2..2 and 3.. consecutive; every citation is met in the proof."""
    from exactdp.algebra.certificates.instantiation import citation_failures

    lp, tree, inst, join = _chain(proof)
    assert (inst.source, inst.source_statement, inst.substitution) == (tree.name, tree.statement, (("u", "N*c"),))
    assert inst.region == ("t >= 1", "c > 0", "N >= 3", "N*c <= 1") and inst.statement.claim == "check"
    assert join.statement.claim == "check" and join.statement.domain == ("t >= 1", "c > 0", "N >= 2", "N*c <= 1")
    assert join.parts == ((lp.name, "2", "2"), (inst.name, "3", "")) and join.part_statements == (
        lp.statement, inst.statement)
    assert lp.statement.sizes == "N = 2" and join.statement.conclusions == inst.statement.conclusions
    assert join.statement.conclusions[0].startswith("-a + 2*b + Min(1, (t - 1)/(t*(-N*c + 1) + 1), ")
    assert citation_failures(proof.certificates) == []
    for x in (inst, join):
        assert _both(x) == (Truth.TRUE, OK), x.kind
    r = recheck_certificate(inst.to_json(), claim="check")
    assert any("u >= 3*c at u = N*c: N*c >= 3*c on the region" in s for s in r.steps)


def _stub(x) -> Recheck:
    """An OK re-check of certificate x (its name and statement), standing for its full re-check in a proof."""
    return Recheck(x.name, x.kind, statement=x.statement.to_json())


@pytest.mark.slow
def test_a_tampered_chain_is_rejected_by_the_engine_and_by_recheck(proof):
    """The substitution u -> (N - 1)*c, the N >= 3 part's domain widened to N >= 2 (with its statement), the copied
    source statement edited, the target conclusion strengthened, the join without its N = 2 part: not TRUE in the
    engine and REJECTED by recheck.  The source's name pointing at no certificate of the proof, and the edited
    copy made consistent with a strengthened target: refused by the engine's proof check (citations) and by
    recheck's per-claim check."""
    from exactdp.algebra.certificates.instantiation import citation_failures

    lp, tree, inst, join = _chain(proof)
    st = inst.statement
    wide = ("t >= 1", "c > 0", "N >= 2", "N*c <= 1")
    strong = st.conclusions[0].replace("-a + 2*b + ", "-a + 2*b - 1/10 + ", 1)
    edited_src = dataclasses.replace(tree.statement, conclusions=(tree.statement.conclusions[0].replace(
        " - (a - 2*b) >= 0", " - 1/10 - (a - 2*b) >= 0"),))
    assert strong != st.conclusions[0] and edited_src != tree.statement
    tampered = {
        "substitution (N - 1)*c": dataclasses.replace(inst, substitution=(("u", "(N - 1)*c"),)),
        "domain widened to N >= 2": dataclasses.replace(inst, region=wide).bound_to(dataclasses.replace(st, domain=wide)),
        "source statement edited": dataclasses.replace(inst, source_statement=edited_src),
        "target conclusion strengthened": inst.bound_to(dataclasses.replace(st, conclusions=(strong,))),
        "join without its N = 2 part": dataclasses.replace(join, parts=join.parts[1:],
                                                           part_statements=join.part_statements[1:]),
    }
    for what, x in tampered.items():
        truth, status = _both(x)
        assert truth is not Truth.TRUE and status == REJECTED, what
    others = [x for x in proof.certificates if x not in (inst, join)]
    missing = dataclasses.replace(inst, source="Min(1) - (a - 2*b) >= 0 on 1 leaves of split trees")
    consistent = dataclasses.replace(inst, source_statement=edited_src).bound_to(
        dataclasses.replace(st, conclusions=(strong,)))
    for what, x in (("source missing", missing), ("an edited copy, consistently", consistent)):
        assert check(x).truth is Truth.TRUE, what  # as data alone: what the proof-level checks are for
        assert citation_failures([*others, x]), what
        rechecks = _with_uses_met([_stub(tree), recheck_certificate(x.to_json(), claim="check")])
        assert rechecks[1].status == REJECTED, what
    assert citation_failures([*others, inst]) == []  # the N = 2 part is not cited by the instance
    assert citation_failures([x for x in proof.certificates if x is not lp])  # ... but by the join
