import { strict as assert } from 'node:assert';
import { checkAgainstLock } from '../../src/core/lock/lockCheck';
import { samePlaceBundles } from '../../src/core/lock/lockFile';
import { itemOf } from './helpers/item';
import type { Snapshot } from '../../src/core/index/snapshot';

/**
 * A lock names a bundle by system and path (cli.md). An Eva manifest in a folder that is
 * both adapter_dir and capability_dir, holding `transport: skill` and `kind: lua_skill`,
 * is two trust units of one file: pinned as two entries of one place, the lock would be
 * refused by every `check --lock` (exit 2). Neither is pinned, and both say why.
 */
describe('skillgate.lock: two bundles of one system at one path', () => {
  const file = '/ws/config/adapters/review-skill.yaml';
  const adapter = itemOf({ id: 'eva:a', system: 'eva', name: 'review-skill', path: file });
  const lua = itemOf({
    id: 'eva:b',
    system: 'eva',
    name: 'review-skill',
    path: file,
    reviewToken: `${'c'.repeat(64)}.${'d'.repeat(64)}`,
  });
  const other = itemOf({ id: 'eva:c', system: 'eva', name: 'lint', path: '/ws/config/adapters/lint.yaml' });
  const rivumi = itemOf({ id: 'r', system: 'rivumi', name: 'review-skill', path: file });
  const snapshot = {
    items: [adapter, lua, other, rivumi],
    diagnostics: [],
    workspaces: ['/ws'],
  } as unknown as Snapshot;

  it('finds the bundles that share their system and path, and only those', () => {
    assert.deepEqual([...samePlaceBundles(snapshot.items, '/ws')], [adapter, lua]);
  });

  it('check --lock calls both unpinnable, not new, so `skillgate lock` is not the advice', () => {
    const findings = checkAgainstLock(snapshot, '/ws', [], 'skillgate.lock');
    const status = findings.map((f) => [f.item?.id, f.status]);
    assert.deepEqual(status.sort(), [
      ['eva:a', 'unpinnable'],
      ['eva:b', 'unpinnable'],
      ['eva:c', 'new'],
      ['r', 'new'],
    ]);
    assert.match(
      findings.find((f) => f.item?.id === 'eva:a')?.message ?? '',
      /cannot be pinned: another eva bundle has the same path, and a lock names a bundle by its system and path\.$/,
    );
  });
});
