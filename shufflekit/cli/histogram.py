"""The ``histogram`` command: exact fixed-composition accounting of a binary-input channel."""
from __future__ import annotations

import argparse

from shufflekit.cli.arguments import floats
from shufflekit.cli.output import emit

NAME = "histogram"
HELP = "exact fixed-composition accounting of a binary-input channel"


def add_arguments(hi: argparse.ArgumentParser) -> None:
    hi.add_argument("--w0", required=True, help="W0 as comma-separated probabilities")
    hi.add_argument("--w1", required=True, help="W1 as comma-separated probabilities")
    hi.add_argument("--n", type=int, required=True)
    hi.add_argument("--k", type=int, default=0, help="number of ones among the other users")
    hi.add_argument("--jsd", action="store_true", help="also compute the exact JSD")
    hi.add_argument("--epsilon", type=float, nargs="*", default=None)
    hi.add_argument("--delta", type=float, nargs="*", default=None)
    hi.add_argument("--format", default="table", choices=["json", "table"])


def run(args: argparse.Namespace) -> int:
    from shufflekit.numeric.histogram import report

    payload = report(floats(args.w0), floats(args.w1), args.n, args.k, jsd=args.jsd,
                     epsilons=args.epsilon or [], deltas=args.delta or [])
    def row(w):
        return "(" + ", ".join(f"{x:.12g}" for x in w) + ")"

    lines = [f"channel W0 = {row(payload['w0'])}, W1 = {row(payload['w1'])}; n = {payload['n']}, k = {payload['k']} "
             f"(pi = k/n = {payload['pi']:.6g})",
             f"I_pi  (fixed composition, v^T Sigma_pi^+ v) = {payload['I_pi']:.6g}",
             f"I_mix (i.i.d. mixture covariance)           = {payload['I_mix']:.6g}",
             f"chi2(W1||W0) = I_0                          = {payload['chi2']:.6g}",
             f"mu_n = sqrt(I_pi/n) = {payload['mu_fixed_composition']:.6g}; "
             f"mixture mu = {payload['mu_mixture']:.6g}"]
    if "jsd" in payload:
        lines.append(f"exact JSD(T_n,k || T_n,k+1) = {payload['jsd']:.10g}  (8n JSD = {payload['8n_jsd']:.6g}, "
                     f"I_pi/(8n) = {payload['I_pi_over_8n']:.6g})")
    if payload.get("epsilons"):
        lines.append(f"{'epsilon':>10} {'delta_Q||P':>13} {'delta_P||Q':>13} {'GDP(mu_n)':>13} {'GDP(mu_mix)':>13}")
        for row in payload["epsilons"]:
            lines.append(f"{row['epsilon']:>10.6g} {row['delta_Q||P']:>13.6g} {row['delta_P||Q']:>13.6g} "
                         f"{row['gdp_fixed_composition']:>13.6g} {row['gdp_mixture']:>13.6g}")
    if payload.get("deltas"):
        lines.append(f"{'delta':>10} {'eps_Q||P':>13} {'eps_P||Q':>13} {'eps two-sided':>14}")
        for row in payload["deltas"]:
            cells = [f"{row[c]:.6g}" if isinstance(row[c], float) else str(row[c])
                     for c in ("epsilon_Q||P", "epsilon_P||Q", "epsilon_two_sided")]
            lines.append(f"{row['delta']:>10.3g} {cells[0]:>13} {cells[1]:>13} {cells[2]:>14}")
    if payload.get("singular_mass_P(Q=0)", 0.0) > 0:
        lines.append(f"singular mass P(Q = 0) = {payload['singular_mass_P(Q=0)']:.6g} (part of delta_P||Q)")
    if "lost_mass" in payload and payload["lost_mass"] > 1e-14:
        lines.append(f"note: float64 underflow removed mass {payload['lost_mass']:.3g}")
    emit(payload, args.format, "\n".join(lines))
    return 0
