import { strict as assert } from 'node:assert';
import type * as fs from 'node:fs';
import * as path from 'node:path';
import { Fixture, index, top, writeW } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory, failReadsOf, permissionDenied } from './helpers/deniedDirectory';
import type { Snapshot } from '../../src/core/index/snapshot';

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';
const DENIED = 'Permission denied (os error 13)';

/**
 * What Codewhale says of a file or folder in a readable bundle that this user may not read:
 * Rust's `io::Error` Display (`Permission denied (os error 13)`), in upstream's own sentences
 * (manifest.rs `read_manifest_bytes`, `read_sibling_mcp_json`, `hash_path`). Each is a
 * rejection, as before; before, Skillgate gave Node's words (`EACCES: permission denied`), an
 * empty path for the bundle folder itself, and called an unreadable `.mcp.json` a symbolic
 * link. Denials are injected: tests run as root in CI, where mode 000 denies nothing.
 */
describe('Codewhale bundle content this user may not read, in Rust’s words', () => {
  const fsPatch = fsPatcher();
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  /** `name` (a syscall of `node:fs`, without `Sync`) fails at `target` as `fault` says. */
  const failAt = (name: 'openSync' | 'readdirSync', target: string, syscall = name.replace(/Sync$/, '')) =>
    fsPatch.replace(name, (original) => (p: fs.PathLike, ...rest: unknown[]) => {
      if (path.resolve(String(p)) === target) throw permissionDenied(syscall, String(p));
      return (original as (...a: unknown[]) => unknown)(p, ...rest);
    });
  const errors = (s: Snapshot) =>
    s.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.message, d.file]);
  const rejected = (s: Snapshot, name: string) =>
    assert.deepEqual(
      top(s)
        .filter((i) => i.name === name)
        .map((i) => i.decision),
      ['rejected'],
    );
  const jsonBundle = (dir: string) => {
    f.write(`${dir}/plugin.json`, JSON.stringify({ $schema: SCHEMA, name: 'tools', version: '1.0.0' }));
    f.write(`${dir}/mcp.json`, JSON.stringify({ mcpServers: { issues: { command: 'node' } } }));
    return f.path(dir);
  };

  it('a bundle folder it may search but not list (711): upstream’s hash_path names the bundle root', () => {
    const dir = writeW(f);
    failAt('readdirSync', dir, 'scandir');
    const s = index([f.path('ws')]);
    assert.deepEqual(errors(s), [
      [
        'codewhale.content.unreadable',
        `failed to read component directory ${dir}: ${DENIED}`,
        path.join(dir, 'plugin.toml'),
      ],
    ]);
    rejected(s, 'example-plugin');
  });

  // The code is the failure's, not a word of a path the message holds: upstream's messages name absolute paths.
  for (const [bundle, folder] of [
    ['symbolic link', ''],
    ['example-plugin', 'skills/changed length while being reviewed'],
    ['example-plugin', 'skills/x is neither a regular file nor directory'],
  ] as const)
    it(`an unreadable folder named like another failure stays unreadable (${bundle}/${folder})`, () => {
      const dir = writeW(f, '', `ws/.codewhale/plugins/${bundle}`);
      if (folder) f.mkdir(`ws/.codewhale/plugins/${bundle}/${folder}`);
      failAt('readdirSync', path.join(dir, folder), 'scandir');
      const s = index([f.path('ws')]);
      assert.deepEqual(
        errors(s).map(([code]) => code),
        ['codewhale.content.unreadable'],
      );
    });

  it('a plugin.toml it may not open (600, another owner): read_manifest_bytes’ open', () => {
    const dir = writeW(f);
    const manifest = path.join(dir, 'plugin.toml');
    failAt('openSync', manifest);
    const s = index([f.path('ws')]);
    assert.deepEqual(errors(s), [
      ['codewhale.manifest.file', `failed to open plugin.toml without following links: ${DENIED}`, manifest],
    ]);
  });

  it('a plugin.json whose read fails once opened: read_manifest_bytes’ read_to_end', () => {
    const dir = jsonBundle('ws/.codewhale/plugins/tools');
    const manifest = path.join(dir, 'plugin.json');
    failReadsOf(fsPatch, manifest);
    const s = index([f.path('ws')]);
    assert.deepEqual(errors(s), [
      ['codewhale.manifest.file', 'failed to read plugin.json: Input/output error (os error 5)', manifest],
    ]);
  });

  it('a SKILL.md it may not open: hash_path’s component file', () => {
    const dir = writeW(f);
    const skill = path.join(dir, 'skills/example/SKILL.md');
    failAt('openSync', skill);
    const s = index([f.path('ws')]);
    assert.deepEqual(errors(s), [
      ['codewhale.content.unreadable', `failed to read component file skills/example/SKILL.md: ${DENIED}`, skill],
    ]);
    rejected(s, 'example-plugin');
  });

  it('an mcp.json it may not open: read_sibling_mcp_json, before the content walk', () => {
    const dir = jsonBundle('ws/.codewhale/plugins/tools');
    const mcp = path.join(dir, 'mcp.json');
    failAt('openSync', mcp);
    const s = index([f.path('ws')]);
    assert.deepEqual(errors(s), [
      ['codewhale.mcp-json.file', `failed to open mcp.json without following links: ${DENIED}`, mcp],
    ]);
    rejected(s, 'tools');
  });

  it('a Claude bundle’s .mcp.json it may not open is said so, not called a symbolic link', () => {
    const dir = f.path('ws/.codewhale/plugins/claude');
    f.write('ws/.codewhale/plugins/claude/.claude-plugin/plugin.json', JSON.stringify({ name: 'claude' }));
    f.write('ws/.codewhale/plugins/claude/.mcp.json', JSON.stringify({ x: { command: 'node' } }));
    const mcp = path.join(dir, '.mcp.json');
    failAt('openSync', mcp);
    const s = index([f.path('ws')]);
    assert.deepEqual(errors(s), [
      ['codewhale.mcp-json.file', `failed to open .mcp.json without following links: ${DENIED}`, mcp],
    ]);
  });

  it('a skills folder it may not list (700, or 711 of another owner): hash_path’s read_dir', () => {
    const dir = writeW(f);
    const skills = path.join(dir, 'skills');
    failAt('readdirSync', skills, 'scandir');
    const s = index([f.path('ws')]);
    assert.deepEqual(errors(s), [
      ['codewhale.content.unreadable', `failed to read component directory skills: ${DENIED}`, skills],
    ]);
    rejected(s, 'example-plugin');
  });

  // Mode 644 of another owner: its names are listed, but nothing in it can be reached.
  for (const [folder, entry] of [
    ['skills', 'skills/example'],
    ['skills/example', 'skills/example/SKILL.md'],
  ] as const)
    it(`a folder it may list but not search (${folder}): hash_path’s symlink_metadata of ${entry}`, () => {
      const dir = writeW(f);
      denyDirectory(fsPatch, path.join(dir, folder), 'mode600');
      const s = index([f.path('ws')]);
      assert.deepEqual(errors(s), [
        ['codewhale.content.unreadable', `failed to inspect component ${entry}: ${DENIED}`, path.join(dir, entry)],
      ]);
      rejected(s, 'example-plugin');
    });
});
