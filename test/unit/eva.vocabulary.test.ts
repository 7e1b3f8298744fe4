import * as assert from 'node:assert/strict';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics/diagnosticCodes';
import { EVA_DIAGNOSTIC_CODES, EVA_REASONS } from '../../src/core/systems/eva/vocabulary';

/** Eva's vocabulary, kept in src/core/systems/eva/ until the seam wires it into the shared registry. */

describe('Eva vocabulary', () => {
  it('adds only eva.* diagnostic codes, none of which the shared registry already holds', () => {
    for (const code of Object.keys(EVA_DIAGNOSTIC_CODES)) {
      assert.match(code, /^eva\.[a-z-]+\.[a-z-]+$/);
      assert.equal(Object.prototype.hasOwnProperty.call(DIAGNOSTIC_CODES, code), false, code);
    }
  });

  it('maps each Eva reason to the decision of eva.md §4.1', () => {
    assert.deepEqual(
      Object.entries(EVA_REASONS).filter(([, d]) => d === 'display_only').map(([r]) => r),
      ['manifest_required', 'trust_level_unknown', 'runtime_worker_display_only', 'runtime_gate_mismatch', 'capability_unknown', 'scan_limit_exceeded'],
    );
    assert.deepEqual([EVA_REASONS.duplicate_id_shadowed, EVA_REASONS.bundle_inactive, EVA_REASONS.disabled_by_manifest], ['shadowed', 'disabled', 'disabled']);
  });
});
