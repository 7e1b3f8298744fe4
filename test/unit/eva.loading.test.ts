import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Fixture } from './helpers/fixture';
import { A0, CORPUS } from './helpers/evaFixture';
import { loadEvaProject, type EvaProject } from '../../src/core/systems/eva/project';
import {
  MAX_FILES_PER_DIR,
  MAX_MANIFEST_BYTES,
  readManifest,
  readPrefix,
  scanUserSkills,
  scanYamlFiles,
} from '../../src/core/systems/eva/files';
import { EMBEDDED_SCHEMAS, loadSchemas, readSchemaObject } from '../../src/core/systems/eva/schemas';
import { ownRecordOf } from '../../src/core/documents/ownRecord';
import { readAndParse, readEntry, scanRoot, sniff, sniffRole } from '../../src/core/systems/eva/manifestEntry';
import * as fs from 'node:fs';

/**
 * Loading an Eva project (eva.md §1.1–§1.3, §2.1): the layered eva.yaml and its roots, the
 * manifest reader's refusals, the schema files, the classification of each manifest
 * (with the sniff of §4.2) and the user skill folders.
 */

const ROOTS =
  'config:\n  agent_dir: config/agents\n  adapter_dir: config/adapters\n  capability_dir: config/capabilities\n  policy_dir: config/policies\n  route_file: config/routes.yaml\n  schema_dir: config/schemas\n';

