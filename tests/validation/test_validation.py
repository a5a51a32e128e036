"""Every bad input of issue #2 gets a named error that names the argument and the value."""

import numpy as np
import pandas as pd
import pytest

import judgestats as js

CAL = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
TEST = js.JudgedCounts(positive=600, n=1000)


def test_error_hierarchy():
    for cls in (
        js.errors.CountError,
        js.errors.LabelError,
        js.errors.ProbabilityError,
        js.errors.ConfidenceLevelError,
        js.errors.MethodError,
        js.errors.NotInformativeError,
        js.errors.ArgumentTypeError,
    ):
        assert issubclass(cls, js.JudgeStatsError)
        assert issubclass(cls, ValueError)
    assert issubclass(js.errors.ArgumentTypeError, TypeError)


# ----------------------------------------------------------------------------- counts
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"positive": -1, "n": 10}, r"positive must be non-negative, got -1"),
        ({"positive": 2.5, "n": 10}, r"positive must be a whole number.*2\.5"),
        ({"positive": 3, "n": 10.5}, r"n must be a whole number.*10\.5"),
        ({"positive": 11, "n": 10}, r"positive \(11\) cannot exceed n \(10\)"),
        ({"positive": 0, "n": 0}, r"n must be >= 1, got 0"),
        ({"positive": float("nan"), "n": 10}, r"positive must be a finite whole number, got nan"),
        (
            {"positive": np.array([1, -2]), "n": 10},
            r"positive must be non-negative, got -2 at index 1",
        ),
    ],
)
def test_judged_counts_bad_values(kwargs, match):
    with pytest.raises(js.errors.CountError, match=match):
        js.JudgedCounts(**kwargs)


@pytest.mark.parametrize("bad", ["600", None, True, [1, "a"], object()])
def test_judged_counts_bad_types(bad):
    with pytest.raises(js.errors.ArgumentTypeError, match="positive"):
        js.JudgedCounts(positive=bad, n=1000)


def test_integral_floats_are_accepted_as_counts():
    t = js.JudgedCounts(positive=600.0, n=np.float64(1000))
    assert t.positive == 600 and isinstance(t.positive, int) and t.n == 1000


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"tp": -1, "fn": 10, "tn": 70, "fp": 30}, r"tp must be non-negative, got -1"),
        ({"tp": 9.5, "fn": 10, "tn": 70, "fp": 30}, r"tp must be a whole number.*9\.5"),
            ({"tp": 0, "fn": 0, "tn": 0, "fp": 0}, r"the calibration set is empty"),
    ],
)
def test_confusion_counts_bad_values(kwargs, match):
    with pytest.raises(js.errors.CountError, match=match):
        js.ConfusionCounts(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"tp": 0, "fn": 0, "tn": 70, "fp": 30}, r"no human label 1 items \(tp \+ fn = 0\)"),
        ({"tp": 5, "fn": 5, "tn": 0, "fp": 0}, r"no human label 0 items \(tn \+ fp = 0\)"),
    ],
)
def test_one_human_class_is_valid_counts_but_not_for_the_paper_design(kwargs, match):
    cal = js.ConfusionCounts(**kwargs)  # valid input for the random and by-judge designs
    with pytest.raises(js.errors.CountError, match=match):
        cal.sensitivity if kwargs["tp"] == 0 else cal.specificity
    with pytest.raises(js.errors.CountError, match=match):
        js.correct(js.JudgedCounts(300, 1000), cal)
    res = js.correct(js.JudgedCounts(300, 1000), cal, design="random")
    assert 0 <= res.ci.low <= res.estimate <= res.ci.high <= 1


def test_counts_arrays_must_broadcast():
    with pytest.raises(js.errors.CountError, match=r"broadcast"):
        js.JudgedCounts(positive=np.array([1, 2, 3]), n=np.array([10, 10]))


# ----------------------------------------------------------------------------- labels
@pytest.mark.parametrize(
    ("labels", "match"),
    [
        ([0, 1, 0.7], r"judge labels must contain only 0/1 or bool, got 0\.7 at index 2"),
        ([0, 2, 1], r"got 2 at index 1"),
        ([1.0, float("nan")], r"got nan at index 1"),
        ([1, None, 0], r"got None at index 1"),
        (["yes", "no"], r"judge labels must contain only 0/1 or bool"),
        (np.array(["1", "0"]), r"dtype <U1"),
        ([], r"judge labels is empty"),
        (np.zeros((2, 2)), r"must be 1-D"),
        (pd.Series([1, 0, pd.NA], dtype="Int64"), r"got (nan|<NA>) at index 2"),
    ],
)
def test_bad_labels_are_never_truncated(labels, match):
    with pytest.raises(js.errors.LabelError, match=match):
        js.JudgedCounts.from_labels(labels)


