import { strict as assert } from 'node:assert';
import { DECISION_TEXT, REASON_TEXT } from '../../src/core/decisions/reasonText';

/**
 * decisions.md "Explain": the decision and every reason with a one-line human sentence.
 * The codes are a fixed contract; each has its own sentence, and each decision's text
 * starts with the decision as the CLI prints it.
 */
describe('the sentence of every reason and decision (decisions.md "Explain")', () => {
  const reasons = Object.entries(REASON_TEXT);
  const decisions = Object.entries(DECISION_TEXT);

  it('gives every reason code one plain sentence: one line, ending with a full stop, no two alike', () => {
    for (const [code, text] of reasons) {
      assert.match(text, /^[A-Z"'].*\.$/, code);
      assert.ok(!text.includes('\n'), code);
      assert.ok(text.length >= 20, `${code}: ${text}`);
    }
    assert.equal(new Set(reasons.map(([, t]) => t)).size, reasons.length);
  });

  it('words the trust reasons as the trust model states them', () => {
    assert.match(REASON_TEXT.active, /trusted at its current hashes/);
    assert.match(REASON_TEXT.not_applicable, /\[when\] conditions do not match this host/);
    assert.match(REASON_TEXT.capabilities_changed, /What it can do changed since you trusted it/);
    assert.match(REASON_TEXT.content_changed, /Its files changed since you trusted it/);
    assert.match(REASON_TEXT.trust_store_unavailable, /everything fails closed/);
    assert.match(REASON_TEXT.hooks_not_opted_in, /RIVUMI_ENABLE_PROJECT_HOOKS is not exactly 1/);
    assert.match(REASON_TEXT.workspace_untrusted, /Restricted Mode/);
  });

  it('starts each decision text with the decision, then says what the agent does', () => {
    assert.deepEqual(
      decisions.map(([d, text]) => [d, text.split(': ')[0]]),
      [
        ['registered', 'registered'],
        ['rejected', 'rejected'],
        ['display_only', 'display only'],
        ['disabled', 'disabled'],
        ['shadowed', 'shadowed'],
      ],
    );
    for (const [d, text] of decisions) assert.ok(text.split(': ')[1]?.length, d);
    assert.equal(DECISION_TEXT.registered, 'registered: the agent loads it');
    assert.equal(DECISION_TEXT.display_only, 'display only: shown, but the agent never loads it');
  });
});
