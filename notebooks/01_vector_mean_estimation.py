# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Private vector mean estimation after shuffling (Takagi-Liew 2026)
#
# This notebook recomputes the numerical section of the Takagi-Liew paper (Takagi-Liew 2026, Sec. 5,
# Figures 1-3) and draws the asymptotic expansions of Sec. 3-4 as remainders.  Every number
# is computed here:
#
# * the shuffled blanket-mixed Gaussian mechanism BMG$(\gamma, \sigma_0)$ is accounted with the
#   **certified** blanket bound of App. C (method `bmg-blanket`,
#   `shufflekit.numeric.methods.bmg_blanket`), worst over both orders of the zero-out pair: each
#   $\delta(\varepsilon)$ is an upper bound with every truncation, lattice and round-off error
#   added on the safe side, and each $\varepsilon(\delta)$ is rounded up;
# * the central Gaussian mechanism GM$(\sigma)$ (sensitivity $1/n$) has its exact profile
#   (`shufflekit.numeric.methods.gaussian`);
# * the Gaussian local randomizer ($\gamma = 0$) has **no** certificate: its curve is the template
#   $f_{n,\varepsilon}(\chi_{\rm chua})$ of Sec. 4.3, which rests on an open conjecture of
#   Chua et al. and drops a $(1+o(1))$ factor.  It is drawn dashed and labelled *asymptotic*;
# * the expansions come from the symbolic layer (`shufflekit.symbolic`), derived from the
#   mechanisms' densities, not typed in.
#
# RMSE is per coordinate, $\sqrt{\mathsf{Err}_n/d}$ with $\mathsf{Err}_n = \mathsf{Err}_1/n$, and
# $d = 1$ (the paper does not state $d$; the mixture term $\gamma/(1-\gamma)$ of
# $\mathsf{Err}_1$ does not grow with $d$, so a larger $d$ moves BMG slightly closer to GM).

# %%
import math
import time

import mpmath as mp
import numpy as np
import sympy as sp
from paperfig import QUICK, plt, save
from scipy.optimize import brentq, minimize_scalar

from shufflekit.errors import CannotCertify
from shufflekit.mechanisms import make
from shufflekit.numeric.design import bmg_design as D
from shufflekit.numeric.methods import bmg_blanket, shuffle_template
from shufflekit.numeric.methods import gaussian as G
from shufflekit.symbolic import bmg as SB
from shufflekit.symbolic import gaussian_local as SGL
from shufflekit.symbolic import randomized_response as SRR

DELTA = 1e-5
# lattice resolution of the certified accountant (step = sd(L)/resolution): the search uses a
# coarse lattice (still certified, only slightly looser), the plotted values the fine one
SEARCH_RES = 20
FINAL_RES = 30 if QUICK else 100
T0 = time.perf_counter()
print("quick mode" if QUICK else "full resolution")

# %% [markdown]
# ## Designing BMG with the certified accountant
#
# For a target RMSE, $\sigma_0$ is fixed by $\gamma$ through $\mathsf{Err}_1(\gamma, \sigma_0) = n\,d\,
# \mathrm{RMSE}^2$.  We start from the Sec. 4.2 design (the $(\gamma, \sigma_0)$ with the largest
# $\chi_{\rm lo}$ at that $\mathsf{Err}_1$) and then minimise the *certified* $\varepsilon$ at
# $\delta = 10^{-5}$ over $\log(1-\gamma)$ in a window around it.  Minimising $\varepsilon$ at a fixed RMSE
# traces the same trade-off curve as minimising the RMSE at a fixed $\varepsilon$, and costs one
# $\varepsilon$ search per trial instead of a nested $\sigma_0$ search.


# %%
def certified_epsilon(gamma, sigma0, n, resolution):
    """Certified epsilon at DELTA (inf when the accountant cannot certify)."""
    try:
        return D.certified_epsilon(gamma, sigma0, n, DELTA, resolution)
    except CannotCertify:
        return math.inf


