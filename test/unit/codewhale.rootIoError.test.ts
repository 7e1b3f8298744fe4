import { strict as assert } from 'node:assert';
import type * as fs from 'node:fs';
import * as path from 'node:path';
import { scanRoot, workspacePluginRoot } from '../../src/core/systems/codewhale/discovery';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import { Fixture, LINUX_HOST } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';
import { permissionDenied } from './helpers/deniedDirectory';

/**
 * A root whose own check fails with an io error, in Codewhale's words with Rust's io error:
 * a discovery root that `lstat` found a directory but that fails to resolve, as discovery.rs
 * `scan_root` says it (`Failed to canonicalize plugin root {path}: {error}`); a bundle root
 * that cannot be inspected or resolved, as manifest.rs `validate_from_path` says it
 * (`failed to inspect plugin root: {error}`, `failed to canonicalize plugin root: {error}`).
 * Before, the first said `not resolvable`, a bundle root that could not be inspected was
 * said to be no directory or a link (`plugin root must be a directory, not a symbolic
 * link`), and one that could not be resolved was rejected without a word. The failures are
 * injected: the root changes between two calls, or this user may not reach it.
 */
describe('Codewhale roots whose checks fail with an io error, in Codewhale’s words', () => {
  const fsPatch = fsPatcher();
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  /** `realpath` of `target` fails with `error`; every other path resolves. */
  const unresolvable = (target: string, error: NodeJS.ErrnoException) =>
    fsPatch.replace('realpathSync', (real) =>
      Object.assign((...a: unknown[]) => (real as (...b: unknown[]) => unknown)(...a), {
        native: (p: fs.PathLike, ...rest: unknown[]) => {
          if (path.resolve(String(p)) === target) throw error;
          return (real.native as (...b: unknown[]) => unknown)(p, ...rest);
        },
      }),
    );
  const vanished = (p: string) =>
    Object.assign(new Error(`ENOENT: no such file or directory, realpath '${p}'`), {
      code: 'ENOENT',
      errno: -2,
      syscall: 'realpath',
      path: p,
    });

  describe('a discovery root (codewhale.md §2.2 root-canonicalize-failed)', () => {
    for (const [why, error, words] of [
      ['may not resolve', permissionDenied, 'Permission denied (os error 13)'],
      ['removed meanwhile', vanished, 'No such file or directory (os error 2)'],
    ] as const)
      it(`says Rust’s io error for a root it ${why}`, () => {
        f.write('.codewhale/plugins/demo/plugin.toml', '[plugin]\nname = "demo"\n');
        const root = workspacePluginRoot(f.root);
        unresolvable(root, error('realpath', root));
        const s = scanRoot(root, 'workspace');
        assert.deepEqual(s.candidates, []);
        assert.deepEqual(
          s.diagnostics.map((d) => [d.code, d.severity, d.message, d.file]),
          [
            [
              'codewhale.root-canonicalize-failed',
              'error',
              `Failed to canonicalize plugin root ${root}: ${words}`,
              root,
            ],
          ],
        );
      });
  });

  describe('a bundle root, after its manifest was read (codewhale.md §4.1 step 3)', () => {
    /** Bundle `b`, loaded as the review and `hash` load it (no read taken before). */
    const load = () => {
      f.write('plugins/b/plugin.toml', 'schema_version = 1\n[plugin]\nname = "b"\nversion = "1.0.0"\n');
      return () =>
        loadCodewhaleBundle(f.path('plugins/b'), 'plugin.toml', {
          scope: 'workspace',
          canonicalDiscoveryRoot: f.path('plugins'),
          host: LINUX_HOST,
        });
    };
    const rejectedFor = (b: ReturnType<ReturnType<typeof load>>, message: string) => {
      assert.equal(b.valid, false);
      assert.deepEqual(
        b.diagnostics.map((d) => [d.code, d.severity, d.message, d.file]),
        [['codewhale.content.unreadable', 'error', message, f.path('plugins/b/plugin.toml')]],
      );
    };

    it('rejects one it may not resolve with upstream’s reason, at the manifest, never without one', () => {
      const loaded = load();
      const dir = f.path('plugins/b');
      unresolvable(dir, permissionDenied('realpath', dir));
      rejectedFor(loaded(), 'failed to canonicalize plugin root: Permission denied (os error 13)');
    });

    it('rejects one it may not inspect as failing to be inspected, not as a link or a file', () => {
      const loaded = load();
      const dir = f.path('plugins/b');
      fsPatch.replace('lstatSync', (real) => (p: fs.PathLike, ...rest: unknown[]) => {
        if (path.resolve(String(p)) === dir) throw permissionDenied('lstat', dir);
        return (real as (...a: unknown[]) => unknown)(p, ...rest);
      });
      rejectedFor(loaded(), 'failed to inspect plugin root: Permission denied (os error 13)');
    });
  });
});
