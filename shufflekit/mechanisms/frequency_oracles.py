r"""Frequency oracles on ``[k]``: BLH, RAPPOR, OUE and Hadamard response.

Each is written as the process that defines it, and its probability matrix is
computed from that process:

* **BLH** (binary local hashing, Wang et al. 2017): draw a hash
  :math:`H:[k]\to\{0,1\}` uniformly from a family, report :math:`(H, b)` where
  :math:`b = H(x)` with probability :math:`e^{\varepsilon_0}/(e^{\varepsilon_0}+1)`
  and :math:`1-H(x)` otherwise.  ``hash_family="all"`` uses every function
  :math:`[k]\to\{0,1\}`; ``"nonconstant"`` drops the two constant ones.
* **RAPPOR** (basic one-time RAPPOR, Erlingsson et al. 2014): one-hot encode
  :math:`x` and keep each bit with probability :math:`e^{\varepsilon_0/2}/(e^{\varepsilon_0/2}+1)`.
* **OUE** (optimized unary encoding, Wang et al. 2017): one-hot encode, report
  the bit of :math:`x` as 1 with probability 1/2 and every other bit as 1 with
  probability :math:`1/(e^{\varepsilon_0}+1)`.
* **HR** (Hadamard response, Acharya-Sun-Zhang 2019): with :math:`K` the
  smallest power of two above :math:`k`, input :math:`x` owns the set
  :math:`C_x = \{y : H_K[x+1, y] = 1\}` of size :math:`K/2`; report :math:`y\in C_x`
  with probability :math:`2e^{\varepsilon_0}/(K(e^{\varepsilon_0}+1))` and
  :math:`y\notin C_x` with probability :math:`2/(K(e^{\varepsilon_0}+1))`.

Lumped views (:class:`~shufflekit.mechanisms.finite.Lumping`).  The output alphabets
grow as :math:`2^k` (BLH, RAPPOR, OUE) or :math:`K \approx 2k` (HR), so above
:data:`ENUMERATE_UP_TO` (or with ``lumped=True``) each constructor returns the exact
symmetry-reduced view instead of the full matrix, for any ``k <= MAX_K``:

* RAPPOR and OUE (the symmetric group on :math:`[k]` permutes inputs and bit positions
  together): representatives :math:`x\in\{0,1,2\}`; output classes by the three bits
  :math:`(w_0,w_1,w_2)` and, for :math:`w_0=w_1=w_2=1`, by whether the other
  :math:`k-3` bits are all ones.  With :math:`f` the law of the true bit and :math:`g`
  that of another bit, :math:`R_x(w) = G(w)\,f(w_x)/g(w_x)` with
  :math:`G(w)=\prod_j g(w_j)`, so within a class every row is proportional to
  :math:`G`, and the floor is :math:`\min_x R_x(w) = G(w)\,(1-p_1)/(1-p_0)` if :math:`w`
  has a zero bit, :math:`G(w)\,p_1/p_0` for the all-ones word (:math:`p_1 > p_0` the
  probabilities of a one for the true bit and for another bit).
* BLH (the symmetric group permutes inputs and hash coordinates): representatives
  :math:`\{0,1,2\}`; classes by :math:`(h_0,h_1,h_2,b)` and, when
  :math:`h_0=h_1=h_2`, by whether the hash is constant.  A non-constant hash takes
  both values, so its floor is :math:`(1-\text{keep})/|\mathcal H|`; a constant hash
  treats every input alike.
* HR (Sylvester's :math:`H_K[a,y] = (-1)^{a\cdot y}` over :math:`\mathrm{GF}(2)^m`):
  two distinct non-zero :math:`a, b` are linearly independent, and a third :math:`c` is
  either :math:`a\oplus b` or independent of both, so the law of
  :math:`(a\cdot y, b\cdot y, c\cdot y)` over :math:`y` depends only on that type;
  representatives :math:`a\in\{1,2,3,4\}` (inputs 0..3) cover both types.  Since
  :math:`K/2\le k`, every unit vector is an input, so every :math:`y\ne0` lies outside
  some :math:`C_x` and its floor is the low probability; :math:`y=0` lies in every
  :math:`C_x`.  Classes: :math:`y=0` and the eight patterns of :math:`(y_0,y_1,y_2)`.
"""