def certified_design(n, target_rmse, *, window=0.3, xatol=0.05, search=True):
    """(gamma, sigma0, eps, index design) with the least certified eps at the target RMSE
    (``search=False``: the Sec. 4.2 design itself, with its certified eps)."""
    index = D.design_by_index_for_rmse(n, target_rmse)
    la0 = math.log(1 - index.gamma)
    if not search:
        return (
            index.gamma,
            index.sigma0,
            certified_epsilon(index.gamma, index.sigma0, n, FINAL_RES),
            index,
        )

    def eps_at(log_a, res):
        g = -math.expm1(log_a)
        try:
            s0 = D.sigma0_for_rmse(g, target_rmse, n)
        except CannotCertify:  # the mixture floor alone exceeds the target
            return math.inf
        return certified_epsilon(g, s0, n, res)

    hi = min(la0 + window, math.log(0.999))
    opt = minimize_scalar(
        lambda la: eps_at(la, SEARCH_RES),
        bounds=(la0 - window, hi),
        method="bounded",
        options={"xatol": xatol},
    )
    # keep the index design if the search did not improve on it
    candidates = [(eps_at(opt.x, FINAL_RES), opt.x), (eps_at(la0, FINAL_RES), la0)]
    eps, la = min(candidates)
    g = -math.expm1(la)
    return g, D.sigma0_for_rmse(g, target_rmse, n), eps, index


# %% [markdown]
# In quick mode the search is skipped (the Sec. 4.2 design is used as is, still with its
# certified $\varepsilon$) and the grids are coarser.
#
# ## Figure 1: RMSE against $\varepsilon$ at $(n, \delta) = (10^4, 10^{-5})$
#
# BMG points come from a grid of target RMSEs (each point is a certified $(\varepsilon, \delta)$
# design); GM is exact, $\mathrm{RMSE} = \sigma/\sqrt n$ with the smallest $\sigma$ meeting
# $(\varepsilon, \delta)$.  For the Gaussian local randomizer, $\chi_{\rm chua}$ solves
# $f_{n,\varepsilon}(\chi) = \delta$, $\sigma_0$ solves $\chi_{\rm chua}(\sigma_0) = \chi$ (quadrature of
# its definition) and $\mathrm{RMSE} = \sigma_0/\sqrt n$.

# %%
N1 = 10**4
rmse_grid = np.geomspace(0.03, 1.0, 3 if QUICK else 8)
fig1_rows = []
for r in rmse_grid:
    t0 = time.perf_counter()
    g, s0, eps, index = certified_design(N1, float(r), search=not QUICK)
    eps_index = eps if QUICK else certified_epsilon(index.gamma, index.sigma0, N1, FINAL_RES)
    fig1_rows.append(
        dict(
            rmse=float(r),
            gamma=g,
            sigma0=s0,
            eps=eps,
            gamma_index=index.gamma,
            eps_index=eps_index,
            chi_lo=D.chi_lo(g, s0),
        )
    )
    print(
        f"RMSE {r:.4f}: gamma {g:.4f} (Sec. 4.2: {index.gamma:.4f}), sigma0 {s0:.4f}, certified eps "
        f"{eps:.5g} (Sec. 4.2 design: {eps_index:.5g}), GM eps {G.epsilon_for_sigma(r * math.sqrt(N1), DELTA, N1):.5g}"
        f"  [{time.perf_counter() - t0:.1f} s]"
    )


# %%
# chi_chua(sigma0)^2 = 1/V(sigma0), V = Var[l_0] derived from the densities by the symbolic layer;
# evaluated with mpmath at 40 digits (V ~ 1/sigma0^2 is a difference of exponentials close to 1)
gl_V = sp.lambdify(SGL.sigma0, SGL.variance().result, modules="mpmath")


def chi_chua_closed(sigma0):
    with mp.workdps(40):
        return float(1 / mp.sqrt(gl_V(mp.mpf(sigma0))))


print(
    f"chi_chua(5): closed form {chi_chua_closed(5.0):.12g}, quadrature {float(shuffle_template.chi_chua(5.0)):.12g}"
)


def gaussian_local_sigma0(chi):
    """sigma0 with chi_chua(sigma0) = chi (chi_chua increases with sigma0)."""
    f = lambda ls: math.log(chi_chua_closed(math.exp(ls))) - math.log(chi)
    lo = math.log(max(chi, 1e-3)) - 1
    while f(lo) > 0:
        lo -= 1
    hi = math.log(chi + 10) + 1
    return math.exp(brentq(f, lo, hi, xtol=1e-10))


