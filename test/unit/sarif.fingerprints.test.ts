import { strict as assert } from 'node:assert';
import { run } from '../../src/cli/main';
import { Fixture } from './helpers/fixture';

/**
 * SARIF `partialFingerprints` (SARIF 2.1.0 §3.27.17): code scanning takes results with
 * the same fingerprint for one alert, so two different findings must never share one,
 * while one finding keeps its fingerprint across unrelated edits.
 */

interface SarifResult {
  ruleId: string;
  message: { text: string };
  partialFingerprints: Record<string, string>;
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
}

describe('SARIF partial fingerprints are distinct per finding', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  async function sarif(args: string[]): Promise<SarifResult[]> {
    let out = '';
    await run([...args, '--format', 'sarif', '--no-user'], {
      out: (t) => (out += t),
      err: () => undefined,
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.root,
    });
    return (JSON.parse(out) as { runs: { results: SarifResult[] }[] }).runs[0]?.results ?? [];
  }
  const distinct = (results: readonly SarifResult[]) =>
    new Set(results.map((r) => JSON.stringify(r.partialFingerprints))).size;

  it('validate: two findings in one file whose messages differ only in numbers (skills.0 and skills.1)', async () => {
    const plugin = (extra = '') =>
      f.write('ws/.rivumi/plugins/p.json', `${extra}{"name":"p","description":"d","skills":[{"path":1},{"path":2}]}`);
    plugin();
    const results = await sarif(['validate', '--workspace', 'ws']);
    assert.equal(results.length, 2);
    assert.equal(results[0]?.ruleId, results[1]?.ruleId);
    assert.equal(distinct(results), 2, 'each finding has its own fingerprint');
    // And each keeps it when the file moves down a line.
    plugin('\n\n');
    assert.deepEqual(
      (await sarif(['validate', '--workspace', 'ws'])).map((r) => r.partialFingerprints),
      results.map((r) => r.partialFingerprints),
    );
  });

  it('validate: the same finding in two workspace folders', async () => {
    for (const ws of ['a', 'b']) f.write(`${ws}/.rivumi/plugins/bad.json`, '{ "name": 1 }');
    const results = await sarif(['validate', '--workspace', 'a', '--workspace', 'b']);
    assert.equal(results.length, 2);
    assert.equal(distinct(results), 2);
  });

  it('check --lock: the same bundle path in two workspace folders', async () => {
    for (const ws of ['a', 'b'])
      f.write(`${ws}/.rivumi/plugins/pack.json`, JSON.stringify({ name: 'pack', description: 'A pack.' }));
    const results = await sarif(['check', '--lock', '--workspace', 'a', '--workspace', 'b']);
    assert.equal(results.length, 2);
    assert.deepEqual(
      results.map((r) => r.ruleId),
      ['skillgate.lock.new', 'skillgate.lock.new'],
    );
    assert.equal(distinct(results), 2);
  });
});
