// A canned model: answers every question with the verdict fixed for this model in the test's vars.
class CannedModel {
  constructor(options) {
    this.providerId = options.id || 'canned';
    this.config = options.config || {};
  }
  id() {
    return this.providerId;
  }
  async callApi(prompt, context) {
    const verdict = context.vars['verdict_' + this.config.model];
    return { output: `Answer from ${this.config.model}. VERDICT=${verdict}` };
  }
}
module.exports = CannedModel;
