"""The golden entries: calls across judgestats' API and CLI whose outputs are recorded.

Each entry has a unique, stable name (``area/what/method/data``) and a zero-argument function
returning public data of the result: ``to_dict()``, ``summary()``, ``report(...)`` text,
``.estimate``, ``.ci`` (by its public fields), frames via ``to_dataframe()`` (records), xarray
via ``.to_dict()``. Never a private attribute, so the entries survive internal moves. Every
call that takes ``method=`` or ``design=`` names both, even when equal to today's default (a
later change of default must not move an entry); resampling uses small ``n_resamples`` with a
fixed integer seed. :mod:`tests.golden.harness` runs an entry (value or error class name, and
its warnings) and normalises the result into JSON.

Names that may move in the refactor are reached through :func:`public` (functions outside the
top level: ``read_table``, ``correct_alphabet``, ``group_counts``,
``report``...) and :func:`reader` (the eval-tool readers): one place to update. Errors and
warnings are recorded by class *name* (the runner never imports them), so a move of the classes
to ``js.errors`` changes no entry. The method lists are written out as of e39e706
(``INTERVAL_METHODS``, ...), so an entry's name never depends on a registry; the registries'
answers are an entry of their own (``registry/methods``).

Areas (the first part of a name, one file each in ``data/``): ``correct``, ``counts``,
``registry``, ``primitives``, ``estimators``, ``shift``, ``categories``, ``alphabets``,
``strata``, ``evaluate``, ``compare``, ``pairwise``, ``sequential``, ``plan``, ``agreement``,
``simulate``, ``experiments``, ``report``, ``readers``, ``cli``. Not covered: the PyMC models
(``js.bayes``: too slow for the budget) and the Inspect AI reader (no log fixture in
``tests/data``; ``tests/test_inspect.py`` writes its logs at run time, with ids and times of
their own).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

import judgestats as js
import judgestats.multiclass  # js.multiclass, the public path of the k-category names

from .harness import cli, interval, tmpdir

#: name -> zero-argument function; filled by :func:`case` in the sections below, in order.
CASES: dict[str, Callable[[], Any]] = {}

DESIGNS = ("by-human-label", "random", "by-judge-label")
SEED = 20261201

# The method lists of today (e39e706), written out rather than read from the registries: an
# entry's name must not depend on what a registry holds later. The registries' own answers are
# entries (``registry/...``), so a change there shows as a changed entry.
#: js.interval_methods(design)
INTERVAL_METHODS = {
    "by-human-label": ("adjusted-wald", "wald", "bootstrap", "profile-likelihood",
                       "profile-likelihood-t", "profile-map", "adjusted-wald+profile-map",
                       "bayes"),
    "random": ("adjusted-wald", "wald", "bootstrap", "bayes"),
    "by-judge-label": ("adjusted-wald", "wald", "bootstrap", "bayes"),
}  # fmt: skip
#: js.multiclass.distribution_methods()
DISTRIBUTION_METHODS = ("adjusted-delta", "wald", "bootstrap", "profile-likelihood",
                        "profile-likelihood-t")  # fmt: skip
#: judgestats.alphabets.groups.alphabet_methods(design)
ALPHABET_METHODS = {
    "by-human-label": ("profile-likelihood-t", "profile-likelihood", "bootstrap"),
    "random": ("adjusted-delta", "wald"),
    "by-judge-label": ("adjusted-delta", "wald"),
}
#: js.compare.DIFFERENCE_METHODS, js.compare.RANK_METHODS
DIFFERENCE_METHODS = ("adjusted-wald", "wald", "bootstrap", "bayes")
RANK_METHODS = ("bootstrap", "bayes")
B = 499  # bootstrap replicates: small, seeded


def case(name: str, function: Callable[[], Any]) -> None:
    """Register an entry (its name must be new)."""
    if name in CASES:
        raise ValueError(f"duplicate golden entry {name!r}")
    CASES[name] = function


def reader(tool: str) -> Callable[..., Any]:
    """An eval-tool reader by tool name (one place to follow a move of the readers)."""
    return getattr(js.readers, f"read_{tool}")


#: Public names outside the top level that the refactor may move: name -> module today.
_HOMES = {
    "read_table": "judgestats.io",
    "correct_alphabet": "judgestats.alphabets.groups",
    "alphabet_methods": "judgestats.alphabets.groups",
    "group_counts": "judgestats.evaluate",
    "report": "judgestats.report",
}


def public(name: str) -> Any:
    """A public function by name from its home today (one place to follow a move)."""
    import importlib

    return getattr(importlib.import_module(_HOMES[name]), name)


def options(method: str) -> dict[str, Any]:
    """Method options every resampling entry passes: few replicates, a fixed seed."""
    return {"n_resamples": B} if method == "bootstrap" else {}


def result(res: Any) -> dict[str, Any]:
    """A result with ``to_dict()`` and ``summary()``."""
    return {"to_dict": res.to_dict(), "summary": res.summary()}


# ============================================================================ data
def jc(positive: int, n: int) -> Any:
    return js.JudgedCounts(positive=positive, n=n)


def cc(tp: int, fn: int, tn: int, fp: int) -> Any:
    return js.ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp)


#: Binary data sets: name -> (test, calibration).
BINARY: dict[str, Callable[[], tuple[Any, Any]]] = {
    # the paper's running example (m0 = m1 = 100)
    "normal": lambda: (jc(600, 1000), cc(tp=90, fn=10, tn=70, fp=30)),
    "large": lambda: (jc(2310, 5000), cc(tp=412, fn=38, tn=365, fp=85)),
    # fewer than 100 calibration items per class (WeakCalibrationWarning territory)
    "small": lambda: (jc(55, 120), cc(tp=18, fn=4, tn=15, fp=5)),
    # a judge close to chance: q̂0 + q̂1 = 1.1
    "near-chance": lambda: (jc(410, 800), cc(tp=33, fn=27, tn=30, fp=30)),
    # q̂0 + q̂1 <= 1: the Rogan–Gladen methods refuse
    "chance": lambda: (jc(300, 600), cc(tp=25, fn=25, tn=20, fp=30)),
    # p̂ = 0 and p̂ = 1 (boundary, clipped)
    "p-zero": lambda: (jc(0, 250), cc(tp=45, fn=5, tn=40, fp=10)),
    "p-one": lambda: (jc(250, 250), cc(tp=45, fn=5, tn=40, fp=10)),
    # θ̂ below 0 (clipped) and above 1
    "clip-low": lambda: (jc(20, 400), cc(tp=80, fn=20, tn=85, fp=15)),
    "clip-high": lambda: (jc(390, 400), cc(tp=80, fn=20, tn=85, fp=15)),
    # a judge perfect on its calibration set
    "perfect": lambda: (jc(130, 300), cc(tp=40, fn=0, tn=35, fp=0)),
    # one human class only (the judge-label designs allow it)
    "one-class": lambda: (jc(140, 300), cc(tp=35, fn=5, tn=0, fp=0)),
}


@functools.cache
def _clustered_rows(kind: str) -> dict[str, np.ndarray]:
    """Rows of repeated items: test and calibration item ids, judge and human labels."""
    gen = np.random.default_rng(SEED + len(kind))
    if kind == "epochs":  # 3 epochs per item, human label constant within an item
        items, reps = 240, np.full(240, 3)
    else:  # "uneven": 1–5 rows per item, human label may vary within an item (raters)
        items = 200
        reps = gen.integers(1, 6, items)
    item = np.repeat(np.arange(items), reps)
    truth = gen.random(items) < 0.55
    propensity = np.clip(gen.normal(0, 0.08, items), -0.2, 0.2)
    human = truth[item].copy()
    if kind == "uneven":
        human ^= gen.random(item.size) < 0.08
    p_judge = np.where(human, 0.85, 0.2) + propensity[item]
    judge = gen.random(item.size) < np.clip(p_judge, 0.01, 0.99)
    labelled = item < items * 0.4
    return {"item": item, "human": human.astype(int), "judge": judge.astype(int),
            "labelled": labelled}  # fmt: skip


def clustered(kind: str) -> tuple[Any, Any]:
    """Binary counts of repeated items built with ``cluster=``."""
    r = _clustered_rows(kind)
    lab = r["labelled"]
    test = js.JudgedCounts.from_labels(r["judge"][~lab], cluster=r["item"][~lab])
    cal = js.ConfusionCounts.from_labels(human=r["human"][lab], judge=r["judge"][lab],
                                         cluster=r["item"][lab])  # fmt: skip
    return test, cal


# ============================================================================ correct
def _correct(data: Callable[[], tuple[Any, Any]], design: str, method: str, *,
             level: float = 0.95, estimand: str | None = None, **extra: Any) -> Callable:  # fmt: skip
    def run() -> Any:
        test, cal = data()
        kw = {} if estimand is None else {"estimand": estimand}
        res = js.correct(test, cal, method=method, design=design, confidence_level=level,
                         rng=SEED, **kw, **options(method), **extra)  # fmt: skip
        return result(res)

    return run


for _data in BINARY:
    for _design in DESIGNS:
        for _method in (*INTERVAL_METHODS[_design], "auto"):
            case(f"correct/{_design}/{_method}/{_data}", _correct(BINARY[_data], _design, _method))

for _kind in ("epochs", "uneven"):
    for _design in DESIGNS:
        for _method in (*INTERVAL_METHODS[_design], "auto"):
            for _estimand in ("rows", "items"):
                case(f"correct/{_design}/{_method}/clustered-{_kind}/{_estimand}",
                     _correct(functools.partial(clustered, _kind), _design, _method,
                              estimand=_estimand))  # fmt: skip

for _level in (0.8, 0.9, 0.99):
    for _design in DESIGNS:
        for _method in ("adjusted-wald", "wald", "bayes"):
            case(f"correct/{_design}/{_method}/normal/level-{_level}",
                 _correct(BINARY["normal"], _design, _method, level=_level))  # fmt: skip
    case(f"correct/by-human-label/profile-map/small/level-{_level}",
         _correct(BINARY["small"], "by-human-label", "profile-map", level=_level))  # fmt: skip

for _point in ("mean", "median", "map"):
    for _ci in ("eti", "hdi"):
        case(f"correct/by-human-label/bayes/small/point-{_point}/interval-{_ci}",
             _correct(BINARY["small"], "by-human-label", "bayes", point=_point, interval=_ci))
for _design in ("random", "by-judge-label"):
    for _ci in ("eti", "hdi"):
        case(f"correct/{_design}/bayes/small/point-median/interval-{_ci}",
             _correct(BINARY["small"], _design, "bayes", point="median", interval=_ci))


def _bad_call(**kw: Any) -> Callable:
    def run() -> Any:
        test, cal = BINARY["normal"]()
        return result(js.correct(test, cal, **kw))

    return run


case("correct/errors/unknown-method",
     _bad_call(method="exact", design="by-human-label"))  # fmt: skip
case("correct/errors/method-not-for-design",
     _bad_call(method="profile-map", design="random"))  # fmt: skip
case("correct/errors/unknown-design", _bad_call(method="adjusted-wald", design="stratified"))
case("correct/errors/level-one",
     _bad_call(method="adjusted-wald", design="by-human-label", confidence_level=1.0))  # fmt: skip
case("correct/errors/auto-with-options",
     _bad_call(method="auto", design="by-human-label", n_resamples=99))  # fmt: skip
case("correct/errors/unknown-estimand",
     _bad_call(method="adjusted-wald", design="by-human-label", estimand="people"))  # fmt: skip
case("counts/errors/negative", lambda: jc(-1, 10).p_hat)
case("counts/errors/positive-above-n", lambda: jc(11, 10).p_hat)
case("counts/errors/labels-not-binary", lambda: js.JudgedCounts.from_labels([0, 1, 0.7]).n)
case("counts/errors/labels-length",
     lambda: js.ConfusionCounts.from_labels(human=[0, 1, 1], judge=[0, 1]).m1)  # fmt: skip
case("correct/errors/not-counts",
     lambda: result(js.correct((600, 1000), cc(90, 10, 70, 30), method="adjusted-wald",
                               design="by-human-label")))  # fmt: skip


def _recompute(data: str, design: str) -> Callable:
    def run() -> Any:
        test, cal = BINARY[data]()
        res = js.correct(test, cal, method="adjusted-wald", design=design)
        out = {}
        for method in INTERVAL_METHODS[design]:
            for level in (0.9, 0.95):
                ci = res.confidence_interval(method=method, confidence_level=level, rng=SEED,
                                             **options(method))  # fmt: skip
                out[f"{method}@{level}"] = interval(ci)
        return out

    return run


for _design in DESIGNS:
    for _data in ("normal", "small"):
        case(f"correct/confidence_interval/{_design}/{_data}", _recompute(_data, _design))


def _frames_of_correction() -> Any:
    test, cal = BINARY["normal"]()
    res = js.correct(test, cal, method="adjusted-wald", design="by-human-label")
    return {"dataframe": res.to_dataframe(), "xarray": res.to_xarray(), "repr": repr(res),
            "estimate": res.estimate, "ci": res.ci, "naive": res.naive,
            "sensitivity": res.sensitivity, "specificity": res.specificity, "n": res.n,
            "m0": res.m0, "m1": res.m1, "clipped": res.clipped}  # fmt: skip


case("correct/by-human-label/adjusted-wald/normal/frames", _frames_of_correction)


def _ratings(rule: str, estimand: str) -> Callable:
    def run() -> Any:
        gen = np.random.default_rng(SEED + 5)
        truth = gen.random(90) < 0.5  # 90 calibration items, 3 raters each, one judge verdict
        verdict = gen.random(90) < np.where(truth, 0.85, 0.25)
        item = np.repeat(np.arange(90), 3)
        human = truth[item] ^ (gen.random(270) < 0.15)
        cal = js.ConfusionCounts.from_ratings(human=human.astype(int),
                                              judge=verdict[item].astype(int), item=item,
                                              rule=rule)  # fmt: skip
        test = js.JudgedCounts(positive=260, n=500)
        res = js.correct(test, cal, method="adjusted-wald", design="by-human-label",
                         estimand=estimand)  # fmt: skip
        return result(res)

    return run


for _rule in ("each", "majority"):
    for _estimand in ("rows", "items"):
        case(f"correct/by-human-label/adjusted-wald/ratings-{_rule}/{_estimand}",
             _ratings(_rule, _estimand))  # fmt: skip


# ============================================================================ registries
def _registries() -> dict[str, Any]:
    alphabet_methods = public("alphabet_methods")
    return {
        "interval_methods": {d: js.interval_methods(d) for d in DESIGNS},
        "distribution_methods": js.multiclass.distribution_methods(),
        "alphabet_methods": {d: alphabet_methods(d) for d in DESIGNS},
        "difference_methods": js.compare.DIFFERENCE_METHODS,
        "rank_methods": js.compare.RANK_METHODS,
    }


case("registry/methods", _registries)


# ============================================================================ primitives
def fields(obj: Any) -> dict[str, Any]:
    """A result dataclass without ``to_dict()`` by its public fields."""
    import dataclasses

    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)
            if not f.name.startswith("_")}  # fmt: skip


_P = np.array([0.0, 0.05, 0.3, 0.6, 0.95, 1.0])
_Q0 = np.array([[0.7], [0.95], [0.55]])
_Q1 = 0.9

case("primitives/rogan_gladen/scalar", lambda: js.rogan_gladen(0.6, 0.7, 0.9))
case("primitives/rogan_gladen/broadcast", lambda: js.rogan_gladen(_P, _Q0, _Q1))
case("primitives/rogan_gladen/not-informative", lambda: js.rogan_gladen(0.6, 0.4, 0.5))
case("primitives/rogan_gladen/bad-probability", lambda: js.rogan_gladen(1.2, 0.7, 0.9))
for _level in (0.9, 0.95):
    case(f"primitives/adjusted_wald_interval/scalar/level-{_level}",
         lambda level=_level: js.adjusted_wald_interval(0.6, 0.7, 0.9, 1000, 100, 100,
                                                        confidence_level=level))  # fmt: skip
    case(f"primitives/wald_interval/scalar/level-{_level}",
         lambda level=_level: js.intervals.wald_interval(0.6, 0.7, 0.9, 1000, 100, 100,
                                               confidence_level=level))  # fmt: skip
case("primitives/adjusted_wald_interval/broadcast",
     lambda: js.adjusted_wald_interval(_P, _Q0, _Q1, np.array([200, np.inf]).reshape(2, 1, 1),
                                       60, 40))  # fmt: skip
for _boundary in ("widen", "truncate"):
    case(f"primitives/adjusted_wald_interval/boundary-{_boundary}",
         lambda b=_boundary: js.adjusted_wald_interval(0.0, 0.99, 0.99, 500, 50, 50,
                                                       boundary=b))  # fmt: skip
case("primitives/wald_interval/broadcast",
     lambda: js.intervals.wald_interval(_P, _Q0, _Q1, 300, 50, 80, confidence_level=0.9))  # fmt: skip
case("primitives/rogan_gladen_variance/broadcast",
     lambda: js.intervals.rogan_gladen_variance(_P, _Q0, _Q1, 300, 50, 80))
case("primitives/rogan_gladen_variance/n-infinite",
     lambda: js.intervals.rogan_gladen_variance(0.6, 0.7, 0.9, np.inf, 100, 100))
case("primitives/adjusted_wald_interval/errors/level",
     lambda: js.adjusted_wald_interval(0.6, 0.7, 0.9, 1000, 100, 100, confidence_level=95))

_ESTIMATORS = ("naive", "calibration_only", "prediction_powered", "conditional_calibration",
               "misclassification_adjusted", "difference")  # fmt: skip
for _name in _ESTIMATORS:
    for _data in ("normal", "small", "clip-low", "chance"):
        case(f"estimators/{_name}/{_data}",
             lambda f=_name, d=_data: getattr(js.estimators, f)(*BINARY[d]()))  # fmt: skip
case("estimators/rogan_gladen/batched-counts",
     lambda: js.estimators.misclassification_adjusted(
         js.JudgedCounts(positive=np.array([100, 300, 500]), n=1000),
         js.ConfusionCounts(tp=np.array([90, 80, 70]), fn=np.array([10, 20, 30]), tn=70, fp=30)))
for _data in ("normal", "clip-high", "p-zero"):
    case(f"shift/label_shift_test/{_data}",
         lambda d=_data: fields(js.label_shift_test(*BINARY[d]())))  # fmt: skip


# ============================================================================ k categories
LABELS3 = ["a", "b", "c"]


def cat(counts: Any, labels: Any = LABELS3) -> Any:
    return js.CategoryCounts(counts, labels=labels)


def mat(counts: Any, labels: Any = LABELS3, judge_labels: Any = None) -> Any:
    return js.ConfusionMatrix(counts, labels=labels, judge_labels=judge_labels)


#: k-category data sets: name -> (test, calibration); matrices have rows = judge label.
CATEGORIES: dict[str, Callable[[], tuple[Any, Any]]] = {
    "k3": lambda: (cat([430, 380, 190]),
                   mat([[80, 10, 0], [20, 80, 20], [0, 10, 80]])),
    "k3-small": lambda: (cat([43, 38, 19]), mat([[8, 1, 0], [2, 8, 2], [0, 1, 8]])),
    # Ĉ⁻¹p̂ outside the simplex: the projected estimate
    "k3-projected": lambda: (cat([20, 70, 10]),
                             mat([[50, 0, 0], [0, 40, 10], [0, 10, 40]])),
    # two categories the judge does not separate
    "k3-confused": lambda: (cat([40, 40, 20]), mat([[51, 49, 0], [49, 51, 0], [0, 0, 100]])),
    "k2": lambda: (cat([400, 600], [0, 1]), mat([[70, 10], [30, 90]], [0, 1])),
    "k4": lambda: (cat([120, 260, 330, 290], [1, 2, 3, 4]),
                   mat([[40, 6, 2, 0], [8, 44, 7, 1], [2, 8, 45, 9], [0, 2, 6, 50]],
                       [1, 2, 3, 4])),
    # judge alphabets of their own (J letters × K human categories, J > K)
    "alphabet-5x2": lambda: (cat([80, 70, 60, 90, 100], ["1", "2", "3", "4", "5"]),
                             mat([[40, 5], [30, 10], [15, 15], [10, 30], [5, 40]],
                                 ["fail", "pass"], ["1", "2", "3", "4", "5"])),
    "alphabet-4x3": lambda: (cat([150, 120, 100, 30], ["win", "tie", "lose", "invalid"]),
                             mat([[50, 10, 5], [10, 40, 10], [5, 10, 45], [3, 4, 2]],
                                 ["A", "tie", "B"], ["win", "tie", "lose", "invalid"])),
}


def _categories_rows(alphabet: bool) -> dict[str, np.ndarray]:
    gen = np.random.default_rng(SEED + 3 + alphabet)
    items = 260
    reps = gen.integers(1, 5, items)
    item = np.repeat(np.arange(items), reps)
    truth = gen.choice(3, size=items, p=[0.5, 0.3, 0.2])[item]
    if alphabet:  # a 1–4 score against 2 human classes
        truth = (truth > 0).astype(int)
        confusion = np.array([[0.5, 0.3, 0.15, 0.05], [0.05, 0.15, 0.3, 0.5]])
    else:
        confusion = np.array([[0.8, 0.15, 0.05], [0.1, 0.8, 0.1], [0.05, 0.15, 0.8]])
    judge = np.array([gen.choice(confusion.shape[1], p=confusion[h]) for h in truth])
    return {"item": item, "human": truth, "judge": judge, "labelled": item < items * 0.4}


@functools.cache
def _categories_rows_cached(alphabet: bool) -> dict[str, np.ndarray]:
    return _categories_rows(alphabet)


def categories_clustered(alphabet: bool) -> tuple[Any, Any]:
    r = _categories_rows_cached(alphabet)
    lab = r["labelled"]
    if alphabet:
        letters = np.array(["s1", "s2", "s3", "s4"])
        humans = np.array(["fail", "pass"])
        test = js.CategoryCounts.from_labels(letters[r["judge"][~lab]], labels=list(letters),
                                             cluster=r["item"][~lab])  # fmt: skip
        cal = js.ConfusionMatrix.from_labels(
            human=humans[r["human"][lab]], judge=letters[r["judge"][lab]], labels=list(humans),
            judge_labels=list(letters), cluster=r["item"][lab])  # fmt: skip
    else:
        test = js.CategoryCounts.from_labels(r["judge"][~lab], labels=[0, 1, 2],
                                             cluster=r["item"][~lab])  # fmt: skip
        cal = js.ConfusionMatrix.from_labels(human=r["human"][lab], judge=r["judge"][lab],
                                             labels=[0, 1, 2], cluster=r["item"][lab])  # fmt: skip
    return test, cal


def _distribution(data: Callable, design: str, method: str, *, estimand: str | None = None,
                  level: float = 0.95) -> Callable:  # fmt: skip
    def run() -> Any:
        test, cal = data()
        kw = {} if estimand is None else {"estimand": estimand}
        res = js.multiclass.correct_distribution(
            test, cal, method=method, design=design, confidence_level=level, rng=SEED, **kw,
            **options(method))  # fmt: skip
        return {**result(res), "estimate": res.estimate,
                "ci": {str(k): interval(v) for k, v in res.ci.items()}}

    return run


for _data in CATEGORIES:
    for _design in DESIGNS:
        for _method in DISTRIBUTION_METHODS:
            if _data in ("k3-small", "k4", "k2") and _design != "by-human-label" and \
                    _method not in ("adjusted-delta", "wald"):  # fmt: skip
                continue  # the design errors are recorded on the other data sets
            if (_data, _method) in (("k3-small", "profile-likelihood"), ("k4", "profile-likelihood"),
                                    ("k4", "profile-likelihood-t"),
                                    ("k3-projected", "profile-likelihood"),
                                    ("alphabet-4x3", "profile-likelihood")):
                continue  # slow (about a second each); the other data sets cover the method
            case(f"categories/{_design}/{_method}/{_data}",
                 _distribution(CATEGORIES[_data], _design, _method))  # fmt: skip
for _alphabet, _kind in ((False, "k3"), (True, "alphabet-4x2")):
    for _design in DESIGNS:
        for _method in DISTRIBUTION_METHODS:
            for _estimand in ("rows", "items"):
                case(f"categories/{_design}/{_method}/clustered-{_kind}/{_estimand}",
                     _distribution(functools.partial(categories_clustered, _alphabet), _design,
                                   _method, estimand=_estimand))  # fmt: skip
for _level in (0.8, 0.99):
    case(f"categories/by-human-label/adjusted-delta/k3/level-{_level}",
         _distribution(CATEGORIES["k3"], "by-human-label", "adjusted-delta", level=_level))


def _distribution_extras() -> Any:
    test, cal = CATEGORIES["k3"]()
    res = js.multiclass.correct_distribution(test, cal, method="adjusted-delta",
                                             design="by-human-label")  # fmt: skip
    recomputed = {
        f"{m}@{lvl}": {str(k): interval(v) for k, v in
                       res.confidence_interval(method=m, confidence_level=lvl, rng=SEED,
                                               **options(m)).items()}
        for m in ("adjusted-delta", "wald", "bootstrap") for lvl in (0.9, 0.95)
    }  # fmt: skip
    recomputed["profile-likelihood-t@0.9"] = {
        str(k): interval(v) for k, v in
        res.confidence_interval(method="profile-likelihood-t", confidence_level=0.9).items()
    }  # fmt: skip
    return {"dataframe": res.to_dataframe(), "xarray": res.to_xarray(),
            "naive": res.naive, "judge_recall": res.judge_recall,
            "human_counts": res.human_counts, "estimate_unconstrained": res.estimate_unconstrained,
            "projected": res.projected, "recomputed": recomputed, "repr": repr(res)}  # fmt: skip


case("categories/by-human-label/adjusted-delta/k3/frames-and-recompute", _distribution_extras)
case("categories/errors/labels-differ",
     lambda: js.multiclass.correct_distribution(
         cat([5, 5, 5], ["a", "b", "d"]), CATEGORIES["k3"]()[1], method="adjusted-delta",
         design="by-human-label").estimate)  # fmt: skip
case("categories/errors/unknown-method",
     lambda: js.multiclass.correct_distribution(
         *CATEGORIES["k3"](), method="adjusted-wald", design="by-human-label").estimate)
case("categories/errors/one-category", lambda: js.CategoryCounts([5]).k)
case("categories/errors/alphabet-fewer-letters",
     lambda: mat([[1, 2, 3], [4, 5, 6]], ["x", "y", "z"], ["a", "b"]).k)
case("categories/confusion-matrix/from-sklearn",
     lambda: fields_of_matrix(js.ConfusionMatrix.from_sklearn(
         np.array([[50, 10, 2], [5, 40, 6], [1, 9, 45]]), labels=LABELS3)))


def fields_of_matrix(m: Any) -> dict[str, Any]:
    return {"counts": m.counts, "labels": list(m.labels), "judge_labels": list(m.judge_labels),
            "matrix": m.matrix, "condition_number": m.condition_number, "m": m.m}  # fmt: skip




def _letters() -> Any:
    return {
        "score-bins": js.judge_letters([1, 2, 3, 4, 5, 3, None], bins=[0, 2.5, 5.5],
                                       invalid=[None]),
        "two-judges": js.judge_letters([1, 0, 1, 1], [0, 0, 1, "x"], invalid=["x"]),
        "invalid": js.judge_letters(["win", "tie", "??", "lose"], invalid=["??"]),
    }


case("alphabets/judge_letters", _letters)
case("alphabets/judge_letters/errors/missing", lambda: js.judge_letters([1, 2, None]))


def _alphabet_counts() -> Any:
    import pandas as pd

    gen = np.random.default_rng(SEED + 9)
    human = gen.integers(0, 2, 300)
    score = np.clip(np.round(1 + 4 * (0.6 * human + 0.4 * gen.random(300))), 1, 5)
    frame = pd.DataFrame({"human": np.where(np.arange(300) < 120, human, np.nan),
                          "score": score})  # fmt: skip
    test, cal = js.alphabet_counts(frame, judge="score", human="human")
    res = js.multiclass.correct_distribution(test, cal, method="profile-likelihood-t",
                                             design="by-human-label")  # fmt: skip
    return {"test": test.counts, "test_labels": list(test.labels), "cal": cal.counts,
            "cal_judge_labels": list(cal.judge_labels), "result": result(res)}  # fmt: skip


case("alphabets/alphabet_counts/score/profile-likelihood-t", _alphabet_counts)


def _correct_alphabet(design: str, method: str) -> Callable:
    def run() -> Any:
        correct_alphabet = public("correct_alphabet")
        test, cal = CATEGORIES["alphabet-5x2"]()
        cal = mat(cal.counts, [0, 1], list(cal.judge_labels))
        res = correct_alphabet(test, cal, method=method, design=design, rng=SEED,
                               **options(method))  # fmt: skip
        return {"to_dict": res.to_dict(), "summary": res.summary()}

    return run


for _design in DESIGNS:
    for _method in ("profile-likelihood-t", "profile-likelihood", "bootstrap", "adjusted-delta",
                    "wald"):  # fmt: skip
        case(f"alphabets/correct_alphabet/{_design}/{_method}/alphabet-5x2",
             _correct_alphabet(_design, _method))  # fmt: skip


# ============================================================================ strata
def _strata_data(kind: str) -> tuple[dict, dict]:
    if kind == "two":
        return ({"short": jc(180, 300), "long": jc(560, 700)},
                {"short": cc(tp=126, fn=14, tn=55, fp=15), "long": cc(tp=57, fn=3, tn=18, fp=12)})
    if kind == "three":
        return ({"easy": jc(410, 500), "medium": jc(260, 450), "hard": jc(90, 300)},
                {"easy": cc(tp=70, fn=5, tn=20, fp=6), "medium": cc(tp=40, fn=8, tn=35, fp=9),
                 "hard": cc(tp=15, fn=6, tn=50, fp=8)})  # fmt: skip
    # "sparse": one stratum with too few calibration items of a class
    return ({"a": jc(300, 500), "b": jc(200, 400), "rare": jc(30, 60)},
            {"a": cc(tp=60, fn=8, tn=50, fp=10), "b": cc(tp=45, fn=9, tn=55, fp=7),
             "rare": cc(tp=6, fn=1, tn=3, fp=1)})  # fmt: skip


@functools.cache
def _strata_rows() -> dict[str, np.ndarray]:
    """Repeated items nested in three strata (1–4 rows per item)."""
    gen = np.random.default_rng(SEED + 11)
    items = 300
    stratum = gen.choice(3, items, p=[0.4, 0.35, 0.25])
    reps = gen.integers(1, 5, items)
    item = np.repeat(np.arange(items), reps)
    truth = (gen.random(items) < np.array([0.7, 0.5, 0.3])[stratum])[item]
    q1, q0 = np.array([0.9, 0.85, 0.8])[stratum][item], np.array([0.75, 0.8, 0.85])[stratum][item]
    judge = np.where(truth, gen.random(item.size) < q1, gen.random(item.size) > q0)
    return {"item": item, "stratum": np.array(["s0", "s1", "s2"])[stratum][item],
            "human": truth.astype(int), "judge": judge.astype(int),
            "labelled": item % 5 < 2}  # fmt: skip


def strata_clustered() -> tuple[dict, dict]:
    r = _strata_rows()
    tests, cals = {}, {}
    for s in ("s0", "s1", "s2"):
        t = (r["stratum"] == s) & ~r["labelled"]
        c = (r["stratum"] == s) & r["labelled"]
        tests[s] = js.JudgedCounts.from_labels(r["judge"][t], cluster=r["item"][t])
        cals[s] = js.ConfusionCounts.from_labels(human=r["human"][c], judge=r["judge"][c],
                                                 cluster=r["item"][c])  # fmt: skip
    return tests, cals


def _stratified(data: Callable, design: str, method: str, **kw: Any) -> Callable:
    def run() -> Any:
        tests, cals = data()
        res = js.strata.correct_stratified(tests, cals, method=method, design=design, rng=SEED,
                                           **options(method), **kw)  # fmt: skip
        return {**result(res), "pooled": {"estimate": res.estimate, "ci": res.ci},
                "per_stratum": {str(s): res[s].to_dict() for s in res.strata}}

    return run


_STRATA_METHODS = ("adjusted-wald", "wald", "bootstrap")
for _kind in ("two", "three"):
    for _design in DESIGNS:
        for _method in _STRATA_METHODS:
            case(f"strata/{_design}/{_method}/{_kind}",
                 _stratified(functools.partial(_strata_data, _kind), _design, _method))
for _design in DESIGNS:
    for _method in _STRATA_METHODS:
        for _estimand in ("rows", "items"):
            case(f"strata/{_design}/{_method}/clustered/{_estimand}",
                 _stratified(strata_clustered, _design, _method, estimand=_estimand))
for _method in ("profile-map", "auto"):
    case(f"strata/by-human-label/{_method}/two",
         _stratified(functools.partial(_strata_data, "two"), "by-human-label", _method))
_SPARSE = functools.partial(_strata_data, "sparse")
case("strata/by-human-label/adjusted-wald/sparse",
     _stratified(_SPARSE, "by-human-label", "adjusted-wald"))
case("strata/by-human-label/adjusted-wald/sparse/merge-auto",
     _stratified(_SPARSE, "by-human-label", "adjusted-wald", merge="auto"))
case("strata/by-human-label/adjusted-wald/sparse/merge-mapping",
     _stratified(_SPARSE, "by-human-label", "adjusted-wald", merge={"rare": "b"}))
case("strata/by-human-label/adjusted-wald/sparse/min-per-class-3",
     _stratified(_SPARSE, "by-human-label", "adjusted-wald", min_per_class=3))
case("strata/random/adjusted-wald/sparse", _stratified(_SPARSE, "random", "adjusted-wald"))
for _design in DESIGNS:
    case(f"strata/{_design}/adjusted-wald/three/weights-given",
         _stratified(functools.partial(_strata_data, "three"), _design, "adjusted-wald",
                     weights={"easy": 0.2, "medium": 0.5, "hard": 0.3}))  # fmt: skip
case("strata/by-human-label/adjusted-wald/three/level-0.9",
     _stratified(functools.partial(_strata_data, "three"), "by-human-label", "adjusted-wald",
                 confidence_level=0.9))  # fmt: skip
case("strata/errors/weights-sum",
     _stratified(functools.partial(_strata_data, "two"), "by-human-label", "adjusted-wald",
                 weights={"short": 0.5, "long": 0.6}))  # fmt: skip
case("strata/errors/mismatch",
     lambda: js.strata.correct_stratified({"a": jc(5, 10)}, {"b": cc(20, 2, 20, 3)},
                                          method="adjusted-wald", design="by-human-label"))


def _diagnostics(kind: str) -> Callable:
    def run() -> Any:
        tests, cals = _strata_data(kind)
        res = js.strata.correct_stratified(tests, cals, method="adjusted-wald",
                                           design="by-human-label")  # fmt: skip
        d = res.diagnostics
        return {
            "judge_homogeneity": [fields(t) for t in js.strata.judge_homogeneity(cals)],
            "specificity_ci": {k: interval(v) for k, v in d.specificity_ci.items()},
            "sensitivity_ci": {k: interval(v) for k, v in d.sensitivity_ci.items()},
            "tests": [fields(d.specificity_test), fields(d.sensitivity_test),
                      fields(d.joint_test)],
            "unstratified": None if d.unstratified is None else d.unstratified.to_dict(),
            "test_mix": d.test_mix, "calibration_mix": d.calibration_mix,
            "difference": res.difference, "naive": res.naive, "n": res.n,
            "to_dataframe": res.to_dataframe(), "to_xarray": res.to_xarray(),
        }  # fmt: skip

    return run


for _kind in ("two", "three"):
    case(f"strata/diagnostics/{_kind}", _diagnostics(_kind))


def _stratified_counts() -> Any:
    tests, cals = js.strata.stratified_counts(_frames()["nq"], by="long_form")
    return {str(k): {"test": [v.positive, v.n], "cal": [cals[k].tp, cals[k].fn, cals[k].tn,
                                                        cals[k].fp]}
            for k, v in tests.items()}  # fmt: skip


case("strata/stratified_counts/nq301-long-form", _stratified_counts)


def _stratified_recompute() -> Any:
    tests, cals = _strata_data("three")
    res = js.strata.correct_stratified(tests, cals, method="adjusted-wald",
                                       design="by-human-label")  # fmt: skip
    return {f"{m}@{lvl}": interval(res.confidence_interval(method=m, confidence_level=lvl,
                                                           rng=SEED, **options(m)))
            for m in _STRATA_METHODS for lvl in (0.9, 0.95)}  # fmt: skip


case("strata/confidence_interval/three", _stratified_recompute)


# ============================================================================ frames
@functools.cache
def _frames_cached() -> dict[str, Any]:
    import pandas as pd

    nq = js.datasets.load_nq301()
    nq = nq[nq.target_model.isin(["DPR", "FiD", "InstructGPT_zeroshot", "EviGen", "R2-D2"])]
    nq = pd.DataFrame({
        "model": nq.target_model.astype(str).to_numpy(), "item": nq.item_id.to_numpy(),
        "judge": nq.judge.to_numpy(), "truth": nq.human.to_numpy(),
        "long_form": nq.long_form.to_numpy(),
    })  # fmt: skip
    nq["human"] = np.where(nq["item"] % 10 < 3, nq["truth"], np.nan)
    nq["split"] = np.where(nq["item"] % 10 < 3, "calibration", "test")
    nq["length"] = np.where(nq["item"] // 10 % 2 == 0, "even", "odd")
    arena = js.datasets.load_chatbot_arena(judge="gpt-4")
    arena = arena[arena.target_model.isin(["vicuna-13b", "koala-13b", "alpaca-13b", "gpt-4"])]
    arena = arena.sort_values(["target_model", "item_id", "target_position"])
    arena = arena.groupby("target_model", sort=True).head(500)
    arena = pd.DataFrame({
        "model": arena.target_model.astype(str).to_numpy(), "item": arena.item_id.to_numpy(),
        "judge": arena.judge.to_numpy(), "letter": arena.judge_label.astype(str).to_numpy(),
        "truth": arena.human.to_numpy(), "position": arena.target_position.astype(str).to_numpy(),
    })  # fmt: skip
    arena["human"] = np.where(np.arange(len(arena)) % 4 == 0, arena["truth"], np.nan)
    return {"nq": nq, "arena": arena, "repeated": _repeated_frame(), "batches": _batch_frame(),
            "marked": _marked_frame()}  # fmt: skip


def _frames() -> dict[str, Any]:
    """The entries' frames (copies: an entry may not change another's data)."""
    return {k: v.copy() for k, v in _frames_cached().items()}


def _repeated_frame() -> Any:
    """Three models, items judged in 1–4 epochs; item ids shared by the models."""
    import pandas as pd

    gen = np.random.default_rng(SEED + 21)
    parts = []
    for k, model in enumerate(("m-a", "m-b", "m-c")):
        reps = gen.integers(1, 5, 150)
        item = np.repeat(np.arange(150), reps)
        truth = gen.random(150) < 0.45 + 0.1 * k
        judge = np.where(truth[item], gen.random(item.size) < 0.88, gen.random(item.size) < 0.2)
        human = np.where(item < 60, truth[item], np.nan)
        parts.append(pd.DataFrame({"model": model, "item": item, "judge": judge.astype(int),
                                   "human": human, "length": np.where(item % 2, "odd", "even")}))
    return pd.concat(parts, ignore_index=True)


def _batch_frame() -> Any:
    """Two models; calibration rows in two batches, the judge moved in the second for m-b."""
    import pandas as pd

    gen = np.random.default_rng(SEED + 31)
    parts = []
    for model, q in (("m-a", (0.85, 0.85)), ("m-b", (0.9, 0.65))):
        truth = gen.random(900) < 0.55
        batch = np.where(np.arange(900) < 150, "round-1", np.where(np.arange(900) < 300,
                                                                   "round-2", None))
        q0 = np.where(batch == "round-2", q[1], q[0])
        judge = np.where(truth, gen.random(900) < 0.9, gen.random(900) > q0)
        human = np.where(batch == None, np.nan, truth)  # noqa: E711 (elementwise)
        parts.append(pd.DataFrame({"model": model, "judge": judge.astype(int), "human": human,
                                   "batch": batch}))
    return pd.concat(parts, ignore_index=True)


def _marked_frame() -> Any:
    """tests/conftest.py's marked frame: 'good', 'no-cal' (no human label), 'one-class'."""
    import pandas as pd

    gen = np.random.default_rng(9)
    rows = []
    for model in ("good", "no-cal", "one-class"):
        human = gen.integers(0, 2, 500)
        judge = np.where(gen.random(500) < 0.85, human, 1 - human)
        label = np.where(np.arange(500) < 150, human.astype(float), np.nan)
        if model == "no-cal":
            label[:] = np.nan
        if model == "one-class":
            label = np.where(np.arange(500) < 150, 1.0, np.nan)
        rows.append(pd.DataFrame({"model": model, "judge": judge, "human": label}))
    return pd.concat(rows, ignore_index=True)


