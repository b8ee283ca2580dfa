"""The papers and statement locators: provenance as data (docs/design.md principle 7)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    key: str
    authors: str
    title: str
    venue: str
    arxiv: str | None = None
    version: str | None = None

    def cite(self) -> str:
        arx = f", arXiv {self.arxiv}{self.version or ''}" if self.arxiv else ""
        return f"{self.authors}, \"{self.title}\", {self.venue}{arx}"


ASOODEH2021 = Paper("asoodeh2021", "S. Asoodeh, M. Aliakbarpour, F. P. Calmon",
                    "Local Differential Privacy Is Equivalent to Contraction of E_gamma-Divergence",
                    "ISIT 2021", "2102.01258")
GROSSE2026 = Paper("grosse2026", "L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund",
                   "Dobrushin Coefficients of Private Mechanisms Beyond Local Differential Privacy",
                   "arXiv preprint", "2601.09498", "v1")
ASOODEH_DIAZ_CALMON = Paper("asoodeh-diaz-calmon", "S. Asoodeh, M. Diaz, F. P. Calmon",
                            "Contraction of E_gamma-Divergence and Its Applications to Privacy",
                            "arXiv preprint", "2012.11035")
BINETTE2019 = Paper("binette2019", "O. Binette", "A Note on Reverse Pinsker Inequalities", "IEEE T-IT 65(7), 2019")
DUCHI2018 = Paper("duchi2018", "J. C. Duchi, M. I. Jordan, M. J. Wainwright",
                  "Minimax Optimal Procedures for Locally Private Estimation", "JASA 2018")
ZAMANLOOY2023 = Paper("zamanlooy2023", "B. Zamanlooy, S. Asoodeh",
                      "Strong Data Processing Inequalities for Locally Differentially Private Mechanisms", "ISIT 2023")
CATALOGUE = Paper("claims", "exactdp", "Catalogue of claims (docs/claims.md)", "project document")

PAPERS = {p.key: p for p in (ASOODEH2021, GROSSE2026, ASOODEH_DIAZ_CALMON, BINETTE2019, DUCHI2018,
                             ZAMANLOOY2023, CATALOGUE)}


@dataclass(frozen=True)
class Source:
    """Where a statement sits: paper, label ("Theorem 1"), section, page, equation."""

    paper: Paper
    label: str
    section: str | None = None
    page: str | None = None
    equation: str | None = None

    def __str__(self) -> str:
        parts = [self.paper.key, self.label]
        if self.section:
            parts.append(self.section)
        if self.page:
            parts.append(f"p.{self.page}")
        if self.equation:
            parts.append(f"eq. {self.equation}")
        return ", ".join(parts)