eps_lo = min(row["eps"] for row in fig1_rows)
eps_hi = max(row["eps"] for row in fig1_rows)
eps_curve = np.geomspace(eps_lo / 1.5, eps_hi * 1.5, 12 if QUICK else 40)
gm_rmse_curve = [G.rmse(G.calibrate_sigma(e, DELTA, N1), N1) for e in eps_curve]
gl_eps = eps_curve
gl_rmse = [
    gaussian_local_sigma0(D.chi_for_template(N1, float(e), DELTA)) / math.sqrt(N1) for e in gl_eps
]

fig, ax = plt.subplots()
ax.plot(eps_curve, gm_rmse_curve, color="C0", label="GM (exact)")
ax.plot(
    [row["eps"] for row in fig1_rows],
    [row["rmse"] for row in fig1_rows],
    "o-",
    ms=3,
    color="C1",
    label="BMG (certified)",
)
ax.plot(
    gl_eps,
    gl_rmse,
    "--",
    color="C2",
    label=r"Gaussian local, $\gamma=0$" "\n(asymptotic, conjectural)",
)
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel(r"$\varepsilon$")
ax.set_ylabel("RMSE per coordinate")
ax.set_title(r"$n=10^4$, $\delta=10^{-5}$")
ax.legend()
save(fig, "vector_mean_fig1_rmse_vs_eps")
for row in fig1_rows:
    gm = G.rmse(G.calibrate_sigma(row["eps"], DELTA, N1), N1)
    print(f"eps {row['eps']:.4g}: RMSE BMG/GM = {row['rmse'] / gm:.4f}")

# %% [markdown]
# ## Figure 2: privacy profile at $(n, \mathrm{RMSE}) = (10^3, 3.16)$
#
# BMG is designed as above (least certified $\varepsilon$ at $\delta = 10^{-5}$ among the designs with
# RMSE 3.16), then its certified $\delta(\varepsilon)$ is drawn; GM$(\sigma)$ has $\sigma = 3.16\sqrt n$;
# the Gaussian local randomizer has $\sigma_0 = 3.16\sqrt n$ and its asymptotic template.

# %%
N2, RMSE2 = 10**3, 3.16
g2, s02, eps2, index2 = certified_design(N2, RMSE2, xatol=0.02, search=not QUICK)
print(
    f"Sec. 4.2 design: gamma={index2.gamma:.5f}, sigma0={index2.sigma0:.5f}, chi_lo={index2.chi:.4f}"
)
print(f"certified optimum: gamma={g2:.5f}, sigma0={s02:.5f}, eps(1e-5)={eps2:.6g}")
bmg2 = make("bmg", gamma=g2, sigma0=s02)
sigma_gm2 = RMSE2 * math.sqrt(N2)
eps_axis = np.linspace(0.0, 2.0e-3, 9 if QUICK else 41)
bmg_prof = bmg_blanket.bmg_profile(
    bmg2, N2, epsilons=[float(e) for e in eps_axis], resolution=FINAL_RES
)
gm_prof = G.central_gaussian_profile(sigma_gm2, N2, epsilons=[float(e) for e in eps_axis])
gl_prof = shuffle_template.gaussian_local_asymptotic_profile(
    make("gaussian-local", sigma0=sigma_gm2), N2, epsilons=[float(e) for e in eps_axis if e > 0]
)

fig, ax = plt.subplots()
ax.plot(
    eps_axis,
    [p.delta for p in gm_prof.bounds],
    color="C0",
    label=r"GM, $\sigma=3.16\sqrt{n}$ (exact)",
)
ax.plot(
    eps_axis,
    [p.delta for p in bmg_prof.bounds],
    "o",
    ms=2.5,
    color="C1",
    label=f"BMG({g2:.3f}, {s02:.2f}) (certified)",
)
gl_eps2 = [p.epsilon for p in gl_prof.bounds]
gl_delta2 = [p.delta for p in gl_prof.bounds]
keep = [i for i, dl in enumerate(gl_delta2) if dl < 1e-3]
ax.plot(
    [gl_eps2[i] for i in keep],
    [gl_delta2[i] for i in keep],
    "--",
    color="C2",
    label="Gaussian local (asymptotic, conjectural)",
)
ax.set_yscale("log")
ax.set_ylim(1e-16, 1e-3)
ax.set_xlabel(r"$\varepsilon$")
ax.set_ylabel(r"$\delta(\varepsilon)$ (upper bound)")
ax.set_title(r"$n=10^3$, RMSE $=3.16$")
ax.legend(loc="lower left", fontsize=6.5)
save(fig, "vector_mean_fig2_privacy_profile")
for e, pb, pg in list(zip(eps_axis, bmg_prof.bounds, gm_prof.bounds))[:: 2 if QUICK else 8]:
    print(
        f"eps {e:.5f}: delta BMG {pb.delta:.4g} (enclosure width {pb.width:.2g}), GM {pg.delta:.4g}, "
        f"ratio {pb.delta / pg.delta:.4f}"
    )
