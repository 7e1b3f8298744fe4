import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { EvaFixture } from './helpers/evaFixture';
import { loadEvaProject, type EvaProject } from '../../src/core/systems/eva/project';
import { readManifest } from '../../src/core/systems/eva/files';
import { loadSchemas } from '../../src/core/systems/eva/schemas';

/**
 * Eva's refusals of a path it cannot read, in the words Eva-CLI prints: its sentence (eva-config
 * lib.rs `io_error`: `failed to read {config_type}`; schema.rs `read_schema`: `failed to read JSON
 * Schema`, `failed to parse JSON Schema`) with Rust's `io::Error` Display of the failing call
 * (`No such file or directory (os error 2)`), never Skillgate's own `not a regular file`. The
 * numbers are Linux's, as the other suites' `(os error 13)` are.
 */
describe('Eva’s refusals in Rust’s words', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  const load = () => loadEvaProject(f.ws) as EvaProject;
  const said = (p: EvaProject) => p.diagnostics.map((d) => [d.code, d.message]);
  const withRoot = (key: string, value: string) => {
    const evaYaml = f.path('ws/config/eva.yaml');
    const text = fs.readFileSync(evaYaml, 'utf8');
    // The `config` mapping's key, not `runtime.adapter_dir` above it.
    const at = text.indexOf('\nconfig:');
    const next = text.slice(0, at) + text.slice(at).replace(new RegExp(`${key}: \\S+`), `${key}: ${value}`);
    assert.notEqual(next, text, `the corpus eva.yaml names ${key}`);
    fs.writeFileSync(evaYaml, next);
  };

  it('a manifest that is gone, under a file, or a directory: read_to_string’s own io error', () => {
    const read = (p: string) => {
      const r = readManifest(p, 1000);
      return r.ok ? 'read' : r.detail;
    };
    assert.deepEqual(
      [read(f.path('ws/none.yaml')), read(f.path('ws/config/eva.yaml/x.yaml')), read(f.mkdir('ws/d.yaml'))],
      ['No such file or directory (os error 2)', 'Not a directory (os error 20)', 'Is a directory (os error 21)'],
    );
  });

  it('an eva.yaml layer that is a directory: load_project_config’s read_yaml_file fails with EISDIR', () => {
    f.mkdir('ws/config/eva.user.yaml');
    assert.deepEqual(said(load()), [
      [
        'eva.project.config-invalid',
        'failed to read eva.yaml override: config/eva.user.yaml: Is a directory (os error 21)',
      ],
    ]);
  });

  it('an eva.yaml layer that is a socket: the open’s ENXIO in Rust’s words, not Node’s with its path', async () => {
    // Unix socket paths are short (108 bytes): the server listens in the fixture, named relative to it.
    const server = net.createServer();
    const cwd = process.cwd();
    process.chdir(f.path('ws/config'));
    try {
      await new Promise<void>((resolve) => server.listen('eva.user.yaml', resolve));
    } finally {
      process.chdir(cwd);
    }
    try {
      assert.deepEqual(said(load()), [
        [
          'eva.project.config-invalid',
          'failed to read eva.yaml override: config/eva.user.yaml: No such device or address (os error 6)',
        ],
      ]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('project schema files gone or a directory: read_schema’s sentence once, with the file and the io error', () => {
    fs.rmSync(f.path('ws/config/schemas/capability.schema.json'));
    fs.rmSync(f.path('ws/config/schemas/policy.schema.json'));
    f.mkdir('ws/config/schemas/policy.schema.json');
    fs.writeFileSync(f.path('ws/config/schemas/eva.schema.json'), '{"type": ');
    const loaded = loadSchemas(f.path('ws/config/schemas'), f.path('ws/config/eva.yaml'), undefined);
    assert.deepEqual(
      loaded.diagnostics.map((d) => [d.code, d.message]),
      [
        [
          'eva.project.schema-missing',
          "failed to read JSON Schema capability.schema.json: No such file or directory (os error 2); using Skillgate's embedded copy",
        ],
        // read_schema's second error: the file reads, and does not parse.
        ['eva.project.schema-missing', "failed to parse JSON Schema eva.schema.json; using Skillgate's embedded copy"],
        [
          'eva.project.schema-missing',
          "failed to read JSON Schema policy.schema.json: Is a directory (os error 21); using Skillgate's embedded copy",
        ],
      ],
    );
  });

  it('a lua_skill schema file that is a directory: rejected as before, schema_invalid, in Rust’s words', () => {
    f.l0();
    fs.rmSync(f.path('ws/schemas/lint.input.json'));
    f.mkdir('ws/schemas/lint.input.json');
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.skill.schema-file-invalid').map((d) => d.message),
      ['failed to read JSON Schema: Is a directory (os error 21)'],
    );
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['schema_invalid', 'not_reviewed']);
  });

  it('a declared scanned root that does not exist: collect_files’ read_dir fails before validate_roots is reached', () => {
    // lib.rs `load_project_config` lists every root (`find_yaml_files`) before `validate_project_config`
    // runs `validate_roots`, whose `configuration directory does not exist` a missing root never reaches.
    withRoot('capability_dir', 'config/gone');
    const p = load();
    assert.deepEqual(said(p), [
      ['eva.project.root-missing', 'failed to read config root: No such file or directory (os error 2)'],
    ]);
    assert.deepEqual([p.roots.capability_dir, p.shippedError], [null, true], 'not scanned; Eva stops there');
  });

  it('a declared root below a file, or a link that loops: read_dir’s own io error', () => {
    withRoot('adapter_dir', 'config/eva.yaml/adapters');
    f.symlink('loop', 'ws/config/loop');
    withRoot('policy_dir', 'config/loop');
    assert.deepEqual(said(load()), [
      ['eva.project.root-missing', 'failed to read config root: Not a directory (os error 20)'],
      ['eva.project.root-missing', 'failed to read config root: Too many levels of symbolic links (os error 40)'],
    ]);
  });

  it('a declared schema_dir that does not exist: read_schema of eva.schema.json fails first, the embedded copies stand in', () => {
    // lib.rs `load_project_config` validates the layered eva.yaml with `schema_paths(&base_roots).eva`
    // before it lists any root.
    withRoot('schema_dir', 'config/gone');
    const p = load();
    assert.deepEqual(said(p), [
      [
        'eva.project.root-missing',
        "failed to read JSON Schema: No such file or directory (os error 2); using Skillgate's embedded copy",
      ],
    ]);
    assert.deepEqual([p.roots.schema_dir, p.shippedError], [null, true]);
  });
});