def evaluation(ev: Any) -> dict[str, Any]:
    """An Evaluation by its public tables and text."""
    return {
        "groups": list(ev.groups), "frame": ev.to_dataframe(), "counts": ev.counts_dataframe(),
        "summary": ev.summary(), "marked": ev.marked, "warnings": ev.warnings,
        "method": ev.method, "design": ev.design, "engine": ev.engine,
        "ranking_error": ev.ranking_error,
        "ranking": None if ev.ranking is None else ev.ranking.to_dataframe(),
        "judge_shift": {str(k): (v if isinstance(v, str) else v.to_dataframe())
                        for k, v in ev.judge_shift.items()},
    }  # fmt: skip


def _evaluate(frame: str, design: str, method: str, **kw: Any) -> Callable:
    def run() -> Any:
        ev = js.evaluate(_frames()[frame], method=method, design=design, rng=SEED,
                         progress=False, **options(method), **kw)  # fmt: skip
        return evaluation(ev)

    return run


for _design in DESIGNS:
    for _method in (*INTERVAL_METHODS[_design], "auto"):
        case(f"evaluate/{_design}/{_method}/nq301", _evaluate("nq", _design, _method))
    for _method in _STRATA_METHODS:
        case(f"evaluate/{_design}/{_method}/nq301/strata",
             _evaluate("nq", _design, _method, strata="length", min_per_class=5))
    case(f"evaluate/{_design}/adjusted-wald/nq301/strata/min-per-class-default",
         _evaluate("nq", _design, "adjusted-wald", strata="length"))
    case(f"evaluate/{_design}/adjusted-wald/nq301/split",
         _evaluate("nq", _design, "adjusted-wald", split="split"))
    case(f"evaluate/{_design}/adjusted-wald/arena",
         _evaluate("arena", _design, "adjusted-wald"))
    for _method in ("adjusted-wald", "wald", "bootstrap"):
        for _estimand in ("rows", "items"):
            case(f"evaluate/{_design}/{_method}/repeated/cluster/{_estimand}",
                 _evaluate("repeated", _design, _method, cluster="item", estimand=_estimand))
    case(f"evaluate/{_design}/adjusted-wald/repeated/cluster/strata",
         _evaluate("repeated", _design, "adjusted-wald", cluster="item", strata="length",
                   min_per_class=5))  # fmt: skip
    case(f"evaluate/{_design}/adjusted-wald/repeated/no-cluster",
         _evaluate("repeated", _design, "adjusted-wald"))
    for _method in ALPHABET_METHODS[_design]:
        case(f"evaluate/{_design}/{_method}/arena/letters",
             _evaluate("arena", _design, _method, judge="letter", judge_labels="observed"))
    for _choice in ("pool", "latest"):
        case(f"evaluate/{_design}/adjusted-wald/batches/{_choice}",
             _evaluate("batches", _design, "adjusted-wald", batch="batch",
                       batch_choice=_choice))  # fmt: skip
    for _errors in ("mark", "raise"):
        case(f"evaluate/{_design}/adjusted-wald/marked/errors-{_errors}",
             _evaluate("marked", _design, "adjusted-wald", errors=_errors))
    case(f"evaluate/{_design}/bootstrap/nq301/rank",
         _evaluate("nq", _design, "bootstrap", rank=True, rank_resamples=B))
