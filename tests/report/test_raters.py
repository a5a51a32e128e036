"""The report of an evaluation against several raters: the reference named, the raters beside
the judge, the alternative annotator test (issue 40)."""

from __future__ import annotations

import numpy as np
import pytest

import judgestats as js
from judgestats.report.raters import rater_report, raters_rows
from tests.golden.cases import _raters_frame


@pytest.fixture(scope="module")
def ev():
    return js.evaluate(_raters_frame(), rater="rater", cluster="item", reference="rater",
                       design="random", method="adjusted-wald")  # fmt: skip


def test_rows_are_the_raters_functions(ev):
    """Each group's α, the judge's agreement with the majority and the alt-test's verdict are
    those of js.raters on the group's ratings; the majority agreement counted here."""
    rows = {r.label: r for r in raters_rows(ev, n_boot=100, rng=1)}
    for g in ev.groups:
        ratings = ev[g].ratings
        assert ratings.judge == "judge" and ratings.n_items == ev[g].n_items
        alpha = js.raters.krippendorff_alpha(ratings, n_boot=100, rng=1)
        assert rows[g].alpha[0] == pytest.approx(alpha.estimate, abs=1e-12)
        codes, judge = ratings.codes, ratings.judge_codes
        agree = (codes == judge[:, None]).sum(axis=1) / (codes >= 0).sum(axis=1)
        assert rows[g].judge_raters == pytest.approx(
            np.mean([np.mean(codes[codes[:, j] >= 0, j] == judge[codes[:, j] >= 0])
                     for j in range(codes.shape[1])]), abs=1e-12)  # fmt: skip
        assert 0 <= agree.mean() <= 1
        res = js.raters.alt_test(ratings, epsilon=0.1)
        assert rows[g].alt_test.startswith("passes" if res.passed else "fails")


@pytest.mark.parametrize("fmt", ["markdown", "latex", "html"])
def test_report_names_the_reference(ev, fmt):
    """ev.report() hands an evaluation of raters to report/raters.py, in every format."""
    import html

    text = html.unescape(ev.report(fmt)) if fmt == "html" else ev.report(fmt)
    assert "human reference 'rater'" in text and "single random rater's label" in text
    assert "alternative annotator test" in text
    assert f"{ev['FiD'].estimate:.3f}" in text
    if fmt == "markdown":
        assert text == rater_report(ev, fmt)


def test_bad_format_named(ev):
    with pytest.raises(js.errors.JudgeStatsError, match="format"):
        rater_report(ev, "pdf")
