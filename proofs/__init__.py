"""One verification module per claim of the two papers (see docs/claims.md for the item numbers).

Installed as the package ``exactdp_proofs`` and registered in the ``exactdp.claims`` entry-point group
(pyproject.toml); the engine imports every module of a registered package, it never imports this one by
name.  The module ``<group>/<name>.py`` declares the claim ``<group>.<name>`` (catalogue numbers
zero-padded to two digits, so file names and ``exactdp verify`` list claims in the same order); modules
whose names start with ``_`` hold checks and instance families shared by several claims.

Modules declare :class:`exactdp.verification.claims.Claim` objects and their instance families; they
hold no algorithms (everything reusable is in ``exactdp``).  Sub-packages: ``asoodeh2021``,
``grosse2026``, ``background`` (companion results used as oracles), ``findings`` (docs/claims.md §6).
"""

from exactdp.verification.claims import rename

#: ids before the catalogue numbers were zero-padded; ``exactdp show``/``verify`` accept them
FORMER_IDS = {
    "asoodeh2021.a1_privacy_loss": "asoodeh2021.a01_privacy_loss",
    "asoodeh2021.a2_contributions": "asoodeh2021.a02_contributions",
    "asoodeh2021.a7_phi_lemma": "asoodeh2021.a07_phi_lemma",
    "asoodeh2021.a7_phi_vs_tight": "asoodeh2021.a07_phi_vs_tight",
    "asoodeh2021.a8_tensorization": "asoodeh2021.a08_tensorization",
    "background.b1_dobrushin": "background.b01_dobrushin",
    "background.b3_eta_f_le_eta_tv": "background.b03_eta_f_le_eta_tv",
    "background.b4_tight_ldp": "background.b04_tight_ldp",
    "background.b5_duchi": "background.b05_duchi",
    "background.b6_binette_instances": "background.b06_binette_instances",
    "background.b6_binette_specialisations": "background.b06_binette_specialisations",
    "background.b7_zamanlooy_asoodeh": "background.b07_zamanlooy_asoodeh",
    "background.b8_asoodeh_zhang": "background.b08_asoodeh_zhang",
    "background.b9_dobrushin_tensorization": "background.b09_dobrushin_tensorization",
    "background.d1_kernels": "background.d01_kernels",
    "background.d2_f_divergences": "background.d02_f_divergences",
    "background.d3_contraction": "background.d03_contraction",
    "background.d7_product_kernels": "background.d07_product_kernels",
    "findings.fa1_phi_power": "findings.fa01_phi_power",
    "findings.fa2_phi_not_tight": "findings.fa02_phi_not_tight",
    "findings.fa3_small_eps_direction": "findings.fa03_small_eps_direction",
    "findings.fa4_mean_rates": "findings.fa04_mean_rates",
    "findings.fa5_bound3_reading": "findings.fa05_bound3_reading",
    "findings.fa6_probabilistic_ldp": "findings.fa06_probabilistic_ldp",
    "findings.fa7_vacuity": "findings.fa07_vacuity",
    "findings.fa8_delta_range": "findings.fa08_delta_range",
    "findings.fa9_interaction": "findings.fa09_interaction",
    "findings.fg1_uniform_range": "findings.fg01_uniform_range",
    "findings.fg2_lemma4_loose": "findings.fg02_lemma4_loose",
    "findings.fg3_odd_n": "findings.fg03_odd_n",
    "findings.fg4_thm2_scope": "findings.fg04_thm2_scope",
    "findings.fg5_missing_hypothesis": "findings.fg05_missing_hypothesis",
    "findings.fg6_hellinger_convention": "findings.fg06_hellinger_convention",
    "findings.fg7_degenerate_c": "findings.fg07_degenerate_c",
    "findings.fg8_summary_paraphrase": "findings.fg08_summary_paraphrase",
    "findings.fg9_missing_data": "findings.fg09_missing_data",
    "findings.x1_phi_vs_xi": "findings.x01_phi_vs_xi",
    "findings.x2_relaxations": "findings.x02_relaxations",
    "findings.x3_delta_symbol": "findings.x03_delta_symbol",
    "findings.x4_reference_title": "findings.x04_reference_title",
    "findings.x5_routes": "findings.x05_routes",
}
for _old, _new in FORMER_IDS.items():
    rename(_old, _new)