from __future__ import annotations

import itertools
from typing import Any

import sympy as sp

from shufflekit.mechanisms.finite import FiniteMechanism, Lumping
from shufflekit.mechanisms.parameters import as_param

MAX_K = 100_000  # lumped views make any alphabet size cheap
ENUMERATE_UP_TO = 12  # above this the lumped view is the default
REPS = (0, 1, 2)


def _k(k: Any, low: int = 2) -> int:
    k = int(as_param(k, "k", low=low, high=MAX_K, integer=True))
    return k


def _lump(lumped: bool | None, k: int, smallest: int) -> bool:
    """Whether to build the lumped view: by default above ``ENUMERATE_UP_TO``; only for
    ``k >= smallest`` (below it the representatives would not be distinct)."""
    if lumped is None:
        lumped = k > ENUMERATE_UP_TO
    elif not lumped and k > ENUMERATE_UP_TO:
        raise ValueError(
            f"k={k} with lumped=False is not allowed; the full matrix is built "
            f"only for k <= {ENUMERATE_UP_TO} (use the lumped view)"
        )
    return bool(lumped) and k >= smallest


def _bit_prob(bit: int, one_prob: Any) -> Any:
    return one_prob if bit == 1 else 1 - one_prob


def unary_encoding(
    k: Any,
    eps0: Any,
    *,
    p_one_true: Any,
    p_one_other: Any,
    name: str,
    params: dict,
    lumped: bool | None = None,
) -> FiniteMechanism:
    """One-hot encoding with independent bit reports (shared by RAPPOR and OUE)."""
    if _lump(lumped, k, 4):
        return lumped_unary_encoding(
            k, p_one_true=p_one_true, p_one_other=p_one_other, name=name, params=params
        )
    words = list(itertools.product((0, 1), repeat=k))
    cache: dict = {}

    def word_probability(bit: int, ones_other: int) -> Any:
        # product over bits: the bit of x, then the other k-1 bits (ones_other of them are 1)
        key = (bit, ones_other)
        if key not in cache:
            cache[key] = (
                _bit_prob(bit, p_one_true)
                * p_one_other**ones_other
                * (1 - p_one_other) ** (k - 1 - ones_other)
            )
        return cache[key]

    rows = [[word_probability(w[x], sum(w) - w[x]) for w in words] for x in range(k)]
    return FiniteMechanism.from_matrix(
        rows,
        inputs=tuple(range(k)),
        outputs=tuple("".join(map(str, w)) for w in words),
        name=name,
        params=params,
    )


def lumped_unary_encoding(
    k: int, *, p_one_true: Any, p_one_other: Any, name: str, params: dict
) -> FiniteMechanism:
    r"""Lumped view of a unary encoding (module docstring): representatives 0, 1, 2;
    classes ``(w0, w1, w2)`` (any other bits), with ``111`` split by whether the other
    ``k-3`` bits are all ones.  Entries are class totals (multiplicity 1)."""
    p1, p0 = p_one_true, p_one_other

    def f(b):
        return p1 if b else 1 - p1

    def g(b):
        return p0 if b else 1 - p0

    rest_ones = p0 ** (k - 3)  # probability that the other k-3 bits are all 1
    low, high = (1 - p1) / (1 - p0), p1 / p0  # f/g at a zero bit, at a one bit
    outputs, rows, floor = [], [[] for _ in REPS], []
    for bits in itertools.product((0, 1), repeat=3):
        parts = (
            [("any", 1)]
            if bits != (1, 1, 1)
            else [("all ones", rest_ones), ("has a zero", 1 - rest_ones)]
        )
        for rest, mass in parts:
            outputs.append("".join(map(str, bits)) + f"+{k - 3}:{rest}")
            for x in REPS:
                rows[x].append(
                    sp.Mul(*[f(b) if i == x else g(b) for i, b in enumerate(bits)]) * mass
                )
            ratio = high if rest == "all ones" else low
            floor.append(sp.Mul(*[g(b) for b in bits]) * mass * ratio)
    return FiniteMechanism.from_matrix(
        rows,
        inputs=REPS,
        outputs=tuple(outputs),
        name=name,
        params=params,
        lumping=Lumping(
            alphabet=k,
            outputs=sp.Integer(2) ** k,
            floor=tuple(floor),
            symmetry="symmetric group on [k], permuting inputs and bit positions",
        ),
    )


