"""The flag vocabulary of every subcommand (issue 16 item 5), read from the parsers behind ``--help``.

* ``--gamma`` is only ever the order γ of E_γ (no command takes it for e^ε, not even as an alias);
* every command that takes a privacy level has ``--eps`` and ``--t`` (and they exclude each other);
* every command with output has ``--format`` (with ``text`` and ``json``; the exact list per command is
  :data:`FORMATS`) and ``-o FILE``; ``figures`` names its image format ``--image``;
* no old spelling is left (``--json``, ``--latex``, ``--markdown``, ``figures --format``: nothing was released),
  and ``--help`` exits 0 with nothing on stderr.
"""

from __future__ import annotations

import argparse
import json

import pytest

from exactdp.cli import SUBCOMMANDS, build_parser, main

#: commands whose input includes a privacy level e^eps
PARAMETRIC = {"analyze", "bound", "derive", "tensor", "extremal", "check"}

#: commands exempt from --format text|json / -o FILE, and why
OUTPUT_EXCEPTIONS = {
    "figures": "writes image files into a folder: -o DIR, --image png|pdf|svg is the image format",
    "plot": "writes image files: -o FILE, whose suffix (.png, .pdf, .svg) is the image format",
}

#: the --format choices of each command: every format that makes sense for it (issue 16 item 5)
ALL = ("text", "json", "markdown", "latex", "html")
FORMATS = {"analyze": ALL, "tensor": ALL, "extremal": ALL, "evalf": ALL, "check": ALL, "bound": ALL, "derive": ALL,
           "show": ALL, "verify": ALL, "recheck": ("text", "json")}


def _subparsers(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def _commands():
    top = _subparsers(build_parser())
    return {name: top[name] for name in SUBCOMMANDS if name in top}


def _options(parser) -> dict:
    return {s: a for a in parser._actions for s in a.option_strings}


def test_every_listed_command_is_present():
    assert {"verify", "show", "analyze", "bound", "derive", "check", "evalf", "tensor", "extremal"} <= set(_commands())


@pytest.mark.parametrize("name", sorted(set(SUBCOMMANDS)))
def test_help_exits_zero_quietly(name, capsys):
    if name not in _commands():
        pytest.skip(f"{name} is not installed here")
    assert main([name, "--help"]) == 0
    out, err = capsys.readouterr()
    assert f"usage: exactdp {name}" in out and err == ""


@pytest.mark.parametrize("name", sorted(set(SUBCOMMANDS)))
def test_flag_vocabulary(name):
    commands = _commands()
    if name not in commands:
        pytest.skip(f"{name} is not installed here")
    parsers = [commands[name], *_subparsers(commands[name]).values()]
    for parser in parsers:
        opts = _options(parser)
        gamma = opts.get("--gamma")
        if gamma is not None:
            text = (gamma.help or "").lower()
            assert "order" in text and not text.startswith("deprecated"), \
                f"{parser.prog}: --gamma must be the order of E_gamma: {gamma.help!r}"
        assert not {"--json", "--latex", "--markdown"} & set(opts), f"{parser.prog}: an old output flag"
        assert not any("deprecated" in (a.help or "").lower() for a in opts.values()), parser.prog
        if name in PARAMETRIC:
            assert "--eps" in opts and "--t" in opts, f"{parser.prog}: --eps and --t"
            groups = [g for g in parser._mutually_exclusive_groups
                      if {"--eps", "--t"} <= {s for a in g._group_actions for s in a.option_strings}]
            assert groups, f"{parser.prog}: --eps and --t must exclude each other"
        if name not in OUTPUT_EXCEPTIONS:
            fmt = opts.get("--format")
            assert fmt is not None and {"text", "json"} <= set(fmt.choices or ()), f"{parser.prog}: --format"
            assert tuple(fmt.choices) == FORMATS[name], f"{parser.prog}: --format {fmt.choices}"
            assert "-o" in opts, f"{parser.prog}: -o FILE"
        else:
            assert "--format" not in opts, \
                f"{parser.prog}: --format means the output format; the image format is --image or -o's suffix"


def test_eps_and_t_exclude_each_other(capsys):
    assert main(["bound", "xi", "--eps", "1", "--t", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not allowed with argument" in err


@pytest.mark.parametrize("argv, old", [
    (["analyze", "{rr}", "--t", "2", "--json"], "--json"),
    (["recheck", ".", "--json"], "--json"),
    (["derive", "randomized_response", "k=2", "--latex"], "--latex"),
    (["bound", "--list", "--markdown"], "--markdown"),
    (["verify", "--latex", "r.tex"], "--latex"),
    (["figures", "-o", "d", "--format", "png"], "--format"),
])
def test_old_spellings_are_unknown_options(tmp_path, capsys, argv, old):
    """Nothing was released, so the old spellings are gone: an unknown option, one line, exit 2."""
    path = tmp_path / "rr.json"
    path.write_text('[["3/4", "1/4"], ["1/4", "3/4"]]')
    assert main([a.replace("{rr}", str(path)) for a in argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and f"unrecognized arguments: {old}" in err


def test_note_prints_after_success_only(tmp_path, capsys):
    """A note (a CSV's skipped labels) goes to stderr after a successful run; a failure stays one line."""
    path = tmp_path / "k.csv"
    path.write_text("in,a,b\nx,3/4,1/4\ny,1/4,3/4\n")
    assert main(["analyze", str(path), "--t", "2", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["result"]["eta_hockey_stick"]["value"] == "1/4"  # binary RR at e^eps0 = 3, t = 2
    assert err.startswith("exactdp: note: ") and err.count("\n") == 1
    assert main(["analyze", str(path), "--t", "x", "--format", "json"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("command", ["analyze", "tensor", "check"])
def test_gamma_never_means_e_to_the_eps(tmp_path, capsys, command):
    """The privacy level is --t or --eps; --gamma (once e^eps here) is no flag of these commands."""
    path = tmp_path / "rr.json"
    path.write_text('[["3/4", "1/4"], ["1/4", "3/4"]]')
    argv = {"analyze": ["analyze", str(path)], "tensor": ["tensor", str(path), "--n", "2"],
            "check": ["check", "eta_tv <= 1"]}[command]
    assert main([*argv, "--gamma", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unrecognized arguments: --gamma 2" in err


def test_format_outside_the_list_is_one_line(capsys):
    assert main(["recheck", ".", "--format", "html"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'html'" in err and "'text', 'json'" in err


def test_figures_image_format_is_repeatable():
    parser = _commands()["figures"]
    assert parser.parse_args(["-o", "d", "--image", "pdf", "--image", "svg"]).image == ["pdf", "svg"]
