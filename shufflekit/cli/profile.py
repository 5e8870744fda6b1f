"""The ``profile`` command: compute the shuffled privacy profile delta(eps) or eps(delta) of a mechanism."""
from __future__ import annotations

import argparse
import sys

from shufflekit.cli.arguments import add_mechanism_arguments, build_mechanism
from shufflekit.cli.output import emit

NAME = "profile"
HELP = "shuffled privacy profile delta(eps) or eps(delta)"

CONTINUOUS_PROFILES = ("bmg", "gaussian-local", "central-gaussian")


def add_arguments(pr: argparse.ArgumentParser) -> None:
    add_mechanism_arguments(pr)
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


def run(args: argparse.Namespace) -> int:
    if args.epsilon is None and args.delta is None:
        raise ValueError("give --epsilon E ... or --delta D ...")
    if args.name in CONTINUOUS_PROFILES:
        payload = _profile_continuous(args)
    else:
        payload = _profile_finite(args)
    emit(payload, args.format)
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
    mech = build_mechanism(args)
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
