"""Exact matrices at the edges of the domain, shared by the domain contract and the GPARV tests.

* ``NEAR_ONE``: first entries 1 - 2^-57 and 1 - 2^-119, both 1.0 in float64;
* ``WIDE_3X3``: entries from about 1e-34 up to 1 - 8.5e-22 (1.0 in float64);
* ``E0_NEAR_ONE``: the local eps0 of ``NEAR_ONE``, 62 log 2.
"""

import sympy as sp

R = sp.Rational
NEAR_ONE = [[1 - R(1, 2**57), R(1, 2**57)], [1 - R(1, 2**119), R(1, 2**119)]]
WIDE_3X3 = [
    [R(4096, 12289), R(8192, 12289), R(1, 12289)],
    [R(16, 4113), R(1, 4113), R(4096, 4113)],
    [
        1 - R(8796093022209, 10384593717069655257069788751462401),
        R(1, 10384593717069655257069788751462401),
        R(8796093022208, 10384593717069655257069788751462401),
    ],
]
E0_NEAR_ONE = float(62 * sp.log(2))