@pytest.mark.parametrize("labels", ["0101", None, 5])
def test_labels_wrong_type(labels):
    with pytest.raises(js.errors.ArgumentTypeError, match="judge labels"):
        js.JudgedCounts.from_labels(labels)


def test_label_length_mismatch():
    with pytest.raises(js.errors.LabelError, match=r"human labels has 3 labels but judge labels has 2"):
        js.ConfusionCounts.from_labels(human=[1, 0, 1], judge=[1, 0])


def test_calibration_labels_with_one_class_only():
    cal = js.ConfusionCounts.from_labels(human=[1, 1, 1], judge=[1, 0, 1])
    assert (cal.tp, cal.fn, cal.tn, cal.fp) == (2, 1, 0, 0)
    with pytest.raises(js.errors.CountError, match=r"no human label 0 items"):
        js.correct(js.JudgedCounts(5, 10), cal)


def test_frame_missing_column_lists_columns():
    df = pd.DataFrame({"h": [1, 0], "j": [1, 1]})
    with pytest.raises(
        js.errors.LabelError, match=r"human column 'human' is not in the frame; columns are \['h', 'j'\]"
    ):
        js.ConfusionCounts.from_frame(df)
    with pytest.raises(js.errors.LabelError, match=r"judge column 'judge'"):
        js.JudgedCounts.from_frame(df)


def test_frame_bad_values_name_the_column():
    df = pd.DataFrame({"human": [1, 0, 1], "judge": [1, 0.5, 0]})
    with pytest.raises(
        js.errors.LabelError, match=r"judge column 'judge' must contain only 0/1 or bool, got 0\.5"
    ):
        js.ConfusionCounts.from_frame(df)


# ----------------------------------------------------------------------------- primitives
@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        (
            (1.2, 0.7, 0.9, 100, 50, 50),
            js.errors.ProbabilityError,
            r"p must be a probability in \[0, 1\], got 1\.2",
        ),
        ((0.4, -0.1, 0.9, 100, 50, 50), js.errors.ProbabilityError, r"q0 must be .* got -0\.1"),
        ((0.4, 0.7, float("nan"), 100, 50, 50), js.errors.ProbabilityError, r"q1 must be .* NaN"),
        ((0.4, 0.7, 0.9, 0, 50, 50), js.errors.CountError, r"n must be > 0, got 0"),
        ((0.4, 0.7, 0.9, -5, 50, 50), js.errors.CountError, r"n must be > 0, got -5"),
        ((0.4, 0.7, 0.9, 100, -1, 50), js.errors.CountError, r"m0 must be >= 0, got -1"),
        ((0.4, 0.7, 0.9, 100, 50, float("nan")), js.errors.CountError, r"m1 must be finite, got nan"),
        (
            (0.4, 0.5, 0.5, 100, 50, 50),
            js.errors.NotInformativeError,
            r"q̂0 \+ q̂1 must exceed 1.*0\.5 \+ sensitivity 0\.5 = 1",
        ),
        (("0.4", 0.7, 0.9, 100, 50, 50), js.errors.ArgumentTypeError, r"p must be a number"),
    ],
)
def test_adjusted_wald_bad_inputs(args, error, match):
    with pytest.raises(error, match=match):
        js.adjusted_wald_interval(*args)


def test_adjusted_denominator_not_positive_is_not_informative():
    # q0 + q1 = 1.1 > 1 but the add-one adjustment pulls the tiny m0 class to 0.5:
    # q0~ = (1*1+1)/3 = 0.667, q1~ = (1000*0.1+1)/1002 = 0.1008 -> q0~ + q1~ < 1.
    with pytest.raises(js.errors.NotInformativeError, match=r"adjusted q̃0 \+ q̃1"):
        js.adjusted_wald_interval(0.5, 1.0, 0.1, 100, 1, 1000)


def test_not_informative_reports_index_in_arrays():
    with pytest.raises(js.errors.NotInformativeError, match=r"at index 1"):
        js.rogan_gladen(0.5, np.array([0.8, 0.4]), 0.6)


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.2, float("nan"), 95])
def test_confidence_level_outside_open_unit_interval(level):
    with pytest.raises(
        js.errors.ConfidenceLevelError, match=r"confidence_level must be strictly between 0 and 1"
    ):
        js.adjusted_wald_interval(0.4, 0.7, 0.9, 100, 50, 50, confidence_level=level)
    with pytest.raises(js.errors.ConfidenceLevelError):
        js.correct(TEST, CAL, confidence_level=level)


def test_shape_clash_names_arguments():
    with pytest.raises(js.JudgeStatsError, match=r"p\(3,\).*q0\(2,\)"):
        js.rogan_gladen(np.array([0.1, 0.2, 0.3]), np.array([0.8, 0.9]), 0.9)


