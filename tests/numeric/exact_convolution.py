"""Exact rational references for convolutions of float64 laws, shared by the tests of the
certified convolution (radix-2 FFT, direct sum) and of composition over rounds."""

from fractions import Fraction

from hypothesis import strategies as st

from shufflekit.numeric.composition.dominating_pair import PrivacyLossPmf


def exact_conv(a, b):
    """The exact convolution of the float inputs, in rational arithmetic."""
    fa = [Fraction(float(x)) for x in a]
    fb = [Fraction(float(x)) for x in b]
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(fa):
        if x:
            for j, y in enumerate(fb):
                out[i + j] += x * y
    return out


def l1_distance(c, ref) -> Fraction:
    """Exact l1 distance of float cells ``c`` from rational cells ``ref``."""
    return sum(abs(Fraction(float(x)) - r) for x, r in zip(c, ref))


def pmf_error(c: PrivacyLossPmf, ref: list) -> Fraction:
    """Exact l1 distance of a computed loss law (cells and infinity cell) from the exact one."""
    full = [Fraction(0)] * len(ref)
    for i, x in enumerate(c.probs):
        full[c.offset + i] = Fraction(float(x))
    return sum(abs(x - r) for x, r in zip(full, ref)) + Fraction(c.infinity_mass)


# masses over a wide dynamic range, down to subnormals, so underflow paths are exercised
masses = st.one_of(
    st.floats(0, 1),
    st.floats(0, 1e-300),
    st.just(0.0),
    st.builds(lambda k: 2.0**-k, st.integers(0, 1074)),
)
