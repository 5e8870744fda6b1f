r"""Theorems of shufflekit's own for settings beyond one plain shuffle, checked like the papers'.

Each statement extends a result of the papers (so its id carries that paper's key and its
``kind`` is ``refinement``) and is proved in the docstring of the module that implements it;
the check re-derives what can be derived (sympy, from the mechanism's definition) and compares
the implementation with the definition enumerated exactly at small ``n``.

* ``002.subsampling.null-report``: Poisson subsampling before the shuffle is the shuffle of the
  randomizer :math:`R^q = (1-q)\delta_\varnothing + qR` (:mod:`shufflekit.mechanisms.subsampled`),
  whose blanket mass is :math:`1 - q + q\gamma` (Su-Cheng-Wang 2026, Thm 4 then applies).
* ``002.heterogeneous.blanket``: users holding different randomizers; the blanket decomposition
  with heterogeneous blankets (:mod:`shufflekit.numeric.methods.population`) bounds the
  definition, and for one group reduces to Su-Cheng-Wang 2026, Thm 4.
* ``000.rdp.shuffle-gaussian``: the Rényi divergence of the shuffled-Gaussian pair of Liew and
  Takahashi 2022 (the Gaussian local randomizer of Takagi-Liew 2026, Sec. 4, shuffled), derived
  from the Gaussian moments; where the settings meet (one user: the Gaussian mechanism) it is
  enclosed by shufflekit's certified Rényi bound (:meth:`Accountant.get_rdp`).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from shufflekit.verify.claims import CheckContext, claim, confirmed, refuted
from shufflekit.verify.mutation import printed

#: small rational randomizers and settings the subsampling claim enumerates exactly
SUBSAMPLING_CASES = (
    ((("3/4", "1/4"), ("1/4", "3/4")), 3, "1/10"),
    ((("1/2", "1/4", "1/4"), ("1/6", "1/2", "1/3"), ("1/5", "1/5", "3/5")), 3, "1/3"),
)


@claim(
    id="002.subsampling.null-report",
    paper="002",
    source="Thm 4 under Poisson subsampling (refinement; proved in mechanisms.subsampled)",
    statement=r"M_q(D) \text{ and } S_{R^q}(D),\ R^q = (1-q)\delta_\varnothing + qR,"
    r" \text{ have equal divergences};\ \gamma_q = 1 - q + q\gamma",
    section="Subsampling before the shuffle",
    kind="refinement",
)
def check_002_subsampling_null_report(ctx: CheckContext):
    import shufflekit as sk
    from shufflekit.mechanisms.subsampled import subsampled
    from shufflekit.numeric.kernels import brute_force as BF

    # 1. the blanket mass, derived from the matrix of R^q (symbolic eps0 and q in (0, 1))
    e0, t, g = sp.symbols("epsilon_0 t gamma", positive=True)
    q = 1 / (1 + t)
    rr = sk.make("rr", eps0=e0)
    qs = sp.Symbol("q", positive=True)
    claimed = printed(1 - qs + qs * g, "gamma_q").subs(qs, q)
    derived = subsampled(rr, q).gamma
    gap = sp.simplify(derived - claimed.subs(g, rr.gamma))
    if gap != 0:
        return refuted(f"the blanket mass of R^q is {sp.simplify(derived)}, not the claim")
    # 2. the theorem: the definition (participants only) against the shuffled R^q, exactly
    equal = printed(True, "the two divergences are equal")
    direction = printed(True, "direction: the certified bound is above the definition")
    rows = []
    cases = SUBSAMPLING_CASES[:1] if ctx.quick else SUBSAMPLING_CASES
    for matrix, n, rate in cases:
        exact = [[Fraction(x) for x in r] for r in matrix]
        mech = sk.make("finite", matrix=[[sp.Rational(x) for x in r] for r in matrix])
        sub = subsampled(mech, rate)
        acc = sk.accountant(mech, n, sampling_rate=rate)
        for eps in (0.0, 0.3):
            ref = float(BF.subsampled_worst_case(exact, n, Fraction(rate), eps))
            enc = BF.worst_case_delta(sub, n, eps)
            inside = enc.lo - 1e-15 <= ref <= enc.hi + 1e-15
            if inside != equal:
                return refuted(
                    f"n={n}, q={rate}, eps={eps}: definition {ref:.15g}, shuffled R^q "
                    f"[{enc.lo:.15g}, {enc.hi:.15g}]"
                )
            up = acc.get_delta(eps).hi
            if (up >= ref * (1 - 1e-12)) != direction:
                return refuted(f"n={n}, q={rate}, eps={eps}: certified {up:.6g} vs {ref:.6g}")
            rows.append(f"n={n} q={rate} eps={eps}: {ref:.6g} <= {up:.6g}")
    return confirmed(
        "gamma_q = 1 - q + q*gamma derived from the matrix; definition = shuffled R^q "
        "and below the certified blanket bound: " + "; ".join(rows)
    )


#: populations (rows, users) the heterogeneous claim enumerates exactly
POPULATION = (
    (("2/3", "1/6", "1/6"), ("1/6", "2/3", "1/6"), ("1/6", "1/6", "2/3")),
    (("1/2", "1/3", "1/6"), ("1/5", "3/5", "1/5")),
)


@claim(
    id="002.heterogeneous.blanket",
    paper="002",
    source="Thm 4 for users holding different randomizers (refinement; proved in "
    "numeric.methods.population)",
    statement=r"\delta(\varepsilon) \le \mathbb{E}[h_M(\varepsilon)],\ M = \sum_j "
    r"\mathrm{Bernoulli}(\gamma_{h(j)|g});\ \text{one group: } \tfrac1n"
    r"\mathbb{E}[(\textstyle\sum_{i\le n} G_i)_+]",
    section="Heterogeneous populations",
    kind="refinement",
)
def check_002_heterogeneous_blanket(ctx: CheckContext):
    import itertools

    import numpy as np

    import shufflekit as sk
    from shufflekit.numeric.kernels import brute_force as BF

    # 1. one group: E over M ~ Bin(n-1, gamma) of h_M is the homogeneous expectation, from
    # the binomial identity, derived by sympy
    n, m, g = sp.symbols("n m gamma", positive=True)
    lhs = sp.binomial(n - 1, m) * g ** (m + 1) * (1 - g) ** (n - 1 - m) / (m + 1)
    rhs = printed(sp.binomial(n, m + 1) * g ** (m + 1) * (1 - g) ** (n - m - 1) / n, "identity")
    if sp.simplify(sp.combsimp(lhs / rhs)) != 1:
        return refuted(f"the binomial identity fails: {sp.simplify(lhs / rhs)}")
    # 2. the bound against the definition: every changed user, pair and dataset of the others
    direction = printed(True, "direction: the bound is above the definition")
    groups = [(POPULATION[0], 1), (POPULATION[1], 2)]
    mechs = [
        sk.make("finite", matrix=[[sp.Rational(x) for x in r] for r in rows]) for rows, _ in groups
    ]
    users = [
        (np.array([[float(Fraction(x)) for x in r] for r in rows]))
        for rows, k in groups
        for _ in range(k)
    ]
    rows_out = []
    for adjacency in ("replace-one",) if ctx.quick else ("replace-one", "zero-out"):
        acc = sk.accountant(
            [(m_, k) for m_, (_, k) in zip(mechs, groups, strict=True)], adjacency=adjacency
        )
        for eps in (0.0, 0.4):
            ref = 0.0
            for i, own in enumerate(users):
                others = [u for j, u in enumerate(users) if j != i]
                null = own.min(axis=0) / own.min(axis=0).sum()
                if adjacency == "replace-one":
                    pairs = [
                        (own[a], own[b]) for a in range(len(own)) for b in range(len(own)) if a != b
                    ]
                else:
                    pairs = [(own[a], null) for a in range(len(own))]
                    pairs += [(null, own[a]) for a in range(len(own))]
                for data in itertools.product(*(range(len(u)) for u in others)):
                    rest = [u[x] for u, x in zip(others, data, strict=True)]
                    for a, b in pairs:
                        ref = max(ref, BF.rows_delta([a, *rest], [b, *rest], eps).hi)
            up = acc.get_delta(eps).hi
            if (up >= ref) != direction:
                return refuted(f"{adjacency}, eps={eps}: bound {up:.6g}, definition {ref:.6g}")
            rows_out.append(f"{adjacency} eps={eps}: {ref:.4g} <= {up:.4g}")
    return confirmed(
        "one group reduces to Su-Cheng-Wang's expectation (binomial identity derived); "
        "the bound is above the enumerated definition: " + "; ".join(rows_out)
    )


@claim(
    id="000.rdp.shuffle-gaussian",
    paper="000",
    source="Sec. 4 (Gaussian local randomizer), shuffled: the RDP of Liew-Takahashi 2022 "
    "(refinement)",
    statement=r"D_\lambda = \tfrac1{\lambda-1}\log\big(n^{-\lambda}\sum_{|k|=\lambda}"
    r"\binom{\lambda}{k}e^{\sum_i (k_i^2-k_i)/(2\sigma^2)}\big);\ n = 1:\ "
    r"\lambda/(2\sigma^2) = \text{certified RDP of } N(1,\sigma^2)\|N(0,\sigma^2)",
    section="Renyi differential privacy",
    kind="refinement",
)
def check_000_rdp_shuffle_gaussian(ctx: CheckContext):
    import shufflekit as sk
    from shufflekit.numeric.composition.renyi import shuffle_gaussian_rdp

    # 1. the moments of Y = exp(Z/s^2 - 1/(2 s^2)), Z ~ N(0, s^2), derived by integration
    z, s, k = sp.Symbol("z", real=True), sp.Symbol("sigma", positive=True), sp.Symbol("k")
    density = sp.exp(-(z**2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    claimed = printed((k**2 - k) / (2 * s**2), "log E[Y^k]")
    for kk in (1, 2, 3):
        moment = sp.integrate(
            sp.exp(kk * (z / s**2 - 1 / (2 * s**2))) * density, (z, -sp.oo, sp.oo)
        )
        moment = sp.simplify(moment.rewrite(sp.erf))
        if sp.simplify(moment / sp.exp(claimed.subs(k, kk))) != 1:
            return refuted(f"E[Y^{kk}] = {sp.simplify(moment)}, not exp of the claim")
    # 2. one user: the pair is N(1, s^2) against N(0, s^2); the Gaussian mechanism's certified
    # Renyi bound (shufflekit) and the formula meet at lambda / (2 s^2)
    equal = printed(True, "n = 1: the formula equals the certified bound")
    rows = []
    for sigma in (0.8, 2.0):
        cert = sk.accountant(sk.CentralGaussian(sigma), 1).get_rdp([2, 4, 8])
        for lam, c in zip((2, 4, 8), cert, strict=True):
            lt = shuffle_gaussian_rdp(1, sigma, lam)
            exact = lam / (2 * sigma**2)
            same = abs(lt - exact) <= 4e-16 * exact and abs(c - exact) <= 4e-16 * exact
            if same != equal:
                return refuted(f"sigma={sigma}, order {lam}: formula {lt}, certified {c}, {exact}")
        # 3. shuffling amplifies: more users, smaller divergence of the pair, at every order
        rows.append(
            f"sigma={sigma}: order 8 from {shuffle_gaussian_rdp(1, sigma, 8):.4g} (n=1) to "
            f"{shuffle_gaussian_rdp(10, sigma, 8):.4g} (n=10), "
            f"{shuffle_gaussian_rdp(1000, sigma, 8):.4g} (n=1000)"
        )
    return confirmed(
        "Gaussian moments derived by integration; at n = 1 the formula equals lambda/(2 sigma^2) "
        "and the certified Renyi bound of the Gaussian mechanism; " + "; ".join(rows)
    )