case("evaluate/by-human-label/adjusted-wald/repeated/cluster/rank",
     _evaluate("repeated", "by-human-label", "adjusted-wald", cluster="item", rank=True,
               rank_resamples=B))  # fmt: skip
case("evaluate/by-human-label/adjusted-wald/marked/rank",
     _evaluate("marked", "by-human-label", "adjusted-wald", errors="mark", rank=True,
               rank_resamples=B))  # fmt: skip
case("evaluate/by-human-label/adjusted-wald/nq301/level-0.9",
     _evaluate("nq", "by-human-label", "adjusted-wald", confidence_level=0.9))
case("evaluate/by-human-label/adjusted-wald/nq301/by-two-columns",
     _evaluate("nq", "by-human-label", "adjusted-wald", by=("model", "length")))
case("evaluate/by-human-label/profile-likelihood-t/arena/two-judges",
     _evaluate("arena", "by-human-label", "profile-likelihood-t", judge=["judge", "letter"]))
case("evaluate/errors/missing-column",
     _evaluate("nq", "by-human-label", "adjusted-wald", judge="verdict"))
case("evaluate/errors/strata-method",
     _evaluate("nq", "by-human-label", "profile-map", strata="length"))
case("evaluate/errors/cluster-with-letters",
     _evaluate("arena", "by-human-label", "profile-likelihood-t", judge="letter",
               judge_labels="observed", cluster="item"))  # fmt: skip


