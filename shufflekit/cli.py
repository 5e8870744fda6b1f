"""Command line: ``shufflekit verify | mechanism | latex | series | profile | histogram | design``.

Bad input prints one clean line on stderr and exits with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

EXIT_BAD_INPUT = 2


# ----------------------------------------------------------------- helpers
def _emit(payload: Any, fmt: str, table: str | None = None, out=None) -> None:
    out = out or sys.stdout
    if fmt == "json":
        out.write(json.dumps(payload, indent=2, default=str) + "\n")
    else:
        out.write((table if table is not None else _generic_table(payload)) + "\n")


def _generic_table(payload: Any, indent: str = "") -> str:
    lines = []
    if isinstance(payload, dict):
        for k, v in payload.items():
            if isinstance(v, (dict, list)) and v and not all(isinstance(x, (int, float, str)) for x in
                                                          (v if isinstance(v, list) else [])):
                lines.append(f"{indent}{k}:")
                lines.append(_generic_table(v, indent + "  "))
            else:
                lines.append(f"{indent}{k}: {v}")
    elif isinstance(payload, list):
        for item in payload:
            lines.append(_generic_table(item, indent + "- "))
    else:
        lines.append(f"{indent}{payload}")
    return "\n".join(lines)


def _floats(text: str) -> list[float]:
    try:
        return [float(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise ValueError(f"could not read a comma-separated list of numbers from {text!r}") from None


def _mechanism_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="rr, krr, blh, rappor, oue, hr, joint-krr, privunit, gaussian-local, "
                               "bmg, central-gaussian (profile only), finite")
    p.add_argument("--k", type=int, help="alphabet size")
    p.add_argument("--m", type=int, help="number of jointly composed components (joint-krr)")
    p.add_argument("--eps0", type=str, help="local epsilon")
    p.add_argument("--p", type=str, help="keep probability (rr) / cap probability (privunit)")
    p.add_argument("--theta", type=str, help="PrivUnit cap threshold in [-1, 1]")
    p.add_argument("--d", type=int, help="dimension")
    p.add_argument("--gamma", type=str, help="blanket mass in (0, 1] (bmg)")
    p.add_argument("--sigma0", type=str, help="Gaussian scale (gaussian-local, bmg)")
    p.add_argument("--sigma", type=str, help="central Gaussian noise multiplier (central-gaussian)")
    p.add_argument("--matrix", type=str,
                   help="finite mechanism rows separated by ';', entries by ',' (e.g. '0.7,0.3;0.2,0.8')")
    p.add_argument("--hash-family", default="all", choices=["all", "nonconstant"], help="BLH hash family")
    p.add_argument("--adjacency", default=None, choices=["zero-out", "replace-one"])


def _build_mechanism(args: argparse.Namespace):
    from shufflekit.mechanisms import make

    matrix = None
    if args.matrix:
        matrix = [_floats(row) for row in args.matrix.split(";")]
    return make(args.name, k=args.k, m=getattr(args, "m", None), eps0=args.eps0, p=args.p,
                theta=args.theta, d=args.d, gamma=args.gamma, sigma0=args.sigma0, matrix=matrix,
                hash_family=args.hash_family if args.name == "blh" else None)


# ----------------------------------------------------------------- verify
def _cmd_verify(args: argparse.Namespace) -> int:
    from shufflekit.verify import report
    from shufflekit.verify.claims import PAPERS, CheckContext, load_catalog, load_plugin
    from shufflekit.verify.runner import run_claims, summarise

    registry = load_catalog()
    for path in args.plugin or []:
        load_plugin(path)
    claims = registry.select(args.only)
    if args.list:
        current = None
        for c in sorted(claims, key=lambda c: (c.paper, c.section, c.id)):
            if c.paper != current:
                current = c.paper
                print(f"\n[{c.paper}] {PAPERS.get(c.paper, c.paper)}")
            print(f"  {c.id:<46} {c.section:<22} expected: {c.expected}")
        print(f"\n{len(claims)} claims")
        return 0
    if not claims:
        raise ValueError(f"--only {args.only!r} matches no registered claim")
    if args.quick and args.full:
        raise ValueError("--quick and --full exclude each other")
    ctx = CheckContext(quick=not args.full, thorough=args.thorough, dps=args.dps)
    results = run_claims(claims, ctx, progress=not args.no_progress)
    text = {"json": report.to_json, "markdown": report.to_markdown, "latex": report.to_latex,
            "table": report.to_table}[args.format](results)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        print(text)
    return 0 if summarise(results)["ok"] else 1


# -------------------------------------------------------------- mechanism
def _cmd_mechanism(args: argparse.Namespace) -> int:
    from shufflekit.mechanisms.describe import describe

    mech = _build_mechanism(args)
    payload = describe(mech, epsilon=args.epsilon, adjacency=args.adjacency)
    _emit(payload, args.format)
    return 0


# ------------------------------------------------------------------ latex
def _cmd_latex(args: argparse.Namespace) -> int:
    from shufflekit.symbolic.latex_document import document, fragments
    from shufflekit.symbolic.results import RESULTS, describe

    if args.list:
        for rid in sorted(RESULTS):
            print(f"{rid:<34} {describe(rid)}")
        return 0
    ids = sorted(RESULTS) if args.all else list(args.ids)
    if not ids:
        raise ValueError("give result ids (see --list) or --all")
    unknown = [i for i in ids if i not in RESULTS]
    if unknown:
        raise ValueError(f"unknown result id(s) {', '.join(unknown)}; see shufflekit latex --list")
    text = document(ids) if args.document else fragments(ids)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


# ----------------------------------------------------------------- series
def _cmd_series(args: argparse.Namespace) -> int:
    from shufflekit.symbolic.results import series_payload

    payload, der = series_payload(args.id, args.order)
    if args.format == "json":
        _emit(payload, "json")
    elif args.format == "latex":
        print(f"{der.lhs} = {der.result.latex()}")
    else:
        print(f"{payload['id']}: {payload['lhs_text']} as {payload['expansion_in']}")
        print(f"  = {der.result.text()}")
    return 0


# ---------------------------------------------------------------- profile
CONTINUOUS_PROFILES = ("bmg", "gaussian-local", "central-gaussian")


def _cmd_profile(args: argparse.Namespace) -> int:
    if args.epsilon is None and args.delta is None:
        raise ValueError("give --epsilon E ... or --delta D ...")
    if args.name in CONTINUOUS_PROFILES:
        payload = _profile_continuous(args)
    else:
        payload = _profile_finite(args)
    _emit(payload, args.format)
    return 0


def _profile_finite(args: argparse.Namespace) -> dict:
    """Shuffled profile of a finite mechanism by one of the finite methods (seed 002 et al.)."""
    import math
    import time

    from tqdm import tqdm

    from shufflekit.numeric import baselines as bl
    from shufflekit.numeric.blanket import (BlanketAccountant, certified_epsilon, describe_mechanism,
                                            numeric_eps0)
    from shufflekit.numeric.lower import LowerAccountant
    from shufflekit.numeric.profile import check_delta, check_epsilon, check_n

    methods = ("blanket", "blanket-fft", "lower", "clone", "clone-numeric", "stronger-clone",
               "hoeffding", "bennett", "chernoff")
    method = args.method or "blanket"
    if method not in methods:
        raise ValueError(f"--method {method!r} is not allowed for finite mechanisms; use one of "
                         f"{', '.join(methods)}")
    n = check_n(args.n)
    if args.epsilon is not None and args.delta is not None:
        raise ValueError("give either --epsilon or --delta, not both")
    targets = [check_epsilon(e) for e in args.epsilon] if args.epsilon is not None else \
        [check_delta(d) for d in args.delta]
    mech = _build_mechanism(args)
    if not hasattr(mech, "to_numpy") and not hasattr(mech, "components"):
        raise ValueError(f"mechanism {args.name!r} is not finite; use a continuous method")
    adjacency = args.adjacency or "replace-one"
    eps0 = numeric_eps0(mech)
    if not math.isfinite(eps0):
        raise ValueError(f"{args.name} is not eps0-LDP for a finite eps0; the finite methods need it")
    bound = "lower" if method == "lower" else "upper"

    if method in ("blanket", "blanket-fft"):
        acc = BlanketAccountant.of(mech, n, method="exact" if method == "blanket" else "fft",
                                   adjacency=adjacency, l=getattr(args, "grid", None))
        delta_fn = acc.delta
    elif method == "lower":
        low = LowerAccountant.of(mech, n)
        delta_fn = lambda e: low.delta(e)[:2]  # noqa: E731
    elif method == "clone-numeric":
        delta_fn = lambda e: bl.clone_delta(eps0, n, e)  # noqa: E731
    elif method in ("clone", "stronger-clone"):
        if method == "clone":
            eps_of = lambda d: bl.fmt21_epsilon(eps0, n, d)  # noqa: E731
        else:
            ok, why = bl.stronger_clone_applies(mech)
            if not ok:
                raise bl.CannotCertify("the 2023 stronger-clone bound is only established for "
                                       f"randomizers without a left-over part: {why}")
            eps_of = lambda d: bl.fmt23_epsilon(eps0, n, d)  # noqa: E731
        delta_fn = lambda e: (bl.closed_form_delta(eps_of, e), 0.0)  # noqa: E731
    else:
        fn = {"hoeffding": bl.hoeffding_delta, "bennett": bl.bennett_delta}.get(method)
        if fn is not None:
            delta_fn = lambda e: (fn(mech, n, e, adjacency) if e > 0 else 1.0, 0.0)  # noqa: E731
        else:
            delta_fn = lambda e: (bl.chernoff_canonical_delta(mech, n, e), 0.0)  # noqa: E731

    points = []
    for t in tqdm(targets, desc=method, unit="pt", file=sys.stderr, leave=False,
                  disable=len(targets) < 5):
        t0 = time.perf_counter()
        if args.epsilon is not None:
            d, err = delta_fn(t)
            eps = t
        elif method in ("clone", "stronger-clone"):
            eps = eps_of(t)
            d, err = t, 0.0
        elif method == "lower":
            eps = low.epsilon(t)
            d, err = t, delta_fn(eps)[1]
        else:
            eps = certified_epsilon(lambda e: delta_fn(e)[0], t, eps_max=eps0, rel_tol=1e-8)
            d, err = t, delta_fn(eps)[1]
        points.append({"epsilon": eps, "delta": min(float(d), 1.0), "bound": bound,
                       "error": float(err), "seconds": round(time.perf_counter() - t0, 6)})
    payload = {"mechanism": describe_mechanism(mech), "n": n, "method": method, "points": points}
    return payload


def _profile_continuous(args: argparse.Namespace) -> dict:
    from shufflekit.numeric import continuous, gaussian
    from shufflekit.numeric.profile import check_n

    n = check_n(args.n)
    eps = list(args.epsilon or [])
    deltas = list(args.delta or [])
    if args.name == "central-gaussian":
        if args.sigma is None:
            raise ValueError("central-gaussian needs --sigma S (noise multiplier, sigma > 0)")
        method = args.method or "exact"
        if method not in ("exact", "gdp"):
            raise ValueError(f"--method {method!r} is not available for central-gaussian; use exact or gdp")
        prof = gaussian.central_gaussian_profile(float(args.sigma), n, eps, deltas)
        payload = prof.as_dict()
        payload["method"] = method
        return payload
    if args.sigma0 is None:
        raise ValueError(f"{args.name} needs --sigma0 S (Gaussian scale, sigma0 > 0)")
    if args.name == "gaussian-local":
        method = args.method or "asymptotic"
        if method != "asymptotic":
            raise ValueError("the Gaussian local randomizer has no blanket (gamma = 0): only "
                             "--method asymptotic (conjectural, Chua et al. Conj. 3.2) is available")
        from shufflekit.mechanisms import make

        mech = make("gaussian-local", sigma0=args.sigma0, d=args.d or 1)
        return continuous.gaussian_local_asymptotic_profile(mech, n, eps, deltas).as_dict()
    if args.gamma is None:
        raise ValueError("bmg needs --gamma G (blanket mass in (0, 1])")
    method = args.method or "blanket-fft"
    if method not in ("blanket-fft", "asymptotic"):
        raise ValueError(f"--method {method!r} is not available for bmg; use blanket-fft or asymptotic")
    from shufflekit.mechanisms import make

    mech = make("bmg", gamma=args.gamma, sigma0=args.sigma0, d=args.d or 1)
    if method == "asymptotic":
        from shufflekit.numeric import bmg_design
        from shufflekit.numeric.profile import PrivacyProfile, ProfilePoint

        chi = bmg_design.chi_lo(mech.gamma, mech.sigma0)
        pts = [ProfilePoint(e, float(continuous.template(n, e, chi)), "asymptotic") for e in eps if e > 0]
        pts += [ProfilePoint(continuous.template_epsilon(n, d, chi), d, "asymptotic") for d in deltas]
        return PrivacyProfile("asymptotic-chi-lo", "asymptotic", tuple(pts), n,
                              {"name": "bmg", "gamma": str(mech.gamma), "sigma0": str(mech.sigma0),
                               "chi_lo": chi}).as_dict()
    return continuous.bmg_profile(mech, n, eps, deltas).as_dict()


# -------------------------------------------------------------- histogram
def _cmd_histogram(args: argparse.Namespace) -> int:
    from shufflekit.numeric.histogram import report

    payload = report(_floats(args.w0), _floats(args.w1), args.n, args.k, jsd=args.jsd,
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
    _emit(payload, args.format, "\n".join(lines))
    return 0


# ----------------------------------------------------------------- design
def _cmd_design(args: argparse.Namespace) -> int:
    from shufflekit.numeric import bmg_design

    if getattr(args, "method", "certified") == "index":
        design = bmg_design.design_by_index(args.n, args.epsilon, args.delta, d=args.d)
    else:
        design = bmg_design.design_for_privacy(args.n, args.epsilon, args.delta, d=args.d)
    payload = design.as_dict()
    table = "\n".join([
        f"BMG design for n={design.n}, epsilon={design.epsilon:g}, delta={design.delta:g}, d={design.d}",
        f"  BMG: gamma={design.gamma:.6f}  sigma0={design.sigma0:.6f}  RMSE={design.rmse:.6g}  "
        f"(certified delta {design.certified_delta:.4g}, chi_lo {payload['bmg']['chi_lo']:.6g})",
        f"  central Gaussian: sigma={design.gm_sigma:.6g}  RMSE={design.gm_rmse:.6g}",
        f"  RMSE ratio BMG/GM: {design.rmse / design.gm_rmse:.6f}"])
    _emit(payload, args.format, table)
    return 0


# ------------------------------------------------------------------ parser
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shufflekit",
        description="Derive, evaluate and verify privacy amplification by shuffling.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    v = sub.add_parser("verify", help="check every registered claim of the papers and report")
    v.add_argument("--format", default="table", choices=["table", "json", "markdown", "latex"])
    v.add_argument("--only", default=None, help="glob or substring of claim ids/papers/sources")
    v.add_argument("--list", action="store_true", help="list the claims grouped by paper and section")
    v.add_argument("--quick", action="store_true",
                   help="trimmed grids, at most about 2 minutes (the default)")
    v.add_argument("--full", action="store_true",
                   help="the papers' full grids and precision (at most about 15 minutes)")
    v.add_argument("--thorough", action="store_true", help="heavier hypothesis profile")
    v.add_argument("--dps", type=int, default=50, help="mpmath working precision (digits)")
    v.add_argument("--no-progress", action="store_true", help="no progress bar")
    v.add_argument("-o", "--output", default=None, help="write the report to a file")
    v.add_argument("--plugin", action="append", metavar="FILE.py",
                   help="a Python file registering your own claims (repeatable)")
    v.set_defaults(func=_cmd_verify)

    m = sub.add_parser("mechanism", help="blanket, GPARV law, shuffle indices and eps0 of a mechanism")
    _mechanism_args(m)
    m.add_argument("--epsilon", type=str, default="0", help="epsilon of the GPARV law")
    m.add_argument("--format", default="table", choices=["json", "table"])
    m.set_defaults(func=_cmd_mechanism)

    lx = sub.add_parser("latex", help="write derived results as LaTeX")
    lx.add_argument("ids", nargs="*", help="result ids (see --list)")
    lx.add_argument("--list", action="store_true", help="list the result ids")
    lx.add_argument("--all", action="store_true", help="every result")
    lx.add_argument("--document", action="store_true", help="a standalone article")
    lx.add_argument("-o", "--output", default=None, help="output file (default: stdout)")
    lx.set_defaults(func=_cmd_latex)

    se = sub.add_parser("series", help="print a derived asymptotic expansion")
    se.add_argument("id", help="series id, e.g. gaussian-local.sigma2-in-chi")
    se.add_argument("--order", type=int, default=4, help="number of terms")
    se.add_argument("--format", default="text", choices=["json", "latex", "text"])
    se.set_defaults(func=_cmd_series)

    pr = sub.add_parser("profile", help="shuffled privacy profile delta(eps) or eps(delta)")
    _mechanism_args(pr)
    pr.add_argument("--n", type=int, required=True, help="number of users")
    pr.add_argument("--method", default=None,
                    help="blanket | blanket-fft | lower | clone | clone-numeric | stronger-clone | "
                         "hoeffding | bennett | chernoff (finite); blanket-fft | asymptotic | exact | gdp "
                         "(continuous)")
    pr.add_argument("--epsilon", type=float, nargs="+", default=None)
    pr.add_argument("--delta", type=float, nargs="+", default=None)
    pr.add_argument("--format", default="table", choices=["json", "table"])
    pr.add_argument("--grid", type=float, default=None,
                    help="discretisation interval l of blanket-fft (default (e^eps0-1)/12000)")
    pr.set_defaults(func=_cmd_profile)

    hi = sub.add_parser("histogram", help="exact fixed-composition accounting of a binary-input channel")
    hi.add_argument("--w0", required=True, help="W0 as comma-separated probabilities")
    hi.add_argument("--w1", required=True, help="W1 as comma-separated probabilities")
    hi.add_argument("--n", type=int, required=True)
    hi.add_argument("--k", type=int, default=0, help="number of ones among the other users")
    hi.add_argument("--jsd", action="store_true", help="also compute the exact JSD")
    hi.add_argument("--epsilon", type=float, nargs="*", default=None)
    hi.add_argument("--delta", type=float, nargs="*", default=None)
    hi.add_argument("--format", default="table", choices=["json", "table"])
    hi.set_defaults(func=_cmd_histogram)

    de = sub.add_parser("design", help="optimise a mechanism's parameters")
    de.add_argument("name", choices=["bmg"])
    de.add_argument("--n", type=int, required=True)
    de.add_argument("--epsilon", type=float, required=True)
    de.add_argument("--delta", type=float, required=True)
    de.add_argument("--d", type=int, default=1)
    de.add_argument("--method", default="certified", choices=["certified", "index"],
                    help="certified: least RMSE whose certified blanket bound meets (eps, delta); "
                         "index: the Sec. 4.2 design at the chi_lo with f_{n,eps}(chi_lo) = delta")
    de.add_argument("--format", default="table", choices=["json", "table"])
    de.set_defaults(func=_cmd_design)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except ValueError as exc:
        print(f"shufflekit {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into head
        return 0


if __name__ == "__main__":
    sys.exit(main())
