import * as assert from 'node:assert/strict';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics/diagnosticCodes';
import { DIAGNOSTIC_HELP } from '../../src/core/diagnostics/diagnosticHelp';
import { EVA_REASONS } from '../../src/core/systems/eva/vocabulary';

/** Eva's vocabulary: its reasons, and its diagnostic codes in the shared table. */

describe('Eva vocabulary', () => {
  it('names every Eva diagnostic code eva.<area>.<name>, each with a help text', () => {
    const eva = Object.keys(DIAGNOSTIC_CODES).filter((c) => c.startsWith('eva.'));
    assert.equal(eva.length, 71);
    for (const code of eva) {
      assert.match(code, /^eva\.[a-z-]+\.[a-z-]+$/);
      assert.ok(Object.hasOwn(DIAGNOSTIC_HELP, code), code);
    }
  });

  it('maps each Eva reason to the decision of eva.md §4.1', () => {
    assert.deepEqual(
      Object.entries(EVA_REASONS)
        .filter(([, d]) => d === 'display_only')
        .map(([r]) => r),
      [
        'manifest_required',
        'trust_level_unknown',
        'runtime_worker_display_only',
        'runtime_gate_mismatch',
        'capability_unknown',
        'scan_limit_exceeded',
      ],
    );
    assert.deepEqual(
      [EVA_REASONS.duplicate_id_shadowed, EVA_REASONS.bundle_inactive, EVA_REASONS.disabled_by_manifest],
      ['shadowed', 'disabled', 'disabled'],
    );
  });
});
