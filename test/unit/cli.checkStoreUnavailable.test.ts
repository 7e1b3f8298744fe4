import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, type CliResult } from './helpers/runCli';
import { Fixture } from './helpers/fixture';
import { UNAVAILABLE_EFFECT } from '../../src/core/trust/trustStore';

const DEMO = path.resolve(__dirname, '../../examples/demo-workspace');
const DEMO_HOME = path.resolve(__dirname, '../../examples/demo-home');
const HEADING = /^skillgate: (\d+) bundle\(s\) the agents would load are not trusted at their current hashes:$/;

interface ListedItem {
  readonly id: string;
  readonly system: string;
  readonly kind: string;
  readonly name: string;
  readonly decision: string;
  readonly trust: string | null;
}

/**
 * `skillgate check` with a trust store it cannot read (trust.md "Fail closed"): it fails,
 * as before, and says so once, in the store's own words; under its heading it names only
 * the bundles the agents would load — the ones it names with a store that reads, chosen by
 * each agent's `loads` — never a rejected, display-only or shadowed bundle, which the agent
 * does not load (decisions.md: a message states what the agent does).
 */
describe('skillgate check with the trust store unavailable: fails closed, and names only what the agents load', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    // The demo: every kind of bundle fate, each agent (README "The demo").
    fs.cpSync(DEMO, f.path('ws'), { recursive: true });
    fs.cpSync(DEMO_HOME, f.path('home'), { recursive: true });
  });
  afterEach(() => f.remove());

  const sg = (args: string[], stateDir: string): Promise<CliResult> =>
    runCli(
      [...args, '--no-cache', '--codewhale-home', f.path('home'), '--eva-home', f.path('home')],
      { SKILLGATE_STATE_DIR: stateDir, HOME: f.path('home') },
      f.path('ws'),
    );

  /** A plain 0700 directory holding a 0600 `state.json` with these bytes. */
  const storeWith = (name: string, bytes: string) => {
    const dir = f.mkdir(name);
    fs.chmodSync(dir, 0o700);
    f.write(`${name}/state.json`, bytes, 0o600);
    return dir;
  };

  /** Each way trustStore.ts refuses a store: its content, its place, or a workspace it lies in. */
  const unavailable: [string, () => string][] = [
    ['not JSON', () => storeWith('bad-json', '{not json')],
    ['another schema version', () => storeWith('version', '{"schemaVersion":2,"bundles":{}}')],
    ['an unknown field', () => storeWith('unknown', '{"schemaVersion":1,"bundles":{},"extra":1}')],
    [
      'a state.json that is no regular file',
      () => {
        const dir = storeWith('dir-file', '');
        fs.rmSync(path.join(dir, 'state.json'));
        f.mkdir('dir-file/state.json');
        return dir;
      },
    ],
    [
      'a directory others may write',
      () => {
        const dir = f.mkdir('group-writable');
        fs.chmodSync(dir, 0o770);
        return dir;
      },
    ],
    [
      'a symbolic link',
      () => {
        const dir = f.mkdir('real');
        fs.chmodSync(dir, 0o700);
        return f.symlink(dir, 'linked');
      },
    ],
    // The README's case: a CI job's `SKILLGATE_STATE_DIR=.sg`, taken from the working directory.
    ['inside the workspace (SKILLGATE_STATE_DIR=.sg)', () => '.sg'],
  ];

  /** The lines under the heading, each `system kind name (path)`, without the problem. */
  const listed = (err: string): string[] => {
    const lines = err.split('\n');
    const at = lines.findIndex((l) => HEADING.test(l));
    if (at < 0) return [];
    const under = [];
    for (const l of lines.slice(at + 1)) {
      if (!l.startsWith('  ')) break;
      under.push(l.slice(2, l.indexOf('): ') + 1));
    }
    assert.equal(Number(HEADING.exec(lines[at] as string)?.[1]), under.length, `the count is the list's:\n${err}`);
    return under;
  };

  for (const [kind, make] of unavailable) {
    it(`${kind}: exit 1, the store's problem said once, and only the bundles the agents load listed`, async () => {
      const readable = await sg(['check'], f.path('fresh-state'));
      const stateDir = make();
      const r = await sg(['check'], stateDir);
      assert.equal(r.code, 1, `${r.out}${r.err}`);
      assert.equal(r.out, '');

      // The store's problem, as `doctor` states it, once and apart from the list.
      const doctor = JSON.parse((await sg(['doctor', '--json'], stateDir)).out) as { problem: string | null };
      assert.ok(doctor.problem, 'doctor finds the store unavailable');
      const said = `skillgate: the trust store is unavailable: ${doctor.problem}`;
      assert.equal(r.err.split('\n').filter((l) => l === said).length, 1, r.err);
      assert.ok(r.err.includes(UNAVAILABLE_EFFECT), r.err);
      assert.equal(r.err.split(doctor.problem).length - 1, 1, `the problem is not repeated per bundle:\n${r.err}`);

      // Under the heading: what the agents load, exactly the bundles a readable store lists.
      const names = listed(r.err);
      assert.deepEqual(names, listed(readable.err));
      assert.ok(names.length > 0, 'the demo has bundles the agents load unreviewed');

      // Never one the agent does not load; the demo has one of each such fate.
      const items = (JSON.parse((await sg(['list', '--json'], stateDir)).out) as { items: ListedItem[] }).items;
      const notLoaded = items.filter(
        (i) => i.trust !== null && ['rejected', 'display_only', 'shadowed'].includes(i.decision),
      );
      assert.deepEqual(
        [...new Set(notLoaded.map((i) => i.decision))].sort(),
        ['display_only', 'rejected', 'shadowed'],
        'the demo keeps a bundle of each fate',
      );
      for (const i of notLoaded)
        assert.ok(
          !names.some((n) => n.startsWith(`${i.system} ${i.kind} ${i.name} (`)),
          `${i.decision} ${i.name} listed as loaded:\n${r.err}`,
        );
      // What is listed is not said to be unreviewed: with no receipt readable, that is unknown.
      assert.doesNotMatch(r.err, /: it is not reviewed$/m);
    });
  }

  it('--json: the same fields as with a readable store, `failing` only what the agents load, `ok` false', async () => {
    const readable = JSON.parse((await sg(['check', '--json'], f.path('fresh-state'))).out) as {
      failing: Record<string, unknown>[];
    };
    const stateDir = storeWith('bad-json', '{not json');
    const r = await sg(['check', '--json'], stateDir);
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out) as { ok: boolean; message: string; failing: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(j), ['ok', 'message', 'failing']);
    assert.equal(j.ok, false);
    assert.deepEqual(
      j.failing.map((x) => x.id),
      readable.failing.map((x) => x.id),
    );
    for (const x of j.failing) assert.deepEqual(Object.keys(x), Object.keys(readable.failing[0] ?? {}));
    const doctor = JSON.parse((await sg(['doctor', '--json'], stateDir)).out) as { problem: string };
    assert.ok(j.message.startsWith(`the trust store is unavailable: ${doctor.problem}`), j.message);
  });

  it('fails closed when no bundle the agents load is left to list: the store is said, no heading', async () => {
    // Only Codewhale bundles, none enabled (an unreadable store enables none): nothing loads.
    fs.rmSync(f.path('ws'), { recursive: true });
    fs.cpSync(path.join(DEMO, '.codewhale'), f.path('ws/.codewhale'), { recursive: true });
    const stateDir = storeWith('bad-json', '{not json');
    const r = await sg(['check'], stateDir);
    assert.equal(r.code, 1, `the gate passed on a store it cannot read:\n${r.out}${r.err}`);
    assert.deepEqual(listed(r.err), []);
    assert.doesNotMatch(r.err, HEADING);
    assert.match(r.err, /^skillgate: the trust store is unavailable: trust store .*state\.json is not valid JSON/m);
    const j = JSON.parse((await sg(['check', '--json'], stateDir)).out) as { ok: boolean; failing: unknown[] };
    assert.deepEqual([j.ok, j.failing], [false, []]);
  });

  it('passes, as before, where there is no bundle the store could speak for', async () => {
    fs.rmSync(f.path('ws'), { recursive: true });
    fs.rmSync(f.path('home/plugins'), { recursive: true });
    f.write('ws/.rivumi/skills/only.md', '---\nname: only\ndescription: guidance only\n---\nbody\n');
    const r = await sg(['check'], storeWith('bad-json', '{not json'));
    assert.equal(r.code, 0, r.err);
  });
});
