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
# # Your own theorem
#
# Define a new local randomizer, state a claim about it, and check the claim with the
# same machinery that checks the papers: exact derivation, a hypothesis property, and a
# report.  The mechanism below is a *three-output randomized response* on two inputs:
# the true bit with probability $p$, the other bit or a neutral symbol with probability
# $(1-p)/2$ each.

# %%
import sympy as sp
from hypothesis import strategies as st
from paperfig import QUICK, plt, save

from shufflekit.mechanisms import FiniteMechanism
from shufflekit.verify import checks, report
from shufflekit.verify.claims import CheckContext, Registry, claim
from shufflekit.verify.runner import run_claims


def three_output_rr(prob):
    return FiniteMechanism.from_matrix(
        [[prob, (1 - prob) / 2, (1 - prob) / 2], [(1 - prob) / 2, prob, (1 - prob) / 2]],
        inputs=(0, 1),
        outputs=(0, 1, "neutral"),
        name="three-output-rr",
    )


# %% [markdown]
# The blanket, the GPARV law and the shuffle indices follow from the matrix alone (exact
# rational arithmetic for a rational $p$).

# %%
m_half = three_output_rr(sp.Rational(2, 3))
print("gamma(p=2/3) =", m_half.blanket().gamma)
print("chi_lo(p=2/3) =", sp.nsimplify(m_half.chi_lo().value))
law = m_half.gparv(sp.Rational(1, 4), (0, 1))
print("GPARV atoms:", law.atoms)

# %% [markdown]
# ## A claim and its check
# *Claim.* For every $p \in (1/3, 1)$: $\gamma = \tfrac32(1-p)$ and
# $\chi_{\mathrm{up}} \ge \chi_{\mathrm{lo}}$.  The first part is an exact identity; the
# second is a property checked on $p$ values drawn by hypothesis.

# %%
mine = Registry()


@claim(
    id="mine.gamma",
    paper="mine",
    source="Lemma 1",
    registry=mine,
    statement=r"\gamma(p) = \tfrac32 (1-p)",
)
def _gamma(ctx):
    q = sp.Rational(3, 5)
    return checks.exact_identity(
        three_output_rr(q).blanket().gamma, sp.Rational(3, 2) * (1 - q), what="gamma at p = 3/5"
    )


@claim(
    id="mine.order",
    paper="mine",
    source="Lemma 2",
    registry=mine,
    statement=r"\chi_{up} \ge \chi_{lo}",
)
def _order(ctx):
    def holds(prob):
        m = three_output_rr(prob)
        return float(m.chi_up().value) >= float(m.chi_lo().value) * (1 - 1e-12)

    return checks.property_holds(st.floats(0.34, 0.97), holds, ctx, what="chi_up >= chi_lo")


@claim(
    id="mine.too-strong",
    paper="mine",
    source="Conjecture",
    registry=mine,
    expected="refuted",
    statement=r"\chi_{lo} \ge 1 \text{ for } p \le 0.8",
)
def _strong(ctx):
    return checks.property_holds(
        st.floats(0.34, 0.8),
        lambda prob: float(three_output_rr(prob).chi_lo().value) >= 1,
        ctx,
        what="chi_lo >= 1",
    )


results = run_claims(mine, CheckContext(quick=QUICK), progress=False)
print(report.to_table(results, width=110))

# %% [markdown]
# The refuted conjecture comes with a shrunk counterexample in its evidence.  A picture of
# the two indices over $p$:

# %%
ps = [0.35 + 0.6 * i / (10 if QUICK else 40) for i in range((10 if QUICK else 40) + 1)]
lo = [float(three_output_rr(v).chi_lo().value) for v in ps]
up = [float(three_output_rr(v).chi_up().value) for v in ps]
fig, ax = plt.subplots()
ax.semilogy(ps, lo, label=r"$\chi_{\mathrm{lo}}$")
ax.semilogy(ps, up, "--", label=r"$\chi_{\mathrm{up}}$")
ax.set_xlabel("$p$")
ax.legend()
save(fig, "own_theorem_indices")

# %% [markdown]
# ## A claim over a whole range, proved on boxes
# Hypothesis finds counterexamples fast, but a passing property is only a sample.  To
# *prove* a statement over a range, state it as $f \ge 0$ (or $> 0$) on a parameter box:
# the box check evaluates $f$ on the box in ball arithmetic, accepts the box when the lower
# end is positive, reports a certified counterexample when a midpoint value is negative, and
# otherwise bisects.  Here: $\chi_{\mathrm{up}}^2 - \chi_{\mathrm{lo}}^2 > 0$ for the
# three-output mechanism over a range of $p$, with the indices in closed form.  The
# parametrisation $p = \tfrac13 + \tfrac23\,u/(1+u)$, $u > 0$, keeps $p$ in $(1/3, 1)$ so the
# exact comparisons inside the mechanism can be decided; $u \in [0.1, 50]$ is
# $p \in [0.394, 0.987]$.

# %%
from shufflekit.verify.box import check_expr_on_box

u = sp.Symbol("u", positive=True)
m_sym = three_output_rr(sp.Rational(1, 3) + sp.Rational(2, 3) * u / (1 + u))
lo2, up2 = sp.simplify(m_sym.chi_lo().value ** 2), sp.simplify(m_sym.chi_up().value ** 2)
print("chi_lo^2 =", lo2, "   chi_up^2 =", up2)
print(
    check_expr_on_box(
        up2 - lo2, {u: ("0.1", "50")}, strict=True, centered=True, what="chi_up^2 - chi_lo^2"
    ).evidence
)
# a false variant: chi_lo^2 >= 1 on the same range comes back with a certified counterexample
print(check_expr_on_box(lo2 - 1, {u: ("0.1", "50")}, what="chi_lo^2 - 1").evidence)

# %% [markdown]
# ## Your own expansion
# `check_expansion` (and `shufflekit check-expansion` on the command line) checks a claimed
# asymptotic expansion term by term: each coefficient against our own series (when the
# function is symbolic), the fitted decay of every remainder at high precision, and a
# certified bound $|f - S_K| \le C x^{p}$ on a finite range.  A reversion is given by the
# relation that defines it: here $\sigma_0^2$ as a function of $\chi = V(\sigma_0)^{-1/2}$
# (the Gaussian local randomizer, Takagi-Liew 2026 Prop. 4.2).  One claimed coefficient is wrong.

# %%
from shufflekit.verify.expansion import check_expansion

V_text = "exp(4/sigma0**2) - 2*exp(2/sigma0**2) + exp(sigma0**(-2))"
for claimed in ("chi**2 + 9/2 - 145/12*chi**-2", "chi**2 + 9/2 - 143/12*chi**-2"):
    rep = check_expansion(
        None,
        claimed,
        "chi",
        at="oo",
        inverse_of=f"({V_text})**(-1/2)",
        of="sigma0",
        quantity="sigma0**2",
        dps=40,
        certify=not QUICK,
        certify_range=(5, 20),
    )
    print(rep.table(), "\n")