def _evaluate_counts(design: str, method: str) -> Callable:
    def run() -> Any:
        group_counts = public("group_counts")
        counts = group_counts(_frames()["nq"], judge="judge", human="human", by=("model",))
        ev = js.evaluate(counts, method=method, design=design, rng=SEED, **options(method))
        return evaluation(ev)

    return run


for _design in DESIGNS:
    for _method in ("adjusted-wald", "bootstrap"):
        case(f"evaluate/{_design}/{_method}/nq301/counts", _evaluate_counts(_design, _method))


def _evaluation_extras() -> Any:
    ev = js.evaluate(_frames()["nq"], method="adjusted-wald", design="by-human-label")
    return {"xarray": ev.to_xarray(), "estimate": ev.estimate, "repr": repr(ev),
            "rank": ev.rank(method="bootstrap", n_resamples=B, rng=SEED).to_dataframe(),
            "rank_bayes": ev.rank(method="bayes", draws=B, rng=SEED).to_dataframe()}  # fmt: skip


case("evaluate/by-human-label/adjusted-wald/nq301/xarray-and-rank", _evaluation_extras)


# ============================================================================ compare
def _pair(kind: str) -> dict[str, Any]:
    """Two models' data for :func:`js.compare.difference`, as keyword arguments."""
    if kind == "independent":
        return {"test_a": jc(600, 1000), "calibration_a": cc(tp=90, fn=10, tn=70, fp=30),
                "test_b": jc(520, 1000), "calibration_b": cc(tp=85, fn=15, tn=72, fp=28)}
    if kind == "shared":
        return {"test_a": jc(600, 1000), "calibration_a": cc(tp=90, fn=10, tn=70, fp=30),
                "test_b": jc(520, 1000), "shared_calibration": True}
    if kind == "paired":
        gen = np.random.default_rng(SEED + 41)
        a = (gen.random(400) < 0.6).astype(int)
        b = np.where(gen.random(400) < 0.7, a, (gen.random(400) < 0.5).astype(int))
        return {"test_a": a, "calibration_a": cc(tp=90, fn=10, tn=70, fp=30), "test_b": b,
                "shared_calibration": True}  # fmt: skip
    if kind == "small":
        return {"test_a": jc(70, 120), "calibration_a": cc(tp=20, fn=4, tn=16, fp=6),
                "test_b": jc(50, 110), "calibration_b": cc(tp=18, fn=6, tn=17, fp=4)}
    # "clustered": two models' repeated items; "clustered-shared": with item ids in common
    ta, ca = clustered("epochs")
    if kind == "clustered-shared":
        tb, cb = clustered("uneven")
    else:
        r = _clustered_rows("uneven")
        lab, item = r["labelled"], r["item"] + 100_000
        tb = js.JudgedCounts.from_labels(r["judge"][~lab], cluster=item[~lab])
        cb = js.ConfusionCounts.from_labels(human=r["human"][lab], judge=r["judge"][lab],
                                            cluster=item[lab])  # fmt: skip
    return {"test_a": ta, "calibration_a": ca, "test_b": tb, "calibration_b": cb}


def _difference(kind: str, design: str, method: str, **kw: Any) -> Callable:
    def run() -> Any:
        opts = {"n_resamples": B} if method == "bootstrap" else {"draws": 2000} \
            if method == "bayes" and design == "by-human-label" else {}  # fmt: skip
        res = js.compare.difference(**_pair(kind), method=method, design=design, rng=SEED,
                                    names=("model-a", "model-b"), **opts, **kw)  # fmt: skip
        return result(res)

    return run


for _kind in ("independent", "shared", "paired", "small", "clustered", "clustered-shared"):
    for _design in DESIGNS:
        _methods = DIFFERENCE_METHODS if _design == "by-human-label" and \
            _kind != "independent" else INTERVAL_METHODS[_design]  # fmt: skip
        for _method in _methods:
            if _kind.startswith("clustered"):
                for _estimand in ("rows", "items"):
                    case(f"compare/difference/{_design}/{_method}/{_kind}/{_estimand}",
                         _difference(_kind, _design, _method, estimand=_estimand))
            else:
                case(f"compare/difference/{_design}/{_method}/{_kind}",
                     _difference(_kind, _design, _method))
case("compare/difference/by-human-label/adjusted-wald/independent/level-0.9",
     _difference("independent", "by-human-label", "adjusted-wald", confidence_level=0.9))
case("compare/difference/errors/paired-not-paired",
     _difference("paired", "by-human-label", "adjusted-wald", paired=False))


def _models(kind: str) -> tuple[dict, Any]:
    tests = {"alpha": jc(610, 1000), "beta": jc(540, 900), "gamma": jc(430, 1100),
             "delta": jc(600, 980)}  # fmt: skip
    if kind == "shared":
        return tests, cc(tp=120, fn=15, tn=90, fp=30)
    cals = {"alpha": cc(tp=60, fn=8, tn=45, fp=12), "beta": cc(tp=55, fn=10, tn=50, fp=10),
            "gamma": cc(tp=40, fn=9, tn=60, fp=14), "delta": cc(tp=62, fn=6, tn=40, fp=15)}
    return tests, cals


def _rank(kind: str, design: str, method: str, **kw: Any) -> Callable:
    def run() -> Any:
        if kind == "clustered":
            tests, cals = strata_clustered()  # three "models" of repeated items
        else:
            tests, cals = _models(kind)
        r = js.compare.rank(tests, cals, method=method, design=design, n_resamples=B, draws=B,
                            rng=SEED, **kw)  # fmt: skip
        return {"frame": r.to_dataframe(), "pairwise": r.pairwise_dataframe(),
                "summary": r.summary(), "expected_rank": r.expected_rank,
                "prob_greater": r.prob_greater(*list(tests)[:2])}  # fmt: skip

    return run


for _kind in ("separate", "shared"):
    for _design in DESIGNS:
        for _method in RANK_METHODS:
            case(f"compare/rank/{_design}/{_method}/{_kind}", _rank(_kind, _design, _method))
for _estimand in ("rows", "items"):
    for _method in RANK_METHODS:
        case(f"compare/rank/by-human-label/{_method}/clustered/{_estimand}",
             _rank("clustered", "by-human-label", _method, estimand=_estimand))
case("compare/rank/by-human-label/bootstrap/separate/level-0.9",
     _rank("separate", "by-human-label", "bootstrap", confidence_level=0.9))
case("compare/kendall_tau/orders", lambda: {
    "same": js.compare.kendall_tau([0.9, 0.5, 0.1], [0.8, 0.6, 0.2]),
    "rows": js.compare.kendall_tau([0.9, 0.5, 0.1, 0.0], [[0.5, 0.9, 0.1, 0.2],
                                                         [0.1, 0.2, 0.3, 0.4],
                                                         [0.5, 0.5, 0.5, 0.5],
                                                         [0.9, np.nan, 0.1, 0.0]]),
    "ties": js.compare.kendall_tau([0.9, 0.9, 0.1], [0.3, 0.2, 0.1]),
})  # fmt: skip


# ============================================================================ pairwise
@functools.cache
def _pairs_cached() -> Any:
    import pandas as pd

    p = js.datasets.load_arena_pairs()
    models = ["gpt-4", "gpt-3.5-turbo", "vicuna-13b", "koala-13b", "alpaca-13b"]
    p = p[p.model_a.isin(models) & p.model_b.isin(models)].sort_values("item_id").head(1200)
    p = pd.DataFrame({"model_a": p.model_a.astype(str).to_numpy(),
                      "model_b": p.model_b.astype(str).to_numpy(),
                      "judge": p["judge_gpt-4"].astype(str).to_numpy(),
                      "judge35": p["judge_gpt-3.5"].astype(str).to_numpy(),
                      "truth": p.human.astype(str).to_numpy()})  # fmt: skip
    k = np.arange(len(p))
    p["human"] = np.where(k % 5 == 0, p["truth"], None)
    p["position"] = np.where(k % 2 == 0, "a", "b")
    p["prompt"] = k // 3
    return p


def _pairwise(design: str, method: str | None, **kw: Any) -> Callable:
    def run() -> Any:
        board = js.pairwise(_pairs_cached().copy(), design=design, method=method, rng=SEED, **kw)
        return leaderboard(board)

    return run