# ----------------------------------------------------------------------------- correct()
def test_unknown_method_lists_valid_ones():
    with pytest.raises(
        js.errors.MethodError,
        match=r"method 'exact' is not available for corrections with design='by-human-label'; "
        r"available: 'adjusted-wald', 'wald'.* or "
    ):
        js.correct(TEST, CAL, method="exact")


def test_method_must_be_a_string():
    with pytest.raises(js.errors.ArgumentTypeError, match=r"method must be a string"):
        js.correct(TEST, CAL, method=3)
    # None is the capability table's default (issue 38 §3: "auto" under the paper's design)
    assert js.correct(TEST, CAL, method=None).ci == js.correct(TEST, CAL, method="auto").ci


def test_unknown_method_option():
    with pytest.raises(
        js.errors.ArgumentTypeError, match=r"'wald' got unexpected option\(s\) \['n_resamples'\]"
    ):
        js.correct(TEST, CAL, method="wald", n_resamples=10)


@pytest.mark.parametrize(
    ("test", "cal", "match"),
    [
        ((600, 1000), CAL, r"test must be a JudgedCounts, got tuple"),
        (TEST, {"tp": 1}, r"calibration must be a ConfusionCounts, got dict"),
        (CAL, TEST, r"test must be a JudgedCounts, got ConfusionCounts"),
    ],
)
def test_correct_wrong_argument_types(test, cal, match):
    with pytest.raises(js.errors.ArgumentTypeError, match=match):
        js.correct(test, cal)


def test_correct_judge_no_better_than_chance():
    with pytest.raises(js.errors.NotInformativeError, match=r"no better than chance"):
        js.correct(TEST, js.ConfusionCounts(tp=50, fn=50, tn=40, fp=60))


def test_correct_refuses_batches():
    batch = js.JudgedCounts(positive=np.array([1, 2]), n=10)
    with pytest.raises(js.JudgeStatsError, match=r"batch of shape \(2,\)"):
        js.correct(batch, CAL)


@pytest.mark.parametrize("bad", [0, 1, -3, 2.5, "many", True])
def test_bootstrap_n_resamples(bad):
    with pytest.raises(js.JudgeStatsError, match="n_resamples"):
        js.correct(TEST, CAL, method="bootstrap", n_resamples=bad, rng=0)


@pytest.mark.parametrize("bad", ["seed", 1.5, -1, np.random.RandomState(0)])
def test_bad_rng(bad):
    with pytest.raises(js.JudgeStatsError, match="rng"):
        js.correct(TEST, CAL, method="bootstrap", rng=bad)


def test_clipping_is_flagged_and_warned():
    test = js.JudgedCounts(positive=100, n=1000)  # p = 0.1 < 1 - q0 = 0.3
    with pytest.warns(js.ClippedEstimateWarning, match=r"-0\.3333 clipped to \[0, 1\]"):
        res = js.correct(test, CAL)
    assert res.clipped is True
    assert res.estimate == 0.0
    assert res.estimate_unclipped == pytest.approx((0.1 + 0.7 - 1) / 0.6, abs=1e-15)
    assert res.ci.low <= res.ci.high
    assert "clipped" in res.summary()


def test_primitive_clipping_warns_with_count():
    with pytest.warns(js.ClippedEstimateWarning, match=r"2 of 3 Rogan–Gladen estimates"):
        out = js.rogan_gladen(np.array([0.1, 0.5, 0.99]), 0.7, 0.9)
    np.testing.assert_allclose(out, [0.0, (0.5 + 0.7 - 1) / 0.6, 1.0])


def test_deprecated_keyword_names_still_work_and_warn():
    """Issue 16's renames: the old names keep working with a DeprecationWarning."""
    pilot = js.ConfusionCounts(tp=9, fn=1, tn=7, fp=3)
    with pytest.warns(DeprecationWarning, match=r"allocate\(p_hat=...\) is deprecated; use p="):
        old = js.plan.allocate(200, p_hat=0.4, pilot=pilot)
    assert old == js.plan.allocate(200, p=0.4, pilot=pilot)
    with pytest.warns(DeprecationWarning, match=r"estimator_bias\(theta_test=...\)"):
        a = js.simulate.estimator_bias(theta_test=0.4, reps=50, rng=1, estimators="naive")
    b = js.simulate.estimator_bias(theta=0.4, reps=50, rng=1, estimators="naive")
    assert float(a.bias.max()) == float(b.bias.max())
    with pytest.raises(js.errors.ArgumentTypeError, match=r"unexpected keyword argument\(s\) \['q'\]"):
        js.plan.allocate(200, p=0.4, pilot=pilot, q=1)
