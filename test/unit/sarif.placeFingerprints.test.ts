import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from './helpers/runCli';
import { CORPUS, EvaFixture, A0 } from './helpers/evaFixture';
import { Fixture } from './helpers/fixture';

/**
 * `validate --format sarif` fingerprints a finding that a listing's position places (the first
 * file past a cap, the file where a count ran out, the last skill loaded) by the place it is
 * about, never by that file: code scanning matches alerts across commits by `partialFingerprints`
 * (SARIF 2.1.0 §3.27.17), so a fingerprint a new file sorting first moves would close the alert
 * and open another for the same problem. The location stays the file, where the editor shows it.
 */

interface SarifResult {
  ruleId: string;
  message: { text: string };
  partialFingerprints: Record<string, string>;
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
}

const uriOf = (r: SarifResult) => r.locations[0]?.physicalLocation.artifactLocation.uri;

async function validateSarif(workspace: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<SarifResult[]> {
  const r = await runCli(['validate', '--workspace', workspace, '--format', 'sarif', '--no-user'], env, cwd);
  return (JSON.parse(r.out) as { runs: { results: SarifResult[] }[] }).runs[0]?.results ?? [];
}

/** The one result of `rule` whose location starts with `prefix`. */
function only(results: readonly SarifResult[], rule: string, prefix = ''): SarifResult {
  const found = results.filter((r) => r.ruleId === rule && (uriOf(r) ?? '').startsWith(prefix));
  assert.equal(found.length, 1, JSON.stringify(results.map((r) => [r.ruleId, uriOf(r)])));
  return found[0] as SarifResult;
}

describe('SARIF fingerprints of a capped place stay when a file sorting first is added', () => {
  describe('Eva: eva.scan.limit, on the first file past max_files_per_dir (manifestEntry.ts scanRoot)', () => {
    let f: EvaFixture;
    beforeEach(() => {
      f = new EvaFixture().p0();
      f.adapter(A0);
      f.write(
        'ws/config/eva.yaml',
        `${fs.readFileSync(path.join(CORPUS, 'config/eva.yaml'), 'utf8')}discovery:\n  limits:\n    max_files_per_dir: 0\n`,
      );
    });
    afterEach(() => f.remove());
    const env = () => ({ SKILLGATE_STATE_DIR: f.path('state') });

    it('keeps the directory as what the fingerprint names, while the location moves to the new first file', async () => {
      const before = only(await validateSarif('ws', f.root, env()), 'eva.scan.limit', 'config/adapters/');
      assert.equal(uriOf(before), 'config/adapters/review.yaml');
      f.adapter(A0.replace('id: review-skill', 'id: first-skill'), 'a-first.yaml');
      const results = await validateSarif('ws', f.root, env());
      const after = only(results, 'eva.scan.limit', 'config/adapters/');
      assert.equal(uriOf(after), 'config/adapters/a-first.yaml', 'the location is still the first skipped file');
      assert.deepEqual(after.partialFingerprints, before.partialFingerprints);
      // Another directory past its cap is another place, another alert.
      assert.notDeepEqual(
        only(results, 'eva.scan.limit', 'config/policies/').partialFingerprints,
        after.partialFingerprints,
      );
    });

    it('names the directory as the folder was given: through a link, the fingerprint is the one given directly', async () => {
      f.symlink(f.ws, 'link');
      const direct = only(await validateSarif('ws', f.root, env()), 'eva.scan.limit', 'config/adapters/');
      f.adapter(A0.replace('id: review-skill', 'id: first-skill'), 'a-first.yaml');
      const linked = only(await validateSarif('link', f.root, env()), 'eva.scan.limit', 'config/adapters/');
      assert.equal(uriOf(linked), 'config/adapters/a-first.yaml');
      assert.deepEqual(linked.partialFingerprints, direct.partialFingerprints);
    });
  });

  describe('Codewhale: codewhale.content.limit, on the file where the walk passed 4096 files (treeRead.ts)', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    it('keeps the bundle as what the fingerprint names', async () => {
      f.write('ws/.codewhale/plugins/b/plugin.toml', 'schema_version = 1\n[plugin]\nname = "b"\nversion = "1.0.0"\n');
      // 4096 files walked before plugin.toml (`f` sorts before it): the manifest is the 4097th.
      for (let i = 0; i < 4096; i++) f.write(`ws/.codewhale/plugins/b/f/${i}`, '');
      const env = { SKILLGATE_STATE_DIR: f.path('state') };
      const before = only(await validateSarif('ws', f.root, env), 'codewhale.content.limit');
      assert.equal(uriOf(before), '.codewhale/plugins/b/plugin.toml');
      f.write('ws/.codewhale/plugins/b/a', '');
      const after = only(await validateSarif('ws', f.root, env), 'codewhale.content.limit');
      assert.notEqual(uriOf(after), uriOf(before), 'the walk now stops at another file');
      assert.deepEqual(after.partialFingerprints, before.partialFingerprints);
    });
  });

  describe('Rivumi', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());
    const env = () => ({ SKILLGATE_STATE_DIR: f.path('state') });
    const hooks = (prefix: string, n: number) => ({
      pre_tool_use: Array.from({ length: n }, (_, i) => ({ command: [`${prefix}${i}`] })),
    });

    it('rivumi.hooks.too-many, on the hook past 16 once the plugins are merged (hookLoad.ts): keeps the event as what it names', async () => {
      f.write('ws/.rivumi/hooks.json', JSON.stringify(hooks('p', 10)));
      f.write('ws/.rivumi/plugins/m.json', JSON.stringify({ name: 'm', hooks: hooks('m', 10) }));
      const before = only(await validateSarif('ws', f.root, env()), 'rivumi.hooks.too-many');
      assert.equal(uriOf(before), '.rivumi/plugins/m.json');
      // Merged after the project's and before m's: the 17th entry is now a.json's.
      f.write('ws/.rivumi/plugins/a.json', JSON.stringify({ name: 'a', hooks: hooks('a', 10) }));
      const after = only(await validateSarif('ws', f.root, env()), 'rivumi.hooks.too-many');
      assert.equal(uriOf(after), '.rivumi/plugins/a.json');
      assert.deepEqual(after.partialFingerprints, before.partialFingerprints);
    });

    it('rivumi.skills.context-truncated, on the last skill loaded (promptSection.ts): keeps the skill section as what it names', async () => {
      for (let i = 0; i < 4; i++) f.write(`ws/.rivumi/skills/sk0${i}.md`, 'é'.repeat(3000));
      const before = only(await validateSarif('ws', f.root, env()), 'rivumi.skills.context-truncated');
      assert.equal(uriOf(before), '.rivumi/skills/sk03.md');
      f.write('ws/.rivumi/skills/sk04.md', 'x');
      const after = only(await validateSarif('ws', f.root, env()), 'rivumi.skills.context-truncated');
      assert.equal(uriOf(after), '.rivumi/skills/sk04.md');
      assert.deepEqual(after.partialFingerprints, before.partialFingerprints);
    });
  });
});