def leaderboard(board: Any) -> dict[str, Any]:
    """A PairwiseLeaderboard by its public tables and text."""
    first, second = board.models[0], board.models[1]
    return {"frame": board.to_dataframe(), "summary": board.summary(),
            "models": list(board.models), "order": list(board.order),
            "prob_win": board.prob_win(first, second), "lam": board.lam, "tie": board.tie,
            "rank_probabilities": board.rank_probabilities,
            "win_probability": board.win_probability, "notes": board.notes,
            "converged": board.converged, "method": board.method, "design": board.design}


for _design in ("random", "by-judge-label", "by-human-label"):
    for _method in ("ppi", "joint-mle"):
        case(f"pairwise/{_design}/{_method}/arena", _pairwise(_design, _method))
case("pairwise/random/ppi/arena/prediction-confusion",
     _pairwise("random", "ppi", prediction="confusion"))
case("pairwise/random/joint-mle/arena/symmetric",
     _pairwise("random", "joint-mle", confusion="symmetric"))
case("pairwise/random/joint-mle/arena/observed-information",
     _pairwise("random", "joint-mle", interval="observed-information"))
case("pairwise/random/ppi/arena/position", _pairwise("random", "ppi", position="position"))
case("pairwise/random/ppi/arena/cluster", _pairwise("random", "ppi", cluster="prompt"))
case("pairwise/random/ppi/arena/bootstrap", _pairwise("random", "ppi", bootstrap=20))
case("pairwise/random/ppi/arena/gpt-3.5", _pairwise("random", "ppi", judge="judge35"))
case("pairwise/random/ppi/arena/level-0.9", _pairwise("random", "ppi", confidence_level=0.9))
case("pairwise/errors/cluster-with-joint-mle",
     _pairwise("random", "joint-mle", cluster="prompt"))
case("pairwise/errors/missing-column", _pairwise("random", "ppi", judge="verdict"))


def _pairwise_extras() -> Any:
    board = js.pairwise(_pairs_cached().copy(), design="random", method="ppi", rng=SEED)
    return {"xarray": board.to_xarray(),
            "report": {f: board.report(f, figure=False) for f in ("markdown", "latex", "html")},
            "elo": board.elo, "rank_set": board.rank_set}  # fmt: skip


case("pairwise/random/ppi/arena/xarray-and-reports", _pairwise_extras)


# ============================================================================ sequential
def _pool_frame(n: int, seed: int, letters: int = 2) -> tuple[Any, np.ndarray]:
    """tests/test_sequential.py's pool: truths and verdicts (binary or letters)."""
    import pandas as pd

    g = np.random.default_rng(seed)
    y = (g.random(n) < 0.35).astype(int)
    if letters == 2:
        judge = np.where(y == 1, g.random(n) < 0.8, g.random(n) > 0.85).astype(int)
    else:
        score = y + g.normal(0, 0.6, n)
        judge = np.digitize(score, np.quantile(score, np.linspace(0, 1, letters + 1)[1:-1]))
        judge = np.array(list("abcdefgh"))[judge]
    frame = pd.DataFrame({"item": np.arange(n), "judge": judge,
                          "model": np.where(np.arange(n) % 2 == 0, "a", "b"),
                          "length": np.where(np.arange(n) % 3 == 0, "long", "short")})
    return frame, y


def _monitor(design: str, *, letters: int = 2, rounds: int = 4, budget: int = 40,
             by: Any = None, strata: Any = None, **kw: Any) -> Callable:  # fmt: skip
    def run() -> Any:
        frame, y = _pool_frame(1500, SEED + letters, letters)
        mon = js.sequential.Monitor(design=design, rng=SEED, **kw)
        mon.set_pool(frame, item="item", by=by, strata=strata)
        looks = []
        for _ in range(rounds):
            batch = mon.next_batch(budget)
            if batch.empty:  # every group reached the target width
                looks.append({"empty_batch": list(batch.columns), "should_stop": mon.should_stop})
                break
            batch["human"] = y[batch["item"].to_numpy()]
            mon.update(batch, inclusion_probability="inclusion_probability")
            looks.append({"intervals": {k: interval(v) for k, v in mon.intervals.items()},
                          "should_stop": mon.should_stop, "labels": mon.labels})  # fmt: skip
        return {"looks": looks, "history": mon.history, "summary": mon.summary(),
                "xarray": mon.to_xarray()}  # fmt: skip

    return run


for _design in ("random", "by-judge-label"):
    case(f"sequential/monitor/{_design}/binary", _monitor(_design))
    case(f"sequential/monitor/{_design}/letters-4", _monitor(_design, letters=4))
    case(f"sequential/monitor/{_design}/groups-strata-simultaneous",
         _monitor(_design, by="model", strata="length", simultaneous=True, target_width=0.3))
    case(f"sequential/monitor/{_design}/target-width",
         _monitor(_design, target_width=0.25, rounds=6))
    case(f"sequential/monitor/{_design}/tuned-for-200", _monitor(_design, tuned_for=200))
    case(f"sequential/monitor/{_design}/level-0.9", _monitor(_design, confidence_level=0.9))
case("sequential/monitor/errors/by-human-label", _monitor("by-human-label"))


def _monitor_rows(estimand: str) -> Callable:
    def run() -> Any:
        import pandas as pd

        mon = js.sequential.Monitor(design="random", estimand=estimand, rng=SEED)
        frame = pd.DataFrame({"item": np.repeat(np.arange(200), 2),
                              "judge": np.tile([1, 0], 200) ^ (np.arange(400) % 7 == 0)})
        mon.set_pool(frame, item="item")
        gen = np.random.default_rng(SEED + 51)
        for part in np.array_split(gen.permutation(200), 4):
            mon.update(pd.DataFrame({"item": part, "human": (part % 3 == 0).astype(int)}))
        return {"history": mon.history, "interval": interval(mon.interval),
                "summary": mon.summary()}  # fmt: skip

    return run


for _estimand in ("items", "rows"):
    case(f"sequential/monitor/random/repeated/{_estimand}", _monitor_rows(_estimand))


def _monitor_counts() -> Any:
    mon = js.sequential.Monitor(design="random", rng=SEED).set_pool(jc(300, 1000))
    mon.update(cc(tp=20, fn=5, tn=60, fp=15))
    first = interval(mon.interval)
    mon.update(cc(tp=22, fn=4, tn=55, fp=19))
    return {"first": first, "second": interval(mon.interval), "history": mon.history,
            "labels": mon.labels, "summary": mon.summary()}  # fmt: skip


case("sequential/monitor/random/counts", _monitor_counts)


def _next_batch(strategy: str) -> Callable:
    def run() -> Any:
        frame, y = _pool_frame(600, SEED + 61)
        first = js.plan.next_batch(frame, budget=50, strategy=strategy, rng=7)
        labelled = frame.merge(first, on="item", how="left")
        labelled["human"] = np.where(labelled["round"].notna(), y, np.nan)
        second = js.plan.next_batch(labelled, budget=20, strategy=strategy, rng=8)
        design = "random" if strategy == "uniform" else "by-judge-label"
        mon = js.sequential.replay(labelled, design=design, rng=SEED)
        grouped = js.plan.next_batch(frame, budget=10, strategy=strategy, rng=9, by="model",
                                     strata="length")  # fmt: skip
        return {"first": first, "second": second, "grouped": grouped,
                "replay": {"history": mon.history, "summary": mon.summary()}}  # fmt: skip

    return run


for _strategy in ("uniform", "by-judge-label"):
    case(f"sequential/next_batch/{_strategy}", _next_batch(_strategy))
case("sequential/next_batch/errors/strategy",
     lambda: js.plan.next_batch(_pool_frame(50, 1)[0], budget=5, strategy="greedy", rng=1))


def _replay_labelling(strategy: str) -> Callable:
    def run() -> Any:
        r = js.sequential.replay_labelling([600, 300, 100], [30, 150, 90], strategy=strategy,
                                           labels=200, batch=20, looks=(40, 100, 200), reps=40,
                                           rng=SEED)  # fmt: skip
        return fields(r)

    return run


for _strategy in ("uniform", "by-judge-label"):
    case(f"sequential/replay_labelling/{_strategy}", _replay_labelling(_strategy))


def _labelling_plan() -> Any:
    plan = js.plan.labelling_plan([0.5, 0.3, 0.2], [0.02, 0.5, 0.97], target_width=0.1,
                                  reps=30, pool_size=5000, rng=3)  # fmt: skip
    return {"fields": fields(plan), "summary": plan.summary(),
            "neyman_gain": js.plan.neyman_gain([0.5, 0.3, 0.2], [0.02, 0.5, 0.97])}


case("sequential/labelling_plan/three-letters", _labelling_plan)


# ============================================================================ plan
def plan_result(obj: Any) -> Any:
    """A planning result by its public fields, derived sizes and text."""
    if obj is None:
        return None
    out: dict[str, Any] = {"fields": fields(obj)}
    for name in ("m", "width", "best"):
        if hasattr(obj, name):
            value = getattr(obj, name)
            out[name] = value() if callable(value) and name == "best" else value
    for name in ("to_dataframe", "summary"):
        if hasattr(obj, name):
            out[name] = getattr(obj, name)()
    return out


_PILOT = cc(tp=18, fn=2, tn=14, fp=6)
case("plan/allocate/p-hat", lambda: plan_result(js.plan.allocate(400, p=0.62, pilot=_PILOT)))
case("plan/allocate/errors/no-p", lambda: plan_result(js.plan.allocate(400, pilot=_PILOT)))
case("plan/allocate/errors/budget", lambda: plan_result(js.plan.allocate(3, p=0.5, pilot=_PILOT)))
for _p in (0.1, 0.5, 0.9):
    case(f"plan/optimal_allocation/p-{_p}", lambda p=_p: plan_result(
        js.plan.optimal_allocation(300, p=p, q0=0.75, q1=0.9)))
case("plan/optimal_allocation/finite-n-level-0.9", lambda: plan_result(
    js.plan.optimal_allocation(300, p=0.4, q0=0.8, q1=0.85, n=2000, confidence_level=0.9,
                               min_per_class=20)))  # fmt: skip
for _design in DESIGNS:
    for _alloc in ("balanced", "optimal"):
        case(f"plan/calibration_size/{_design}/{_alloc}", lambda d=_design, a=_alloc: plan_result(
            js.plan.calibration_size(0.1, p=0.3, q0=0.7, q1=0.9, n=5000, allocation=a,
                                     design=d)))  # fmt: skip
case("plan/calibration_size/errors/unreachable", lambda: plan_result(
    js.plan.calibration_size(0.001, p=0.3, q0=0.55, q1=0.5, max_m=1000,
                             design="by-human-label")))  # fmt: skip
for _design in DESIGNS:
    for _m in (None, 5000):
        case(f"plan/judge_vs_human/{_design}/m-{_m}", lambda d=_design, m=_m: plan_result(
            js.plan.judge_vs_human(0.95, 0.93, m=m, design=d)))
case("plan/judge_vs_human/by-human-label/weak-judge",
     lambda: plan_result(js.plan.judge_vs_human(0.55, 0.6, m=100, design="by-human-label")))
case("plan/regime_width_map", lambda: js.plan.regime_width_map(
    np.array([0.6, 0.8, 0.95]), np.array([[0.7], [0.9]]), m=300))
for _n in (1000, None):
    case(f"plan/interval_width/n-{_n}", lambda n=_n: js.plan.interval_width(
        np.array([50, 100, 200]), 100, p=0.3, q0=0.8, q1=0.9, n=n))
case("plan/allocate_by_judge", lambda: plan_result(
    js.plan.allocate_by_judge(300, p=0.45, pilot=_PILOT)))
for _n in (None, 5000):
    case(f"plan/compare_designs/n-{_n}", lambda n=_n: plan_result(
        js.plan.compare_designs(p=0.3, q0=0.75, q1=0.9, m=200, n=n)))


def _compare_alphabets(method: str) -> Callable:
    def run() -> Any:
        _, cal = CATEGORIES["alphabet-5x2"]()
        cal = mat(cal.counts, [0, 1], list(cal.judge_labels))
        res = js.plan.compare_alphabets(cal, n=2000, theta=[0.6, 0.4], method=method,
                                        merges={"threshold-3": {"1": "low", "2": "low",
                                                                "3": "high", "4": "high",
                                                                "5": "high"}})  # fmt: skip
        return plan_result(res)

    return run


for _method in ("profile-likelihood-t", "profile-likelihood"):
    case(f"plan/compare_alphabets/{_method}/alphabet-5x2", _compare_alphabets(_method))


# ============================================================================ agreement
def card(a: Any, formats: tuple[str, ...] = ()) -> dict[str, Any]:
    out = {"frame": a.to_dataframe(), "summary": a.summary(), "repr": repr(a)}
    for f in formats:
        out[f] = a.report(f, figure=False)
    return out


_AGREEMENT_DATA: dict[str, Callable[[], tuple[Any, Any]]] = {
    "binary": lambda: (cc(tp=90, fn=10, tn=70, fp=30), jc(600, 1000)),
    "binary-small": lambda: BINARY["small"]()[::-1],
    "k3": lambda: CATEGORIES["k3"]()[::-1],
    "alphabet-4x3": lambda: CATEGORIES["alphabet-4x3"]()[::-1],
    "clustered": lambda: clustered("uneven")[::-1],
    "strata": lambda: (_strata_data("two")[1], _strata_data("two")[0]),
}

for _data, _make in _AGREEMENT_DATA.items():
    for _design in DESIGNS:
        for _with_test in (False, True):
            formats = ("markdown", "latex", "html") if _data == "binary" and _with_test else ()
            case(f"agreement/{_design}/{_data}/{'with-test' if _with_test else 'no-test'}",
                 lambda m=_make, d=_design, w=_with_test, f=formats: card(
                     js.agreement(m()[0], m()[1] if w else None, design=d), f))  # fmt: skip
