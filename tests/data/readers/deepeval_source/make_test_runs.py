"""DeepEval test runs with GEval metrics graded by a fixed grader (no network).

The grader is a DeepEvalBaseLLM that reads the verdict the canned answer carries (VERDICT=pass /
fail) and gives GEval's score 9 (pass) or 2 (fail) out of 10; GEval normalises to 0.9 / 0.2 and
compares with threshold 0.5. Two models, 20 test cases each, one test run file per model; a second GEval
(Conciseness) beside Correctness.
"""
import json
import random
import re

from deepeval import evaluate
from deepeval.evaluate.configs import AsyncConfig, DisplayConfig
from deepeval.metrics import GEval
from deepeval.models import DeepEvalBaseLLM
from deepeval.test_case import LLMTestCase, LLMTestCaseParams


class FixedGrader(DeepEvalBaseLLM):
    def __init__(self):
        pass

    def load_model(self):
        return None

    def _answer(self, prompt):
        m = re.search(r"VERDICT=(pass|fail)", prompt)
        ok = m is not None and m.group(1) == "pass"
        return {"score": 9 if ok else 2, "reason": f"fixed verdict {'pass' if ok else 'fail'}"}

    def generate(self, prompt, schema=None):
        data = self._answer(prompt)
        return schema(**data) if schema is not None else json.dumps(data)

    async def a_generate(self, prompt, schema=None):
        return self.generate(prompt, schema)

    def get_model_name(self):
        return "fixed-grader"


rng = random.Random(32)
verdicts = {m: [rng.random() < p for _ in range(20)] for m, p in (("model-a", 0.65), ("model-b", 0.4))}
for model, vs in verdicts.items():
    cases = [LLMTestCase(name=f"q{i}", input=f"What is {i} + {i}?",
                         actual_output=f"{2 * i if v else 2 * i + 1}. VERDICT={'pass' if v else 'fail'}",
                         expected_output=str(2 * i))
             for i, v in enumerate(vs)]
    correctness = GEval(name="Correctness", model=FixedGrader(), threshold=0.5,
                        evaluation_steps=["Is the actual output the expected output?"],
                        evaluation_params=[LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT,
                                           LLMTestCaseParams.EXPECTED_OUTPUT])
    concise = GEval(name="Conciseness", model=FixedGrader(), threshold=0.5,
                    evaluation_steps=["Is the actual output short?"],
                    evaluation_params=[LLMTestCaseParams.ACTUAL_OUTPUT])
    evaluate(test_cases=cases, metrics=[correctness, concise], hyperparameters={"model": model},
             async_config=AsyncConfig(run_async=False), display_config=DisplayConfig(print_results=False, show_indicator=False))
