import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import { Indexer } from '../../src/core/index/indexer';
import type { TrustView } from '../../src/core/decisions/trustView';
import type { Item } from '../../src/core/model';
import { childNodes, type TreeNode } from '../../src/extension/tree/treeNodes';
import { A0, CORPUS, EvaFixture, L0 } from './helpers/evaFixture';

/**
 * Eva-CLI wired in through the systems seam (issue 13): its bundles reach every CLI
 * command and the tree, `check` gates what Eva would register, drift drops trust, and
 * Skillgate's enable switch is refused. The decisions themselves are eva.cases.test.ts.
 */
describe('Eva-CLI through the CLI and the indexer', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  const cli = async (...args: string[]) => {
    let out = '';
    let err = '';
    // A Codewhale home only where user bundles are read: beside --no-user it is a usage error.
    const codewhaleHome = args.includes('--no-user') ? [] : ['--codewhale-home', f.mkdir('cw')];
    const code = await run([...args, '--eva-home', f.home, ...codewhaleHome], {
      out: (t) => (out += t),
      err: (t) => (err += t),
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.ws,
    });
    return { code, out, err };
  };
  const items = async (...args: string[]) =>
    (JSON.parse((await cli('list', '--json', ...args)).out) as { items: Item[] }).items.filter(
      (i) => i.system === 'eva',
    );

  it('lists, validates, shows and explains an Eva bundle with the JSON fields of eva.md §4.8', async () => {
    f.adapter(A0);
    f.l0();
    f.user('foo');
    const listed = await items();
    assert.deepEqual(
      listed.map((i) => [i.id, i.kind, i.scope, i.decision, i.reasons, i.enabled, i.trust]),
      [
        [
          f.id('adapters/review.yaml'),
          'skill-adapter',
          'workspace',
          'registered',
          ['loaded_unreviewed', 'not_reviewed'],
          null,
          'not-reviewed',
        ],
        [
          f.id('capabilities/lint.yaml'),
          'lua-skill',
          'workspace',
          'registered',
          ['loaded_unreviewed', 'not_reviewed'],
          null,
          'not-reviewed',
        ],
        [
          'eva:user:codex:foo',
          'skill',
          'user',
          'display_only',
          ['manifest_required', 'capability_missing_schema'],
          null,
          null,
        ],
      ],
    );
    assert.match((await cli('list')).out, /^ {2}Eva-CLI$/m);
    const validate = JSON.parse((await cli('validate', '--json')).out) as {
      diagnostics: { code: string; severity: string }[];
    };
    assert.ok(validate.diagnostics.some((d) => d.code === 'eva.compat.lua-skill' && d.severity === 'warning'));
    const sarif = JSON.parse((await cli('validate', '--format', 'sarif')).out) as {
      runs: { results: { ruleId: string }[] }[];
    };
    assert.ok(sarif.runs[0]?.results.some((r) => r.ruleId === 'eva.project.load-aborted'));
    const shown = JSON.parse((await cli('show', 'review-skill', '--json')).out) as {
      detail: { eva: Record<string, unknown> };
    };
    const eva = shown.detail.eva;
    for (const field of [
      'evaDecision',
      'evaReasons',
      'target',
      'evaKind',
      'source',
      'trustLevel',
      'skillId',
      'runtimeGate',
      'assumedRuntime',
      'schemas',
      'requestedPermissions',
      'effectivePermissions',
      'capabilities',
      'conflicts',
    ])
      assert.ok(field in eva, field);
    assert.deepEqual(
      [eva.evaDecision, eva.target, eva.assumedRuntime],
      ['registered', 'AdapterRegistry', { mode: 'normal', teamWorker: false, interactiveUser: false }],
    );
    const explained = await cli('explain', 'review-skill');
    assert.equal(explained.code, 0, explained.err);
    assert.match(explained.out, /system: eva/);
    // The design's order: the decision, then what Eva-CLI itself would do, its source, schemas, gate, permissions.
    const titles = explained.out.split('\n').filter((l) => l !== '' && !l.startsWith(' '));
    assert.deepEqual(titles.slice(0, 7), [
      'review-skill (skill review): registered: the agent loads it',
      'Eva-CLI would: registered (AdapterRegistry)',
      'Eva source',
      'Schemas',
      'Runtime gate',
      'Permissions',
      'Eva capabilities and conflicts',
    ]);
    assert.match(
      explained.out,
      /write_workspace: requested no, effective no \(adapter_policy\.defaults\.write_workspace in config\/policies\/adapter\.yaml\)/,
    );
  });

  it("reviews a skill with its contract in Eva's terms: kind, runtime gate, schemas, each permission asked and granted with what decided it", async () => {
    f.adapter(A0);
    const review = await cli('review', 'review-skill');
    assert.equal(review.code, 0, review.err);
    const section = review.out.slice(
      review.out.indexOf('Skill contract (Eva-CLI):'),
      review.out.indexOf('\nCapabilities:'),
    );
    assert.match(section, /^ {2}Eva-CLI decides +registered \(registered\)$/m);
    assert.match(section, /^ {2}kind +workflow_skill, from project_adapter/m);
    assert.match(section, /^ {2}runtime gate +normal \(assumed runtime: /m);
    assert.match(section, /^ {2}output schema +(inline|file)$/m);
    assert.match(section, /^ {2}permission \S+ +asks (yes|no), gets (yes|no) — decided by /m);
  });

  it('gives the corpus sample the decision its README states', async () => {
    fs.cpSync(path.join(CORPUS, 'config'), f.path('ws/config'), { recursive: true });
    fs.rmSync(f.path('ws/config/README.md'));
    const listed = await items();
    assert.deepEqual(
      listed.map((i) => [i.name, i.decision, i.reasons]),
      [['code-review-skill', 'registered', ['loaded_unreviewed', 'not_reviewed']]],
    );
    const validate = JSON.parse((await cli('validate', '--json')).out) as {
      diagnostics: { code: string; severity: string }[];
    };
    assert.deepEqual(
      validate.diagnostics.filter((d) => d.code.startsWith('eva.') && d.severity !== 'information').map((d) => d.code),
      ['eva.skill.path-missing'],
    );
  });

  it('fails check for a bundle Eva would register and you have not trusted; review, trust, then drift drops it', async () => {
    const manifest = f.adapter(A0);
    const check = await cli('check');
    assert.equal(check.code, 1);
    assert.match(check.err, /eva skill-adapter review-skill .*it is not reviewed/);
    // Why it is a risk, in Eva's terms (not Rivumi's).
    assert.match(
      (await cli('explain', 'review-skill')).out,
      /loaded_unreviewed: Eva-CLI registers it by its own rules whatever Skillgate says/,
    );
    const review = await cli('review', 'review-skill');
    assert.equal(review.code, 0, review.err);
    assert.match(review.out, /config\/adapters\/review\.yaml/);
    const token = /skillgate trust \S+ (\S+)/.exec(review.out)?.[1];
    assert.ok(token, review.out);
    assert.equal((await cli('trust', 'review-skill', 'not-the-token')).code, 1);
    const trusted = await cli('trust', 'review-skill', token);
    assert.equal(trusted.code, 0, trusted.err);
    assert.equal((await cli('check')).code, 0);
    assert.deepEqual((await items())[0]?.reasons, ['registered']);
    fs.appendFileSync(manifest, '# edited\n');
    const drifted = await cli('check');
    assert.equal(drifted.code, 1);
    assert.match(drifted.err, /content-changed/);
    assert.deepEqual((await items())[0]?.reasons, ['loaded_unreviewed', 'content_changed']);
  });

  it('trusts a skill whose SKILL.md folder lies under the home (the reviewed copy re-hashes), and an edit there drops trust', async () => {
    fs.copyFileSync(
      path.join(CORPUS, 'config/adapters/code-review-skill.yaml'),
      f.path('ws/config/adapters/code-review-skill.yaml'),
    );
    const skill = f.write(
      'home/.codex/skills/code-review/SKILL.md',
      '---\nname: code-review\ndescription: review\n---\nReview.\n',
    );
    f.write('home/.codex/skills/code-review/checklist.md', 'Check the tests.\n');
    const review = await cli('review', 'code-review-skill');
    assert.equal(review.code, 0, review.err);
    assert.match(review.out, /home\/\.codex\/skills\/code-review\/checklist\.md/);
    const token = /skillgate trust \S+ (\S+)/.exec(review.out)?.[1];
    assert.ok(token, review.out);
    const trusted = await cli('trust', 'code-review-skill', token);
    assert.equal(trusted.code, 0, trusted.err);
    assert.equal((await cli('check')).code, 0);
    fs.appendFileSync(skill, 'Also run the linter.\n');
    assert.deepEqual((await items()).find((i) => i.kind === 'skill-adapter')?.reasons, [
      'loaded_unreviewed',
      'content_changed',
    ]);
  });

  it('does not gate what Eva would not register: a rejected or disabled skill passes check untrusted', async () => {
    f.adapter(A0.replace('enabled: true', 'enabled: false'));
    f.adapter(A0.replace('id: review-skill', 'id: broken').replace(/ {2}output_schema:.*\n/, ''), 'broken.yaml');
    assert.deepEqual(
      (await items()).map((i) => [i.name, i.decision]),
      [
        ['broken', 'rejected'],
        ['review-skill', 'disabled'],
      ],
    );
    assert.equal((await cli('check')).code, 0);
  });

  it('refuses enable and disable with the spec message: Eva honours only the manifest', async () => {
    f.adapter(A0);
    for (const op of ['enable', 'disable']) {
      const r = await cli(op, 'review-skill');
      assert.equal(r.code, 1);
      assert.match(
        r.err,
        /Eva-CLI reads "enabled" from the manifest; edit config\/adapters\/review\.yaml to change it/,
      );
    }
  });

  it('takes the assumed runtime from flags only (case 18 through the CLI), and --no-user drops user skills', async () => {
    f.adapter(
      A0.replace('kind: workflow_skill', 'kind: runtime_worker').replace('runtime_gate: normal', 'runtime_gate: team'),
    );
    f.user('foo');
    assert.deepEqual(
      (await items()).map((i) => i.decision),
      ['display_only', 'display_only'],
    );
    assert.deepEqual(
      (await items('--eva-runtime', 'team')).map((i) => i.decision),
      ['registered', 'display_only'],
    );
    const team = JSON.parse((await cli('show', 'review-skill', '--json', '--eva-runtime', 'team')).out) as {
      detail: { eva: { target: string } };
    };
    assert.equal(team.detail.eva.target, 'TeamRuntime');
    assert.deepEqual(
      (await items('--no-user')).map((i) => i.id),
      [f.id('adapters/review.yaml')],
    );
    const bad = await cli('list', '--eva-runtime', 'sideways');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /unknown Eva runtime "sideways"/);
  });

  it('hashes an Eva skill manifest with the same token review shows', async () => {
    const manifest = f.adapter(A0);
    const hashed = await cli('hash', manifest);
    assert.equal(hashed.code, 0, hashed.err);
    const token = (await items())[0]?.reviewToken;
    assert.ok(token && hashed.out.includes(token), hashed.out);
  });

  it('re-reads only the project a change touches, and re-gates trust without reading', () => {
    const manifest = f.adapter(A0);
    const other = f.mkdir('other');
    let trust: TrustView = { available: true, lookup: () => undefined };
    const indexer = new Indexer({
      workspaces: [f.ws, other],
      codewhaleHome: null,
      evaHome: f.home,
      trust: () => trust,
    });
    const first = indexer.indexAll().items.filter((i) => i.system === 'eva');
    assert.deepEqual(
      first.map((i) => i.reasons),
      [['loaded_unreviewed', 'not_reviewed']],
    );
    const item = first[0] as Item;
    trust = {
      available: true,
      lookup: (k) =>
        k === item.detail.bundleKey
          ? {
              enabled: false,
              trust: { contentHash: item.contentHash as string, capabilityHash: item.capabilityHash as string },
            }
          : undefined,
    };
    assert.deepEqual(
      indexer
        .snapshot()
        .items.filter((i) => i.system === 'eva')
        .map((i) => i.reasons),
      [['registered']],
    );
    fs.writeFileSync(manifest, A0.replace('network: false', 'network: true'));
    // A change elsewhere leaves the kept read alone; a change under config/ re-reads the project.
    assert.deepEqual(
      indexer
        .refresh([path.join(other, 'README.md')])
        .items.filter((i) => i.system === 'eva')
        .map((i) => i.reasons),
      [['registered']],
    );
    assert.deepEqual(
      indexer
        .refresh([manifest])
        .items.filter((i) => i.system === 'eva')
        .map((i) => i.reasons),
      [['policy_denied', 'capabilities_changed']],
    );
    // A folder that becomes an Eva project is picked up from its config/eva.yaml.
    f.write('other/config/eva.yaml', fs.readFileSync(f.path('ws/config/eva.yaml')));
    f.write('other/config/capabilities/lint.yaml', L0);
    const after = indexer.refresh([path.join(other, 'config', 'eva.yaml')]).items.filter((i) => i.system === 'eva');
    assert.equal(after.length, 2);
  });

  it('lists Restricted Mode last on an Eva bundle that is not trusted', () => {
    f.adapter(A0);
    const snapshot = new Indexer({
      workspaces: [f.ws],
      codewhaleHome: null,
      evaHome: f.home,
      workspaceTrusted: false,
    }).indexAll();
    assert.deepEqual(
      snapshot.items.filter((i) => i.system === 'eva').map((i) => i.reasons),
      [['loaded_unreviewed', 'not_reviewed', 'workspace_untrusted']],
    );
  });

  it('watches only what Eva reads, not every config/ folder', () => {
    f.adapter(A0);
    const indexer = new Indexer({ workspaces: [f.ws], codewhaleHome: null, evaHome: f.home });
    indexer.indexAll();
    const trees = indexer.watchedTrees().map((t) => `${path.relative(f.path('.'), t.base)}:${t.pattern}`);
    for (const layer of [
      'config',
      'config/eva.yaml',
      'config/eva.user.yaml',
      'config/profiles/*.yaml',
      'config/environments/*.yaml',
    ])
      assert.ok(trees.includes(`ws:${layer}`), trees.join('\n'));
    assert.ok(trees.includes('ws/config/adapters:**'));
    assert.ok(trees.includes('home:{.codex,.agents}/skills/**'));
    assert.ok(!trees.some((t) => t === 'ws:config/**'));
  });

  it('shows an Eva node in the tree with its items', () => {
    f.adapter(A0);
    const snapshot = new Indexer({ workspaces: [f.ws], codewhaleHome: null, evaHome: f.home }).indexAll();
    const [folder] = childNodes(snapshot);
    const eva = childNodes(snapshot, folder as TreeNode).find((n) => n.kind === 'system' && n.system === 'eva');
    assert.ok(eva);
    assert.deepEqual(
      childNodes(snapshot, eva).map((n) => (n.kind === 'item' ? [n.item.name, n.item.reasons[0]] : n.kind)),
      [['review-skill', 'loaded_unreviewed']],
    );
  });
});