case("agreement/by-human-label/binary/level-0.9", lambda: card(
    js.agreement(cc(tp=90, fn=10, tn=70, fp=30), design="by-human-label",
                 confidence_level=0.9)))  # fmt: skip
case("agreement/by-human-label/binary/html-figure", lambda: js.agreement(
    cc(tp=90, fn=10, tn=70, fp=30), design="by-human-label").report("html", figure=True))


# ============================================================================ shift tests
def _judge_shift(design: str, kind: str) -> Callable:
    def run() -> Any:
        a = cc(tp=90, fn=10, tn=70, fp=30)
        b = {"same": cc(tp=88, fn=12, tn=72, fp=28), "moved": cc(tp=70, fn=30, tn=85, fp=15),
             "small": cc(tp=9, fn=3, tn=7, fp=2)}[kind]  # fmt: skip
        d = js.judge_shift_test(a, b, design=design, n_resamples=B, rng=SEED)
        return {"fields": fields(d), "frame": d.to_dataframe(), "summary": d.summary()}

    return run


for _design in DESIGNS:
    for _kind in ("same", "moved", "small"):
        case(f"shift/judge_shift_test/{_design}/{_kind}", _judge_shift(_design, _kind))


def _judge_shift_categories() -> Any:
    _, a = CATEGORIES["k3"]()
    b = mat([[70, 15, 5], [25, 75, 15], [5, 10, 80]])
    d = js.judge_shift_test(a, b, design="by-human-label", n_resamples=B, rng=SEED)
    return {"fields": fields(d), "frame": d.to_dataframe(), "summary": d.summary()}


case("shift/judge_shift_test/by-human-label/k3", _judge_shift_categories)


# ============================================================================ simulate
def _coverage(**kw: Any) -> Callable:
    def run() -> Any:
        ds = js.simulate.coverage(reps=200, rng=SEED, progress=False, **kw)
        return ds.to_dict()

    return run


case("simulate/coverage/by-human-label/three-methods", _coverage(
    theta=np.array([0.2, 0.6]), q0=0.8, q1=0.85, n=500, m0=40, m1=60,
    methods=("adjusted-wald", "wald", "bootstrap"),
    method_options={"bootstrap": {"n_resamples": 99}}))
case("simulate/coverage/by-human-label/label-shift-level-0.9", _coverage(
    theta=0.4, q0=np.array([0.7, 0.9]), q1=0.8, n=1000, m0=50, m1=50, theta_calibration=0.6,
    methods=("adjusted-wald", "profile-map"), confidence_level=0.9))
case("simulate/coverage/by-human-label/algorithm-1", _coverage(
    theta=0.3, q0=0.8, q1=0.9, n=800, m0=50, m1=50, allocation="algorithm1", pilot=10,
    methods=("adjusted-wald",)))
case("simulate/estimator_bias", lambda: js.simulate.estimator_bias(
    theta=0.5, theta_calibration=(0.3, 0.5, 0.7), reps=300, rng=SEED).to_dict())


def _draw() -> Any:
    d = js.simulate.draw(theta=0.4, q0=0.8, q1=0.9, n=100, m0=20, m1=30, reps=5, rng=SEED)
    return {"test": [d.test.positive, d.test.n],
            "calibration": [d.calibration.tp, d.calibration.fn, d.calibration.tn,
                            d.calibration.fp]}  # fmt: skip


case("simulate/draw", _draw)


# ============================================================================ experiments
def _split_study(design: str) -> Callable:
    def run() -> Any:
        nq = js.datasets.load_nq301()
        nq = nq[nq.target_model.isin(["DPR", "FiD", "EviGen"])]
        methods = ("adjusted-wald", "bootstrap", "naive-wilson") if design != "by-human-label" \
            else ("adjusted-wald", "profile-map", "naive-wilson")  # fmt: skip
        study = js.experiments.split_study(
            nq, by="target_model", calibration_fraction=0.2, splits=8, methods=methods,
            method_options={"bootstrap": {"n_resamples": 99}}, rng=SEED, progress=False,
            design=design, label="NQ-301, three systems")  # fmt: skip
        return {"summary": study.summary(), "frame": study.to_dataframe(),
                "bias": study.bias_table(), "coverage": study.coverage_table(),
                "ranking": study.ranking_table()}  # fmt: skip

    return run


for _design in DESIGNS:
    case(f"experiments/split_study/{_design}/nq301", _split_study(_design))


# ============================================================================ reports
def _reports(make: Callable[[], Any], **kw: Any) -> Callable:
    def run() -> Any:
        res = make()
        return {f: public("report")(res, format=f, figure=False, **kw)
                for f in ("markdown", "latex", "html")}  # fmt: skip

    return run


def _correction() -> Any:
    return js.correct(*BINARY["normal"](), method="adjusted-wald", design="by-human-label")


def _evaluation(design: str = "by-human-label") -> Any:
    return js.evaluate(_frames()["nq"], method="adjusted-wald", design=design)


def _stratified_result() -> Any:
    return js.strata.correct_stratified(*_strata_data("three"), method="adjusted-wald",
                                        design="by-human-label")  # fmt: skip


def _board() -> Any:
    return js.pairwise(_pairs_cached().copy(), design="random", method="ppi", rng=SEED)


case("report/correction", _reports(_correction, label="model-x", metric="accuracy"))
case("report/correction/random",
     _reports(lambda: js.correct(*BINARY["small"](), method="adjusted-wald", design="random")))
case("report/evaluation", _reports(_evaluation, metric="accuracy", title="NQ-301"))
case("report/evaluation/by-judge-label", _reports(lambda: _evaluation("by-judge-label")))
case("report/evaluation/unsorted-digits-2", _reports(_evaluation, sort=False, digits=2))
case("report/evaluation/reference", _reports(
    _evaluation, reference={"DPR": 0.6, "FiD": 0.7}, reference_name="all human labels"))
case("report/evaluation/marked", _reports(lambda: js.evaluate(
    _frames()["marked"], method="adjusted-wald", design="by-human-label", errors="mark")))
case("report/evaluation/letters", _reports(lambda: js.evaluate(
    _frames()["arena"], judge="letter", judge_labels="observed", method="profile-likelihood-t",
    design="by-human-label")))  # fmt: skip
case("report/evaluation/strata", _reports(lambda: js.evaluate(
    _frames()["nq"], strata="length", method="adjusted-wald", design="by-human-label",
    min_per_class=5)))  # fmt: skip
case("report/stratified", _reports(_stratified_result, strata_name="difficulty"))
case("report/pairwise", _reports(_board))
case("report/evaluation/html-figure",
     lambda: public("report")(_evaluation(), format="html", figure=True))
case("report/correction/method-report", lambda: {
    f: _correction().report(f, figure=False) for f in ("markdown", "latex", "html")})
case("report/errors/format", lambda: public("report")(_correction(), format="pdf"))


# ============================================================================ readers
def _readers_data() -> Any:
    from pathlib import Path

    return Path(__file__).resolve().parents[1] / "data" / "readers"


_TOOLS = {  # tool -> (path under tests/data/readers, scorers to read)
    "lm_eval": ("lm_eval", ("judge_correct",)),
    "promptfoo": ("promptfoo/results.json", ("llm-rubric", "contains")),
    "deepeval": ("deepeval", ("Correctness [GEval]",)),
    "mlflow": ("mlflow", ("correctness",)),
}


def _slug(text: str) -> str:
    """An entry-name part of a scorer name: "Correctness [GEval]" -> "correctness-geval"."""
    return "-".join(text.lower().replace("[", " ").replace("]", " ").split())


def _read(tool: str, scorer: str | None, **kw: Any) -> Callable:
    def run() -> Any:
        path = _readers_data() / _TOOLS[tool][0]
        frame = reader(tool)(path, scorer=scorer, **kw)
        return frame.sort_values(["model", "item", "epoch"], kind="stable") \
            .reset_index(drop=True)  # fmt: skip

    return run


for _tool, (_path, _scorers) in _TOOLS.items():
    for _scorer in _scorers:
        case(f"readers/{_tool}/{_slug(_scorer)}", _read(_tool, _scorer))
    case(f"readers/{_tool}/{_slug(_scorers[0])}/letters",
         _read(_tool, _scorers[0], verdicts="letters"))
    case(f"readers/{_tool}/errors/unknown-scorer", _read(_tool, "no-such-scorer"))
case("readers/lm_eval/judge_rating/mapping",
     _read("lm_eval", "judge_rating", mapping={1: 0, 2: 0, 3: 0, 4: 1, 5: 1}))
case("readers/lm_eval/judge_rating/letters", _read("lm_eval", "judge_rating", verdicts="letters"))
case("readers/lm_eval/errors/numeric-without-mapping", _read("lm_eval", "judge_rating",
                                                             verdicts="0/1"))
case("readers/promptfoo/repeat", lambda: reader("promptfoo")(
    _readers_data() / "promptfoo" / "repeat.json", scorer="llm-rubric"))
case("readers/promptfoo/errors/missing-file", lambda: reader("promptfoo")(
    _readers_data() / "promptfoo" / "missing.json"))
case("readers/mlflow/item-key", lambda: reader("mlflow")(
    {m: _readers_data() / "mlflow" / f"result_df_{m}.json" for m in ("model-a", "model-b")},
    item_key="item_id"))  # fmt: skip


def _io_read_table() -> Any:
    with tmpdir() as d:
        (d / "a.csv").write_text("model,judge,human\nx,1,1\nx,0,\n007,1,0\nNA,0,\n")
        (d / "b.jsonl").write_text('{"model": "x", "judge": true, "human": null}\n'
                                   '{"model": "y", "judge": false, "human": 0}\n')
        return {"csv": public("read_table")(d / "a.csv"), "jsonl": public("read_table")(d / "b.jsonl")}


case("readers/io/read_table", _io_read_table)


# ============================================================================ CLI
def _write(d: Any, name: str, frame: Any) -> str:
    path = d / name
    frame.to_csv(path, index=False)
    return str(path)


def _cli(make_argv: Callable[[Any], list[str]]) -> Callable:
    """An entry running ``judgestats`` on files written into a temporary folder."""

    def run() -> Any:
        with tmpdir() as d:
            return cli(make_argv(d))

    return run


_COUNTS = ["--positive", "600", "--n", "1000", "--tp", "90", "--fn", "10", "--tn", "70",
           "--fp", "30"]  # fmt: skip
for _design in DESIGNS:
    for _method in (*INTERVAL_METHODS[_design], "auto"):
        case(f"cli/correct/{_design}/{_method}/counts",
             _cli(lambda d, m=_method, g=_design: ["correct", *_COUNTS, "--method", m,
                                                   "--design", g, "--seed", "3"]))
    case(f"cli/correct/{_design}/adjusted-wald/counts/json",
         _cli(lambda d, g=_design: ["correct", *_COUNTS, "--method", "adjusted-wald",
                                    "--design", g, "--json"]))  # fmt: skip
    for _example in ("chatbot-arena", "nq301"):
        case(f"cli/correct/{_design}/adjusted-wald/example-{_example}",
             _cli(lambda d, g=_design, e=_example: ["correct", "--example", e, "--method",
                                                    "adjusted-wald", "--design", g]))
case("cli/correct/by-human-label/profile-map/example-nq301/fraction-0.2-level-0.9",
     _cli(lambda d: ["correct", "--example", "nq301", "--method", "profile-map", "--design",
                     "by-human-label", "--calibration-fraction", "0.2", "--confidence-level",
                     "0.9", "--seed", "4"]))  # fmt: skip
case("cli/correct/by-human-label/adjusted-wald/example-chatbot-arena/gpt-3.5/json",
     _cli(lambda d: ["correct", "--example", "chatbot-arena", "--judge", "gpt-3.5", "--method",
                     "adjusted-wald", "--design", "by-human-label", "--json"]))  # fmt: skip


def _label_files(d: Any) -> tuple[str, str]:
    f = _frames()["nq"]
    test = f[f["human"].isna()][["model", "judge"]]
    cal = f[f["human"].notna()][["model", "judge", "human"]].astype({"human": int})
    return _write(d, "test.csv", test), _write(d, "cal.csv", cal)


for _design in DESIGNS:
    for _method in ("adjusted-wald", "bootstrap"):
        case(f"cli/correct/{_design}/{_method}/files-by-model", _cli(
            lambda d, m=_method, g=_design: ["correct", "--test", _label_files(d)[0],
                                             "--calibration", _label_files(d)[1], "--by",
                                             "model", "--method", m, "--design", g]))
case("cli/correct/by-human-label/adjusted-wald/files/json", _cli(
    lambda d: ["correct", "--test", _label_files(d)[0], "--calibration", _label_files(d)[1],
               "--method", "adjusted-wald", "--design", "by-human-label", "--json"]))
case("cli/correct/errors/unknown-method",
     _cli(lambda d: ["correct", *_COUNTS, "--method", "exact", "--design", "by-human-label"]))
case("cli/correct/errors/no-data",
     _cli(lambda d: ["correct", "--method", "adjusted-wald", "--design", "by-human-label"]))
case("cli/correct/errors/bad-counts",
     _cli(lambda d: ["correct", "--positive", "20", "--n", "10", "--tp", "9", "--fn", "1",
                     "--tn", "7", "--fp", "3", "--method", "adjusted-wald", "--design",
                     "by-human-label"]))  # fmt: skip
