import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { A0, EvaFixture } from './helpers/evaFixture';
import { indexEva, indexEvaFolder } from '../../src/core/systems/eva/indexEva';
import { bundleKey } from '../../src/core/hashing/identity';
import { EMPTY_TRUST } from '../../src/core/decisions/trustView';
import { DEFAULT_EVA_RUNTIME } from '../../src/core/systems/eva/runtime';
import { MAX_HASHED_BYTES, MAX_HASHED_FILES } from '../../src/core/hashing/bundleContent';

/**
 * What the Eva index says of each project skill (eva.md §3.2, §4.5, §4.8, §6): the item's
 * fields and `detail.eva`, also for a manifest whose contract cannot be read, the bundle
 * key's name, the trust inputs it keeps, the project-level diagnostics, and which folders
 * are projects at all.
 */

const LIMIT = `skill content exceeds the review limit (${MAX_HASHED_FILES} files / ${MAX_HASHED_BYTES} bytes)`;

describe('Eva project skill items (eva.md §4.8)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('describes a skill adapter: its fields, the Eva id with its skill, and detail.eva', () => {
    f.adapter(`# review\n${A0}`);
    const u = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      [
        u.kind,
        u.name,
        u.qualifiedName,
        u.scope,
        u.workspace,
        u.parent,
        u.enabled,
        u.compatibility,
        u.location.range.start,
      ],
      [
        'skill-adapter',
        'review-skill',
        'review-skill (skill review)',
        'workspace',
        f.ws,
        null,
        null,
        null,
        { line: 1, character: 0 },
      ],
    );
    assert.equal(u.reviewToken, `${u.contentHash}.${u.capabilityHash}`);
    const e = u.detail.eva;
    assert.deepEqual(
      [
        e.evaKind,
        e.source,
        e.trustLevel,
        e.skillId,
        e.skillPath,
        e.script,
        e.schemas,
        e.capabilities,
        e.conflicts,
        e.effectiveTimeoutMs,
      ],
      [
        'workflow_skill',
        'project_adapter',
        'Project',
        'review',
        null,
        null,
        { input: 'inline', output: 'inline' },
        ['workflow.review'],
        [],
        60000,
      ],
    );
    assert.deepEqual(e.runtimeGate, {
      allowedModes: ['normal'],
      disallowTeamWorker: false,
      requiresInteractiveUser: false,
      form: 'string',
    });
    assert.deepEqual(e.requestedPermissions, {
      read_workspace: true,
      write_workspace: false,
      network: false,
      shell: false,
      env: [],
      fs_read: [],
      fs_write: [],
    });
    assert.ok(Object.keys(e.effectivePermissions).length > 0);
  });

  it('describes a lua_skill: its script, schema files and Eva id alone', () => {
    f.l0();
    const u = f.index().item('capabilities/lint.yaml');
    const e = u.detail.eva;
    assert.deepEqual(
      [
        u.qualifiedName,
        e.evaKind,
        e.source,
        e.script,
        e.skillPath,
        e.skillId,
        e.schemas.input,
        e.capabilities,
        e.effectiveTimeoutMs,
      ],
      [
        'lint-skill',
        'lua_skill',
        'project_capability',
        'config/skills/lint.lua',
        null,
        null,
        'file',
        ['workflow.lint'],
        30000,
      ],
    );
  });

  it('describes a skill adapter whose contract cannot be read by its kind, keyed by its id', () => {
    const noSkill = A0.replace(/skill:\n(  .*\n)+/, '');
    const abs = f.adapter(noSkill);
    const r = f.index();
    const u = r.item('adapters/review.yaml');
    assert.deepEqual(
      [u.decision, u.reasons, u.name, u.qualifiedName, u.detail.bundleKey],
      [
        'rejected',
        ['schema_invalid', 'not_reviewed'],
        'review-skill',
        'review-skill',
        bundleKey('eva', 'workspace', abs, 'review-skill'),
      ],
    );
    const e = u.detail.eva;
    assert.deepEqual(
      [
        e.evaDecision,
        e.evaReasons,
        e.target,
        e.evaKind,
        e.source,
        e.runtimeGate,
        e.schemas,
        e.requestedPermissions,
        e.effectivePermissions,
        e.capabilities,
        e.effectiveTimeoutMs,
      ],
      [
        'rejected',
        ['schema_invalid'],
        null,
        'workflow_skill',
        'project_adapter',
        null,
        { input: 'absent', output: 'absent' },
        {},
        {},
        [],
        120000,
      ],
    );
    // The same file again: shadowed first, still schema_invalid.
    f.adapter(noSkill, 'z.yaml');
    const z = f.index().item('adapters/z.yaml');
    assert.deepEqual(
      [z.decision, z.detail.eva.evaReasons, z.shadowedBy],
      ['shadowed', ['duplicate_id_shadowed', 'schema_invalid'], u.id],
    );
  });

  it('names a lua_skill without a readable contract by its path, as a lua_skill of the project', () => {
    const abs = f.write('ws/config/capabilities/t.yaml', 'id: [t]\nkind: lua_skill\n');
    const u = f.index().item('capabilities/t.yaml');
    assert.deepEqual(
      [u.kind, u.name, u.decision, u.detail.eva.evaKind, u.detail.eva.source, u.detail.bundleKey],
      [
        'lua-skill',
        'config/capabilities/t.yaml',
        'rejected',
        'lua_skill',
        'project_capability',
        bundleKey('eva', 'workspace', abs, 'config/capabilities/t.yaml'),
      ],
    );
  });

  it('allows skill.path under the project, ~/.codex/skills and ~/.agents/skills, nowhere else in the home', () => {
    for (const [p, reasons] of [
      ['~/.codex/skills/x/SKILL.md', ['loaded_unreviewed', 'not_reviewed']],
      ['~/.agents/skills/x/SKILL.md', ['loaded_unreviewed', 'not_reviewed']],
      ['~/other/x/SKILL.md', ['path_not_allowed', 'not_reviewed']],
    ] as const) {
      f.adapter(A0.replace('  id: review\n', `  id: review\n  path: ${p}\n`));
      const u = f.index().item('adapters/review.yaml');
      assert.deepEqual([u.reasons, u.detail.eva.skillPath], [reasons, p], p);
    }
  });

  it('gives a bundle whose covered content is past the limit no hashes and no link diagnostic', () => {
    f.l0();
    fs.truncateSync(f.path('ws/config/skills/lint.lua'), MAX_HASHED_BYTES + 1);
    const r = f.index();
    const u = r.item('capabilities/lint.yaml');
    assert.deepEqual(
      [u.contentHash, u.capabilityHash, u.reviewToken, u.detail.notCovered, u.reasons],
      [null, null, null, [LIMIT], ['loaded_unreviewed', 'not_reviewed']],
    );
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: ../out.md\n'));
    assert.deepEqual(f.index().diagnostics('eva.trust.symlink'), [], 'a path outside the roots is no link');
  });

  it('keeps the skill folder of a SKILL.md as a covered directory, and none for a single file or a lua_skill', () => {
    f.write('ws/skills/review/SKILL.md', 's');
    f.write('ws/docs/review.md', 'd');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: skills/review/SKILL.md\n'));
    f.adapter(
      A0.replace('id: review-skill', 'id: two').replace('  id: review\n', '  id: two\n  path: docs/review.md\n'),
      'two.yaml',
    );
    f.l0();
    const folder = indexEvaFolder(f.ws, f.home, DEFAULT_EVA_RUNTIME, EMPTY_TRUST);
    assert.deepEqual(
      [...(folder?.units.values() ?? [])].map((u) => [u.kind, u.coveredDirectories]),
      [
        ['skill-adapter', [f.path('ws/skills/review')]],
        ['skill-adapter', []],
        ['lua-skill', []],
      ],
    );
  });
});

