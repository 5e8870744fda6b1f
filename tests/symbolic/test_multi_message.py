"""Bundled versus unbundled multi-message shuffling (Shvets 2026, Sec. 9; the Shvets summary, Sec. 3.3)."""

import itertools

import pytest
import sympy as sp

from shufflekit.numeric.methods import histogram as H
from shufflekit.symbolic import multi_message as MM

W0 = ["7/10", "1/5", "1/10"]
W1 = ["3/20", "11/20", "3/10"]
CHI2 = sp.Rational(809, 560)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_bundled_from_product_ratio(m):
    der = MM.bundled_chi2(m, 3)
    # Shvets 2026, Sec. 9.3 prints (1 + chi^2)^m - 1; the derivation finds it from the product ratio
    assert der.result.free_symbols <= {MM.chi2}
    assert sp.expand(der.result - ((1 + MM.chi2) ** m - 1)) == 0


@pytest.mark.parametrize("N, m", [(6, 2), (9, 3), (8, 1), (12, 4)])
def test_overlap_counts_match_enumeration(N, m):
    S = set(range(m))
    counts = [0] * (m + 1)
    for T in itertools.combinations(range(N), m):
        counts[len(S & set(T))] += 1
    assert MM.overlap_counts(N, m) == counts


@pytest.mark.parametrize("m", [1, 2, 3])
def test_overlap_weights_are_the_hypergeometric_law(m):
    """The counted-and-interpolated weights equal C(m,j) C(nm-m,m-j) / C(nm,m) (Shvets 2026, Sec. 9.2)."""
    weights = MM.overlap_weights(m).result
    N = MM.n * m
    for j in range(m + 1):
        expected = (
            sp.binomial(m, j)
            * sp.expand_func(sp.binomial(N - m, m - j))
            / sp.expand_func(sp.binomial(N, m))
        )
        assert sp.simplify(weights[j] - expected) == 0
    assert sp.simplify(sum(weights) - 1) == 0


@pytest.mark.parametrize("m", [1, 2, 3])
def test_unbundled_leading_constant(m):
    der = MM.unbundled_chi2(m)
    assert sp.simplify(der.extras["lead"] - m * MM.chi2) == 0


@pytest.mark.parametrize("n,m", [(3, 2), (4, 2), (2, 3)])
def test_unbundled_exact_chi2_matches_histogram_accounting(n, m):
    exact = float(MM.unbundled_chi2(m).result.subs({MM.n: n, MM.chi2: CHI2}))
    pair = H.multi_message_pair([0.7, 0.2, 0.1], [0.15, 0.55, 0.3], n, m)
    assert pair.chi2_qp() == pytest.approx(exact, rel=1e-12)  # float sum over <= 100 histograms


def test_bundled_minus_unbundled_positive():
    assert MM.bundled_minus_unbundled(1).result == 0
    for m in (2, 3, 4):
        d = MM.bundled_minus_unbundled(m)
        assert d.extras["positive"]
        assert (
            sp.expand(d.result - sum(sp.binomial(m, j) * MM.chi2**j for j in range(2, m + 1))) == 0
        )


def test_exact_unbundled_ratio_against_enumeration():
    for n, m in ((2, 2), (3, 1), (2, 3)):
        for hist in itertools.product(range(n * m + 1), repeat=3):
            if sum(hist) != n * m:
                continue
            assert MM.unbundled_likelihood_ratio(
                W0, W1, n, m, hist
            ) == MM.brute_force_likelihood_ratio(W0, W1, n, m, hist)


def test_numeric_ratio_matches_exact_formula():
    pair = H.multi_message_pair([0.7, 0.2, 0.1], [0.15, 0.55, 0.3], 3, 2)
    for h, L in zip(pair.histograms(), pair.likelihood_ratio):
        exact = MM.unbundled_likelihood_ratio(W0, W1, 3, 2, [int(x) for x in h])
        assert L == pytest.approx(float(exact), rel=1e-12)


def test_bad_input():
    with pytest.raises(ValueError, match="m=0"):
        MM.unbundled_chi2(0)
    with pytest.raises(ValueError, match="hist="):
        MM.unbundled_likelihood_ratio(W0, W1, 2, 2, [1, 1, 1])
    with pytest.raises(ValueError, match="too large"):
        MM.brute_force_likelihood_ratio(W0, W1, 6, 3, [6, 6, 6])


def test_derivations_render_latex():
    ders = MM.derivations(2)
    assert len({d.id for d in ders}) == len(ders)
    for d in ders:
        text = d.latex()
        assert r"\begin{align*}" in text and d.source
