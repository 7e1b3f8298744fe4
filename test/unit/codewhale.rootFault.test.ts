import { strict as assert } from 'node:assert';
import { faultedRootScan } from '../../src/core/systems/codewhale/faults';
import { FILE_START } from '../../src/core/model';

/**
 * The fault boundary of one Codewhale discovery root (diagnostics/faults.ts): a listing
 * that throws yields no bundle from that root — nothing to register — and one internal
 * error at the root that names the exception.
 */
describe('Codewhale discovery root fault: nothing from the root, one error naming it', () => {
  it('leaves no candidates and no canonical root, and reports the exception at the root', () => {
    assert.deepEqual(faultedRootScan('/w/.codewhale/plugins', 'workspace', new Error('boom')), {
      scope: 'workspace',
      root: '/w/.codewhale/plugins',
      canonicalRoot: undefined,
      candidates: [],
      diagnostics: [
        {
          file: '/w/.codewhale/plugins',
          range: FILE_START,
          severity: 'error',
          code: 'skillgate.internal',
          message:
            'internal error while reading the plugin directory /w/.codewhale/plugins: boom; Skillgate treats it as invalid',
          itemId: null,
        },
      ],
    });
  });

  it('keeps the scope of a user root and names a thrown value that is not an Error', () => {
    const scan = faultedRootScan('/h/plugins', 'user', 'odd');
    assert.equal(scan.scope, 'user');
    assert.equal(
      scan.diagnostics[0]?.message,
      'internal error while reading the plugin directory /h/plugins: odd; Skillgate treats it as invalid',
    );
  });
});
