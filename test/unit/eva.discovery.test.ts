import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { A0, EvaFixture, evaItemId } from './helpers/evaFixture';
import { scanYamlFiles, rustExtension } from '../../src/core/systems/eva/files';

/** Discovery and enumeration (eva.md §1). */

describe('Eva discovery', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('orders paths component by component as raw bytes: a/x.yaml wins over a-b/x.yaml', () => {
    f.adapter(A0, 'a-b/x.yaml');
    f.adapter(A0, 'a/x.yaml');
    const r = f.index();
    assert.equal(r.item('adapters/a/x.yaml').decision, 'registered');
    assert.equal(r.item('adapters/a-b/x.yaml').shadowedBy, r.item('adapters/a/x.yaml').id);
  });

  it("takes Rust's extension: .yaml alone has none, a.yaml.bak is bak, a directory x.yaml is recursed", () => {
    assert.deepEqual(
      [rustExtension('.yaml'), rustExtension('a.yaml.bak'), rustExtension('.review.yml')],
      [undefined, 'bak', 'yml'],
    );
    f.adapter(A0, '.yaml');
    f.adapter(A0, 'a.yaml.bak');
    f.adapter(A0, 'x.yaml/inner.yaml');
    assert.deepEqual(
      f.index().items.map((i) => i.id),
      [f.id('adapters/x.yaml/inner.yaml')],
    );
  });

  it('reads at most max_files_per_dir YAML files per directory and warns once on the first skipped', () => {
    fs.writeFileSync(
      f.path('ws/config/eva.yaml'),
      fs.readFileSync(f.path('ws/config/eva.yaml'), 'utf8') + 'discovery:\n  limits: {max_files_per_dir: 2}\n',
    );
    for (const n of ['a', 'b', 'c', 'd']) f.adapter(A0.replace('id: review-skill', `id: ${n}`), `${n}.yaml`);
    const scan = scanYamlFiles(f.path('ws/config/adapters'), 2);
    assert.deepEqual(
      scan.overflow.map((o) => [o.first.endsWith('c.yaml'), o.skipped]),
      [[true, 2]],
    );
    const r = f.index();
    assert.deepEqual(
      r.items.map((i) => i.detail.eva.id),
      ['a', 'b'],
    );
    assert.deepEqual(
      r.diagnostics('eva.scan.limit').map((d) => r.rel(d.file)),
      ['config/adapters/c.yaml'],
    );
  });

  it('reads the layered configuration: an environment file may move the adapter root', () => {
    f.write('ws/config/environments/dev.yaml', 'config:\n  adapter_dir: config/more-adapters\n');
    f.write('ws/config/more-adapters/review.yaml', A0);
    f.adapter(A0.replace('id: review-skill', 'id: not-scanned'));
    const r = f.index();
    assert.deepEqual(
      r.items.map((i) => i.id),
      [f.id('more-adapters/review.yaml')],
    );
  });

  it("reports a missing configuration root with upstream's message at the field", () => {
    fs.rmSync(f.path('ws/config/adapters'), { recursive: true });
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.project.root-missing').map((d) => d.message),
      ['failed to read config root: No such file or directory (os error 2)'],
    );
  });

  it('falls back to the sample roots when eva.yaml does not parse, so the user still sees items', () => {
    f.write('ws/config/eva.yaml', 'config: [\n');
    f.adapter(A0);
    const r = f.index();
    assert.equal(r.diagnostics('eva.project.config-invalid').length, 1);
    assert.equal(r.item('adapters/review.yaml').detail.eva.evaDecision, 'registered');
    assert.equal(r.diagnostics('eva.project.load-aborted')[0]?.file, f.path('ws/config/eva.yaml'));
  });

  it("reads a tagged eva.yaml root as its mapping, as Eva's schema and serde do: its roots are scanned", () => {
    // serde_yaml 0.9's `as_mapping` looks through a tag and serde derive ignores a mapping's tag,
    // so `--- !t` over eva.yaml loads it; falling back to the sample roots would hide these skills.
    const text = fs.readFileSync(f.path('ws/config/eva.yaml'), 'utf8');
    f.write(
      'ws/config/eva.yaml',
      `--- !t\n${text.replace('\n  adapter_dir: config/adapters\n  # Capability', '\n  adapter_dir: config/other\n  # Capability')}`,
    );
    f.write('ws/config/other/review.yaml', A0);
    const r = f.index();
    assert.deepEqual(r.diagnostics('eva.project.config-invalid'), []);
    assert.deepEqual(r.diagnostics('eva.project.load-aborted'), []);
    assert.equal(r.item('other/review.yaml').detail.eva.evaDecision, 'registered');
  });

  it('reads a tagged root as serde reads a PathBuf from the merged value: `!t hidden` is the root hidden', () => {
    // serde_yaml's Value deserializer looks through a tag for a string; falling back to the sample
    // roots would hide the skill Eva registers from `hidden/`.
    const text = fs.readFileSync(f.path('ws/config/eva.yaml'), 'utf8');
    f.write(
      'ws/config/eva.yaml',
      text.replace('\n  adapter_dir: config/adapters\n  # Capability', '\n  adapter_dir: !t hidden\n  # Capability'),
    );
    f.write('ws/hidden/review.yaml', A0);
    f.adapter(A0.replace('id: review-skill', 'id: not-scanned'));
    const r = f.index();
    assert.deepEqual(r.diagnostics('eva.project.config-invalid'), []);
    assert.deepEqual(
      r.items.map((i) => [i.id, i.detail.eva.evaDecision]),
      [[evaItemId(f.ws, 'adapter', 'hidden/review.yaml'), 'registered']],
    );
  });

  it('checks the layered eva.yaml against its schema, as upstream does before reading it: a layer may break it', () => {
    f.write('ws/config/environments/dev.yaml', 'service_manager:\n  kind: solaris\n');
    f.adapter(A0);
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.project.config-invalid').map((d) => d.message),
      ['value is not allowed by schema enum: $.service_manager.kind'],
    );
    assert.equal(r.diagnostics('eva.project.load-aborted')[0]?.file, f.path('ws/config/eva.yaml'));
  });

  it('falls back to the embedded schemas when the schema directory lacks them', () => {
    fs.rmSync(f.path('ws/config/schemas/adapter.schema.json'));
    f.adapter(A0.replace('routing: {priority: 10}\n', ''));
    const r = f.index();
    assert.equal(r.diagnostics('eva.project.schema-missing').length, 1);
    assert.equal(r.diagnostics('eva.schema.required').length, 1);
  });

  it('lists user skills only when allowed: a project may narrow with scan_user_dirs: false, and --no-user turns them off', () => {
    f.user('foo');
    assert.equal(f.index().items.length, 1);
    assert.equal(f.index({ scanUserDirs: false }).items.length, 0);
    fs.writeFileSync(
      f.path('ws/config/eva.yaml'),
      fs.readFileSync(f.path('ws/config/eva.yaml'), 'utf8') + 'discovery:\n  scan_user_dirs: false\n',
    );
    assert.equal(f.index().items.length, 0);
  });

  it("ignores a project's attempt to redirect the user skill roots", () => {
    fs.writeFileSync(
      f.path('ws/config/eva.yaml'),
      fs.readFileSync(f.path('ws/config/eva.yaml'), 'utf8') + 'discovery:\n  user:\n    codex_skill_dir: ws/evil\n',
    );
    f.write('ws/evil/foo/SKILL.md', '---\nname: foo\n---\n');
    assert.deepEqual(f.index().items, []);
  });

  it('skips hidden user skill directories and needs SKILL.md spelled exactly', () => {
    f.write('home/.codex/skills/.system/SKILL.md', 'x');
    f.write('home/.codex/skills/lower/skill.md', 'x');
    f.user('ok');
    assert.deepEqual(
      f.index().items.map((i) => i.id),
      ['eva:user:codex:ok'],
    );
  });

  it('never reads the workspace for the runtime: the assumed runtime is the options object only', () => {
    fs.writeFileSync(
      f.path('ws/config/eva.yaml'),
      fs.readFileSync(f.path('ws/config/eva.yaml'), 'utf8').replace('  env: dev', '  env: dev\n  mode: team'),
    );
    f.adapter(A0.replace('runtime_gate: normal', 'runtime_gate: team'));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').detail.eva.assumedRuntime, {
      mode: 'normal',
      teamWorker: false,
      interactiveUser: false,
    });
    assert.equal(r.item('adapters/review.yaml').detail.eva.evaDecision, 'display_only');
  });

  it('tells adapters that wrap the same skill under different capabilities where Eva-CLI routes, once each', () => {
    f.adapter(A0);
    f.adapter(
      A0.replace('id: review-skill', 'id: another').replace('workflow.review', 'workflow.check'),
      'another.yaml',
    );
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.conflict.multiple-providers').map((d) => [r.rel(d.file), d.message]),
      [
        [
          'config/adapters/another.yaml',
          'skill review has several providers; Eva-CLI routes to another (lexically first enabled adapter id)',
        ],
        [
          'config/adapters/review.yaml',
          'skill review has several providers; Eva-CLI routes to another (lexically first enabled adapter id)',
        ],
      ],
    );
  });

  it('gives a binding that is not shown no item id on its diagnostics', () => {
    f.write(
      'ws/config/adapters/cli.yaml',
      fs.readFileSync(`${__dirname}/../fixtures/corpus/eva/config/adapters/codex-cli.yaml`),
    );
    f.write(
      'ws/config/capabilities/rs.yaml',
      'id: rs\nname: R\nversion: 1.0.0\nenabled: true\nkind: skill\ncapability: workflow.review\nprovider: codex-cli\n',
    );
    const r = f.index();
    assert.deepEqual(r.items, []);
    assert.deepEqual(
      r.diagnostics('eva.capability.skill-provider-not-skill').map((d) => d.itemId),
      [null],
    );
  });

  it('names the conflicts an item takes part in, for show and explain', () => {
    f.adapter(A0, 'a.yaml');
    f.adapter(A0, 'b.yaml');
    f.adapter(A0.replace('id: review-skill', 'id: review-two'), 'c.yaml');
    const r = f.index();
    assert.deepEqual(r.item('adapters/a.yaml').detail.eva.conflicts, ['same_capability_multiple_provider']);
    // b is shadowed, never loaded: no provider of a's capability (§4.3 rules 1 and 6).
    assert.deepEqual(r.item('adapters/b.yaml').detail.eva.conflicts, ['duplicate_adapter_id']);
  });
});
