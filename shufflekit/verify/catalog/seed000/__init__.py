r"""Claims of Takagi-Liew 2026 (Takagi-Liew), one module per section.

Findings (see the claims marked ``refuted`` / ``imprecise``):

* Sec. 2.3: zero-out :math:`(\varepsilon,\delta)` gives replace-one
  :math:`(2\varepsilon, (1+e^\varepsilon)\delta)`, not :math:`(2\varepsilon, 2\delta)`.
* App. A.1, eq. (delta-expanded): bounding each Mills remainder by :math:`O(a^{-5})`
  does not give :math:`2b/a^2(1+o(1))` in the whole regime (the remainders must be
  differenced); the lemma itself holds.
"""
