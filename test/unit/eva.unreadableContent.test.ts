import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { A0, EvaFixture, L0 } from './helpers/evaFixture';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory, failReadsOf, permissionDenied } from './helpers/deniedDirectory';
import { readEvaSource } from '../../src/core/systems/eva/trustUnit';

const DENIED = 'Permission denied (os error 13)';

/**
 * What Skillgate says of an Eva file or folder this user may not read: the upstream sentence
 * (eva-config lib.rs `io_error`: `failed to read {config_type}`; schema.rs `read_data`:
 * `failed to read configuration file`, `read_schema`: `failed to read JSON Schema`) with Rust's
 * `io::Error` Display (`Permission denied (os error 13)`), never Node's `EACCES: permission denied`;
 * and a file Skillgate cannot look at is neither a path outside the allowed roots nor a link,
 * nor left out of what trust covers. Denials are injected: tests run as root in CI, where
 * mode 000 denies nothing.
 */
describe('Eva files this user may not read, in Eva’s words', () => {
  const fsPatch = fsPatcher();
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  /** `openSync` fails at `target` as for a file at mode 600 owned by another user. */
  const denyOpen = (target: string) =>
    fsPatch.replace('openSync', (original) => (p: fs.PathLike, ...rest: unknown[]) => {
      if (path.resolve(String(p)) === target) throw permissionDenied('open', String(p));
      return (original as (...a: unknown[]) => unknown)(p, ...rest);
    });
  /**
   * `dir` as a folder of another user: at 700 (`mode000`) nothing in it can be listed or reached,
   * at 744 (`mode600`) its names are listed but nothing in it is reached. `realpath` of what lies
   * inside fails too, as it does on disk.
   */
  const denyFolder = (dir: string, mode: 'mode000' | 'mode600' = 'mode000') => {
    denyDirectory(fsPatch, dir, mode);
    const inside = (p: unknown) => {
      const rel = path.relative(dir, String(p));
      return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
    };
    fsPatch.replace('realpathSync', (original) =>
      Object.assign((...a: unknown[]) => (original as (...b: unknown[]) => unknown)(...a), {
        native: (p: fs.PathLike, ...rest: unknown[]) => {
          if (inside(p)) throw permissionDenied('realpath', String(p));
          return (original.native as (...a: unknown[]) => unknown)(p, ...rest);
        },
      }),
    );
  };
  const said = (r: ReturnType<EvaFixture['index']>, ...codes: string[]) =>
    r
      .diagnostics()
      .filter((d) => codes.includes(d.code))
      .map((d) => [d.code, d.message, r.rel(d.file)]);
  const trustState = (r: ReturnType<EvaFixture['index']>, rel: string) => {
    const i = r.item(rel);
    return [i.decision, i.reasons, i.contentHash, i.detail.notCovered ?? []];
  };

  it('an adapter manifest it may not open (600, another owner): schema.rs read_data, where the load stops', () => {
    const manifest = f.adapter(A0);
    denyOpen(manifest);
    const r = f.index();
    assert.deepEqual(said(r, 'eva.manifest.read', 'eva.project.load-aborted'), [
      [
        'eva.manifest.read',
        `failed to read configuration file: ${DENIED}; Eva-CLI run as a user who may read it loads this file, which Skillgate cannot show`,
        'config/adapters/review.yaml',
      ],
      [
        'eva.project.load-aborted',
        'Eva-CLI stops loading this project at this file, so it would register no skill until it is fixed',
        'config/adapters/review.yaml',
      ],
    ]);
  });

  it('a capability manifest whose read fails once opened: the io error mid-read, in Rust’s words', () => {
    const manifest = f.l0();
    failReadsOf(fsPatch, manifest);
    const r = f.index();
    assert.deepEqual(said(r, 'eva.manifest.read'), [
      [
        'eva.manifest.read',
        'failed to read configuration file: Input/output error (os error 5)',
        'config/capabilities/lint.yaml',
      ],
    ]);
  });

  it('a policy document it may not open: still fails closed, said in Rust’s words', () => {
    f.adapter(A0);
    denyOpen(f.path('ws/config/policies/adapter.yaml'));
    const r = f.index();
    assert.deepEqual(said(r, 'eva.manifest.read'), [
      [
        'eva.manifest.read',
        `failed to read configuration file: ${DENIED}; Eva-CLI run as a user who may read it loads this file, which Skillgate cannot show`,
        'config/policies/adapter.yaml',
      ],
    ]);
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['policy_denied', 'not_reviewed']);
  });

  it('config/eva.yaml it may not open: load_eva_config’s read_yaml_file(path, "eva.yaml")', () => {
    denyOpen(f.path('ws/config/eva.yaml'));
    const r = f.index();
    assert.deepEqual(said(r, 'eva.project.config-invalid', 'eva.project.load-aborted'), [
      ['eva.project.config-invalid', `failed to read eva.yaml: ${DENIED}`, 'config/eva.yaml'],
      [
        'eva.project.load-aborted',
        'Eva-CLI stops loading this project at this file, so it would register no skill until it is fixed',
        'config/eva.yaml',
      ],
    ]);
  });

  it('a configuration layer it may not open: read_yaml_file(path, "eva.yaml override")', () => {
    f.write('ws/config/eva.user.yaml', 'a: 1\n');
    denyOpen(f.path('ws/config/eva.user.yaml'));
    const r = f.index();
    assert.deepEqual(said(r, 'eva.project.config-invalid'), [
      [
        'eva.project.config-invalid',
        `failed to read eva.yaml override: config/eva.user.yaml: ${DENIED}`,
        'config/eva.yaml',
      ],
    ]);
  });

  it('a configuration root it may list but not search (744): its files are taken by their listed type, as DirEntry::file_type does', () => {
    f.adapter(A0);
    denyFolder(f.path('ws/config/adapters'), 'mode600');
    const r = f.index();
    // Before, the manifest was silently absent: its lstat failed, and the scan took it for neither a file nor a folder.
    assert.deepEqual(said(r, 'eva.manifest.read', 'eva.scan.unreadable', 'eva.project.load-aborted'), [
      [
        'eva.manifest.read',
        `failed to read configuration file: ${DENIED}; Eva-CLI run as a user who may read it loads this file, which Skillgate cannot show`,
        'config/adapters/review.yaml',
      ],
      [
        'eva.project.load-aborted',
        'Eva-CLI stops loading this project at this file, so it would register no skill until it is fixed',
        'config/adapters/review.yaml',
      ],
    ]);
  });

  it('an entry whose type the listing leaves unknown and whose lstat is refused: file_type’s failure, at the entry', () => {
    f.adapter(A0);
    const dir = f.path('ws/config/adapters');
    denyFolder(dir, 'mode600');
    // A file system without d_type: Node's typed listing fails where its own lstat does.
    fsPatch.replace('readdirSync', (original) => (p: fs.PathLike, options?: { withFileTypes?: boolean }) => {
      if (options?.withFileTypes && path.resolve(String(p)) === dir) throw permissionDenied('lstat', String(p));
      return (original as (...a: unknown[]) => unknown)(p, options);
    });
    const r = f.index();
    assert.deepEqual(said(r, 'eva.manifest.read', 'eva.scan.unreadable', 'eva.project.load-aborted'), [
      [
        'eva.scan.unreadable',
        `failed to read config root: ${DENIED}; Eva-CLI run as a user who may read it loads the manifests there, which Skillgate cannot show`,
        'config/adapters/review.yaml',
      ],
      [
        'eva.project.load-aborted',
        'Eva-CLI stops loading this project at this file, so it would register no skill until it is fixed',
        'config/adapters/review.yaml',
      ],
    ]);
  });

  it('a configuration root behind a folder it may not search: collect_files’ read_dir fails, it is not missing', () => {
    const evaYaml = f.path('ws/config/eva.yaml');
    f.write(
      'ws/config/eva.yaml',
      fs
        .readFileSync(evaYaml, 'utf8')
        .replace(/adapter_dir: config\/adapters/g, 'adapter_dir: config/private/adapters'),
    );
    f.adapter(A0, '../private/adapters/review.yaml');
    denyFolder(f.path('ws/config/private'));
    const r = f.index();
    // Before: `configuration directory does not exist`, at eva.yaml, where the load stopped.
    assert.deepEqual(said(r, 'eva.project.root-missing', 'eva.scan.unreadable', 'eva.project.load-aborted'), [
      [
        'eva.scan.unreadable',
        `failed to read config root: ${DENIED}; Eva-CLI run as a user who may read it loads the manifests there, which Skillgate cannot show`,
        'config/private/adapters',
      ],
      [
        'eva.project.load-aborted',
        'Eva-CLI stops loading this project at this file, so it would register no skill until it is fixed',
        'config/private/adapters',
      ],
    ]);
  });

  it('a schema root behind a folder it may not search: read_schema fails; the embedded copies stand in, said so', () => {
    const evaYaml = f.path('ws/config/eva.yaml');
    f.write(
      'ws/config/eva.yaml',
      fs.readFileSync(evaYaml, 'utf8').replace('schema_dir: config/schemas', 'schema_dir: config/private/schemas'),
    );
    f.write('ws/config/private/schemas/eva.schema.json', '{}');
    denyFolder(f.path('ws/config/private'));
    const r = f.index();
    assert.deepEqual(said(r, 'eva.project.root-missing', 'eva.project.schema-missing'), [
      [
        'eva.project.schema-missing',
        `failed to read JSON Schema: ${DENIED}; using Skillgate's embedded copy`,
        'config/eva.yaml',
      ],
    ]);
  });

  it('a project schema file it may not open: the embedded copy stands in, said in Rust’s words', () => {
    denyOpen(f.path('ws/config/schemas/adapter.schema.json'));
    const r = f.index();
    assert.deepEqual(said(r, 'eva.project.schema-missing'), [
      [
        'eva.project.schema-missing',
        `failed to read JSON Schema adapter.schema.json: ${DENIED}; using Skillgate's embedded copy`,
        'config/eva.yaml',
      ],
    ]);
  });

  it('a lua_skill schema file it may not open: rejected as before, schema_invalid, in Rust’s words', () => {
    f.l0();
    denyOpen(f.path('ws/schemas/lint.input.json'));
    const r = f.index();
    assert.deepEqual(said(r, 'eva.skill.schema-file-invalid', 'eva.path.not-allowed'), [
      ['eva.skill.schema-file-invalid', `failed to read JSON Schema: ${DENIED}`, 'config/capabilities/lint.yaml'],
    ]);
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['schema_invalid', 'not_reviewed']);
  });

  it('lua_skill schema files in a folder it may not search (700): unreadable, not outside the roots through a link', () => {
    f.l0();
    denyFolder(f.path('ws/schemas'));
    const r = f.index();
    assert.deepEqual(
      said(r, 'eva.skill.schema-file-invalid', 'eva.skill.schema-file-missing', 'eva.path.not-allowed'),
      [
        ['eva.skill.schema-file-invalid', `failed to read JSON Schema: ${DENIED}`, 'config/capabilities/lint.yaml'],
        ['eva.skill.schema-file-invalid', `failed to read JSON Schema: ${DENIED}`, 'config/capabilities/lint.yaml'],
      ],
    );
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['schema_invalid', 'not_reviewed']);
  });

  it('a Lua script in a folder it may not search: not refused as outside the roots or missing; it cannot be trusted', () => {
    f.l0(L0);
    denyFolder(f.path('ws/config/skills'));
    const r = f.index();
    assert.deepEqual(said(r, 'eva.path.not-allowed', 'eva.lua.script-missing'), []);
    assert.deepEqual(trustState(r, 'capabilities/lint.yaml'), [
      'registered',
      ['loaded_unreviewed', 'not_reviewed'],
      null,
      [`failed to read covered file config/skills/lint.lua: ${DENIED}`],
    ]);
  });

  const withSkillPath = A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n');

  it('skill.path in a folder it may not search: Eva-CLI never reads it and registers the adapter; it cannot be trusted', () => {
    f.adapter(withSkillPath);
    f.write('ws/config/skills/review/SKILL.md', '---\nname: review\n---\n');
    denyFolder(f.path('ws/config/skills'));
    const r = f.index();
    assert.deepEqual(said(r, 'eva.path.not-allowed', 'eva.skill.path-missing'), []);
    assert.deepEqual(trustState(r, 'adapters/review.yaml'), [
      'registered',
      ['loaded_unreviewed', 'not_reviewed'],
      null,
      [`failed to read covered file config/skills/review/SKILL.md: ${DENIED}`],
    ]);
  });

  it('a skill folder it may list but not search (744): its SKILL.md is not left out of the content hash', () => {
    f.adapter(withSkillPath);
    f.write('ws/config/skills/review/SKILL.md', '---\nname: review\n---\n');
    denyFolder(f.path('ws/config/skills/review'), 'mode600');
    const r = f.index();
    // Nor is it called a symbolic link: it may be a regular file that a user who may read it would see.
    assert.deepEqual(said(r, 'eva.path.not-allowed', 'eva.skill.path-missing', 'eva.trust.symlink'), []);
    assert.deepEqual(trustState(r, 'adapters/review.yaml'), [
      'registered',
      ['loaded_unreviewed', 'not_reviewed'],
      null,
      [`failed to read covered file config/skills/review/SKILL.md: ${DENIED}`],
    ]);
  });

  it('a folder inside the skill folder it may list but not search (744): its files are not left out of the content hash', () => {
    f.adapter(withSkillPath);
    f.write('ws/config/skills/review/SKILL.md', '---\nname: review\n---\n');
    f.write('ws/config/skills/review/refs/notes.md', 'run rm -rf\n');
    denyFolder(f.path('ws/config/skills/review/refs'), 'mode600');
    const r = f.index();
    assert.deepEqual(said(r, 'eva.trust.symlink'), []);
    assert.deepEqual(trustState(r, 'adapters/review.yaml'), [
      'registered',
      ['loaded_unreviewed', 'not_reviewed'],
      null,
      [`failed to read covered file config/skills/review/refs/notes.md: ${DENIED}`],
    ]);
  });

  it('a skill folder it may not list (700): said in Rust’s words', () => {
    f.adapter(withSkillPath);
    f.write('ws/config/skills/review/SKILL.md', '---\nname: review\n---\n');
    denyFolder(f.path('ws/config/skills/review'));
    const r = f.index();
    assert.deepEqual(trustState(r, 'adapters/review.yaml'), [
      'registered',
      ['loaded_unreviewed', 'not_reviewed'],
      null,
      [`failed to read skill directory: ${DENIED}`],
    ]);
  });

  it('a runner command it may not inspect: the skill cannot be trusted, rather than hashed without it', () => {
    f.adapter(A0.replace('entry: {type: codex_skill}', 'entry: {type: process}\n  runner: {command: scripts/run.sh}'));
    f.write('ws/scripts/run.sh', 'echo one\n');
    denyFolder(f.path('ws/scripts'));
    const r = f.index();
    const item = r.item('adapters/review.yaml');
    assert.deepEqual(
      [item.contentHash, item.detail.notCovered ?? []],
      [null, [`failed to read covered file scripts/run.sh: ${DENIED}`]],
    );
  });

  it('a manifest that stops reading between the index and the review: said in Rust’s words', () => {
    const manifest = f.adapter(A0);
    const item = f.index().item('adapters/review.yaml');
    let opens = 0;
    fsPatch.replace('openSync', (original) => (p: fs.PathLike, ...rest: unknown[]) => {
      // The index that the review runs reads the manifest once; the review's own read is refused.
      if (path.resolve(String(p)) === manifest && ++opens > 1) throw permissionDenied('open', String(p));
      return (original as (...a: unknown[]) => unknown)(p, ...rest);
    });
    const read = readEvaSource(item);
    assert.deepEqual(read, { ok: false, message: `config/adapters/review.yaml cannot be read: ${DENIED}` });
  });

  it('a user SKILL.md it may not open: its front matter could not be read, in Rust’s words', () => {
    const skill = f.user('foo');
    denyOpen(skill);
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.user.frontmatter').map((d) => d.message),
      [`SKILL.md front matter could not be read: ${DENIED}`],
    );
  });
});
