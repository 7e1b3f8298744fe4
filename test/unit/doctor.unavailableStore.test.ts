import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { run } from '../../src/cli/main';
import { doctorText } from '../../src/extension/documents/doctorText';
import { doctor, type DoctorReport } from '../../src/core/trust/doctor';
import { TrustStore, UNAVAILABLE_EFFECT } from '../../src/core/trust/trustStore';
import type { SkillgateService } from '../../src/extension/skillgateService';
import { Fixture } from './helpers/fixture';
import { HOSTILE } from './helpers/displaySafe';

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

/** The editor's Doctor report (doctorText.ts): every line of the report, escaped, as the document shows it. */
describe("the editor's Doctor report", () => {
  const healthy: DoctorReport = {
    store: '/state/state.json',
    problem: null,
    repairable: false,
    bundles: 2,
    staleReceipts: [],
    unreferencedSnapshots: ['aaaa', 'bbbb'],
    pruned: [],
    notPruned: null,
    movedAside: null,
    setAside: [],
  };
  const textOf = (report: DoctorReport) => doctorText({ doctor: () => report } as unknown as SkillgateService);

  it('a healthy store: its records, each file moved aside, each stale receipt escaped and the unreferenced snapshots', () => {
    const text = textOf({
      ...healthy,
      setAside: ['/state/state.json.bad-1'],
      staleReceipts: [{ key: 'k', name: `evil\n${HOSTILE}`, path: '/ws/gone\nhere' }],
    });
    assert.equal(
      text,
      [
        'Trust store: /state/state.json',
        'Healthy: 2 bundle record(s).',
        'Moved aside by `skillgate doctor --repair` (never read; delete it once you no longer need it): /state/state.json.bad-1',
        'Stale receipt: evil\\u{a}\\u{1b}[1A\\u{1b}[2K\\u{1b}]0;pwned\\u{7}\\u{9b}\\u{202e}\\u{200b}\\u{3164}\\u{dcff} (/ws/gone\\u{a}here no longer exists)',
        'Unreferenced snapshots: 2',
        '',
      ].join('\n'),
    );
  });

  it('an unavailable store: the problem, its effect and how to fix it, whether --repair may move the file aside or not', () => {
    const broken = { ...healthy, problem: 'state.json is not JSON\x1b[2K' };
    const lines = (repairable: boolean) => textOf({ ...broken, repairable }).split('\n');
    assert.deepEqual(lines(true), [
      'Trust store: /state/state.json',
      'UNAVAILABLE: state.json is not JSON\\u{1b}[2K',
      `${UNAVAILABLE_EFFECT} \`skillgate doctor --repair\` moves the file aside.`,
      'Unreferenced snapshots: not counted while the trust store is unavailable.',
      '',
    ]);
    assert.equal(
      lines(false)[2],
      `${UNAVAILABLE_EFFECT} Fix it as it says (the file may hold sound trust records, so \`skillgate doctor --repair\` leaves it where it is).`,
    );
  });
});