def rappor(k: Any, eps0: Any, *, lumped: bool | None = None) -> FiniteMechanism:
    """Basic one-time RAPPOR; each bit is kept with probability e^(eps0/2)/(e^(eps0/2)+1)."""
    k = _k(k)
    eps0 = as_param(eps0, "eps0", low=0, low_open=True)
    keep = sp.exp(eps0 / 2) / (sp.exp(eps0 / 2) + 1)
    return unary_encoding(
        k,
        eps0,
        p_one_true=keep,
        p_one_other=1 - keep,
        name="rappor",
        params={"k": k, "eps0": eps0},
        lumped=lumped,
    )


def oue(k: Any, eps0: Any, *, lumped: bool | None = None) -> FiniteMechanism:
    """Optimized unary encoding: P(bit_x = 1) = 1/2, P(other bit = 1) = 1/(e^eps0+1)."""
    k = _k(k)
    eps0 = as_param(eps0, "eps0", low=0, low_open=True)
    return unary_encoding(
        k,
        eps0,
        p_one_true=sp.Rational(1, 2),
        p_one_other=1 / (sp.exp(eps0) + 1),
        name="oue",
        params={"k": k, "eps0": eps0},
        lumped=lumped,
    )


def lumped_blh(k: int, eps0: Any, hash_family: str) -> FiniteMechanism:
    r"""Lumped view of BLH (module docstring): representatives 0, 1, 2; classes
    ``(h0, h1, h2, b)``, with ``h0 = h1 = h2`` split by whether the hash is constant.
    Entries are class totals (multiplicity 1)."""
    keep = sp.exp(eps0) / (sp.exp(eps0) + 1)
    # class sizes over |H| in units of 2^k; 2^-k is kept as an unevaluated power so that
    # exact arithmetic does not carry k-bit integers around
    tiny = sp.Pow(2, -k, evaluate=False)
    size = 1 - (2 * tiny if hash_family == "nonconstant" else 0)
    free = sp.Rational(1, 8)  # hashes sharing three given values
    outputs, rows, floor = [], [[] for _ in REPS], []
    for h in itertools.product((0, 1), repeat=3):
        if len(set(h)) > 1:
            parts = [("any", free)]
        else:
            parts = [("not constant", free - tiny)]
            if hash_family == "all":
                parts.append(("constant", tiny))
        for rest, count in parts:
            for b in (0, 1):
                outputs.append(("".join(map(str, h)) + f"+{k - 3}:{rest}", b))
                weight = count / size
                for x in REPS:
                    rows[x].append(weight * (keep if b == h[x] else 1 - keep))
                floor.append(
                    weight * ((keep if b == h[0] else 1 - keep) if rest == "constant" else 1 - keep)
                )
    return FiniteMechanism.from_matrix(
        rows,
        inputs=REPS,
        outputs=tuple(outputs),
        name="blh",
        params={"k": k, "eps0": eps0, "hash_family": hash_family},
        lumping=Lumping(
            alphabet=k,
            outputs=2 * (sp.Integer(2) ** k - (2 if hash_family == "nonconstant" else 0)),
            floor=tuple(floor),
            symmetry="symmetric group on [k], permuting inputs and hash coordinates",
        ),
    )