describe('Eva project loading (eva.md §1.1)', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.mkdir('ws/config/adapters');
    f.mkdir('ws/config/capabilities');
    f.mkdir('ws/config/policies');
    f.mkdir('ws/config/schemas');
  });
  afterEach(() => f.remove());

  const load = () => loadEvaProject(f.path('ws')) as EvaProject;
  const problems = (p: EvaProject) => p.diagnostics.map((d) => `${d.code} ${d.message} @${d.range.start.line + 1}`);

  it('is an Eva project only with a config/eva.yaml naming a file; one outside the folder is not read', () => {
    assert.equal(loadEvaProject(f.path('ws')), undefined, 'no eva.yaml');
    f.mkdir('ws/config/eva.yaml');
    assert.equal(loadEvaProject(f.path('ws')), undefined, 'a directory named eva.yaml');
    fs.rmdirSync(f.path('ws/config/eva.yaml'));
    // Eva reads the entry file through links (eva.linkedEntryFile.test.ts): a project, but never read here.
    f.write('elsewhere/eva.yaml', ROOTS);
    f.symlink(f.path('elsewhere/eva.yaml'), 'ws/config/eva.yaml');
    const linked = load();
    assert.deepEqual(
      [problems(linked), linked.document],
      [
        ['eva.project.root-outside config/eva.yaml resolves outside the workspace; Skillgate does not read it @1'],
        undefined,
      ],
    );
    f.write('out/config/eva.yaml', ROOTS);
    f.mkdir('ws2');
    f.symlink(f.path('out/config'), 'ws2/config');
    const out = loadEvaProject(f.path('ws2')) as EvaProject;
    assert.equal(out.document, undefined, 'config/ linking out of the folder');
    assert.deepEqual(out.roots, { adapter_dir: null, capability_dir: null, policy_dir: null, schema_dir: null });
  });

  it('reads the six roots: all present, no diagnostic, roots canonical, limits at the design defaults', () => {
    f.write('ws/config/eva.yaml', ROOTS);
    const p = load();
    assert.deepEqual([problems(p), p.shippedError], [[], false]);
    assert.deepEqual(p.roots, {
      adapter_dir: f.path('ws/config/adapters'),
      capability_dir: f.path('ws/config/capabilities'),
      policy_dir: f.path('ws/config/policies'),
      schema_dir: f.path('ws/config/schemas'),
    });
    assert.deepEqual([p.root, p.configFile], [f.path('ws'), f.path('ws/config/eva.yaml')]);
    assert.deepEqual(
      [p.maxManifestBytes, p.maxFilesPerDir, p.scanUserDirs],
      [MAX_MANIFEST_BYTES, MAX_FILES_PER_DIR, true],
    );
    assert.ok(p.document && p.value);
  });

  it('requires each of the six config keys as a non-empty string, at its field', () => {
    for (const key of ['agent_dir', 'adapter_dir', 'capability_dir', 'policy_dir', 'route_file', 'schema_dir']) {
      f.write('ws/config/eva.yaml', ROOTS.replace(new RegExp(`${key}: .*`), `${key}: ""`));
      const p = load();
      // lib.rs require_non_empty_path's words.
      assert.deepEqual(
        p.diagnostics.filter((d) => d.code === 'eva.project.config-invalid').map((d) => d.message),
        ['path field cannot be empty'],
        key,
      );
      assert.equal(p.shippedError, true, key);
      if (key === 'adapter_dir')
        assert.equal(p.roots.adapter_dir, f.path('ws/config/adapters'), 'the default stands in');
    }
    f.write('ws/config/eva.yaml', 'runtime: {env: dev}\n');
    const none = load();
    assert.equal(none.diagnostics.filter((d) => d.message === 'required field is missing').length, 6);
    assert.equal(none.roots.adapter_dir, f.path('ws/config/adapters'), 'the sample default stands in');
  });

  it('reads each root as Eva does: the base file by the event stream, then the merged Value, which looks through tags only', () => {
    // load_eva_config reads any scalar's text; load_eva_config_value then deserializes the merged
    // serde_yaml::Value, whose deserialize_string untags and takes only a Value::String.
    const refused = (v: string) => `failed to parse eva.yaml: invalid type: ${v}, expected path string`;
    for (const [written, root, message] of [
      ['!t hidden', 'ws/hidden', undefined],
      ['!!str 0x10', 'ws/0x10', undefined],
      ['"0x10"', 'ws/0x10', undefined],
      ['0x10', 'ws/config/adapters', refused('integer `16`')],
      ['!t 5', 'ws/config/adapters', refused('integer `5`')],
      ['true', 'ws/config/adapters', refused('boolean `true`')],
      ['~', 'ws/config/adapters', refused('unit value')],
      [
        '[a]',
        'ws/config/adapters',
        'failed to parse YAML: config.adapter_dir: invalid type: sequence, expected path string',
      ],
      ['', 'ws/config/adapters', 'path field cannot be empty'],
    ] as const) {
      f.mkdir(root);
      f.write('ws/config/eva.yaml', ROOTS.replace('adapter_dir: config/adapters', `adapter_dir: ${written}`));
      const p = load();
      assert.deepEqual(
        [p.roots.adapter_dir, problems(p)],
        [f.path(root), message ? [`eva.project.config-invalid ${message} @3`] : []],
        written,
      );
    }
    f.write(
      'ws/config/eva.yaml',
      `config: !t {${ROOTS.slice(8).trim().split('\n  ').join(', ').replace('config/adapters', '!t hidden')}}\n`,
    );
    assert.deepEqual(
      [load().roots.adapter_dir, problems(load())],
      [f.path('ws/hidden'), []],
      'a tagged config mapping',
    );
  });

  it("names the layers by the base file's runtime.env as serde reads it: any scalar's text, refused when padded", () => {
    f.mkdir('ws/a');
    // The merged value is read again: a number names the layer, then is no String there.
    const notString = (v: string) =>
      `eva.project.config-invalid failed to parse eva.yaml: invalid type: ${v}, expected a string @8`;
    for (const [env, refused] of [
      ['!t dev', []],
      ['5', [notString('integer `5`')]],
      ['!t 0x10', [notString('integer `16`')]],
    ] as const) {
      const name = env.replace('!t ', '');
      f.write('ws/config/eva.yaml', `${ROOTS}runtime: {env: ${env}}\n`);
      f.write(`ws/config/environments/${name}.yaml`, 'config: {adapter_dir: a}\n');
      const p = load();
      assert.deepEqual([p.roots.adapter_dir, problems(p)], [f.path('ws/a'), refused], env);
      fs.rmSync(f.path(`ws/config/environments/${name}.yaml`));
    }
    f.write('ws/config/eva.yaml', `${ROOTS}runtime: {env: !t dev}\n`);
    f.write('ws/config/environments/dev.yaml', 'runtime: {env: ""}\nconfig: {adapter_dir: a}\n');
    assert.deepEqual(
      problems(load()),
      ['eva.project.config-invalid config/environments/dev.yaml: configuration layer changes the type of env @1'],
      "a layer's env over a tagged one is a type change",
    );
    fs.rmSync(f.path('ws/config/environments/dev.yaml'));
    // require_non_empty: a padded env stops load_eva_config before any layer is read.
    f.write('ws/config/eva.yaml', `${ROOTS}runtime: {env: " dev"}\n`);
    f.write('ws/config/environments/ dev.yaml', 'config: {adapter_dir: a}\n');
    assert.equal(load().roots.adapter_dir, f.path('ws/config/adapters'));
  });

  it('reports an unreadable, oversized, unparseable or non-mapping eva.yaml and falls back to the sample roots', () => {
    const cases: [string | Buffer, string][] = [
      [Buffer.from([0x61, 0x3a, 0x20, 0xe9, 0x0a]), 'failed to read eva.yaml: stream did not contain valid UTF-8'],
      [
        `a: 1\n#${'x'.repeat(MAX_MANIFEST_BYTES)}\n`,
        `manifest is larger than max_manifest_bytes (${MAX_MANIFEST_BYTES} bytes)`,
      ],
      ['- a\n', 'schema type mismatch: expected object, got array'],
      ['', 'schema type mismatch: expected object, got null'],
      ['x\n', 'schema type mismatch: expected object, got string'],
    ];
    for (const [text, message] of cases) {
      f.write('ws/config/eva.yaml', text);
      const p = load();
      assert.deepEqual(problems(p), [`eva.project.config-invalid ${message} @1`]);
      assert.deepEqual([p.shippedError, p.document, p.value], [true, undefined, undefined]);
      assert.equal(p.roots.policy_dir, f.path('ws/config/policies'));
    }
    // A tagged mapping is that mapping to Eva (its schema's `as_mapping`, serde derive): read, here lacking every root.
    f.write('ws/config/eva.yaml', '!tag {a: 1}\n');
    assert.deepEqual(problems(load()), Array(6).fill('eva.project.config-invalid required field is missing @1'));
    f.write('ws/config/eva.yaml', 'a: [\n');
    const parse = load();
    assert.match(
      problems(parse)[0] as string,
      /^eva\.project\.config-invalid failed to parse YAML: .* at line \d+ column \d+ @\d+$/,
    );
  });

  it('does not scan a root outside the project, lexically or through a link; an absolute root inside is used', () => {
    f.mkdir('outside');
    f.symlink(f.path('outside'), 'ws/config/linked');
    f.write(
      'ws/config/eva.yaml',
      ROOTS.replace('adapter_dir: config/adapters', 'adapter_dir: ../outside')
        .replace('capability_dir: config/capabilities', 'capability_dir: config/linked')
        .replace('policy_dir: config/policies', `policy_dir: ${f.path('ws/config/policies')}`),
    );
    const p = load();
    assert.deepEqual(problems(p), [
      'eva.project.root-outside adapter_dir resolves outside the workspace; Skillgate does not scan it @3',
      'eva.project.root-outside capability_dir resolves outside the workspace; Skillgate does not scan it @4',
    ]);
    assert.deepEqual(
      [p.roots.adapter_dir, p.roots.capability_dir, p.roots.policy_dir],
      [null, null, f.path('ws/config/policies')],
    );
    assert.equal(p.shippedError, false, 'upstream would follow it: not a shipped error');
  });

  it('a declared root that does not exist is the upstream error; a missing default root is no news', () => {
    fs.rmdirSync(f.path('ws/config/capabilities'));
    f.write('ws/config/eva.yaml', ROOTS);
    const p = load();
    assert.deepEqual(problems(p), [
      'eva.project.root-missing failed to read config root: No such file or directory (os error 2) @4',
    ]);
    assert.deepEqual([p.roots.capability_dir, p.shippedError], [null, true]);
    f.write('ws/config/eva.yaml', 'x: [\n');
    const broken = load();
    assert.deepEqual(
      broken.diagnostics.map((d) => d.code),
      ['eva.project.config-invalid'],
    );
    assert.equal(broken.roots.capability_dir, null);
  });

  it('lets discovery.limits lower the two caps, never raise them; ignores values that are not whole non-negative numbers', () => {
    const limits = (m: string, n: string) => {
      f.write(
        'ws/config/eva.yaml',
        `${ROOTS}discovery:\n  limits: {max_manifest_bytes: ${m}, max_files_per_dir: ${n}}\n`,
      );
      const p = load();
      return [p.maxManifestBytes, p.maxFilesPerDir];
    };
    assert.deepEqual(limits('100', '2'), [100, 2]);
    assert.deepEqual(limits('0', '0'), [0, 0]);
    assert.deepEqual(limits(String(MAX_MANIFEST_BYTES), String(MAX_FILES_PER_DIR)), [
      MAX_MANIFEST_BYTES,
      MAX_FILES_PER_DIR,
    ]);
    assert.deepEqual(limits(String(MAX_MANIFEST_BYTES + 1), '501'), [MAX_MANIFEST_BYTES, MAX_FILES_PER_DIR]);
    assert.deepEqual(limits('-1', '1.5'), [MAX_MANIFEST_BYTES, MAX_FILES_PER_DIR]);
    assert.deepEqual(limits('"10"', 'null'), [MAX_MANIFEST_BYTES, MAX_FILES_PER_DIR]);
    f.write('ws/config/eva.yaml', `${ROOTS}discovery: {limits: 3}\n`);
    assert.equal(load().maxFilesPerDir, MAX_FILES_PER_DIR);
  });

  it('turns user enumeration off only for scan_user_dirs: false', () => {
    for (const [v, expected] of [
      ['false', false],
      ['true', true],
      ['"false"', true],
      ['0', true],
    ] as const) {
      f.write('ws/config/eva.yaml', `${ROOTS}discovery: {scan_user_dirs: ${v}}\n`);
      assert.equal(load().scanUserDirs, expected, v);
    }
  });

  it('deep-merges profile, user and environment layers in that order, mappings key by key', () => {
    f.mkdir('ws/a');
    f.mkdir('ws/b');
    f.mkdir('ws/c');
    f.write('ws/config/eva.yaml', `${ROOTS}runtime: {env: dev}\ndiscovery: {limits: {max_files_per_dir: 9}}\n`);
    f.write(
      'ws/config/profiles/dev.yaml',
      'config: {adapter_dir: a, capability_dir: a}\ndiscovery: {scan_user_dirs: false}\n',
    );
    f.write('ws/config/eva.user.yaml', 'config: {capability_dir: b, policy_dir: b}\n');
    f.write('ws/config/environments/dev.yaml', 'config: {policy_dir: c}\n');
    const p = load();
    assert.deepEqual(problems(p), []);
    assert.deepEqual(
      [p.roots.adapter_dir, p.roots.capability_dir, p.roots.policy_dir, p.roots.schema_dir],
      [f.path('ws/a'), f.path('ws/b'), f.path('ws/c'), f.path('ws/config/schemas')],
    );
    assert.deepEqual([p.scanUserDirs, p.maxFilesPerDir], [false, 9]);
  });

  it('reads the layer runtime.env names as upstream joins it, inside the workspace, and none without runtime.env', () => {
    // Upstream: config_dir.join("profiles").join(format!("{env}.yaml")), read when it exists.
    f.mkdir('ws/a');
    for (const [env, layer] of [
      ['"eu/prod"', 'ws/config/profiles/eu/prod.yaml'],
      ['"../x"', 'ws/config/x.yaml'],
      ['".."', 'ws/config/profiles/...yaml'],
      ['"."', 'ws/config/profiles/..yaml'],
    ] as const) {
      f.write('ws/config/eva.yaml', `${ROOTS}runtime: {env: ${env}}\n`);
      f.write(layer, 'config: {adapter_dir: a}\n');
      const p = load();
      assert.deepEqual([p.roots.adapter_dir, problems(p)], [f.path('ws/a'), []], env);
      fs.rmSync(f.path(layer));
    }
    f.write('ws/config/eva.yaml', `${ROOTS}runtime: {env: "../../../outside"}\n`);
    f.write('outside.yaml', 'config: {adapter_dir: /}\n');
    assert.deepEqual(
      [load().roots.adapter_dir, problems(load())],
      [
        f.path('ws/config/adapters'),
        [
          'eva.project.root-outside config/profiles/../../../outside.yaml resolves outside the workspace; Skillgate does not read it @1',
        ],
      ],
      'a layer outside the workspace is not read, and said so',
    );
    f.write('ws/config/eva.yaml', `${ROOTS}runtime: dev\n`);
    f.write('ws/config/profiles/dev.yaml', 'config: {adapter_dir: a}\n');
    assert.equal(load().roots.adapter_dir, f.path('ws/config/adapters'), 'runtime is not a mapping');
    f.write('ws/config/eva.yaml', `${ROOTS}runtime: {env: dev.x_1-2}\n`);
    f.write('ws/config/profiles/dev.x_1-2.yaml', 'config: {adapter_dir: a}\n');
    assert.equal(load().roots.adapter_dir, f.path('ws/a'), 'a plain env name is read');
  });

  it('refuses a layer that changes the type of a key, and reports a layer that does not read or parse', () => {
    f.write('ws/config/eva.yaml', `${ROOTS}runtime: {env: dev}\nextra: [1]\n`);
    f.write('ws/config/profiles/dev.yaml', 'extra: {a: 1}\n');
    f.write('ws/config/environments/dev.yaml', 'runtime: 3\n');
    const p = load();
    assert.deepEqual(problems(p), [
      'eva.project.config-invalid config/profiles/dev.yaml: configuration layer changes the type of extra @1',
      'eva.project.config-invalid config/environments/dev.yaml: configuration layer changes the type of runtime @1',
    ]);
    assert.equal(p.shippedError, true);
    f.write('ws/config/profiles/dev.yaml', 'a: [\n');
    f.write('ws/config/environments/dev.yaml', Buffer.from([0xff, 0x0a]));
    const broken = load();
    assert.equal(broken.diagnostics.length, 2);
    assert.match(broken.diagnostics[0]?.message as string, /^config\/profiles\/dev\.yaml: failed to parse YAML: /);
    assert.equal(
      broken.diagnostics[1]?.message,
      'failed to read eva.yaml override: config/environments/dev.yaml: stream did not contain valid UTF-8',
    );
  });

  it('replaces scalars and sequences, lets null replace or be replaced, and skips a layer that is not a mapping', () => {
    f.write('ws/config/eva.yaml', `${ROOTS}runtime: {env: dev}\nlist: [1, 2]\nnothing: null\ngone: 1\n`);
    f.write('ws/config/profiles/dev.yaml', 'list: [3]\nnothing: {a: 1}\ngone: null\n');
    f.write('ws/config/environments/dev.yaml', '- not a mapping\n');
    const p = load();
    assert.deepEqual(problems(p), []);
    assert.deepEqual(JSON.parse(JSON.stringify([p.value?.['list'], p.value?.['nothing'], p.value?.['gone']])), [
      [3],
      { a: 1 },
      null,
    ]);
  });

  it('reads a layer that is a link into the workspace, as upstream follows it, and refuses one that is not a file', () => {
    f.mkdir('ws/a');
    f.write('ws/config/eva.yaml', ROOTS);
    f.write('ws/other.yaml', 'config: {adapter_dir: a}\n');
    f.symlink(f.path('ws/other.yaml'), 'ws/config/eva.user.yaml');
    assert.deepEqual([load().roots.adapter_dir, problems(load())], [f.path('ws/a'), []]);
    fs.rmSync(f.path('ws/config/eva.user.yaml'));
    f.write('out/other.yaml', 'config: {adapter_dir: /}\n');
    f.symlink(f.path('out/other.yaml'), 'ws/config/eva.user.yaml');
    assert.deepEqual(
      [load().roots.adapter_dir, problems(load())],
      [
        f.path('ws/config/adapters'),
        ['eva.project.root-outside config/eva.user.yaml resolves outside the workspace; Skillgate does not read it @1'],
      ],
    );
    fs.rmSync(f.path('ws/config/eva.user.yaml'));
    f.mkdir('ws/config/eva.user.yaml');
    const p = load();
    // `path.exists()` holds for a directory, and `read_to_string` then fails: the whole project fails.
    assert.deepEqual(
      [p.roots.adapter_dir, problems(p), p.shippedError],
      [
        f.path('ws/config/adapters'),
        [
          'eva.project.config-invalid failed to read eva.yaml override: config/eva.user.yaml: Is a directory (os error 21) @1',
        ],
        true,
      ],
    );
  });

  it('resolves a root as the OS does: `..` after a link leaves the link target, not the link', () => {
    // Upstream reads `project_root.join(adapter_dir)` unnormalized; `config/lnk/../adapters`
    // with `config/lnk -> ../deep/a` is `deep/adapters`, whatever `config/adapters` holds.
    f.mkdir('ws/deep/a');
    f.mkdir('ws/deep/adapters');
    f.symlink('../deep/a', 'ws/config/lnk');
    f.write('ws/config/eva.yaml', ROOTS.replace('adapter_dir: config/adapters', 'adapter_dir: config/lnk/../adapters'));
    assert.deepEqual([load().roots.adapter_dir, problems(load())], [f.path('ws/deep/adapters'), []]);
    f.mkdir('out/a');
    f.mkdir('out/adapters');
    fs.rmSync(f.path('ws/config/lnk'));
    f.symlink(f.path('out/a'), 'ws/config/lnk');
    const p = load();
    assert.deepEqual(
      [p.roots.adapter_dir, problems(p)],
      [null, ['eva.project.root-outside adapter_dir resolves outside the workspace; Skillgate does not scan it @3']],
    );
  });
});