describe('Eva project-level results (eva.md §1.1, §4.5)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('indexes only the folders that are Eva projects, and user items only beside one', () => {
    const plain = f.mkdir('plain');
    f.user('foo');
    assert.deepEqual(indexEva([plain], { home: f.home }), { items: [], diagnostics: [], projects: [] });
    f.adapter(A0);
    const r = indexEva([plain, f.ws], { home: f.home });
    assert.deepEqual(
      [r.projects, r.items.map((i) => i.id)],
      [[f.ws], [f.id('adapters/review.yaml'), 'eva:user:codex:foo']],
    );
  });

  it('lists only the configuration roots it scans', () => {
    f.write(
      'ws/config/eva.yaml',
      'config:\n  agent_dir: config/agents\n  adapter_dir: ../elsewhere\n  capability_dir: config/capabilities\n  policy_dir: config/policies\n  route_file: config/routes.yaml\n  schema_dir: config/schemas\n',
    );
    const folder = indexEvaFolder(f.ws, null, DEFAULT_EVA_RUNTIME, EMPTY_TRUST);
    assert.ok(
      folder &&
        !folder.roots.some((r) => r.includes('elsewhere')) &&
        folder.roots.includes(f.path('ws/config/capabilities')),
    );
  });

  it('puts the load-aborted warning on the first failing file, with its item when it is a skill', () => {
    f.l0();
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((d) => [r.rel(d.file), d.itemId, d.severity, d.message]),
      [
        [
          'config/capabilities/lint.yaml',
          r.item('capabilities/lint.yaml').id,
          'warning',
          'Eva-CLI stops loading this project at this file, so it would register no skill until it is fixed',
        ],
      ],
    );
    f.adapter(A0.replace('transport: skill', 'transport: stdio').replace('routing: {priority: 10}\n', ''), 'ctx.yaml');
    const ctx = f.index();
    assert.deepEqual(
      ctx.diagnostics('eva.project.load-aborted').map((d) => [ctx.rel(d.file), d.itemId]),
      [['config/adapters/ctx.yaml', null]],
    );
  });

  it('points a schema error of eva.yaml at the mapping that lacks the field', () => {
    const text = fs.readFileSync(f.path('ws/config/eva.yaml'), 'utf8');
    f.write('ws/config/eva.yaml', text.replace('  env: dev\n', ''));
    const r = f.index();
    const [d] = r.diagnostics('eva.project.config-invalid');
    assert.deepEqual(
      [d?.message, d?.range.start.line],
      ['required field is missing: $.runtime.env', text.split('\n').indexOf('runtime:')],
    );
  });

  it("points the embedded-schema warning at eva.yaml's schema_dir", () => {
    fs.rmSync(f.path('ws/config/schemas/adapter.schema.json'));
    const r = f.index();
    const told = r.diagnostics('eva.project.schema-missing');
    assert.equal(told.length, 1);
    const line = fs
      .readFileSync(f.path('ws/config/eva.yaml'), 'utf8')
      .split('\n')
      .findIndex((l) => l.startsWith('  schema_dir:'));
    assert.deepEqual([...new Set(told.map((d) => d.range.start.line))], [line]);
  });
});
