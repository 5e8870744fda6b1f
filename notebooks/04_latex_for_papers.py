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
# # LaTeX for papers
#
# Derive an expansion from its definition, print it, check its remainder, and export a
# LaTeX snippet and a standalone document.  The example is the Gaussian local randomizer
# of Takagi-Liew 2026 (Prop. 4.2): $V(\sigma_0^2) = \mathrm{Var}[\ell_0]$ computed from the
# Gaussian densities, its series in $a = 1/\sigma_0^2$, and the reversion giving
# $\sigma_0^2$ as a series in $\chi_{\mathrm{chua}}$.

# %%
import pathlib
import shutil
import subprocess
import tempfile

import mpmath as mp
import sympy as sp
from paperfig import QUICK, plt, save

import shufflekit as sk
from shufflekit.symbolic import results
from shufflekit.symbolic.latex_document import document, fragments
from shufflekit.verify.checks import fitted_slope

v = results.get("gaussian-local.V")
print(v.title)
print(sp.sstr(v.result))

# %% [markdown]
# The series engine works with rational exponents and reverts series order by order.  Here
# we expand $V$ in $a$ and revert $\chi^2 = 1/V$ to obtain $\sigma_0^2$ in $\chi$:

# %%
a = sp.Symbol("a", positive=True)
V = sp.exp(4 * a) - 2 * sp.exp(2 * a) + sp.exp(a)
V_series = sk.Series.from_expr(V, a, 6)
print("V =", V_series.text())
sigma2 = results.series_result("gaussian-local.sigma2-in-chi", 5)
print(sigma2.title)
print("sigma0^2 =", sigma2.result.text())
print(sigma2.result.latex())

# %% [markdown]
# **Is the truncation honest?**  The exact $\sigma_0^2(\chi)$ is the root of
# $1/V(1/\sigma_0^2) = \chi^2$; the remainder after $k$ terms should shrink like the first
# dropped power of $\chi$ (slopes $-2$, $-4$, $-6$ for 2, 3, 4 terms).

# %%
mp.mp.dps = 50
coeffs = dict(sigma2.result.as_mapping())  # exponents of x = 1/chi
chis = [mp.mpf(4) * 2 ** (i / 2) for i in range(6 if QUICK else 10)]


def exact_sigma2(chi):
    return mp.findroot(
        lambda s: 1 / (mp.e ** (4 / s) - 2 * mp.e ** (2 / s) + mp.e ** (1 / s)) - chi**2,
        chi**2 + 4.5,
    )


fig, ax = plt.subplots()
for kept in (2, 3, 4):
    exps = sorted(coeffs)[:kept]  # leading terms first
    rem = [
        abs(exact_sigma2(c) - sum(mp.mpf(sp.N(coeffs[e], 60)) * c ** (-int(e)) for e in exps))
        for c in chis
    ]
    slope = fitted_slope(chis, rem)
    ax.loglog(
        [float(c) for c in chis],
        [float(r) for r in rem],
        "o-",
        ms=3,
        label=f"{kept} terms, slope {slope:.2f}",
    )
ax.set_xlabel(r"$\chi_{\mathrm{chua}}$")
ax.set_ylabel("|remainder|")
ax.legend()
save(fig, "latex_sigma2_remainder")

# %% [markdown]
# ## Export
# A fragment to paste into a paper, and a standalone document that compiles with pdflatex.
# Text around the formulas is set with its formulas in math mode ($\varepsilon_0$, $<$,
# norms), long sums are broken between terms, and the document shrinks a line only when it
# is still wider than the text, so the log has no overfull box.

# %%
ids = ["gaussian-local.sigma2-in-chi", "bmg.err-expansion", "fixed-composition.jsd-series"]
print(fragments(ids[:1])[:1200])
tex = document(ids)
out = pathlib.Path(tempfile.mkdtemp()) / "expansions.tex"
out.write_text(tex)
if shutil.which("pdflatex"):
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", out.name],
        cwd=out.parent,
        capture_output=True,
        text=True,
    )
    log = out.with_suffix(".log").read_text(encoding="latin-1")
    overfull = sum(line.startswith("Overfull \\hbox") for line in log.splitlines())
    print(
        "pdflatex exit status:",
        run.returncode,
        "| overfull boxes:",
        overfull,
        "->",
        out.with_suffix(".pdf"),
    )
else:
    print("pdflatex is not installed here; the document is at", out)
