r"""Values printed in Shvets 2026 (tables and displayed coefficients), kept as data."""

from __future__ import annotations

import sympy as sp

from shufflekit.symbolic import fixed_composition as F

TABLE3 = {
    0.2: ("1.566", "1.445", "1.252", "20.0%"),
    0.3: ("1.635", "1.445", "1.217", "25.6%"),
    0.5: ("1.794", "1.445", "1.238", "31.0%"),
    0.7: ("1.988", "1.445", "1.402", "29.4%"),
}


JSD_SERIES = {
    2: sp.Rational(1, 8),
    3: sp.Rational(-1, 16),
    4: sp.Rational(7, 192),
    5: sp.Rational(-3, 128),
}


CANONICAL_MOMENTS = {
    2: F.chi2 / F.n,
    3: F.mu3 / F.n**2,
    4: (F.n * F.mu4 + 3 * F.n * (F.n - 1) * F.chi2**2) / F.n**4,
    5: (F.n * F.mu5 + 10 * F.n * (F.n - 1) * F.mu3 * F.chi2) / F.n**5,
}


TABLE4 = {
    200: ("1.6373", "0.15%", "34.5%"),
    400: ("1.6361", "0.07%", "34.4%"),
    800: ("1.6355", "0.04%", "34.4%"),
}


TABLE5 = {
    0.5: ("0.0226", "8.96e-3", "9.04e-3", "0.9%", "6.88e-3", "-23%"),
    1.0: ("0.0452", "3.73e-3", "3.85e-3", "3.2%", "2.43e-3", "-35%"),
    1.5: ("0.0678", "1.27e-3", "1.37e-3", "7.7%", "6.71e-4", "-47%"),
    2.0: ("0.0904", "3.47e-4", "4.02e-4", "16%", "1.42e-4", "-59%"),
}


# Table 6 (binary RR, eps0 = 1, delta = 1e-5): the exact two-sided epsilon, the mechanism-wide
# bounds (FMT 2021, FMT 2023, Balle et al.) and their printed ratios to the exact value.
TABLE6 = {1000: "0.105", 2000: "0.071", 5000: "0.043", 10000: "0.029"}
TABLE6_FMT = {
    1000: ("0.532", "0.457"),
    2000: ("0.402", "0.342"),
    5000: ("0.271", "0.229"),
    10000: ("0.199", "0.167"),
}
TABLE6_BALLE = {1000: "0.442", 2000: "0.301", 5000: "0.183", 10000: "0.126"}
TABLE6_RATIOS = {
    1000: ("5.0", "4.3", "4.2"),
    2000: ("5.6", "4.8", "4.2"),
    5000: ("6.4", "5.4", "4.3"),
    10000: ("6.9", "5.8", "4.4"),
}

# Sec. 8.3: the ranges printed after Table 3 and after Table 6, and the binary-output formula.
I_RANGE = ("1.47", "2.30")
I_FACTOR = "1.56"
UNDERESTIMATE_RANGE = ("6.5%", "31.3%")
TABLE3_ROWS_RANGE = ("20.0%", "31.0%")
BOUND_FACTORS = ("4.2", "6.9")
BINARY_FORMULA = sp.Rational(9, 100) / (sp.Rational(21, 100) + sp.Rational(3, 100) * F.pi)
MU_N_800 = "0.0452"  # mu_n of Table 5 (pi = 0.3, n = 800)
