"""Which committed files of ``results/`` form one run's set, for the manifests written after the fact.

The files committed before manifests existed have none.  :func:`adopt_committed` writes one
per set below, marked ``"retroactive": true`` (the files' current hashes; nothing is
recomputed), so that readers check them like any published set; a set whose manifest was
written by a real run is left alone.  ``python experiments/write_manifests.py`` runs it.
Files written outside any set (benchmarks, re-plotted figures) are listed in :data:`LEGACY`.
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["COMMITTED_SETS", "LEGACY", "adopt_committed", "RETROACTIVE_NOTE"]


def _with_meta(*names):
    out = []
    for n in names:
        out.append(n)
        stem = n.rsplit(".", 1)[0]
        if not n.endswith(".meta.json") and f"{stem}.meta.json" not in out:
            out.append(f"{stem}.meta.json")
    return out


def _reraise():
    return _with_meta("reraise_alice.csv", "reraise_bob.csv", "reraise_summary.csv", "reraise_actions.csv",
                      "reraise_classes.csv", "reraise_actions.png", "reraise_grid.png")


#: ``{folder under results/: {set name: [files]}}``; the set name is the study's (``publish``) name.
COMMITTED_SETS = {
    ".": {
        "table1": _with_meta("table1.csv"),
        "curve": _with_meta("large_n.csv"),
        "continuum": _with_meta("continuum.csv", "mesh_refinement.csv") + ["mesh_refinement.png"],
        "fit": _with_meta("fit.csv") + ["fig3_fit.png"],
        "teams": _with_meta("teams.csv"),
        "full_vs_pseudo_bloc": _with_meta("full_vs_pseudo_bloc.csv"),
        "figures_1_2": _with_meta("figures_1_2.csv", "fig1_components.png", "fig2_blend.png"),
        "fp_three_player": _with_meta("fp_three_player.csv", "fp_three_player_summary.csv") + ["fp_three_player.png"],
    },
    "continuous_poker": {
        "figures": _with_meta("figure1_strategies.png", "figure1_strategies.csv", "figure2_von_neumann_payoff.png",
                              "figure3_newman_payoff.png", "limit_value.csv", "figure4_limit_value.png"),
        "lp_convergence": _with_meta("lp_convergence.csv", "lp_rates.csv") + ["lp_convergence.png"],
    },
    "dividing_point": {
        "dividing_point": _with_meta("sweep.csv", "intervals.csv", "strategies.png", "refinement.csv",
                                     "refinement_rates.csv", "mesh_refinement.png", "ordering.csv", "verdicts.csv",
                                     "printed_equations.csv"),
    },
    "holdem": {
        "equities": _with_meta("equity_vs_random.csv", "equity_matrix.csv"),
        "raise_game_R40": _with_meta("raise_game_R40_alice.csv", "raise_game_R40_bob.csv", "raise_game_R40_actions.csv",
                                     "raise_game_R40_actions.png", "raise_game_R40_grid.csv", "raise_game_R40_grid.png",
                                     "raise_game_R40_bob_calls.png", "note_comparison_R40.csv"),
        "reraise": _reraise(),
    },
    "holdem/reraise_R40": {"reraise": _reraise()},
    "mercer": {
        "sizes": _with_meta("sizes.csv"),
        "values": _with_meta("values.csv"),
        "tables": _with_meta("tables.csv"),
        "table7": _with_meta("table7_seatings.csv", "table7.csv"),
        "collusion_epsilon": _with_meta("collusion_epsilon.csv") + ["collusion_epsilon.png"],
        "collusion_methods": _with_meta("collusion_methods.csv"),
        "beyond": _with_meta("beyond.csv"),
        "program_fp": _with_meta("program_fp.csv", "program_fp_tables.csv"),
    },
}

#: Committed files written outside any set (benchmarks/ scripts, experiments/mercer_figures.py):
#: readers see them as legacy files (no manifest).
LEGACY = ("benchmarks/*", "mercer/bet_frequencies.*")

RETROACTIVE_NOTE = ("written after the fact for files committed before manifests existed: the hashes "
                    "of the committed files, nothing recomputed; regenerating the set with its command replaces "
                    "this manifest by the run's own")


def adopt_committed(root="results") -> list:
    """Write the retroactive manifests of :data:`COMMITTED_SETS` under ``root``.

    Returns ``[(manifest path, outcome)]`` with outcome ``"written"``, ``"kept"`` (a run's own
    manifest, complete and intact) or ``"refused: <why>"`` (a file missing, or not the one
    its meta file describes: rerun that command).
    """
    from guts.errors import GutsInputError
    from guts.studies.output import adopt_files, manifest_path, set_status

    done = []
    for sub, sets in COMMITTED_SETS.items():
        folder = Path(root) / sub
        for command, names in sets.items():
            mp = manifest_path(folder, command)
            st = set_status(mp) if mp.exists() else None
            from guts._atomic import _read_json

            if st is not None and st.ok and not (_read_json(mp) or {}).get("retroactive", False):
                done.append((mp, "kept"))
                continue
            try:
                adopt_files(folder, command, names, RETROACTIVE_NOTE)
                done.append((mp, "written"))
            except GutsInputError as exc:
                done.append((mp, f"refused: {exc}"))
    return done