case("cli/correct/errors/not-informative",
     _cli(lambda d: ["correct", "--positive", "300", "--n", "600", "--tp", "25", "--fn", "25",
                     "--tn", "20", "--fp", "30", "--method", "adjusted-wald", "--design",
                     "by-human-label"]))  # fmt: skip
case("cli/correct/errors/not-informative/json",
     _cli(lambda d: ["correct", "--positive", "300", "--n", "600", "--tp", "25", "--fn", "25",
                     "--tn", "20", "--fp", "30", "--method", "adjusted-wald", "--design",
                     "by-human-label", "--json"]))  # fmt: skip
case("cli/correct/errors/missing-file", _cli(
    lambda d: ["correct", "--test", str(d / "nope.csv"), "--calibration", str(d / "nope.csv"),
               "--method", "adjusted-wald", "--design", "by-human-label"]))
case("cli/correct/errors/level", _cli(lambda d: ["correct", *_COUNTS, "--confidence-level",
                                                 "95", "--method", "adjusted-wald", "--design",
                                                 "by-human-label"]))

# plan
_PLAN = {
    "width-balanced": ["--width", "0.1", "--p", "0.3", "--q0", "0.7", "--q1", "0.9"],
    "width-optimal-n": ["--width", "0.1", "--p", "0.3", "--q0", "0.7", "--q1", "0.9", "--n",
                        "5000", "--allocation", "optimal"],
    "algorithm-1": ["--pilot", "18,2,14,6", "--m", "400", "--p", "0.62"],
    "regime": ["--regime", "--q0", "0.9", "--q1", "0.92"],
    "regime-m": ["--regime", "--q0", "0.9", "--q1", "0.92", "--m", "3000"],
    "compare": ["--compare", "--p", "0.6", "--q0", "0.75", "--q1", "0.9", "--m", "200", "--n",
                "5000"],
}
for _name, _args in _PLAN.items():
    case(f"cli/plan/{_name}",
         _cli(lambda d, a=_args: ["plan", *a, "--design", "by-human-label"]))
    case(f"cli/plan/{_name}/json",
         _cli(lambda d, a=_args: ["plan", *a, "--design", "by-human-label", "--json"]))
for _design in ("random", "by-judge-label"):
    for _name in ("width-balanced", "regime", "algorithm-1"):
        case(f"cli/plan/{_name}/design-{_design}",
             _cli(lambda d, g=_design, a=_PLAN[_name]: ["plan", *a, "--design", g]))
case("cli/plan/errors/no-mode",
     _cli(lambda d: ["plan", "--p", "0.3", "--design", "by-human-label"]))
case("cli/plan/errors/bad-pilot", _cli(lambda d: ["plan", "--pilot", "1,2,3", "--m", "100",
                                                  "--p", "0.5", "--design", "by-human-label"]))


# report
def _report_file(d: Any, frame: str = "nq", **extra: Any) -> str:
    f = _frames()[frame]
    cols = [c for c in f.columns if c not in ("truth", "split", "letter", "position")]
    return _write(d, "items.csv", f[cols])


for _design in DESIGNS:
    for _method in ("adjusted-wald", "auto"):
        for _format in ("markdown", "latex", "html"):
            case(f"cli/report/{_design}/{_method}/nq301/{_format}", _cli(
                lambda d, m=_method, g=_design, f=_format: [
                    "report", _report_file(d), "--method", m, "--design", g, "--format", f]))
    case(f"cli/report/{_design}/adjusted-wald/nq301/strata", _cli(
        lambda d, g=_design: ["report", _report_file(d), "--strata", "length", "--method",
                              "adjusted-wald", "--design", g]))
    case(f"cli/report/{_design}/adjusted-wald/repeated/cluster", _cli(
        lambda d, g=_design: ["report", _report_file(d, "repeated"), "--cluster", "item",
                              "--estimand", "items", "--method", "adjusted-wald", "--design", g]))
    case(f"cli/report/{_design}/adjusted-wald/batches", _cli(
        lambda d, g=_design: ["report", _report_file(d, "batches"), "--batch", "batch",
                              "--method", "adjusted-wald", "--design", g]))
case("cli/report/by-human-label/bootstrap/nq301/rank", _cli(
    lambda d: ["report", _report_file(d), "--rank", "--method", "bootstrap", "--design",
               "by-human-label", "--seed", "5", "--metric", "exact match", "--title", "NQ"]))
case("cli/report/by-human-label/profile-likelihood-t/arena/letters", _cli(
    lambda d: ["report", _write(d, "arena.csv", _frames()["arena"].drop(columns="judge").rename(
        columns={"letter": "judge"})[["model", "judge", "human"]]), "--letters", "--method",
        "profile-likelihood-t", "--design", "by-human-label"]))  # fmt: skip
case("cli/report/by-human-label/adjusted-wald/marked", _cli(
    lambda d: ["report", _report_file(d, "marked"), "--method", "adjusted-wald", "--design",
               "by-human-label"]))  # fmt: skip
case("cli/report/by-human-label/adjusted-wald/example-nq301", _cli(
    lambda d: ["report", "--example", "nq301", "--method", "adjusted-wald", "--design",
               "by-human-label", "--format", "markdown"]))  # fmt: skip
def _report_out() -> Any:
    with tmpdir() as d:
        out = cli(["report", _report_file(d), "--method", "adjusted-wald", "--design",
                   "by-human-label", "--format", "latex", "--out", str(d / "report.tex")])
        return {**out, "file": (d / "report.tex").read_text(encoding="utf-8")}


case("cli/report/by-human-label/adjusted-wald/nq301/out-file", _report_out)
case("cli/report/errors/missing-column", _cli(
    lambda d: ["report", _report_file(d), "--by", "system", "--method", "adjusted-wald",
               "--design", "by-human-label"]))  # fmt: skip
case("cli/report/errors/no-file", _cli(lambda d: ["report", "--method", "adjusted-wald",
                                                  "--design", "by-human-label"]))


def _tool_labels(d: Any, tool: str, scorer: str) -> str:
    """Human labels of each model's first 14 items (an 85%-agreeing labeller, fixed)."""
    frame = reader(tool)(_readers_data() / _TOOLS[tool][0], scorer=scorer)
    rows, seen = [], {}
    for i, r in enumerate(frame.itertuples()):
        items = seen.setdefault(r.model, [])
        if r.item not in items and len(items) < 14:
            items.append(r.item)
            rows.append({"model": r.model, "item": r.item, "human": int(r.judge) ^ (i % 7 == 3)})
    import pandas as pd

    return _write(d, "labels.csv", pd.DataFrame(rows))


for _tool, _flag in (("lm_eval", "lm-eval"), ("promptfoo", "promptfoo"),
                     ("deepeval", "deepeval"), ("mlflow", "mlflow")):  # fmt: skip
    _scorer = _TOOLS[_tool][1][0]
    case(f"cli/report/by-human-label/adjusted-wald/from-{_flag}", _cli(
        lambda d, t=_tool, f=_flag, s=_scorer: [
            "report", "--from", f, str(_readers_data() / _TOOLS[t][0]), "--human",
            _tool_labels(d, t, s), "--scorer", s, "--method", "adjusted-wald", "--design",
            "by-human-label"]))  # fmt: skip
case("cli/report/errors/from-without-human", _cli(
    lambda d: ["report", "--from", "promptfoo", str(_readers_data() / "promptfoo" /
                                                    "results.json"),
               "--method", "adjusted-wald", "--design", "by-human-label"]))  # fmt: skip
case("cli/report/errors/from-unknown-tool", _cli(
    lambda d: ["report", "--from", "ragas", str(d), "--human", str(d / "labels.csv"),
               "--method", "adjusted-wald", "--design", "by-human-label"]))  # fmt: skip


# agreement
def _calibration_file(d: Any, kind: str = "binary") -> str:
    f = _frames()["nq"] if kind == "binary" else _frames()["repeated"]
    f = f[f["human"].notna()].astype({"human": int})
    return _write(d, "cal.csv", f)


for _design in DESIGNS:
    for _format in ("text", "markdown", "latex", "html"):
        case(f"cli/agreement/{_design}/nq301/{_format}", _cli(
            lambda d, g=_design, f=_format: ["agreement", _calibration_file(d), "--design", g,
                                             "--format", f]))  # fmt: skip
    case(f"cli/agreement/{_design}/nq301/json", _cli(
        lambda d, g=_design: ["agreement", _calibration_file(d), "--design", g, "--json"]))
    case(f"cli/agreement/{_design}/nq301/by-model", _cli(
        lambda d, g=_design: ["agreement", _calibration_file(d), "--design", g, "--by",
                              "model"]))  # fmt: skip
    case(f"cli/agreement/{_design}/repeated/cluster", _cli(
        lambda d, g=_design: ["agreement", _calibration_file(d, "repeated"), "--design", g,
                              "--cluster", "item"]))  # fmt: skip
case("cli/agreement/by-human-label/nq301/with-test", _cli(
    lambda d: ["agreement", _calibration_file(d), "--design", "by-human-label", "--test",
               _label_files(d)[0], "--confidence-level", "0.9"]))  # fmt: skip
case("cli/agreement/by-human-label/arena/judge-letters", _cli(
    lambda d: ["agreement", _write(d, "letters.csv", _frames()["arena"].dropna(subset="human")
                                   .astype({"human": int})), "--judge-column", "letter",
               "--categories", "--judge-letters", "--design", "by-human-label"]))  # fmt: skip
case("cli/agreement/errors/missing-file", _cli(
    lambda d: ["agreement", str(d / "nope.csv"), "--design", "by-human-label"]))


# pairwise
def _pairs_file(d: Any) -> str:
    p = _pairs_cached()[["model_a", "model_b", "judge", "human", "position", "prompt"]]
    return _write(d, "pairs.csv", p)


for _design, _methods in (("random", ("ppi",)), ("by-human-label", ("joint-mle", "ppi"))):
    for _method in _methods:
        case(f"cli/pairwise/{_design}/{_method}/arena", _cli(
            lambda d, g=_design, m=_method: ["pairwise", _pairs_file(d), "--design", g,
                                             "--method", m, "--seed", "1"]))  # fmt: skip
case("cli/pairwise/random/ppi/arena/json", _cli(
    lambda d: ["pairwise", _pairs_file(d), "--design", "random", "--method", "ppi", "--seed",
               "1", "--json"]))  # fmt: skip
for _format in ("markdown", "html"):
    case(f"cli/pairwise/random/ppi/arena/report-{_format}", _cli(
        lambda d, f=_format: ["pairwise", _pairs_file(d), "--design", "random", "--method",
                              "ppi", "--seed", "1", "--report", f]))  # fmt: skip
case("cli/pairwise/random/ppi/arena/cluster-position", _cli(
    lambda d: ["pairwise", _pairs_file(d), "--design", "random", "--method", "ppi",
               "--cluster", "prompt", "--position-column", "position", "--seed", "1"]))
case("cli/pairwise/errors/unknown-method", _cli(
    lambda d: ["pairwise", _pairs_file(d), "--design", "random", "--method", "mle"]))


# pairwise with a jury, probabilities, covariates and style control (issue 39)
@functools.cache
def _style_frame() -> Any:
    """tests/pairwise/_style_data's frame (style effect 0.8), numbers to 6 decimals (as written)."""
    from tests.pairwise._style_data import style_pairs

    frame, _ = style_pairs(np.random.default_rng(SEED + 39), n=900, delta=0.8)
    frame["p_tie"] = np.clip(0.9 - frame["p_a"], 0.0, 0.3)
    return frame.round({"p_a": 6, "p_tie": 6, "len_diff": 6, "noise": 6})


def _style_file(d: Any) -> str:
    return _write(d, "style.csv", _style_frame())


_STYLE_FLAGS = {
    "jury-control": ["--prediction", "judge,j2", "--control", "len_diff"],
    "probability-covariates": ["--prediction", "p_a", "--covariates", "noise,cat"],
    "distribution-controls": ["--prediction", "a=p_a,tie=p_tie", "--control", "len_diff,noise"],
}
for _name, _flags in _STYLE_FLAGS.items():
    case(f"cli/pairwise/random/ppi/style/{_name}", _cli(
        lambda d, f=_flags: ["pairwise", _style_file(d), *f, "--seed", "1"]))
for _out in ("--json", "--csv"):
    case(f"cli/pairwise/random/ppi/style/jury-control/{_out[2:]}", _cli(
        lambda d, o=_out: ["pairwise", _style_file(d), *_STYLE_FLAGS["jury-control"], "--seed",
                           "1", o]))  # fmt: skip
for _format in ("markdown", "latex", "html"):
    case(f"cli/pairwise/random/ppi/style/jury-control/report-{_format}", _cli(
        lambda d, f=_format: ["pairwise", _style_file(d), *_STYLE_FLAGS["jury-control"],
                              "--seed", "1", "--report", f]))  # fmt: skip
case("cli/pairwise/errors/control-not-a-column", _cli(
    lambda d: ["pairwise", _style_file(d), "--control", "length"]))
case("cli/pairwise/errors/control-and-covariate", _cli(
    lambda d: ["pairwise", _style_file(d), "--control", "len_diff", "--covariates",
               "len_diff"]))  # fmt: skip
case("cli/pairwise/errors/distribution-key", _cli(
    lambda d: ["pairwise", _style_file(d), "--prediction", "a=p_a,draw=p_tie"]))
case("report/pairwise/style", _reports(lambda: js.pairwise(
    _style_frame().copy(), prediction=["judge", "j2"], covariates=["noise"], control=["len_diff"],
    rng=SEED)))  # fmt: skip
case("cli/pairwise/errors/prediction-with-joint-mle", _cli(
    lambda d: ["pairwise", _style_file(d), "--prediction", "judge,j2", "--method",
               "joint-mle"]))  # fmt: skip