describe('Eva manifest reading and enumeration (eva.md §1.2, §1.3)', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
  });
  afterEach(() => f.remove());

  it('reads a manifest as read_to_string would, refusing by size, type and encoding with the upstream detail', () => {
    const ok = readManifest(f.write('a.yaml', 'a: 1\n'), 10);
    assert.deepEqual(ok.ok && [ok.text, ok.bytes.length], ['a: 1\n', 5]);
    assert.deepEqual(readManifest(f.write('b.yaml', 'a: 1\n'), 4), {
      ok: false,
      problem: 'too-large',
      detail: '5 bytes',
    });
    assert.deepEqual(readManifest(f.write('c.yaml', 'a: 1\n'), 5).ok, true, 'exactly at the limit');
    assert.deepEqual(readManifest(f.path('none.yaml'), 10), {
      ok: false,
      problem: 'read',
      detail: 'No such file or directory (os error 2)',
      fault: { code: 'ENOENT', errno: -2 },
    });
    assert.deepEqual(readManifest(f.symlink(f.path('a.yaml'), 'l.yaml'), 10), {
      ok: false,
      problem: 'read',
      detail: 'is a symbolic link',
    });
    assert.deepEqual(readManifest(f.mkdir('d.yaml'), 10), {
      ok: false,
      problem: 'read',
      detail: 'Is a directory (os error 21)',
    });
    assert.deepEqual(readManifest(f.write('e.yaml', Buffer.from([0xfe, 0xff, 0, 0x61])), 10), {
      ok: false,
      problem: 'read',
      detail: 'stream did not contain valid UTF-8',
    });
  });

  it('reads at most a prefix of a regular file, never through a link', () => {
    const file = f.write('a.txt', 'abcdef');
    assert.equal(readPrefix(file, 3)?.toString(), 'abc');
    assert.equal(readPrefix(file, 100)?.toString(), 'abcdef');
    assert.equal(readPrefix(f.symlink(file, 'l.txt'), 3), undefined);
    assert.equal(readPrefix(f.mkdir('dir'), 3), undefined);
    assert.equal(readPrefix(f.path('none'), 3), undefined);
  });

  it('caps each directory separately, counts the skipped, and records links and unreadable roots', () => {
    for (const n of ['a', 'b', 'c']) f.write(`root/${n}.yaml`, 'x: 1\n');
    for (const n of ['a', 'b']) f.write(`root/sub/${n}.yml`, 'x: 1\n');
    f.write('root/readme.md', 'x');
    f.symlink(f.path('root/a.yaml'), 'root/link.yaml');
    f.symlink(f.path('root/sub'), 'root/linkdir');
    const scan = scanYamlFiles(f.path('root'), 2);
    assert.deepEqual(
      scan.files.map((p) => path.relative(f.root, p)),
      ['root/a.yaml', 'root/b.yaml', 'root/sub/a.yml', 'root/sub/b.yml'],
    );
    assert.deepEqual(scan.overflow, [{ first: f.path('root/c.yaml'), skipped: 1 }]);
    assert.deepEqual(scan.symlinks.map((p) => path.basename(p)).sort(), ['link.yaml', 'linkdir']);
    assert.deepEqual(scan.errors, []);
    const none = scanYamlFiles(f.path('missing'), 2);
    assert.deepEqual([none.files, none.errors.length, none.errors[0]?.dir], [[], 1, f.path('missing')]);
    assert.deepEqual(
      scanYamlFiles(f.path('root'), 0)
        .overflow.map((o) => o.skipped)
        .sort(),
      [2, 3],
    );
  });

  it('lists user skill folders: direct, non-hidden directories with a regular or linked SKILL.md, sorted, capped', () => {
    const root = f.mkdir('home/.codex/skills');
    f.write('home/.codex/skills/b/SKILL.md', 'x');
    f.write('home/.codex/skills/a/SKILL.md', 'x');
    f.write('home/.codex/skills/.system/SKILL.md', 'x');
    f.write('home/.codex/skills/no-skill/README.md', 'x');
    f.write('home/.codex/skills/file', 'x');
    f.mkdir('home/.codex/skills/dir-named/SKILL.md');
    f.write('real.md', 'x');
    f.symlink(f.path('real.md'), 'home/.codex/skills/c/SKILL.md');
    f.symlink(f.path('nowhere.md'), 'home/.codex/skills/d/SKILL.md');
    f.write('outside/e/SKILL.md', 'x');
    f.symlink(f.path('outside/e'), 'home/.codex/skills/e');
    const dirs = scanUserSkills(root, 'codex', 3);
    assert.deepEqual(
      dirs.map((d) => [d.name, d.skillFileIsLink, d.overCap, d.realSkillFile, d.root]),
      [
        ['a', false, false, f.path('home/.codex/skills/a/SKILL.md'), 'codex'],
        ['b', false, false, f.path('home/.codex/skills/b/SKILL.md'), 'codex'],
        ['c', true, false, f.path('real.md'), 'codex'],
        ['e', false, true, f.path('outside/e/SKILL.md'), 'codex'],
      ],
    );
    assert.deepEqual(
      [dirs[0]?.dir, dirs[0]?.skillFile],
      [f.path('home/.codex/skills/a'), f.path('home/.codex/skills/a/SKILL.md')],
    );
    assert.deepEqual(scanUserSkills(f.path('home/.agents/skills'), 'agents', 3), [], 'no root');
    assert.deepEqual(scanUserSkills(f.path('real.md'), 'agents', 3), [], 'a root that is a file');
  });
});

