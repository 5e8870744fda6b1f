"""Every profile function returns the contract's PrivacyProfile of Bounds (the legacy types are gone)."""

import importlib

import pytest

from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import PrivacyProfile
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.numeric.methods import bmg_blanket, gaussian, shuffle_template
from shufflekit.numeric.methods.blanket import blanket_profile
from shufflekit.numeric.methods.lower import lower_profile


def test_the_legacy_profile_module_is_gone():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("shufflekit.numeric.profile")


@pytest.mark.parametrize(
    "build,eps,kind",
    [
        (lambda e: blanket_profile(make("krr", k=3, eps0=1), 50, e), [0.1, 0.3], Kind.UPPER),
        (lambda e: lower_profile(make("krr", k=3, eps0=1), 50, e), [0.1, 0.3], Kind.LOWER),
        (lambda e: gaussian.central_gaussian_profile(10, 100, e), [0.1, 0.3], Kind.EXACT),
        # BMG: epsilons where delta is far above the certified error budget (~1e-13)
        (
            lambda e: bmg_blanket.bmg_profile(make("bmg", gamma=0.9, sigma0=3), 100, e),
            [0.003, 0.01],
            Kind.UPPER,
        ),
        (
            lambda e: shuffle_template.gaussian_local_asymptotic_profile(
                make("gaussian-local", sigma0=3), 100, e
            ),
            [0.1, 0.3],
            Kind.ASYMPTOTIC,
        ),
    ],
)
def test_profiles_are_bounds_of_one_kind(build, eps, kind):
    prof = build(eps)
    assert isinstance(prof, PrivacyProfile) and prof.kind is kind
    assert all(isinstance(b, Bound) and b.kind is kind for b in prof.bounds)
    assert prof.epsilons == eps
    # delta(epsilon) is non-increasing, and each point's enclosure is ordered
    assert prof.deltas[0] >= prof.deltas[1]
    assert all(b.lo <= b.hi for b in prof.bounds)
    assert [p["epsilon"] for p in prof.as_dict()["points"]] == eps


def test_lower_profile_is_below_blanket_profile():
    mech = make("krr", k=3, eps0=1)
    lo = lower_profile(mech, 50, [0.05, 0.2])
    up = blanket_profile(mech, 50, [0.05, 0.2])
    assert all(a.lo <= b.hi for a, b in zip(lo.bounds, up.bounds))
