import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { invalidBundleRefusal, withReviewedFiles } from '../../src/core/trust/invalidBundle';
import type { Diagnostic, Item } from '../../src/core/model';
import { Fixture, writeW, byName, index } from './helpers/fixture';

/**
 * A unit that does not load cannot be trusted or enabled (trust.md "Operations",
 * decisions.md `manifest_invalid`): one sentence names the first error and where it is;
 * its review shows the files the reviewer approved as they are on disk now.
 */
describe('an invalid trust unit: its refusal and its reviewed files (trust/invalidBundle.ts)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const W = 'ws/.codewhale/plugins/example-plugin';
  const at = (file: string, line: number, message: string, severity: Diagnostic['severity'] = 'error'): Diagnostic => ({
    file,
    range: { start: { line, character: 0 }, end: { line, character: 1 } },
    severity,
    code: 'x',
    message,
    itemId: null,
  });
  const invalid = (item: Item): Item => ({ ...item, reasons: ['manifest_invalid'] });

  it('refuses nothing for a unit that is not manifest_invalid, whatever its diagnostics', () => {
    writeW(f);
    const item = byName(index([f.path('ws')]), 'example-plugin');
    assert.equal(invalidBundleRefusal(item, [at(f.path(W, 'plugin.toml'), 0, 'bad')], f.path(W)), null);
  });

  it('names the first error (not a warning before it), its file relative to the root and its 1-based line', () => {
    writeW(f);
    const item = invalid(byName(index([f.path('ws')]), 'example-plugin'));
    const root = f.path(W);
    assert.equal(
      invalidBundleRefusal(
        item,
        [
          at(`${root}/plugin.toml`, 1, 'only a warning', 'warning'),
          at(`${root}/skills/example/SKILL.md`, 4, 'first'),
          at(`${root}/plugin.toml`, 9, 'second'),
        ],
        root,
      ),
      'Plugin bundle `example-plugin` is invalid: first (skills/example/SKILL.md:5). Codewhale does not load it, so it cannot be trusted or enabled until the error is fixed and it is reviewed again.',
    );
  });

  it('names an error on the root itself by the base name of the root, and says only that the unit is invalid when no error is given', () => {
    writeW(f);
    const item = invalid(byName(index([f.path('ws')]), 'example-plugin'));
    const root = f.path(W);
    assert.equal(
      invalidBundleRefusal(item, [at(root, 0, 'broken')], root),
      'Plugin bundle `example-plugin` is invalid: broken (example-plugin:1). Codewhale does not load it, so it cannot be trusted or enabled until the error is fixed and it is reviewed again.',
    );
    assert.equal(
      invalidBundleRefusal(item, [at(`${root}/plugin.toml`, 0, 'a warning', 'warning')], root),
      'Plugin bundle `example-plugin` is invalid. Codewhale does not load it, so it cannot be trusted or enabled until the error is fixed and it is reviewed again.',
    );
  });

  it('adds the reviewed files the unit no longer names, as they are on disk now, in byte order of the path', () => {
    f.write('root/b.md', 'bee');
    f.write('root/A.md', 'a');
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const named = [{ path: 'c.json', size: 1, sha256: sha('c'), executable: false }];
    assert.deepEqual(withReviewedFiles(named, f.path('root'), ['b.md', 'c.json', 'gone.md', 'A.md']), [
      { path: 'A.md', size: 1, sha256: sha('a'), executable: false },
      { path: 'b.md', size: 3, sha256: sha('bee'), executable: false },
      named[0],
    ]);
  });
});
