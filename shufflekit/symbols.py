r"""The sympy symbols of the papers' quantities, defined once.

Every module that derives a formula in one of these quantities imports its symbol from here, so
a substitution made with the symbol of one module acts on the expressions of every other module
(two ``Symbol("d")`` with different assumptions are different symbols to sympy, and a
substitution with the wrong one silently does nothing).

Printed names are chosen so that ``sympy.latex`` typesets them as in the papers
(``\varepsilon_{0}``, ``\sigma_{0}``, ``\chi``).
"""

from __future__ import annotations

import sympy as sp

#: dimension of the input ball / sphere (Takagi-Liew 2026, Sec. 2)
d = sp.Symbol("d", positive=True, integer=True)
#: number of users
n = sp.Symbol("n", positive=True)
#: alphabet size of a finite randomizer
k = sp.Symbol("k", positive=True, integer=True)
#: shuffled (central) privacy parameter epsilon
epsilon = sp.Symbol("varepsilon", positive=True)
#: local privacy parameter epsilon_0 of one report
eps0 = sp.Symbol("varepsilon_0", positive=True)
#: shuffle index chi (chi_lo, chi_up, chi_chua when specialised; Takagi-Liew 2026, Def. 2.4)
chi = sp.Symbol("chi", positive=True)
#: blanket mass gamma (Su-Cheng-Wang 2026, Sec. 3.2; Takagi-Liew 2026, Algorithm 1)
gamma = sp.Symbol("gamma", positive=True)
#: per-user Gaussian scale sigma_0 of a local randomizer (Takagi-Liew 2026)
sigma0 = sp.Symbol("sigma_0", positive=True)
#: central Gaussian standard deviation sigma (Takagi-Liew 2026, Sec. 5)
sigma = sp.Symbol("sigma", positive=True)
#: PrivUnit cap probability p and cap threshold theta (Takagi-Liew 2026, Prop. 3.5)
p = sp.Symbol("p", positive=True)
theta = sp.Symbol("theta", real=True)
#: chi-square divergence chi^2(W1 || W0) of a binary-input channel (Shvets 2026)
chi2 = sp.Symbol("chi2", positive=True)

__all__ = [
    "chi",
    "chi2",
    "d",
    "eps0",
    "epsilon",
    "gamma",
    "k",
    "n",
    "p",
    "sigma",
    "sigma0",
    "theta",
]