def blh(
    k: Any, eps0: Any, *, hash_family: str = "all", lumped: bool | None = None
) -> FiniteMechanism:
    """Binary local hashing over a uniformly drawn hash from ``hash_family``."""
    k = _k(k)
    eps0 = as_param(eps0, "eps0", low=0, low_open=True)
    if hash_family not in ("all", "nonconstant"):
        raise ValueError(f"hash_family={hash_family!r} is not allowed; use 'all' or 'nonconstant'")
    if _lump(lumped, k, 4):
        return lumped_blh(k, eps0, hash_family)
    hashes = [
        h for h in itertools.product((0, 1), repeat=k) if hash_family == "all" or 0 < sum(h) < k
    ]
    keep = sp.exp(eps0) / (sp.exp(eps0) + 1)
    weight = sp.Rational(1, len(hashes))
    outputs, rows = [], [[] for _ in range(k)]
    for h in hashes:
        for b in (0, 1):
            outputs.append(("".join(map(str, h)), b))
            for x in range(k):
                rows[x].append(weight * (keep if b == h[x] else 1 - keep))
    return FiniteMechanism.from_matrix(
        rows,
        inputs=tuple(range(k)),
        outputs=tuple(outputs),
        name="blh",
        params={"k": k, "eps0": eps0, "hash_family": hash_family},
    )


def hadamard_matrix(order: int) -> list[list[int]]:
    """Sylvester's Hadamard matrix of a power-of-two ``order`` (entries +-1)."""
    h = [[1]]
    while len(h) < order:
        h = [row + row for row in h] + [row + [-v for v in row] for row in h]
    return h


def hadamard_response(k: Any, eps0: Any, *, lumped: bool | None = None) -> FiniteMechanism:
    """Hadamard response on ``[k]`` with ``K = 2^ceil(log2(k+1))`` outputs."""
    k = _k(k)
    eps0 = as_param(eps0, "eps0", low=0, low_open=True)
    K = 1
    while K < k + 1:
        K *= 2
    hi = 2 * sp.exp(eps0) / (K * (sp.exp(eps0) + 1))
    lo = 2 / (K * (sp.exp(eps0) + 1))
    if _lump(lumped, k, 4):
        return lumped_hadamard_response(k, eps0, K, hi, lo)
    H = hadamard_matrix(K)
    rows = [[hi if H[x + 1][y] == 1 else lo for y in range(K)] for x in range(k)]
    return FiniteMechanism.from_matrix(
        rows,
        inputs=tuple(range(k)),
        outputs=tuple(range(K)),
        name="hr",
        params={"k": k, "eps0": eps0, "K": K},
    )


def lumped_hadamard_response(k: int, eps0: Any, K: int, hi: Any, lo: Any) -> FiniteMechanism:
    r"""Lumped view of HR (module docstring): inputs 0..3 (:math:`a = 1..4`); classes
    :math:`y = 0` and the patterns of the low bits :math:`(y_0, y_1, y_2)` of
    :math:`y \ne 0`, with :math:`K/8` outputs each (one fewer for the zero pattern).
    Entries are per-output probabilities, class sizes are multiplicities."""
    reps = (0, 1, 2, 3)

    def inside(a: int, y: int) -> bool:  # y in C_x  <=>  a.y = 0 over GF(2), a = x+1
        return bin(a & y).count("1") % 2 == 0

    outputs, mult = ["0"], [1]
    patterns = list(range(8))
    for y in patterns:
        outputs.append(f"y={y:03b} mod 8, y!=0")
        mult.append(K // 8 - (1 if y == 0 else 0))
    rows = [[hi] + [hi if inside(x + 1, y) else lo for y in patterns] for x in reps]
    keep = [j for j, m in enumerate(mult) if m > 0]
    return FiniteMechanism.from_matrix(
        [[r[j] for j in keep] for r in rows],
        inputs=reps,
        outputs=tuple(outputs[j] for j in keep),
        multiplicity=[mult[j] for j in keep],
        name="hr",
        params={"k": k, "eps0": eps0, "K": K},
        lumping=Lumping(
            alphabet=k,
            outputs=K,
            floor=tuple(([hi] + [lo] * 8)[j] for j in keep),
            symmetry="GF(2)-linear maps of Sylvester's Hadamard matrix",
        ),
    )
