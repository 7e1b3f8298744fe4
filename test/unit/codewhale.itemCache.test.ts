import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import type { CodewhaleBundle } from '../../src/core/systems/codewhale/codewhaleBundle';
import { CodewhaleItemCache } from '../../src/core/systems/codewhale/itemCache';
import { codewhaleItems, type CodewhaleScan } from '../../src/core/systems/codewhale/items';
import type { GateContext } from '../../src/core/decisions/gates';
import type { TrustView } from '../../src/core/decisions/trustView';
import { joined, type Listing } from '../../src/core/listing';
import { Fixture, LINUX_HOST } from './helpers/fixture';

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';

const trusted = (revision: string | undefined, workspaceTrusted = true): GateContext => ({
  trust: { available: true, lookup: () => undefined, ...(revision === undefined ? {} : { revision }) } as TrustView,
  workspaceTrusted,
});
const unavailable = (problem: string, workspaceTrusted = true): GateContext => ({
  trust: { available: false, problem },
  workspaceTrusted,
});

/** Items and diagnostics only: what a snapshot shows (the layout is bookkeeping). */
/** An output's lists, whole (the cache hands them over in parts, one per bundle). */
const shown = (r: { items: Listing<unknown>; diagnostics: Listing<unknown> }) => ({
  items: joined([r.items]),
  diagnostics: joined([r.diagnostics]),
});

/**
 * The last Codewhale items, patched when bundles are re-read in place (itemCache.ts): a
 * patched result must equal placing every bundle afresh, and a patch is refused —
 * everything is placed again — whenever the re-read could change another bundle's
 * items: a new name, scope, directory or canonical root, another bundle that shares the
 * name or root, two re-read bundles of one name, or a different trust store or
 * workspace trust.
 */
