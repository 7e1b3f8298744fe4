import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { run } from '../../src/cli/main';
import { doctorText } from '../../src/extension/documents/doctorText';
import { doctor } from '../../src/core/trust/doctor';
import { TrustStore } from '../../src/core/trust/trustStore';
import type { SkillgateService } from '../../src/extension/skillgateService';
import { Fixture } from './helpers/fixture';

/**
 * Which reviewed copies a receipt still references is written in the store. While the
 * store cannot be read, Doctor cannot count the unreferenced ones: it says so rather than
 * "0" (the snapshots directory may be full of them), and `--prune` removes nothing.
 */
describe('doctor with an unavailable trust store: what it cannot know it does not state', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    fs.mkdirSync(f.path('state/snapshots/aaaa'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(f.path('state/snapshots/aaaa/file'), 'reviewed');
    fs.writeFileSync(f.path('state/state.json'), '{', { mode: 0o600 });
    // The CLI's workspace beside the store: one inside it is refused for its place, not its content.
    f.mkdir('ws');
  });
  afterEach(() => f.remove());

  const cli = async (...args: string[]) => {
    let out = '';
    const code = await run(args, {
      out: (t) => (out += t),
      err: (t) => (out += t),
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.path('ws'),
    });
    return { code, out };
  };

  it('the CLI says the snapshots were not counted, and that --prune pruned nothing', async () => {
    const r = await cli('doctor');
    assert.equal(r.code, 1);
    assert.match(r.out, /\n {2}unreferenced snapshots: not counted while the trust store is unavailable\n$/);
    const pruned = await cli('doctor', '--prune');
    assert.match(pruned.out, /not counted while the trust store is unavailable; nothing was pruned\n$/);
    assert.ok(fs.existsSync(f.path('state/snapshots/aaaa/file')));
  });

  it('the editor report says the same', () => {
    const store = new TrustStore(f.path('state'));
    const text = doctorText({ doctor: () => doctor(store) } as unknown as SkillgateService);
    assert.match(text, /\nUnreferenced snapshots: not counted while the trust store is unavailable\.\n$/);
  });
});