# the same comparison at fixed delta: the certified eps of BMG against the exact eps of GM
print(
    f"Sec. 4.2 design at RMSE 3.16: certified eps(1e-5) = "
    f"{certified_epsilon(index2.gamma, index2.sigma0, N2, FINAL_RES):.6g}"
)
for dl in [1e-5, 1e-9] if QUICK else [1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10]:
    e_b = D.certified_epsilon(g2, s02, N2, dl, FINAL_RES)
    e_g = G.epsilon_for_sigma(sigma_gm2, dl, N2)
    print(f"delta {dl:.0e}: eps BMG {e_b:.6g}, eps GM {e_g:.6g}, ratio {e_b / e_g:.4f}")

# %% [markdown]
# ## Figure 3: scaling with $n$ for BMG$(0.95, 4.6)$
#
# The caption's $(\gamma, \sigma_0) = (0.95, 4.6)$ is fixed.  For each $n$, $\varepsilon_n$ is the certified
# $\varepsilon$ at $\delta = 10^{-5}$; GM is calibrated to the same $(\varepsilon_n, 10^{-5})$.

# %%
G3, S3 = 0.95, 4.6
n3 = [10**2, 10**3, 10**4]
fig3_rows = []
for n in n3:
    e = certified_epsilon(G3, S3, n, FINAL_RES)
    gm = G.rmse(G.calibrate_sigma(e, DELTA, n), n)
    fig3_rows.append(dict(n=n, eps=e, bmg=D.rmse(G3, S3, n), gm=gm))
    print(
        f"n={n}: certified eps_n={e:.6g}, RMSE BMG {D.rmse(G3, S3, n):.4f}, GM {gm:.4f}, "
        f"ratio {D.rmse(G3, S3, n) / gm:.4f}"
    )

fig, ax = plt.subplots()
ax.plot(
    n3,
    [r["gm"] for r in fig3_rows],
    "s-",
    ms=4,
    color="C0",
    label=r"GM at $(\varepsilon_n, 10^{-5})$",
)
ax.plot(n3, [r["bmg"] for r in fig3_rows], "o--", ms=4, color="C1", label="BMG(0.95, 4.6)")
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xticks(n3)
ax.set_xticklabels(
    [
        rf"$10^{{{round(math.log10(r['n']))}}}$" "\n" rf"$\varepsilon_n$={r['eps']:.2g}"
        for r in fig3_rows
    ]
)
ax.xaxis.set_minor_locator(plt.NullLocator())
ax.set_xlabel("$n$ (and the certified $\\varepsilon_n$ at $\\delta = 10^{-5}$)")
ax.set_ylabel("RMSE per coordinate")
ax.set_ylim(0.6 * min(r["gm"] for r in fig3_rows), 1.6 * max(r["bmg"] for r in fig3_rows))
ax.set_title(r"fixed $(\gamma,\sigma_0)=(0.95, 4.6)$, $\delta=10^{-5}$")
ax.legend()
save(fig, "vector_mean_fig3_n_scaling")

# %% [markdown]
# ## Expansion checks: remainders against $\chi$
#
# Each panel takes a series derived by the symbolic layer, evaluates the exact quantity at 60
# digits, subtracts the first terms of the series and fits the slope of $\log|\text{remainder}|$
# against $\log\chi$.  The fitted slope should match the exponent of the first dropped term.
#
# * BMG (Thm 4.1): $\mathsf{Err}_1/(d\chi^2)$ at $1-\gamma = \chi^{-2/3}$, $\chi = \chi_{\rm lo}$, $d = 1$;
# * Gaussian local (Prop. 4.2): $\mathsf{Err}_1/(d\chi^2) = \sigma_0^2/\chi_{\rm chua}^2$, exact through
#   the closed form of $\mathrm{Var}[\ell_0]$;
# * randomized response (Prop. 3.6): $\mathsf{Err}_1/\chi^2$ from the closed form in $\chi = \chi_{\rm lo}$.

