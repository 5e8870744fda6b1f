"""Every registered claim of the papers, run in the quick profile.

A verdict that differs from its recorded expectation is a regression and fails here
(the same check ``shufflekit verify`` reports with exit status 1).
"""

import pytest

from shufflekit.verify.claims import CheckContext, load_catalog

CLAIMS = list(load_catalog())


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_verdict_is_as_recorded(claim):
    result = claim.run(CheckContext(quick=True))
    assert result.outcome.verdict == claim.expected, result.outcome.evidence


def test_claim_ids_start_with_their_paper():
    assert all(c.id.split(".")[0] == c.paper for c in CLAIMS)
