import { strict as assert } from 'node:assert';
import type * as fs from 'node:fs';
import * as path from 'node:path';
import { scanRoot, userPluginRoot, workspacePluginRoot } from '../../src/core/systems/codewhale/discovery';
import { Fixture } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';

/** One discovery root, listed (codewhale.md §2.1-§2.3): each root check and each candidate rule. */
describe('Codewhale discovery root scan (codewhale.md §2.2, §2.3)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const diags = (s: ReturnType<typeof scanRoot>) => s.diagnostics.map((d) => [d.code, d.severity, d.message, d.file]);

  it('places the roots at <workspace>/.codewhale/plugins and <home>/plugins', () => {
    assert.equal(workspacePluginRoot('/w'), path.join('/w', '.codewhale', 'plugins'));
    assert.equal(userPluginRoot('/h'), path.join('/h', 'plugins'));
  });

  it('yields nothing and says nothing for a root that does not exist', () => {
    const s = scanRoot(f.path('none'), 'workspace');
    assert.deepEqual(s, {
      scope: 'workspace',
      root: f.path('none'),
      canonicalRoot: undefined,
      candidates: [],
      diagnostics: [],
    });
  });

  it('ends the scan at a root that is a symbolic link, with an error', () => {
    f.mkdir('real/b');
    f.write('real/b/plugin.toml', '');
    const root = f.symlink(f.path('real'), 'plugins');
    const s = scanRoot(root, 'user');
    assert.deepEqual(s.candidates, []);
    assert.equal(s.canonicalRoot, undefined);
    assert.deepEqual(diags(s), [
      [
        'codewhale.root-symlink',
        'error',
        `Plugin discovery root may not be a symbolic link or reparse point: ${root}`,
        root,
      ],
    ]);
  });

  it('yields nothing and says nothing for a root under a file (a CODEWHALE_HOME that is a file): lstat fails, as upstream', () => {
    const home = f.write('home', 'a file, not a directory');
    const s = scanRoot(userPluginRoot(home), 'user');
    assert.deepEqual([s.candidates, s.canonicalRoot, diags(s)], [[], undefined, []]);
  });

  it('ends the scan at a root that is a file, with an error', () => {
    const root = f.write('plugins', 'not a directory');
    const s = scanRoot(root, 'workspace');
    assert.deepEqual(s.candidates, []);
    assert.deepEqual(diags(s), [
      ['codewhale.root-not-directory', 'error', `Plugin discovery root is not a directory: ${root}`, root],
    ]);
  });

  it('lists child directories in byte order, reports linked ones, skips files and the hidden publication directories', () => {
    const root = f.mkdir('plugins');
    for (const name of [
      'b',
      'A',
      'é',
      'a',
      `.staging-${'0123456789abcdef'.repeat(2)}`,
      `.staging-${'0'.repeat(31)}`,
      `.staging-${'0'.repeat(33)}`,
      `.staging-${'A'.repeat(32)}`,
      '.plugin-backup-Ab3456789012345Z',
      '.plugin-backup-123456789012345',
      '.plugin-backup-12345678901234567',
      '.plugin-backup-12345678901234_6',
      'x.staging-0123456789abcdef0123456789abcdef',
    ])
      f.mkdir(`plugins/${name}`);
    f.write('plugins/file', 'x');
    f.mkdir('elsewhere');
    const link = f.symlink(f.path('elsewhere'), 'plugins/linked');
    const s = scanRoot(root, 'workspace');
    assert.equal(s.canonicalRoot, root);
    assert.deepEqual(
      s.candidates.map((c) => path.basename(c)),
      [
        '.plugin-backup-123456789012345',
        '.plugin-backup-12345678901234567',
        '.plugin-backup-12345678901234_6',
        `.staging-${'0'.repeat(31)}`,
        `.staging-${'0'.repeat(33)}`,
        `.staging-${'A'.repeat(32)}`,
        'A',
        'a',
        'b',
        'x.staging-0123456789abcdef0123456789abcdef',
        'é',
      ],
    );
    assert.deepEqual(s.candidates[0], path.join(root, '.plugin-backup-123456789012345'));
    assert.deepEqual(diags(s), [
      [
        'codewhale.bundle-symlink',
        'error',
        `Plugin bundle directory may not be a symbolic link or reparse point: ${link}`,
        link,
      ],
    ]);
  });
});

/** The entry types come from the root's listing (d_type); without them each child is lstat'ed, with the same result. */
describe('Codewhale discovery root scan without the listing’s entry types', () => {
  const fsPatch = fsPatcher();
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const errno = (code: string) => Object.assign(new Error(`${code}: injected`), { code });
  /** Lists the root without types: a typed listing of it fails. */
  const untyped = (root: string, error?: string) => {
    fsPatch.replace('readdirSync', (realReaddir) => (p: fs.PathLike, options?: { withFileTypes?: boolean }) => {
      if (p === root && (options?.withFileTypes || error)) throw errno(error ?? 'EINVAL');
      return (realReaddir as (...a: unknown[]) => unknown)(p, options);
    });
  };
  const mixed = () => {
    const root = f.mkdir('plugins');
    for (const name of ['b', 'a', `.staging-${'0'.repeat(32)}`]) f.mkdir(`plugins/${name}`);
    f.write('plugins/file', 'x');
    f.mkdir('elsewhere');
    f.symlink(f.path('elsewhere'), 'plugins/linked');
    return root;
  };
  const lstatted = () => {
    const seen: string[] = [];
    fsPatch.replace('lstatSync', (realLstat) => (p: fs.PathLike, ...rest: unknown[]) => {
      seen.push(path.basename(String(p)));
      return (realLstat as (...a: unknown[]) => unknown)(p, ...rest);
    });
    return seen;
  };

  it('types the children by the listing: the root is lstat’ed, no child is', () => {
    const root = mixed();
    const seen = lstatted();
    const s = scanRoot(root, 'workspace');
    assert.deepEqual(seen, ['plugins']);
    assert.deepEqual(
      s.candidates.map((c) => path.basename(c)),
      ['a', 'b'],
    );
  });

  it('lstats each child when the listing cannot type them, finding the same candidates and the same link', () => {
    const root = mixed();
    const typed = scanRoot(root, 'workspace');
    untyped(root);
    const seen = lstatted();
    const s = scanRoot(root, 'workspace');
    assert.deepEqual(s, typed);
    assert.deepEqual(seen.sort(), ['a', 'b', 'file', 'linked', 'plugins']);
    assert.equal(s.diagnostics.length, 1);
  });

  it('reports a root it cannot list with the plain listing’s error', () => {
    const root = mixed();
    untyped(root, 'EACCES');
    const s = scanRoot(root, 'workspace');
    assert.deepEqual(s.candidates, []);
    assert.deepEqual(
      s.diagnostics.map((d) => [d.code, d.message]),
      [['codewhale.root-read-failed', `Failed to read plugin root ${root}: EACCES: injected`]],
    );
  });
});