# %%
mp.mp.dps = 60
chi_sym = sp.Symbol("chi", positive=True)

# BMG: exact Err_1(gamma, chi) with d = 1 at gamma = 1 - chi^(-2/3); series of Thm 4.1
bmg_rel_series = SB.err_expansion(3).extras["relative"].subs({SB.d: 1})
bmg_exact = sp.lambdify(
    SB.chi,
    (SB.err_in_gamma_chi().result / (SB.d * SB.chi**2)).subs(
        {SB.d: 1, SB.gamma: 1 - SB.chi ** sp.Rational(-2, 3)}
    ),
    modules="mpmath",
)

# Gaussian local: sigma0^2 / chi_chua^2 = sigma0^2 V(sigma0), V from the densities (gl_V above)
# Err_1 = d sigma0^2 (per-coordinate error of the estimator Y, derived in err_in_chi); divide by d chi^2
gl_sigma2_series = SGL.sigma2_in_chi(4).result

# randomized response: closed form Err_1(chi)
rr_exact = sp.lambdify(SRR.chi, SRR.err_closed_form().result / SRR.chi**2, modules="mpmath")
rr_series = SRR.err_in_chi(6).result


def series_terms(ser, shift=0):
    """(exponent, coefficient) pairs of a Series in its display variable chi, exponents shifted by
    ``shift``, followed by (order, None) for the O() term."""
    data = ser.as_dict()
    out = [
        (sp.Rational(t["exponent"]) + shift, sp.sympify(t["coefficient"])) for t in data["terms"]
    ]
    return out + [(sp.Rational(data["order"]) + shift, None)]


def partial_sum(terms, k, chi_value):
    return sum(
        mp.mpf(sp.Rational(c) if c.is_Rational else c.evalf(70)) * mp.mpf(chi_value) ** mp.mpf(e)
        for e, c in terms[:k]
    )


chi_grid = np.geomspace(1e2, 1e6, 7 if QUICK else 17)
panels = []

t_bmg = series_terms(bmg_rel_series)
vals = [bmg_exact(mp.mpf(c)) for c in chi_grid]
panels.append(("BMG (Thm 4.1)", chi_grid, vals, t_bmg, [2, 3]))

# Gaussian local: the grid is in sigma0; chi_chua = 1/sqrt(V)
sig_grid = np.geomspace(1e1, 1e4, 7 if QUICK else 17)
gl_chi = [1 / mp.sqrt(gl_V(mp.mpf(s))) for s in sig_grid]
gl_vals = [mp.mpf(s) ** 2 / c**2 for s, c in zip(sig_grid, gl_chi)]
t_gl = series_terms(gl_sigma2_series, shift=-2)
panels.append(("Gaussian local (Prop. 4.2)", [float(c) for c in gl_chi], gl_vals, t_gl, [1, 2]))

rr_terms_rel = series_terms(rr_series, shift=-2)  # divided by chi^2
rr_vals = [rr_exact(mp.mpf(c)) for c in chi_grid]
panels.append(("Randomized response (Prop. 3.6)", chi_grid, rr_vals, rr_terms_rel, [2, 3]))


def power_label(e):
    return "1" if e == 0 else rf"\chi^{{{sp.latex(e, fold_short_frac=True)}}}"


fig, axes = plt.subplots(1, 3, figsize=(7.2, 2.9))
slopes = {}
for ax, (title, xs, exact, terms, ks) in zip(axes, panels):
    for k, colour in zip(ks, ("C1", "C3")):
        rem = [abs(v - partial_sum(terms, k, x)) for x, v in zip(xs, exact)]
        ok = [i for i, rv in enumerate(rem) if rv > 0]
        lx = np.log([float(xs[i]) for i in ok])
        ly = np.array([float(mp.log(rem[i])) for i in ok])
        slope = float(np.polyfit(lx, ly, 1)[0])
        expected = terms[k][0]  # exponent of the first dropped term (or of the O() term)
        slopes[(title, k)] = (slope, expected)
        ax.loglog(
            [float(xs[i]) for i in ok],
            [float(rem[i]) for i in ok],
            "o-",
            ms=2.5,
            color=colour,
            label=f"{k} term{'s' if k > 1 else ''} kept: slope {slope:.3f}\n"
            rf"(next term ${power_label(expected)}$)",
        )
    ax.set_title(title)
    ax.set_xlabel(r"$\chi$")
    ax.legend(fontsize=6, loc="upper center", bbox_to_anchor=(0.5, -0.33))
