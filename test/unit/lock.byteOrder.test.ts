import { strict as assert } from 'node:assert';
import { lockText, parseLock, sortEntries, type LockEntry } from '../../src/core/lock/lockFile';

/**
 * The lock lists bundles in byte order of their paths (the project's rule for names:
 * sort as raw bytes), not in UTF-16 order: U+FF21 (EF BC A1) before U+1F600 (F0 9F 98 80),
 * and a name that is not UTF-8 (byte 0x80, held as U+DC80) by its real byte.
 */
describe('skillgate.lock order', () => {
  const token = `${'a'.repeat(64)}.${'b'.repeat(64)}`;
  const entry = (name: string): LockEntry => ({
    path: `.rivumi/plugins/${name}.json`,
    system: 'rivumi',
    name,
    reviewToken: token,
  });

  it('sorts paths by their bytes', () => {
    const text = lockText(['\u{1F600}', '\uFF21', '\u00e9', '\udc80', 'b'].map(entry));
    const parsed = parseLock(text);
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.entries.map((e) => e.name),
      ['b', '\udc80', '\u00e9', '\uFF21', '\u{1F600}'],
    );
  });

  it('orders entries of one path by system, whatever order they come in (the same bytes on every machine)', () => {
    const at = (system: LockEntry['system']): LockEntry => ({ ...entry('same'), system });
    const systems = (entries: LockEntry[]) => sortEntries(entries).map((e) => e.system);
    assert.deepEqual(systems([at('rivumi'), at('eva'), at('codewhale')]), ['codewhale', 'eva', 'rivumi']);
    assert.equal(lockText([at('rivumi'), at('eva')]), lockText([at('eva'), at('rivumi')]));
  });
});
