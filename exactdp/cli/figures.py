"""``exactdp figures --out DIR`` (or ``-o DIR``) ``[--image png|pdf|svg ...]``: write [A] Fig. 1 and the
reconstructed [G] Fig. 1 as 300-dpi PNG and vector PDF in the print style of :mod:`exactdp.output.figstyle`; without matplotlib one line names the
extra to install (``pip install "exactdp[figures]"``, exit 2).  ``--image`` is the image format (``--format`` is
the output format of the other commands)."""

from __future__ import annotations



def register(sub) -> None:
    p = sub.add_parser("figures", help="write the papers' figures (PNG and PDF) into a directory",
                       description="Regenerate [A] Fig. 1 (Bayes-risk lower bounds, Bernoulli example) and the "
                                   "reconstructed [G] Fig. 1 (Cor 1/Cor 2 coefficients for K1, K2) from exactdp's "
                                   "certified values.")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="output directory (created if missing)")
    p.add_argument("--image", action="append", choices=("png", "pdf", "svg"), default=None,
                   help="image file format (repeatable; default: png and pdf)")
    p.set_defaults(func=run)


def run(args) -> int:
    from exactdp.output.figstyle import pyplot
    from exactdp.output.figures import write_figures

    pyplot()  # a missing matplotlib is one line naming the extra, before any computation
    if not str(args.out).strip():
        from exactdp.errors import ParameterError

        raise ParameterError("--out: give a directory name")

    from exactdp.numbers.escape import terminal

    for path in write_figures(args.out, tuple(args.image or ("png", "pdf"))):
        print(terminal(path))
    return 0
