"""A fixed grader standing in for an LLM judge: each item's verdict and 1-5 rating for the model
named by FIXTURE_MODEL (a or b) are in the data."""

import os


def process_results(doc, results):
    m = os.environ["FIXTURE_MODEL"]
    return {"judge_correct": doc["verdict_" + m], "judge_rating": doc["rating_" + m]}