describe('Eva schema files (eva.md §2.1, §2.5)', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
  });
  afterEach(() => f.remove());

  it('reads a schema file as a JSON object (BOM allowed); refuses other JSON, bad JSON, a missing or oversized file', () => {
    // The value serde_yaml reads (eva.md §2.1), a mapping with no prototype.
    assert.deepEqual(readSchemaObject(f.write('a.json', '\ufeff{"type":"object"}')), {
      ok: true,
      value: ownRecordOf(Object.entries({ type: 'object' })),
    });
    for (const text of ['[1]', 'null', '"s"'])
      assert.deepEqual(readSchemaObject(f.write('b.json', text)), {
        ok: false,
        missing: false,
        message: 'schema file must contain a JSON object',
      });
    assert.deepEqual(readSchemaObject(f.write('c.json', '{"type": ')), {
      ok: false,
      missing: false,
      message: 'failed to parse JSON Schema',
    });
    assert.deepEqual(readSchemaObject(f.path('none.json')), {
      ok: false,
      missing: true,
      message: 'failed to read JSON Schema: No such file or directory (os error 2)',
    });
    assert.deepEqual(readSchemaObject(f.write('d.json', `{"a":"${'x'.repeat(MAX_MANIFEST_BYTES)}"}`)), {
      ok: false,
      missing: false,
      message: 'schema file is larger than 1048576 bytes',
    });
    assert.deepEqual(readSchemaObject(f.symlink(f.path('a.json'), 'l.json')), {
      ok: false,
      missing: false,
      message: 'failed to read JSON Schema: is a symbolic link',
    });
  });

  it('refuses a schema file that gives a key twice: upstream reads it with serde_yaml, which refuses it, not as JSON.parse (last one wins)', () => {
    // read_schema (schema.rs) is serde_yaml::from_str into a Value: "duplicate entry with key", so
    // "failed to parse JSON Schema" and Eva loads nothing; a project schema is then not used.
    assert.deepEqual(readSchemaObject(f.write('dup.json', '{"type":"object","required":["id"],"required":[]}')), {
      ok: false,
      missing: false,
      message: 'failed to parse JSON Schema',
    });
    f.write('s/adapter.schema.json', '{"type":"object","properties":{"id":{"type":"number","type":"string"}}}');
    const loaded = loadSchemas(f.path('s'), '/p/config/eva.yaml', undefined);
    assert.equal(loaded.schemas.adapter, EMBEDDED_SCHEMAS.adapter);
    assert.match(loaded.diagnostics[0]?.message ?? '', /^failed to parse JSON Schema adapter\.schema\.json/);
  });

  it("uses the project's schemas when they read, else the embedded copy with a warning per file at schema_dir", () => {
    f.write('s/adapter.schema.json', '{"type":"object","required":["x"]}');
    f.write('s/eva.schema.json', '[1]');
    const range = { start: { line: 7, character: 2 }, end: { line: 7, character: 12 } };
    const loaded = loadSchemas(f.path('s'), '/p/config/eva.yaml', range);
    assert.deepEqual(loaded.schemas.adapter, ownRecordOf(Object.entries({ type: 'object', required: ['x'] })));
    assert.equal(loaded.schemas.eva, EMBEDDED_SCHEMAS.eva);
    assert.equal(loaded.schemas.capability, EMBEDDED_SCHEMAS.capability);
    assert.deepEqual(
      loaded.diagnostics.map((d) => [d.code, d.severity, d.file, d.range.start.line, d.message]),
      [
        [
          'eva.project.schema-missing',
          'warning',
          '/p/config/eva.yaml',
          7,
          "failed to read JSON Schema capability.schema.json: No such file or directory (os error 2); using Skillgate's embedded copy",
        ],
        [
          'eva.project.schema-missing',
          'warning',
          '/p/config/eva.yaml',
          7,
          "failed to read JSON Schema eva.schema.json: schema file must contain a JSON object; using Skillgate's embedded copy",
        ],
        [
          'eva.project.schema-missing',
          'warning',
          '/p/config/eva.yaml',
          7,
          "failed to read JSON Schema policy.schema.json: No such file or directory (os error 2); using Skillgate's embedded copy",
        ],
      ],
    );
    const none = loadSchemas(null, '/p/config/eva.yaml', undefined);
    assert.deepEqual([none.diagnostics, none.schemas], [[], EMBEDDED_SCHEMAS]);
    const upstream = loadSchemas(path.join(CORPUS, 'config/schemas'), '/p/config/eva.yaml', undefined);
    assert.deepEqual(upstream.diagnostics, []);
  });
});