axes[0].set_ylabel(r"$|\mathsf{Err}_1/(d\chi^2) - \mathrm{partial\ sum}|$")
fig.tight_layout()
save(fig, "vector_mean_expansion_remainders")
for (title, k), (s, e) in slopes.items():
    print(f"{title}, first {k} terms kept: fitted slope {s:.4f}, next exponent {e}")

# %% [markdown]
# ## How these figures compare with the paper
#
# Written from a full-resolution run (the printed numbers above are the evidence; the claims
# `000.num.*` of `shufflekit.verify.catalog.seed000.numerics` check the same statements).
#
# * **Figure 1.** The paper does not state its $\varepsilon$ axis.  Our BMG points come from a grid
#   of target RMSEs between 0.03 and 1, which at $n = 10^4$ covers $\varepsilon \approx 10^{-4}$ to
#   $1.5\cdot10^{-2}$.  The paper's message holds: the ratio RMSE(BMG)/RMSE(GM) falls from about
#   1.73 at $\varepsilon \approx 0.015$ to about 1.04 at $\varepsilon \approx 10^{-4}$.  We stop at
#   RMSE 0.03 for two reasons.  Below it, $\chi_{\rm lo}$ is of order one and BMG is far from GM
#   (at RMSE 0.01 the Sec. 4.2 design needs $\varepsilon \approx 0.9$ against 0.027 for GM).  Also,
#   the Sec. 4.2 starting design cannot be computed for very small targets.  Optimising $\gamma$ under
#   the certified accountant changes $1-\gamma$ by at most 2 % from the Sec. 4.2 choice and lowers
#   $\varepsilon$ by less than 0.05 %: near its minimum the certified $\varepsilon$ hardly changes
#   with $\gamma$.  The dashed Gaussian-local curve is the conjectural asymptotic template,
#   **not** a privacy guarantee.
# * **Figure 2.** The certified BMG profile lies above the exact GM profile everywhere.  The ratio of
#   the two $\delta$s is about 1.04 at $\varepsilon = 0$ and grows to about 10 where
#   $\delta \approx 10^{-13}$.  At a fixed $\delta$, BMG's certified $\varepsilon$ is 5-6 % above GM's
#   for every $\delta$ from $10^{-5}$ to $10^{-10}$ (printed above), which is what "closely matches" means on the paper's log scale.
#   The certified optimum at RMSE 3.16 has $\gamma \approx 0.950$, the caption's $\gamma$.  Its
#   $\sigma_0$, however, is $\approx 4.99$, not 4.6: with $d = 1$, RMSE 3.16 at $\gamma = 0.95$ forces
#   that $\sigma_0$.  The optimum in $\gamma$ is very flat, so its location is fixed only to about 2 %.
# * **Figure 3.** Taken literally, BMG$(0.95, 4.6)$ has RMSE 2.91, not 3.16, at $n = 10^3$ with $d = 1$.
#   The caption's pair looks like the two-digit rounding of the Sec. 4.2 design $(0.9534, 4.648)$,
#   whose RMSE is 3.16; rounding $1-\gamma$ from 0.0466 to 0.05 changes the RMSE by 8 %.  We keep the
#   caption's values, so our curve sits about 8 % below the paper's.  The correspondence holds at
#   every $n$: RMSE(BMG)/RMSE(GM) is 1.06, 1.045 and 1.04 at $n = 10^2, 10^3, 10^4$.
# * **Expansions.** Every fitted slope matches the exponent of the first dropped term: $-4/3$ and
#   $-2$ for BMG, $-2$ and $-4$ for the Gaussian local randomizer, $-2$ and $-3$ for randomized
#   response, each to within 0.03.

# %%
print(f"total time {time.perf_counter() - T0:.1f} s")
