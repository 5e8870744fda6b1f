r"""Values printed in Su-Cheng-Wang 2026 (Table 1 rows), kept as data."""

from __future__ import annotations

import sympy as sp

from shufflekit.verify.catalog.seed002.parameters import u, v, w

ATOMS = (1 - v * u, u - v * u, 1 - v, sp.Integer(0), u - v)


TABLE1 = {  # Su-Cheng-Wang 2026, Table 1 as printed: probabilities of the five ATOMS
    "krr": lambda k: (
        1 / (u + k - 1),
        0,
        (k - 2) / (u + k - 1),
        (u - 1) / (u + k - 1),
        1 / (u + k - 1),
    ),
    "blh": lambda k: (1 / (2 * (u + 1)),) * 3 + ((u - 1) / (u + 1), 1 / (2 * (u + 1))),
    "rappor": lambda k: (
        1 / (w + 1) ** 2,
        1 / (w * (w + 1) ** 2),
        w / (w + 1) ** 2,
        1 - 1 / w,
        1 / (w + 1) ** 2,
    ),
    "oue": lambda k: (
        1 / (2 * (u + 1)),
        1 / (2 * u * (u + 1)),
        u / (2 * (u + 1)),
        (1 - 1 / u) / 2,
        1 / (2 * (u + 1)),
    ),
    "hr": lambda k: (1 / (2 * (u + 1)),) * 3 + ((u - 1) / (u + 1), 1 / (2 * (u + 1))),
}
