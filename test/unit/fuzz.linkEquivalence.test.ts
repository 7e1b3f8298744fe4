import { strict as assert } from 'node:assert';
import { linkDifferences, respell, respellInText } from '../fuzz/linkEquivalence';

/**
 * The fuzz harness's `link-equivalence` comparison (test/fuzz/linkEquivalence.ts): the direct
 * run's paths under the folder are expected under the link in the linked run, as whole path
 * prefixes only; identities are compared as they are.
 */
const DIR = '/r/ws';
const LINK = '/r/ws-alias';

function item(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'eva:7f2a55858123:adapter:config/adapters/a.yaml',
    system: 'eva',
    kind: 'skill-adapter',
    workspace: DIR,
    path: 'config/adapters/a.yaml',
    contentHash: 'a'.repeat(64),
    ...over,
  };
}

function diagnostic(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    workspace: DIR,
    file: 'config/adapters/a.yaml',
    code: 'codewhale.bundle-symlink',
    message: `Plugin bundle directory may not be a symbolic link or reparse point: ${DIR}/.codewhale/plugins/x`,
    itemId: null,
    ...over,
  };
}

const doc = (items: unknown[], diagnostics: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  schemaVersion: 1,
  items,
  diagnostics,
  ...extra,
});

describe('fuzz link-equivalence: a folder given through a link reads as the folder', () => {
  it('respells a path under the folder as a whole prefix only (ws-link is another folder)', () => {
    assert.equal(respell(DIR, DIR, LINK), LINK);
    assert.equal(respell(`${DIR}/config/a.yaml`, DIR, LINK), `${LINK}/config/a.yaml`);
    assert.equal(respell('/r/ws-link/config/a.yaml', DIR, LINK), '/r/ws-link/config/a.yaml');
    assert.equal(respell('/r/wsx', DIR, LINK), '/r/wsx');
    assert.equal(respell('config/a.yaml', DIR, LINK), 'config/a.yaml');
  });

  it('respells a path inside a message only where it stands as a whole path', () => {
    assert.equal(respellInText(`at ${DIR}/a: bad`, DIR, LINK), `at ${LINK}/a: bad`);
    assert.equal(respellInText(`folder ${DIR}, again \`${DIR}\``, DIR, LINK), `folder ${LINK}, again \`${LINK}\``);
    assert.equal(respellInText(`${DIR}`, DIR, LINK), LINK);
    // Another name that begins with the folder's, or a path that ends with it, is not the folder.
    assert.equal(respellInText(`at /r/ws-link/a and /x/r/ws/a`, DIR, LINK), 'at /r/ws-link/a and /x/r/ws/a');
  });

  it('holds when every path under the folder is spelled under the link, and nothing else changed', () => {
    const direct = doc([item(), item({ id: 'u', workspace: null, path: '/r/home/plugins/p' })], [diagnostic()], {
      detail: { manifest: `${DIR}/config/adapters/a.yaml`, facts: { canonicalRoot: `${DIR}/.codewhale/plugins/x` } },
    });
    const viaLink = doc(
      [item({ workspace: LINK }), item({ id: 'u', workspace: null, path: '/r/home/plugins/p' })],
      [
        diagnostic({
          workspace: LINK,
          message: `Plugin bundle directory may not be a symbolic link or reparse point: ${LINK}/.codewhale/plugins/x`,
        }),
      ],
    );
    Object.assign(viaLink, {
      // Codewhale's canonical root is an identity: the same in both runs.
      detail: { manifest: `${LINK}/config/adapters/a.yaml`, facts: { canonicalRoot: `${DIR}/.codewhale/plugins/x` } },
    });
    assert.deepEqual(linkDifferences(direct, viaLink, DIR, LINK), []);
  });

  it('finds an item spelled under the canonical folder through the link (4c0b42e: Eva items, absent from the tree)', () => {
    const found = linkDifferences(doc([item()]), doc([item()]), DIR, LINK);
    assert.equal(found.length, 1);
    assert.equal(found[0]?.field, 'items[0].workspace (eva:7f2a55858123:adapter:config/adapters/a.yaml)');
    assert.equal(found[0]?.shape, 'items[].workspace (eva skill-adapter)');
    assert.equal(found[0]?.expected, LINK);
    assert.equal(found[0]?.actual, DIR);
  });

  it('finds a message, an Eva policy file or a manifest left under the canonical folder', () => {
    const policy = (file: string) => ({
      eva: { effectivePermissions: { network: { decidedBy: { file, key: 'k' } } } },
    });
    const found = linkDifferences(
      doc([item()], [diagnostic()], { detail: { manifest: `${DIR}/m.yaml`, ...policy(`${DIR}/p.yaml`) } }),
      doc([item({ workspace: LINK })], [diagnostic({ workspace: LINK })], {
        detail: { manifest: `${DIR}/m.yaml`, ...policy(`${DIR}/p.yaml`) },
      }),
      DIR,
      LINK,
    );
    assert.deepEqual(
      found.map((d) => d.shape),
      [
        'diagnostics[].message (codewhale.bundle-symlink)',
        'detail.manifest',
        'detail.eva.effectivePermissions.network.decidedBy.file',
      ],
    );
  });

  it("respells a path in a Rivumi unit's not-covered reason as in a message (Python's OSError names it absolutely)", () => {
    // seed s60-final, input 1200: a hook argument whose name is too long, `[Errno 36] File name too long: '<ws>/AAA…'`.
    const reason = (folder: string) =>
      `hook argument 'A' names 'A', which cannot be inspected ([Errno 36] File name too long: '${folder}/A'), so Skillgate cannot hash what Rivumi runs: it cannot be covered by trust`;
    const show = (folder: string) => doc([], [], { detail: { notCovered: [reason(folder)] } });
    assert.deepEqual(linkDifferences(show(DIR), show(LINK), DIR, LINK), []);
    assert.deepEqual(
      linkDifferences(show(DIR), show(DIR), DIR, LINK).map((d) => d.shape),
      ['detail.notCovered[]'],
    );
  });

  it('compares ids, hashes and the rest byte for byte, without respelling them', () => {
    const direct = doc([item({ id: `${DIR}/x` })]);
    const viaLink = doc([item({ id: `${LINK}/x`, workspace: LINK, contentHash: 'b'.repeat(64) })]);
    assert.deepEqual(
      linkDifferences(direct, viaLink, DIR, LINK).map((d) => d.shape),
      ['items[].id (eva skill-adapter)', 'items[].contentHash (eva skill-adapter)'],
    );
  });

  it('finds an item or a field only one run has', () => {
    assert.deepEqual(
      linkDifferences(doc([item(), item({ id: 'b' })]), doc([item({ workspace: LINK })]), DIR, LINK).map(
        (d) => d.field,
      ),
      ['items.length'],
    );
    assert.deepEqual(
      linkDifferences(doc([item()]), doc([{ ...item({ workspace: LINK }), extra: 1 }]), DIR, LINK).map((d) => d.field),
      ['items[0].{keys} (eva:7f2a55858123:adapter:config/adapters/a.yaml)'],
    );
  });
});
