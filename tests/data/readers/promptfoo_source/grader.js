// A fixed grader for llm-rubric: reads the verdict the canned model wrote into its answer.
class FixedGrader {
  id() {
    return 'fixed-grader';
  }
  async callApi(prompt) {
    const text = typeof prompt === 'string' ? prompt : JSON.stringify(prompt);
    const m = text.match(/VERDICT=(pass|fail|partial)/);
    const verdict = m ? m[1] : 'fail';
    const score = { pass: 1, fail: 0, partial: 0.5 }[verdict];
    return {
      output: JSON.stringify({ pass: verdict === 'pass', score, reason: `fixed verdict ${verdict}` }),
    };
  }
}
module.exports = FixedGrader;