describe('Codewhale item cache: a patched snapshot equals one placed afresh', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const manifest = (name: string, extraHost = false) =>
    JSON.stringify({
      $schema: SCHEMA,
      name,
      version: '1.0.0',
      // A declared host no MCP server uses: a validation error, the name unchanged.
      ...(extraHost ? { extensions: { 'net.codewhale': { capabilities: { network_hosts: ['x.example.com'] } } } } : {}),
    });
  /** Writes a workspace bundle (or, with `user`, one in the user's root). */
  const write = (dir: string, name: string, opts: { user?: boolean; invalid?: boolean; skills?: string[] } = {}) => {
    const base = opts.user ? `home/plugins/${dir}` : `ws/.codewhale/plugins/${dir}`;
    f.write(`${base}/plugin.json`, manifest(name, opts.invalid));
    for (const s of opts.skills ?? ['s']) f.write(`${base}/skills/${s}/SKILL.md`, `---\nname: ${s}\n---\nbody\n`);
    return base;
  };
  const load = (base: string): CodewhaleScan => {
    const user = base.startsWith('home/');
    const root = fs.realpathSync(f.path(user ? 'home/plugins' : base.split('/').slice(0, 3).join('/')));
    const bundle = loadCodewhaleBundle(f.path(base), 'plugin.json', {
      scope: user ? 'user' : 'workspace',
      canonicalDiscoveryRoot: root,
      host: LINUX_HOST,
    });
    return { bundle, workspace: user ? null : f.path(base.split('/')[0] as string) };
  };

  /**
   * Replaces scans (by directory) with re-read ones; returns the patch (or undefined) and
   * what the index shows, patched or placed again, next to a fresh placement.
   */
  const reread = (cache: CodewhaleItemCache, scans: CodewhaleScan[], bases: string[], ctx: GateContext) => {
    const pairs: [CodewhaleBundle, CodewhaleBundle][] = [];
    for (const base of bases) {
      const next = load(base);
      const i = scans.findIndex((s) => s.bundle.dir === next.bundle.dir);
      pairs.push([(scans[i] as CodewhaleScan).bundle, next.bundle]);
      scans[i] = next;
    }
    const patched = cache.patch(pairs, ctx);
    const result = patched ?? cache.compute(scans, ctx);
    assert.deepEqual(shown(result), shown(codewhaleItems(scans, ctx)));
    return patched;
  };

  it('has nothing to patch before the first placement', () => {
    write('a', 'alpha');
    const scan = load('ws/.codewhale/plugins/a');
    assert.equal(new CodewhaleItemCache().patch([[scan.bundle, scan.bundle]], trusted('r')), undefined);
    assert.equal(new CodewhaleItemCache().patch([], trusted('r')), undefined);
  });

  it('answers the last items as they are when nothing was re-read and the context is the same', () => {
    write('a', 'alpha');
    const scans = [load('ws/.codewhale/plugins/a')];
    const cache = new CodewhaleItemCache();
    const first = cache.compute(scans, trusted('r1'));
    assert.deepEqual(shown(cache.patch([], trusted('r1')) ?? { items: [], diagnostics: [] }), shown(first));
  });

  describe('the context: trust store and workspace trust', () => {
    const placed = (ctx: GateContext) => {
      write('a', 'alpha');
      const cache = new CodewhaleItemCache();
      cache.compute([load('ws/.codewhale/plugins/a')], ctx);
      return cache;
    };
    it('refuses after the store changed its revision', () =>
      assert.equal(placed(trusted('r1')).patch([], trusted('r2')), undefined));
    it('refuses after workspace trust changed', () =>
      assert.equal(placed(trusted('r1')).patch([], trusted('r1', false)), undefined));
    it('refuses when the store became unavailable, or available again', () => {
      assert.equal(placed(trusted('r1')).patch([], unavailable('broken')), undefined);
      f.remove();
      f = new Fixture();
      assert.equal(placed(unavailable('broken')).patch([], trusted('r1')), undefined);
    });
    it('refuses when the unavailable store fails for another reason', () =>
      assert.equal(placed(unavailable('broken')).patch([], unavailable('gone')), undefined));
    it('reuses under an unavailable store with the same problem and workspace trust', () => {
      const cache = placed(unavailable('broken', false));
      assert.ok(cache.patch([], unavailable('broken', false)));
      assert.equal(cache.patch([], unavailable('broken', true)), undefined);
    });
    it('never reuses under a store that gives no revision (its answers cannot be told equal)', () =>
      assert.equal(placed(trusted(undefined)).patch([], trusted(undefined)), undefined));
    it('keeps refusing until a placement under the new context', () => {
      const cache = placed(trusted('r1'));
      assert.equal(cache.patch([], trusted('r2')), undefined);
      assert.equal(cache.patch([], trusted('r2')), undefined);
      cache.compute([load('ws/.codewhale/plugins/a')], trusted('r2'));
      assert.ok(cache.patch([], trusted('r2')));
      assert.equal(cache.patch([], trusted('r1')), undefined);
    });
  });

  describe('patched in place', () => {
    it('a re-read bundle among others, its items and diagnostics in the same place', () => {
      const bases = [
        write('a', 'alpha'),
        write('b', 'beta'),
        write('c', 'gamma'),
        write('u', 'upsilon', { user: true }),
      ];
      const scans = bases.map(load);
      const cache = new CodewhaleItemCache();
      const ctx = trusted('r');
      const first = cache.compute(scans, ctx);
      const { items: firstItems, diagnostics: firstDiagnostics } = shown(first);
      // More skills, one of them broken: more items and a diagnostic in the middle of the lists.
      write('b', 'beta', { skills: ['s', 't', 'Not A Safe Name'] });
      assert.ok(reread(cache, scans, [bases[1] as string], ctx));
      // Fewer again, then a validation error: the counts follow each patch.
      write('b', 'beta', { skills: [] });
      fs.rmSync(f.path(bases[1] as string, 'skills'), { recursive: true });
      assert.ok(reread(cache, scans, [bases[1] as string], ctx));
      write('c', 'gamma', { invalid: true });
      assert.ok(reread(cache, scans, [bases[2] as string], ctx));
      write('u', 'upsilon', { user: true, skills: ['s', 'v'] });
      assert.ok(reread(cache, scans, [bases[3] as string], ctx));
      // An earlier snapshot keeps its own lists.
      assert.deepEqual(shown(first), { items: firstItems, diagnostics: firstDiagnostics });
    });

    it('several re-read bundles at once, and the same bundle again after a patch', () => {
      const bases = [write('a', 'alpha'), write('b', 'beta'), write('c', 'gamma')];
      const scans = bases.map(load);
      const cache = new CodewhaleItemCache();
      const ctx = trusted('r');
      cache.compute(scans, ctx);
      write('a', 'alpha', { skills: ['s', 't'] });
      write('c', 'gamma', { skills: ['s', 't', 'u'] });
      assert.ok(reread(cache, scans, [bases[2] as string, bases[0] as string], ctx));
      const replaced = (scans[0] as CodewhaleScan).bundle;
      write('a', 'alpha', { invalid: true });
      assert.ok(reread(cache, scans, [bases[0] as string], ctx));
      // The bundle a patch replaced is no longer among the placed ones.
      assert.equal(cache.patch([[replaced, replaced]], ctx), undefined);
    });

    it('a bundle that stops and starts taking part in shadowing keeps the name counts right', () => {
      // Two bundles named alpha: the valid one holds the name, the invalid one takes no part.
      const a = write('a', 'alpha');
      const b = write('b', 'alpha', { invalid: true });
      const scans = [load(a), load(b)];
      const cache = new CodewhaleItemCache();
      const ctx = trusted('r');
      cache.compute(scans, ctx);
      // b is contested while a holds the name: once valid, it would be shadowed.
      write('b', 'alpha', { invalid: true, skills: ['s', 't'] });
      assert.equal(reread(cache, scans, [b], ctx), undefined);
      // a breaks: nobody holds the name any more...
      write('a', 'alpha', { invalid: true });
      assert.ok(reread(cache, scans, [a], ctx));
      // ...so b is patched alone, and from then on holds it.
      write('b', 'alpha');
      assert.ok(reread(cache, scans, [b], ctx));
      write('a', 'alpha', { invalid: true, skills: ['s', 't'] });
      assert.equal(reread(cache, scans, [a], ctx), undefined);
    });
    it('counts a name that only now takes part, so a second bundle of that name is not patched alone', () => {
      // Two broken bundles named alpha: neither takes part, the name is nobody's.
      const a = write('a', 'alpha', { invalid: true });
      const b = write('b', 'alpha', { invalid: true });
      const scans = [load(a), load(b)];
      const cache = new CodewhaleItemCache();
      const ctx = trusted('r');
      cache.compute(scans, ctx);
      write('a', 'alpha');
      assert.ok(reread(cache, scans, [a], ctx));
      // b, fixed too, would be shadowed by a: placed again with everything.
      write('b', 'alpha');
      assert.equal(reread(cache, scans, [b], ctx), undefined);
    });
  });

  describe('refused, and placed again', () => {
    it('a bundle that is not among the last placed ones', () => {
      const a = write('a', 'alpha');
      const scans = [load(a)];
      const cache = new CodewhaleItemCache();
      cache.compute(scans, trusted('r'));
      const stranger = load(a).bundle;
      assert.equal(cache.patch([[stranger, stranger]], trusted('r')), undefined);
    });

    it('a bundle whose name changed', () => {
      const bases = [write('a', 'alpha'), write('b', 'beta')];
      const scans = bases.map(load);
      const cache = new CodewhaleItemCache();
      cache.compute(scans, trusted('r'));
      write('b', 'alpha');
      assert.equal(reread(cache, scans, [bases[1] as string], trusted('r')), undefined);
    });

    for (const field of ['scope', 'dir', 'canonicalRoot'] as const) {
      it(`a bundle whose ${field} changed`, () => {
        const a = write('a', 'alpha');
        const scans = [load(a)];
        const cache = new CodewhaleItemCache();
        cache.compute(scans, trusted('r'));
        const before = (scans[0] as CodewhaleScan).bundle;
        const other = field === 'scope' ? 'user' : `${before[field] as string}-other`;
        assert.equal(cache.patch([[before, { ...before, [field]: other }]], trusted('r')), undefined);
      });
    }

    it('a bundle whose name another bundle holds', () => {
      const bases = [write('a', 'alpha'), write('u', 'alpha', { user: true })];
      const scans = bases.map(load);
      const cache = new CodewhaleItemCache();
      cache.compute(scans, trusted('r'));
      write('a', 'alpha', { skills: ['s', 't'] });
      assert.equal(reread(cache, scans, [bases[0] as string], trusted('r')), undefined);
      write('u', 'alpha', { user: true, skills: ['s', 't'] });
      assert.equal(reread(cache, scans, [bases[1] as string], trusted('r')), undefined);
    });

    it('a bundle whose canonical root another bundle shares (a workspace also opened through a link)', () => {
      f.symlink(f.path('ws'), 'link');
      const base = write('a', 'alpha');
      const inWs = load(base);
      // Loaded through the link after a rename: the same root under another name (the other copy is stale).
      write('a', 'beta');
      const link = 'link/.codewhale/plugins/a';
      const scans = [inWs, load(link)];
      assert.equal(scans[0]?.bundle.canonicalRoot, scans[1]?.bundle.canonicalRoot);
      const cache = new CodewhaleItemCache();
      cache.compute(scans, trusted('r'));
      write('a', 'beta', { skills: ['s', 't'] });
      assert.equal(reread(cache, scans, [link], trusted('r')), undefined);
    });

    it('an invalid bundle whose canonical root another invalid one shares (two folders reaching one directory)', () => {
      // The later discovery is a duplicate (no item of its own), invalid or not: patched alone, it made a second item of the holder's id.
      f.symlink(f.path('ws'), 'link');
      const base = write('a', 'alpha', { invalid: true });
      const link = 'link/.codewhale/plugins/a';
      const scans = [load(base), load(link)];
      const cache = new CodewhaleItemCache();
      cache.compute(scans, trusted('r'));
      write('a', 'alpha', { invalid: true, skills: ['s', 't'] });
      assert.equal(reread(cache, scans, [link], trusted('r')), undefined);
      assert.equal(reread(cache, scans, [base], trusted('r')), undefined);
    });

    it('two re-read bundles of the same name, neither of them taking part before', () => {
      // A workspace and a user bundle, both broken under one name: fixed together, one shadows the other.
      const bases = [write('a', 'alpha', { invalid: true }), write('u', 'alpha', { user: true, invalid: true })];
      const scans = bases.map(load);
      const cache = new CodewhaleItemCache();
      cache.compute(scans, trusted('r'));
      write('a', 'alpha');
      write('u', 'alpha', { user: true });
      assert.equal(reread(cache, scans, bases, trusted('r')), undefined);
    });

    it('every pair when one of them is refused, leaving the last items as they were', () => {
      const bases = [write('a', 'alpha'), write('b', 'beta')];
      const scans = bases.map(load);
      const cache = new CodewhaleItemCache();
      const ctx = trusted('r');
      const first = cache.compute(scans, ctx);
      const before = shown(first);
      write('a', 'alpha', { skills: ['s', 't'] });
      write('b', 'gamma');
      assert.equal(reread(cache, scans, bases, ctx), undefined);
      assert.deepEqual(shown(first), before);
    });
  });
});