# next-batch and monitor
def _pool_file(d: Any) -> str:
    frame, _ = _pool_frame(600, SEED + 71)
    return _write(d, "pool.csv", frame)


def _labels_round(d: Any, strategy: str, budget: int = 40, by: tuple = ()) -> str:
    """Write round 1 of next-batch (seed 5) with the human column filled in."""
    import pandas as pd

    pool = _pool_file(d)
    cli(["next-batch", pool, "--budget", str(budget), "--strategy", strategy, "--seed", "5",
         "--out", str(d / "round1.csv"), *(["--by", *by] if by else [])])  # fmt: skip
    _, y = _pool_frame(600, SEED + 71)
    r1 = pd.read_csv(d / "round1.csv")
    r1["human"] = y[r1["item"].to_numpy()]
    return _write(d, "round1.csv", r1)


for _strategy in ("uniform", "by-judge-label"):
    case(f"cli/next-batch/{_strategy}/first", _cli(
        lambda d, s=_strategy: ["next-batch", _pool_file(d), "--budget", "25", "--strategy", s,
                                "--seed", "5"]))  # fmt: skip
    case(f"cli/next-batch/{_strategy}/second", _cli(
        lambda d, s=_strategy: ["next-batch", str(d / "pool.csv"), "--labels",
                                _labels_round(d, s), "--budget", "15", "--strategy", s,
                                "--seed", "6"]))  # fmt: skip
    case(f"cli/next-batch/{_strategy}/groups", _cli(
        lambda d, s=_strategy: ["next-batch", _pool_file(d), "--budget", "10", "--strategy", s,
                                "--by", "model", "--strata", "length", "--seed", "7"]))
for _design, _strategy in (("random", "uniform"), ("by-judge-label", "by-judge-label")):
    for _json in (False, True):
        case(f"cli/monitor/{_design}/round-1{'/json' if _json else ''}", _cli(
            lambda d, g=_design, s=_strategy, j=_json: [
                "monitor", str(d / "pool.csv"), "--labels", _labels_round(d, s), "--design", g,
                "--target-width", "0.3", "--seed", "2", *(["--json"] if j else [])]))
    case(f"cli/monitor/{_design}/round-1/by-model-rows", _cli(
        lambda d, g=_design, s=_strategy: [
            "monitor", str(d / "pool.csv"), "--labels", _labels_round(d, s, by=("model",)),
            "--design", g, "--by", "model", "--estimand", "rows", "--seed", "2"]))  # fmt: skip
case("cli/monitor/errors/by-human-label", _cli(
    lambda d: ["monitor", _pool_file(d), "--design", "by-human-label"]))
case("cli/next-batch/errors/no-budget", _cli(lambda d: ["next-batch", _pool_file(d)]))
case("cli/errors/no-command", _cli(lambda d: []))
case("cli/errors/unknown-command", _cli(lambda d: ["fit"]))


# ============================================================================ raters (issue 40)
def _raters_frame(adjudicator: bool = False) -> Any:
    """Two NQ-301 systems in long form: items with id % 10 < 3 keep both annotators' labels
    (and, with ``adjudicator``, the third annotator's where the first two disagree); the other
    items are test items, one row each with the judge's label."""
    import pandas as pd

    nq = js.datasets.load_nq301()
    nq = nq[nq.target_model.isin(["DPR", "FiD"])]
    raters = ["human_annotator1", "human_annotator2", *(["human_annotator3"] * adjudicator)]
    rows = []
    for r in nq.itertuples():
        item = f"{r.target_model}:{r.item_id}"
        if r.item_id % 10 >= 3:
            rows.append((item, r.target_model, None, None, int(r.judge)))
            continue
        rows += [(item, r.target_model, a, int(getattr(r, a)), int(r.judge)) for a in raters
                 if not pd.isna(getattr(r, a))]  # fmt: skip
    return pd.DataFrame(rows, columns=["item", "model", "rater", "human", "judge"])


def _raters_file(d: Any, adjudicator: bool = False) -> str:
    return _write(d, "ratings.csv", _raters_frame(adjudicator))


case("cli/raters/agreement/nq301", _cli(lambda d: ["raters", "agreement", _raters_file(d)]))
case("cli/raters/agreement/nq301/json", _cli(
    lambda d: ["raters", "agreement", _raters_file(d), "--json"]))
case("cli/raters/alt-test/nq301", _cli(lambda d: ["raters", "alt-test", _raters_file(d)]))
case("cli/raters/alt-test/nq301/with-adjudicator", _cli(
    lambda d: ["raters", "alt-test", _raters_file(d, adjudicator=True)]))
case("cli/raters/latent/nq301/sandwich", _cli(
    lambda d: ["raters", "latent", _raters_file(d), "--method", "sandwich"]))
for _reference, _method in (("rater", "adjusted-wald"), ("majority", "adjusted-wald"),
                            ("latent", "sandwich")):  # fmt: skip
    case(f"cli/raters/correct/random/{_reference}/nq301", _cli(
        lambda d, r=_reference, m=_method: [
            "raters", "correct", _raters_file(d, adjudicator=r == "majority"), "--by", "model",
            "--reference", r, "--design", "random", "--method", m,
            *(["--ties", "human_annotator3"] if r == "majority" else [])]))  # fmt: skip
case("cli/raters/correct/random/rater/nq301/json", _cli(
    lambda d: ["raters", "correct", _raters_file(d), "--by", "model", "--reference", "rater",
               "--design", "random", "--method", "adjusted-wald", "--json"]))  # fmt: skip
case("cli/raters/correct/errors/latent-by-human-label", _cli(
    lambda d: ["raters", "correct", _raters_file(d), "--reference", "latent", "--design",
               "by-human-label", "--method", "sandwich"]))  # fmt: skip
case("cli/raters/errors/missing-column", _cli(
    lambda d: ["raters", "correct", _raters_file(d), "--rater", "annotator", "--design",
               "random", "--method", "adjusted-wald"]))  # fmt: skip
case("cli/raters/errors/missing-file", _cli(lambda d: ["raters", "latent", str(d / "no.csv")]))


def _evaluate_raters(reference: str, method: str, adjudicator: bool = False,
                     **more: Any) -> Callable:  # fmt: skip
    def run() -> Any:
        ev = js.evaluate(_raters_frame(adjudicator), rater="rater",
                         cluster="item", reference=reference, design="random", method=method,
                         rng=SEED, **more)  # fmt: skip
        return {"summary": ev.summary(), "rows": ev.to_dataframe()}

    return run


case("evaluate/raters/random/rater/adjusted-wald/nq301",
     _evaluate_raters("rater", "adjusted-wald"))
case("evaluate/raters/random/rater/adjusted-wald/nq301/items",
     _evaluate_raters("rater", "adjusted-wald", estimand="items"))
case("evaluate/raters/random/majority/adjusted-wald/nq301/adjudicator",
     _evaluate_raters("majority", "adjusted-wald", True, ties="human_annotator3"))
case("evaluate/raters/random/majority/adjusted-wald/nq301/ties-none",
     _evaluate_raters("majority", "adjusted-wald", ties="none"))
case("evaluate/raters/random/latent/sandwich/nq301", _evaluate_raters("latent", "sandwich"))
case("evaluate/raters/random/latent/bootstrap/nq301",
     _evaluate_raters("latent", "bootstrap", n_resamples=50))


def _raters_report(fmt: str) -> Callable:
    def run() -> Any:
        ev = js.evaluate(_raters_frame(), rater="rater", cluster="item", reference="majority",
                         design="random", method="adjusted-wald", ties="random", rng=SEED)
        return ev.report(fmt)

    return run


for _format in ("markdown", "latex", "html"):
    case(f"report/raters/random/majority/adjusted-wald/nq301/{_format}", _raters_report(_format))
case("cli/raters/correct/random/latent/nq301/markdown", _cli(
    lambda d: ["raters", "correct", _raters_file(d), "--by", "model", "--reference", "latent",
               "--design", "random", "--method", "sandwich", "--format", "markdown"]))
# judge scores and juries through the CLI (issue 39)
@functools.cache
def _judges_frame_cached() -> Any:
    """Three models: a probability-like score and two 0/1 judges of one human label."""
    import pandas as pd

    gen = np.random.default_rng(SEED + 39)
    n = 1800
    truth = gen.random(n) < np.array([0.3, 0.45, 0.6])[np.arange(n) % 3]
    score = 1 / (1 + np.exp(-(1.8 * (2 * truth - 1) + gen.normal(0, 1.4, n))))
    a = np.where(truth, gen.random(n) < 0.88, gen.random(n) < 0.15).astype(int)
    b = np.where(truth, gen.random(n) < 0.75, gen.random(n) < 0.25).astype(int)
    return pd.DataFrame({"model": np.array(["m1", "m2", "m3"])[np.arange(n) % 3],
                         "score": score.round(4), "a": a, "b": b,
                         "human": np.where(gen.random(n) < 0.3, truth.astype(float), np.nan)})


def _judges_files(d: Any, labelled: int | None = None) -> tuple[str, str]:
    f = _judges_frame_cached().copy()
    cal = f[f["human"].notna()].astype({"human": int})
    cal = cal if labelled is None else cal.groupby("model").head(labelled)
    return (_write(d, "test.csv", f[f["human"].isna()].drop(columns="human")),
            _write(d, "cal.csv", cal))


def _judged(kind: str, *rest: str, labelled: int | None = None) -> Callable:
    judge = {"score": ["--judge", "score", "--design", "random"],
             "jury": ["--judge", "a,b", "--design", "by-human-label"],
             "jury-random": ["--judge", "a,b", "--design", "random"]}[kind]
    return _cli(lambda d: ["correct", "--test", _judges_files(d, labelled)[0], "--calibration",
                           _judges_files(d, labelled)[1], *judge, "--seed", "7", *rest])


case("cli/correct/random/wald/files-score/by-model", _judged("score", "--by", "model"))
case("cli/correct/random/wald/files-score/logistic/json",
     _judged("score", "--calibrator", "logistic", "--json"))
case("cli/correct/random/wald/files-score/fallback-threshold",
     _judged("score", "--by", "model", "--threshold", "0.5", labelled=40))
case("cli/correct/by-human-label/min-variance/files-jury/by-model",
     _judged("jury", "--by", "model", "--method", "min-variance"))
case("cli/correct/by-human-label/min-variance/files-jury/json",
     _judged("jury", "--method", "min-variance", "--json"))
case("cli/correct/errors/score-by-human-label", _cli(
    lambda d: ["correct", "--test", _judges_files(d)[0], "--calibration", _judges_files(d)[1],
               "--judge", "score", "--design", "by-human-label", "--method", "adjusted-wald"]))
case("cli/correct/errors/calibrator-with-counts", _cli(
    lambda d: ["correct", *_COUNTS, "--calibrator", "isotonic", "--method", "adjusted-wald",
               "--design", "by-human-label"]))
for _format in ("markdown", "latex"):
    case(f"cli/report/random/wald/score/{_format}", _cli(
        lambda d, f=_format: ["report", _write(d, "items.csv", _judges_frame_cached()),
                              "--judge", "score", "--design", "random", "--seed", "7",
                              "--format", f]))
    case(f"cli/report/by-human-label/min-variance/jury/{_format}", _cli(
        lambda d, f=_format: ["report", _write(d, "items.csv", _judges_frame_cached()),
                              "--judge", "a,b", "--design", "by-human-label", "--method",
                              "min-variance", "--format", f]))
case("cli/correct/by-human-label/min-variance/example-chatbot-arena/jury",
     _cli(lambda d: ["correct", "--example", "chatbot-arena", "--judge", "gpt-4,gpt-3.5",
                     "--method", "min-variance", "--design", "by-human-label",
                     "--calibration-fraction", "0.3"]))
case("cli/report/by-human-label/min-variance/example-chatbot-arena/jury",
     _cli(lambda d: ["report", "--example", "chatbot-arena", "--judge", "gpt-4,gpt-3.5",
                     "--method", "min-variance", "--design", "by-human-label",
                     "--calibration-fraction", "0.3"]))
case("cli/correct/random/wald/files-score/by-model/csv", _judged("score", "--by", "model", "--csv"))

# issue 39 (faces2): --combine follows js.evaluate(combine=None), the measured default per design
# (the stack under random), and the juries combined by combine= in correct and the report
case("cli/correct/random/wald/files-jury/default-stack/by-model",
     _judged("jury-random", "--by", "model"))
case("cli/correct/random/wald/files-jury/default-stack/json", _judged("jury-random", "--json"))
case("cli/correct/random/wald/files-jury/default-stack/csv",
     _judged("jury-random", "--by", "model", "--csv"))
case("cli/correct/by-human-label/profile-likelihood-t/files-jury/mean/by-model",
     _judged("jury", "--by", "model", "--combine", "mean"))
case("cli/correct/by-human-label/profile-likelihood-t/files-jury/mean/json",
     _judged("jury", "--combine", "mean", "--json"))
for _format in ("markdown", "latex"):
    case(f"cli/report/random/wald/jury-stack/{_format}", _cli(
        lambda d, f=_format: ["report", _write(d, "items.csv", _judges_frame_cached()),
                              "--judge", "a,b", "--design", "random", "--seed", "7",
                              "--format", f]))
    case(f"cli/report/by-human-label/profile-likelihood-t/jury-mean/{_format}", _cli(
        lambda d, f=_format: ["report", _write(d, "items.csv", _judges_frame_cached()),
                              "--judge", "a,b", "--design", "by-human-label", "--combine",
                              "mean", "--format", f]))
