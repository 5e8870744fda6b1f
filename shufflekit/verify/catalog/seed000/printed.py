r"""Values printed in Takagi-Liew 2026 (Takagi-Liew), kept as data: the Figure 3 caption."""

from __future__ import annotations

#: Fig. 3 caption: the BMG design (gamma, sigma0) calibrated at n = 10^3 for RMSE 3.16, delta = 1e-5
FIG3_GAMMA = "0.95"
FIG3_SIGMA0 = "4.6"
FIG3_RMSE = "3.16"
FIG3_N = 10**3