describe('Eva manifest classification (eva.md §4.2)', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.write('ws/config/eva.yaml', ROOTS);
    for (const d of ['adapters', 'capabilities', 'policies', 'schemas']) f.mkdir(`ws/config/${d}`);
  });
  afterEach(() => f.remove());

  const schemas = { schemas: EMBEDDED_SCHEMAS, diagnostics: [] };
  const entry = (rel: string, text: string | Buffer, area: 'adapter' | 'capability' = 'adapter') => {
    const abs = f.write(`ws/config/${area === 'adapter' ? 'adapters' : 'capabilities'}/${rel}`, text);
    return readEntry(abs, area, loadEvaProject(f.path('ws')) as EvaProject, 'ws', schemas);
  };

  it('classifies by transport and kind as read', () => {
    const a = entry('a.yaml', A0);
    assert.deepEqual(
      [a.role, a.id, a.itemId, a.rel, a.unreadable, a.shipped, a.check?.invalid],
      [
        'skill-adapter',
        'review-skill',
        'eva:ws:adapter:config/adapters/a.yaml',
        'config/adapters/a.yaml',
        null,
        false,
        false,
      ],
    );
    assert.equal(entry('b.yaml', A0.replace('transport: skill', 'transport: stdio')).role, 'context');
    const cap = 'id: c\nname: C\nversion: 1.0.0\nenabled: true\ncapability: workflow.x\n';
    assert.equal(entry('l.yaml', `${cap}kind: lua_skill\n`, 'capability').role, 'lua-skill');
    assert.equal(entry('s.yaml', `${cap}kind: skill\n`, 'capability').role, 'binding');
    assert.equal(entry('m.yaml', `${cap}kind: mcp_tool\n`, 'capability').role, 'context');
  });

  it('sniffs the role of a manifest whose transport or kind cannot be read, and marks it invalid as shipped', () => {
    const list = entry('list.yaml', '- transport: skill\n');
    assert.deepEqual([list.role, list.check?.invalid, list.shipped, list.id], ['context', true, true, null]);
    const tagged = entry('t.yaml', A0.replace('transport: skill', 'transport: !x skill'));
    assert.deepEqual([tagged.role, tagged.check?.invalid], ['context', true]);
    const quoted = entry('q.yaml', A0.replace('transport: skill', 'transport: [skill]') + 'other:\n  x: 1\n');
    assert.equal(quoted.role, 'context');
    const number = entry('n.yaml', A0.replace('transport: skill', 'transport: 5'));
    assert.deepEqual([number.role, number.check?.invalid, number.shipped], ['context', true, true]);
    const kindless = entry('k.yaml', 'id: c\nkind: [lua_skill]\n', 'capability');
    assert.deepEqual([kindless.role, kindless.check?.invalid], ['context', true]);
  });

  it('an unparseable file is a rejected skill item when its raw text says transport: skill', () => {
    const e = entry('bad.yaml', A0.replace('routing: {priority: 10}', 'routing: {priority: 10'));
    assert.deepEqual(
      [e.role, e.unreadable, e.doc, e.bytes, e.check, e.id, e.shipped],
      ['skill-adapter', 'schema_invalid', undefined, undefined, undefined, null, true],
    );
    assert.deepEqual(
      e.diagnostics.map((d) => d.code),
      ['eva.yaml.parse'],
    );
    const other = entry('bad2.yaml', 'transport: stdio\nx: [\n');
    assert.equal(other.role, 'context');
  });

  it('a manifest over the size cap is manifest_too_large, sniffed, and not a shipped error', () => {
    f.write('ws/config/eva.yaml', `${ROOTS}discovery: {limits: {max_manifest_bytes: 100}}\n`);
    const e = entry('big.yaml', A0);
    assert.deepEqual([e.role, e.unreadable, e.shipped], ['skill-adapter', 'manifest_too_large', false]);
    assert.deepEqual(
      e.diagnostics.map((d) => [d.code, d.message]),
      [['eva.manifest.too-large', 'manifest is larger than max_manifest_bytes (100 bytes)']],
    );
  });

  it('a manifest that is not UTF-8 is read by the sniff as UTF-16 by its BOM, else as lossy UTF-8', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(A0, 'utf16le')]);
    const e = entry('le.yaml', le);
    assert.deepEqual([e.role, e.unreadable], ['skill-adapter', 'schema_invalid']);
    assert.deepEqual(
      e.diagnostics.map((d) => [d.code, d.message]),
      [['eva.manifest.read', 'failed to read configuration file: stream did not contain valid UTF-8']],
    );
    const be = Buffer.from(A0, 'utf16le').swap16();
    assert.equal(entry('be.yaml', Buffer.concat([Buffer.from([0xfe, 0xff]), be])).role, 'skill-adapter');
    assert.equal(
      entry('latin.yaml', Buffer.from(A0.replace('Review Skill', 'R\u00e9view'), 'latin1')).role,
      'skill-adapter',
    );
    assert.equal(
      entry(
        'lekind.yaml',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('kind: lua_skill\n', 'utf16le')]),
        'capability',
      ).role,
      'lua-skill',
    );
  });

  it('sniffs only whole lines: quotes and a comment allowed, CRLF and CR line ends', () => {
    assert.equal(sniffRole('transport: "skill" # x', 'adapter'), 'skill-adapter');
    assert.equal(sniffRole("transport:\t'skill'", 'adapter'), 'skill-adapter');
    assert.equal(sniffRole('a: 1\r\ntransport: skill\r\n', 'adapter'), 'skill-adapter');
    assert.equal(sniffRole('a: 1\rtransport: skill\r', 'adapter'), 'skill-adapter');
    assert.equal(sniffRole(' transport: skill', 'adapter'), 'context');
    assert.equal(sniffRole('transport: skills', 'adapter'), 'context');
    assert.equal(sniffRole('x transport: skill', 'adapter'), 'context');
    assert.equal(sniffRole('kind: skill', 'adapter'), 'context');
    assert.equal(sniffRole('kind: skill', 'capability'), 'binding');
    assert.equal(sniffRole('kind: "lua_skill"', 'capability'), 'lua-skill');
    assert.equal(sniffRole('kind: mcp_tool', 'capability'), 'context');
    assert.equal(sniffRole('transport: skill', 'capability'), 'context');
    assert.equal(sniffRole(undefined, 'adapter'), 'context');
    assert.equal(sniff(f.path('none.yaml')), undefined);
  });

  it('readAndParse reports a parse error at its line', () => {
    const r = readAndParse(f.write('p.yaml', 'a: 1\nb: [\n'), 1000);
    assert.ok('diagnostic' in r);
    assert.equal(r.diagnostic.code, 'eva.yaml.parse');
    assert.equal(r.unreadable, 'schema_invalid');
    assert.equal(r.sniffText, 'a: 1\nb: [\n');
  });

  it('scanRoot reports each link and each directory past the cap, and scans nothing for a root not scanned', () => {
    f.write('ws/config/eva.yaml', `${ROOTS}discovery: {limits: {max_files_per_dir: 1}}\n`);
    f.write('ws/config/adapters/a.yaml', A0);
    f.write('ws/config/adapters/b.yaml', A0);
    f.write('ws/config/adapters/c.yaml', A0);
    f.symlink(f.path('ws/config/adapters/a.yaml'), 'ws/config/adapters/l.yaml');
    const project = loadEvaProject(f.path('ws')) as EvaProject;
    const diagnostics: import('../../src/core/model').Diagnostic[] = [];
    assert.deepEqual(scanRoot(project, 'adapter_dir', diagnostics), [f.path('ws/config/adapters/a.yaml')]);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, path.basename(d.file), d.message]),
      [
        [
          'eva.scan.symlink-ignored',
          'l.yaml',
          'symbolic link ignored: Eva-CLI does not follow links in configuration directories',
        ],
        [
          'eva.scan.limit',
          'b.yaml',
          "more than 1 file in this directory; Eva's discovery limit stops here (2 skipped)",
        ],
      ],
    );
    assert.deepEqual(scanRoot({ ...project, roots: { ...project.roots, adapter_dir: null } }, 'adapter_dir', []), []);
  });
  it('checks each role by its own contract, and keeps the check diagnostics on the entry', () => {
    const context = entry(
      'ctx.yaml',
      A0.replace('transport: skill', 'transport: stdio').replace('routing: {priority: 10}\n', ''),
    );
    assert.deepEqual([context.role, context.check?.invalid, context.shipped], ['context', true, true]);
    assert.deepEqual(
      context.diagnostics.map((d) => d.message),
      ['required field is missing: $.routing'],
    );
    const skill = entry('sk.yaml', A0.replace('  kind: workflow_skill\n', ''));
    assert.deepEqual(
      skill.diagnostics.map((d) => d.code),
      ['eva.skill.kind-missing'],
    );
    assert.equal(skill.shipped, false);
    const cap = 'id: c\nname: C\nversion: 1.0.0\nenabled: true\ncapability: workflow.x\n';
    const lua = entry('l.yaml', `${cap}kind: lua_skill\n`, 'capability');
    assert.deepEqual(lua.diagnostics.map((d) => d.code).slice(0, 2), ['eva.compat.lua-skill', 'eva.schema.required']);
    const mcp = entry('m.yaml', cap.replace('version: 1.0.0\n', '') + 'kind: mcp_tool\n', 'capability');
    assert.deepEqual(
      mcp.diagnostics.map((d) => d.message),
      ['required field is missing: $.version'],
    );
    const binding = entry('b.yaml', cap.replace('version: 1.0.0\n', '') + 'kind: skill\n', 'capability');
    assert.deepEqual(
      [binding.role, binding.diagnostics.map((d) => d.message)],
      ['binding', ['required field is missing: $.version']],
    );
    const kindless = entry('k.yaml', `${cap}kind: 5\n`, 'capability');
    assert.deepEqual(
      kindless.diagnostics.map((d) => d.message),
      ['schema type mismatch: expected string, got number'],
    );
    const transportless = entry('t2.yaml', A0.replace('transport: skill', 'transport: 5'));
    assert.deepEqual(
      transportless.diagnostics.map((d) => d.message),
      ['schema type mismatch: expected string, got number'],
    );
  });

  it('classifies a flow-style manifest by what it declares, and reads only a string id', () => {
    const flow = entry(
      'flow.yaml',
      '{id: f, name: F, version: 1.0.0, enabled: true, transport: skill, capabilities: [], permissions: {}, limits: {}, routing: {}}\n',
    );
    assert.deepEqual([flow.role, flow.id], ['skill-adapter', 'f']);
    assert.equal(entry('n.yaml', A0.replace('id: review-skill', 'id: 5')).id, null);
  });

  it('sniffs a UTF-16 byte order mark only as two bytes together', () => {
    const text = Buffer.from('x\ntransport: skill\n', 'latin1');
    for (const prefix of [
      [0xff, 0x78],
      [0x78, 0xfe],
      [0xfe, 0x78],
      [0x78, 0xff],
    ])
      assert.equal(
        entry(`bom${prefix.join('-')}.yaml`, Buffer.concat([Buffer.from(prefix), text])).role,
        'skill-adapter',
      );
  });

  it('sniffs the exact line forms', () => {
    assert.equal(sniffRole('transport:skill', 'adapter'), 'skill-adapter');
    assert.equal(sniffRole('kind:skill', 'capability'), 'binding');
    assert.equal(sniffRole('x kind: skill', 'capability'), 'context');
    assert.equal(sniffRole('kind: skills', 'capability'), 'context');
    assert.equal(sniffRole('kind: skillx', 'capability'), 'context');
    assert.equal(sniffRole('kind: skill # a b', 'capability'), 'binding');
  });
});
