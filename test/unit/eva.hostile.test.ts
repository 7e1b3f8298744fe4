import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { cpuTime } from './helpers/cpuTime';
import { A0, EvaFixture, L0 } from './helpers/evaFixture';

/** Hostile input for the Eva reader (issue 13 "Done means"). */

describe('Eva hostile input', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('refuses a 3 GiB manifest by its size without reading it whole', () => {
    const big = f.adapter(A0, 'big.yaml');
    fs.truncateSync(big, 3 * 1024 ** 3); // sparse: reading it whole would take 3 GiB
    const before = process.memoryUsage().rss;
    const { result: r, ms } = cpuTime(() => f.index());
    assert.ok(ms < 5000, `refused without reading 3 GiB (${ms} ms of CPU)`);
    assert.ok(process.memoryUsage().rss - before < 256 * 1024 * 1024, 'without reading it');
    // The sniff of its first 1 MiB still sees `transport: skill`: an item, rejected.
    assert.deepEqual(
      [r.item('adapters/big.yaml').decision, r.item('adapters/big.yaml').reasons],
      ['rejected', ['manifest_too_large']],
    );
  });

  it('lets a project lower max_manifest_bytes, never raise it', () => {
    const evaYaml = fs.readFileSync(f.path('ws/config/eva.yaml'), 'utf8');
    f.write('ws/config/eva.yaml', evaYaml + 'discovery:\n  limits: {max_manifest_bytes: 100}\n');
    f.adapter(A0);
    assert.deepEqual(f.index().item('adapters/review.yaml').reasons, ['manifest_too_large']);
    f.write('ws/config/eva.yaml', evaYaml + 'discovery:\n  limits: {max_manifest_bytes: 99999999}\n');
    f.adapter(A0 + '#' + 'x'.repeat(1_048_576) + '\n');
    assert.deepEqual(f.index().item('adapters/review.yaml').reasons, ['manifest_too_large']);
  });

  it('indexes an adapter that declares 200,000 capabilities: each one refused, nothing overflows the stack', () => {
    // A diagnostic per capability, once spread into one call: "Maximum call stack size exceeded" ended the whole run.
    // Each is still found; the file lists the first 100 and one that counts the rest (fileCap.ts).
    f.adapter(A0.replace('capabilities: [workflow.review]', `capabilities: [${Array(200_000).fill('a').join(',')}]`));
    const r = f.index();
    assert.equal(r.diagnostics('eva.capability.unknown').length, 100);
    assert.match(
      r.diagnostics('skillgate.diagnostics.truncated')[0]?.message ?? '',
      /^199,900 more problems in this file not listed .*: capability a is not a workflow\.\* capability/,
    );
    assert.deepEqual(
      [r.item('adapters/review.yaml').decision, r.item('adapters/review.yaml').reasons[0]],
      ['display_only', 'capability_unknown'],
    );
    assert.deepEqual(r.diagnostics('skillgate.internal'), []);
  });

  it('refuses a sequence of 300,000 items as serde_yaml does (its repetition limit), without overflowing the stack', () => {
    f.adapter(`${A0}extra: [${Array(300_000).fill('0').join(',')}]\n`);
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.yaml.parse').map((d) => d.message.replace(/ at line .*/, '')),
      ['failed to parse YAML: repetition limit exceeded'],
    );
    assert.equal(r.item('adapters/review.yaml').decision, 'rejected');
  });

  it('reads a manifest that names one anchor 100,000 times in linear time', () => {
    // Each node of the anchor was added to a copy of the list of the ones before it.
    f.adapter(`${A0}extra: [${Array(100_000).fill('&a 0').join(',')}]\n`);
    const { result: r, ms } = cpuTime(() => f.index());
    assert.ok(ms < 10000, `took ${ms} ms of CPU`);
    assert.equal(r.item('adapters/review.yaml').decision, 'registered');
  });

  it('never executes a !!js/function tag anywhere in a manifest', () => {
    const marker = f.path('pwn');
    f.adapter(
      A0.replace(
        'routing: {priority: 10}',
        `routing: !!js/function "function(){ require('fs').writeFileSync('${marker}','x') }"`,
      ),
    );
    const r = f.index();
    assert.equal(fs.existsSync(marker), false);
    // `!!js/function` is no local tag to serde_yaml 0.9 (`parse_tag`): the value is the string
    // of its text, which `routing`'s `type: object` refuses; the code is only ever text.
    assert.deepEqual(
      r.diagnostics('eva.schema.type').map((d) => d.message),
      ['schema type mismatch: expected object, got string'],
    );
  });

  it('refuses trust for a skill folder that holds a symbolic link, while Eva still registers the adapter', () => {
    f.write('ws/config/skills/review/SKILL.md', '---\nname: review\n---\n');
    f.write('secret.txt', 'outside');
    f.symlink(f.path('secret.txt'), 'ws/config/skills/review/notes.md');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n'));
    const r = f.index();
    const item = r.item('adapters/review.yaml');
    assert.deepEqual(
      [item.decision, item.reasons, item.contentHash, item.reviewToken],
      ['registered', ['loaded_unreviewed', 'not_reviewed'], null, null],
    );
    assert.equal(r.diagnostics('eva.trust.symlink').length, 1);
    assert.ok((item.detail.notCovered ?? []).length > 0);
  });

  it('refuses trust for a runner command that is a symbolic link, which a retarget would otherwise keep', () => {
    f.write('ws/config/skills/review/SKILL.md', '---\nname: review\n---\n');
    f.write('ws/scripts/real1.sh', 'echo one\n');
    f.write('ws/scripts/real2.sh', 'echo two\n');
    f.symlink('real1.sh', 'ws/scripts/run.sh');
    const adapter = A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n').replace(
      'entry: {type: codex_skill}',
      'entry: {type: process}\n  runner: {command: scripts/run.sh}',
    );
    assert.notEqual(adapter, A0);
    f.adapter(adapter);
    const linked = f.index().item('adapters/review.yaml');
    assert.deepEqual([linked.contentHash, linked.reviewToken], [null, null]);
    assert.equal(f.index().diagnostics('eva.trust.symlink').length, 1);
    // The same command as a regular file is covered: its bytes are in the content hash.
    fs.rmSync(f.path('ws/scripts/run.sh'));
    f.write('ws/scripts/run.sh', 'echo one\n');
    const before = f.index().item('adapters/review.yaml').contentHash;
    assert.ok(before);
    f.write('ws/scripts/run.sh', 'echo two\n');
    assert.notEqual(f.index().item('adapters/review.yaml').contentHash, before);
  });

  it('marks a user skill folder linked from outside $HOME as trust level Unknown (display-only)', () => {
    f.write('elsewhere/foo/SKILL.md', '---\nname: foo\n---\n');
    f.symlink(f.path('elsewhere/foo'), 'home/.codex/skills/foo');
    const r = f.index();
    const item = r.item('user:codex:foo');
    assert.deepEqual(item.reasons, ['manifest_required', 'trust_level_unknown', 'capability_missing_schema']);
    assert.equal(item.detail.eva.trustLevel, 'Unknown');
  });

  it('lists a user SKILL.md that is a symbolic link without reading it', () => {
    f.write('home/notes.md', '---\nname: foo\n---\n');
    f.mkdir('home/.codex/skills/foo');
    f.symlink(f.path('home/notes.md'), 'home/.codex/skills/foo/SKILL.md');
    const r = f.index();
    assert.equal(r.item('user:codex:foo').decision, 'display_only');
    assert.equal(r.diagnostics('eva.user.symlink').length, 1);
  });

  it('does not treat a ---js fence as front matter, and reports unparseable front matter', () => {
    f.write('home/.codex/skills/js/SKILL.md', "---js\nrequire('fs')\n---\n");
    f.write('home/.codex/skills/bad/SKILL.md', '---\nname: [\n---\n');
    const r = f.index();
    assert.equal(r.item('user:codex:js').name, 'js');
    assert.deepEqual(
      r.diagnostics('eva.user.frontmatter').map((d) => d.itemId),
      ['eva:user:codex:bad'],
    );
  });

  it('refuses a schema path escaping the workspace through a linked directory', () => {
    f.write('outside/lint.input.json', '{"type":"object"}');
    f.l0(L0.replace('input_schema: schemas/lint.input.json', 'input_schema: linked/lint.input.json'));
    f.symlink(f.path('outside'), 'ws/linked');
    const r = f.index();
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['path_not_allowed', 'not_reviewed']);
    assert.match(r.diagnostics('eva.path.not-allowed')[0]?.message ?? '', /via symbolic link$/);
  });

  it('does not follow a linked adapter directory', () => {
    f.write('ws/other/review.yaml', A0);
    f.symlink(f.path('ws/other'), 'ws/config/adapters/linked');
    const r = f.index();
    assert.deepEqual(r.items, []);
    assert.deepEqual(r.codes(), ['eva.scan.symlink-ignored I']);
  });

  it('does not read a config/ directory that links out of the workspace', () => {
    f.write('outside/config/eva.yaml', fs.readFileSync(f.path('ws/config/eva.yaml')));
    f.write('outside/config/adapters/review.yaml', A0);
    fs.rmSync(f.path('ws/config'), { recursive: true });
    f.symlink(f.path('outside/config'), 'ws/config');
    f.user('foo');
    const r = f.index();
    // Eva loads this project through the link (eva.linkedEntryFile.test.ts), so it is one, and says
    // what it does not read: its entry file and the adapter root. Nothing outside becomes an item.
    assert.deepEqual(r.index.projects, [fs.realpathSync(f.ws)]);
    assert.deepEqual(
      r.items.map((i) => i.id),
      ['eva:user:codex:foo'],
    );
    assert.deepEqual(
      r.diagnostics('eva.project.root-outside').map((d) => d.message),
      [
        'config/eva.yaml resolves outside the workspace; Skillgate does not read it',
        'adapter_dir resolves outside the workspace; Skillgate does not scan it',
      ],
    );
  });

  it('does not hash a skill folder reached through a linked parent directory outside the workspace', () => {
    f.write('outside/review/notes.md', 'secret');
    f.symlink(f.path('outside'), 'ws/config/skills');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n'));
    const item = f.index().item('adapters/review.yaml');
    assert.deepEqual([item.contentHash, item.reasons], [null, ['loaded_unreviewed', 'not_reviewed']]);
    assert.ok(!(item.detail.files ?? []).some((x) => x.path.endsWith('notes.md')));
  });
});
