"""mlflow.genai.evaluate with a judge scorer whose verdicts are fixed (no network).

The scorer returns MLflow's judge Feedback (value "yes"/"no", a rationale, an LLM_JUDGE source)
read from the canned answer (VERDICT=pass / fail). Two models, 20 items each, one evaluation run
per model (model_id names it); the results table (result_df) and the traces' assessments
(mlflow.search_traces) are saved as JSON.
"""
import random
import sys

import mlflow
from mlflow.entities import AssessmentSource, AssessmentSourceType, Feedback
from mlflow.genai.scorers import scorer

out = sys.argv[1]
mlflow.set_tracking_uri(f"sqlite:///{out}/mlflow.db")
mlflow.set_experiment("judged-qa")


@scorer
def correctness(outputs) -> Feedback:
    ok = "VERDICT=pass" in outputs
    return Feedback(value="yes" if ok else "no", rationale=f"fixed verdict {'pass' if ok else 'fail'}",
                    source=AssessmentSource(source_type=AssessmentSourceType.LLM_JUDGE,
                                            source_id="fixed-grader"))


rng = random.Random(33)
for model, p in (("model-a", 0.6), ("model-b", 0.4)):
    data = []
    for i in range(20):
        ok = rng.random() < p
        data.append({"inputs": {"question": f"What is {i} + {i}?", "item_id": f"q{i}"},
                     "outputs": f"{2 * i if ok else 2 * i + 1}. VERDICT={'pass' if ok else 'fail'}",
                     "expectations": {"expected_response": str(2 * i)}})
    with mlflow.start_run(run_name=model):
        result = mlflow.genai.evaluate(data=data, scorers=[correctness])
    result.result_df.to_json(f"{out}/result_df_{model}.json", orient="records", indent=1, default_handler=str)
    print(model, result.metrics)
