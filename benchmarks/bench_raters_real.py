"""NQ-301 as several raters: questions as clusters, the profile interval, random halves (issue 40).

The bundled NQ-301 set (js.datasets.load_nq301): 301 questions, each answered by up to 12 QA
systems (3,561 answers); two annotators labelled every answer, a third (the adjudicator) where
they disagreed, and GPT-4 judged every answer. raters_agreement.md and raters_latent.md report
the figures per system; pooled, they treated the 3,561 answers as independent although the 12
answers to one question share it (and often the same answer text). Three parts:

  A  pooled agreement between annotators 1 and 2 (Krippendorff's nominal α, Fleiss' κ; BCa,
     2,000 resamples, seed 4110): answers resampled alone beside questions resampled whole
     (``cluster=`` the question): the honest interval is the clustered one.
  B  the latent-class model (annotators 1 and 2 and GPT-4) per system and pooled: the latent
     prevalence with the profile-likelihood interval (the default where three raters are the
     minimum), beside the sandwich's and the adjudicated rate (the released verdict
     ``human``); then 20 random halves of each system's answers (seed 4111): the share of the
     halves whose interval holds the half's adjudicated rate (a proxy for the truth:
     adjudication resolves the annotators' disagreements, not GPT-4's), by method. The pooled
     row's intervals treat the 3,561 answers as independent (the latent-class fit has no
     ``cluster=``): too short, as part A shows for agreement.
  C  the alternative annotator test (annotators 1 and 2 and GPT-4, ε = 0.1 and 0.2) on the
     same 20 random halves per system (about 150 answers each): the share of halves where
     GPT-4 passes (ω ≥ 0.5), beside the verdict on all answers.

Run: python benchmarks/bench_raters_real.py [--quick]
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time

import judgestats as js
import judgestats.raters as jr
from judgestats.errors import LatentBoundaryWarning, UnidentifiableModelError

HUMANS = ["human_annotator1", "human_annotator2"]


def _ci(ci) -> str:
    return "–" if ci is None else f"[{ci.low:.3f}, {ci.high:.3f}]"


def _ratings(frame):
    frame = frame.assign(answer=frame["item_id"].astype(str) + "/" + frame["target_model"])
    return jr.Ratings.from_wide(frame, raters=HUMANS, item="answer", judge="judge",
                                categories=[0, 1]), frame  # fmt: skip


def part_a(n_boot: int) -> str:
    data = js.datasets.load_nq301()
    ratings, frame = _ratings(data)
    question = dict(zip(frame["answer"], frame["item_id"], strict=True))
    rows = []
    for fn, name in ((jr.krippendorff_alpha, "Krippendorff alpha"),
                     (jr.fleiss_kappa, "Fleiss kappa")):  # fmt: skip
        plain = fn(ratings, n_boot=n_boot, rng=4110)
        clustered = fn(ratings, n_boot=n_boot, rng=4110, cluster=question)
        width = [r.ci.high - r.ci.low for r in (plain, clustered)]
        rows.append([name, plain.n_items, clustered.n_clusters, f"{plain.estimate:.3f}",
                     _ci(plain.ci), _ci(clustered.ci), f"{width[1] / width[0]:.2f}"])  # fmt: skip
        print("A", rows[-1], flush=True)
    return markdown_table(["measure", "answers", "questions", "estimate",
                           "95% CI, answers resampled", "95% CI, questions resampled",
                           "width ratio"], rows)  # fmt: skip


def _codes(frame) -> np.ndarray:
    cols = [*HUMANS, "judge"]
    return np.column_stack([frame[c].fillna(-1).astype(int).to_numpy() for c in cols])


def _fit(codes, method):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LatentBoundaryWarning)
        return jr.dawid_skene(codes, method=method)


def _halves(frame, rng, n_halves):
    return [rng.permutation(len(frame))[: len(frame) // 2] for _ in range(n_halves)]


def part_b(halves: dict, systems: list) -> str:
    data = js.datasets.load_nq301()
    rows = []
    for name, frame in [("pooled (all systems)", data), *systems]:
        codes = _codes(frame)
        prof, sand = _fit(codes, "profile"), _fit(codes, "sandwich")
        adjudicated = frame["human"].to_numpy()
        hits = {"profile": [], "sandwich": []}
        for half in halves.get(name, []):
            truth = adjudicated[half].mean()
            for method, got in hits.items():
                try:
                    part = _fit(codes[half], method)
                except UnidentifiableModelError:
                    continue
                got.append(part.ci.low <= truth <= part.ci.high)
        share = [f"{np.mean(v):.2f}" if v else "–" for v in hits.values()]
        rows.append([name, len(frame), f"{prof.estimate:.3f}", _ci(prof.ci), _ci(sand.ci),
                     f"{adjudicated.mean():.3f}", *share, len(hits["profile"])])  # fmt: skip
        print("B", rows[-1], flush=True)
    return markdown_table(["system", "answers", "latent prevalence", "profile 95% CI",
                           "sandwich 95% CI", "adjudicated", "halves: profile holds adjudicated",
                           "halves: sandwich holds adjudicated", "halves"], rows)  # fmt: skip


def part_c(halves: dict, systems: list) -> str:
    rows = []
    for name, frame in systems:
        ratings, _ = _ratings(frame)
        for eps in (0.1, 0.2):
            whole = jr.alt_test(ratings, epsilon=eps)
            passed = [jr.alt_test(ratings.select(np.sort(half)),
                                  epsilon=eps).passed for half in halves[name]]  # fmt: skip
            rows.append([name, eps, f"{whole.winning_rate:.2f}",
                         "yes" if whole.passed else "no", f"{np.mean(passed):.2f}",
                         len(passed)])  # fmt: skip
        print("C", rows[-2:], flush=True)
    return markdown_table(["system", "epsilon", "omega (all answers)", "passes (all answers)",
                           "halves passing", "halves"], rows)  # fmt: skip


def main() -> None:
    args = quick_parser(__doc__, "two systems, 3 halves, 200 resamples").parse_args()
    q = args.quick
    start = time.perf_counter()
    data = js.datasets.load_nq301()
    names = sorted(data["target_model"].unique())[: 2 if q else None]
    systems = [(n, data[data["target_model"] == n].reset_index(drop=True)) for n in names]
    rng = np.random.default_rng(4111)
    halves = {name: _halves(frame, rng, 3 if q else 20) for name, frame in systems}
    body = "\n\n".join([
        "## A. Pooled agreement: answers or questions resampled (seed 4110)",
        part_a(200 if q else 2000),
        "## B. The latent class per system: profile and sandwich, random halves (seed 4111)",
        part_b(halves, systems),
        "## C. The alternative annotator test on random halves (seed 4111)",
        part_c(halves, systems),
        run_time(time.perf_counter() - start, q),
    ])  # fmt: skip
    publish("raters_real", "NQ-301 as several raters: clusters, profile intervals, halves",
            body, time.perf_counter() - start)  # fmt: skip


if __name__ == "__main__":
    main()
