import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import type { ContractEnvelope } from '../../src/core/report/contract';
import { layout } from '../fuzz/input';
import { Rng, textBytes } from '../fuzz/random';
import { byCodePoints, surrogateEscaped } from '../fuzz/pythonOrder';
import { generateRivumiCaps } from '../fuzz/rivumiCaps';
import { generateCodewhaleShadowing } from '../fuzz/codewhaleShadowing';
import { generateCodewhaleEnabled } from '../fuzz/codewhaleEnabled';
import { generateRivumiHooks } from '../fuzz/rivumiHooks';
import { generateCodewhaleDuplicateRoot } from '../fuzz/codewhaleDuplicateRoot';
import { generateCodewhaleLinkedRoot, withSecondFolder } from '../fuzz/codewhaleLinkedRoot';
import { generateCodewhaleKimi } from '../fuzz/codewhaleKimi';
import { evaPathOrder, generateEvaDuplicateIds } from '../fuzz/evaDuplicateIds';
import { generateEvaUserCap } from '../fuzz/evaUserCap';
import { generateEvaConfigLayers } from '../fuzz/evaConfigLayers';
import { checkShapeFates, codewhaleBundleAt, type ListedItem, type ShapeFate } from '../fuzz/shapeFates';
import { checkShapeLifecycles, type LifecycleRun } from '../fuzz/shapeLifecycle';
import { writeShape, type Shape } from '../fuzz/shapeTree';
import { Fixture } from './helpers/fixture';

/**
 * The fuzz generator's shapes with a known fate (test/fuzz/shapeTree.ts): a `.rivumi/` at
 * Rivumi's caps in Python's order, and Codewhale bundles of one name across scopes and
 * formats. The `shape-fate` invariant holds Skillgate's listing to the fate each shape
 * works out from the agent's rules; these tests show the check can fail, and that the
 * shapes reach every fate and hold over the trees as written (the fuzz run adds ops).
 */
describe('fuzz generator: shapes with a known fate (test/fuzz/rivumiCaps.ts, rivumiHooks.ts, codewhaleShadowing.ts, codewhaleEnabled.ts, codewhaleDuplicateRoot.ts, codewhaleLinkedRoot.ts, codewhaleKimi.ts, evaDuplicateIds.ts, evaUserCap.ts, evaConfigLayers.ts)', function () {
  this.timeout(240000);
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  /** The shape alone under `root` (the workspace and the home made, as the fuzz input makes them). */
  const written = (shape: Shape, dir: string): string => {
    const root = f.mkdir(dir);
    f.mkdir(`${dir}/ws`);
    f.mkdir(`${dir}/home`);
    writeShape(shape, root);
    return root;
  };

  /** The CLI over the input's workspace (and a shape's further folders) and home, with the trust store `state`. */
  const cli =
    (root: string, state = layout(root).state, hooksOptIn = false, home = layout(root).home, folders: string[] = []) =>
    async (...args: string[]): Promise<LifecycleRun> => {
      const l = layout(root);
      let out = '';
      let err = '';
      const workspaces = [l.ws, ...folders].flatMap((w) => ['--workspace', w]);
      const code = await run([...args, '--state-dir', state, ...workspaces, '--codewhale-home', home], {
        out: (t) => (out += t),
        err: (t) => (err += t),
        env: { PATH: process.env.PATH, ...(hooksOptIn ? { RIVUMI_ENABLE_PROJECT_HOOKS: '1' } : {}) },
        cwd: root,
      });
      return { code, out, err };
    };

  const listed = async (
    root: string,
    hooksOptIn = false,
    home?: string,
    folders?: string[],
  ): Promise<ContractEnvelope> => {
    const r = await cli(root, layout(root).state, hooksOptIn, home, folders)('list', '--json');
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out) as ContractEnvelope;
  };

  it("orders names as Python's sorted() over os.listdir does: code points after surrogateescape, neither bytes nor UTF-16 units", () => {
    const names = [[0xff], '\ue000', [0xc3], '\u00e9', '\u{1f600}', '\uff01'].map((n) =>
      surrogateEscaped(typeof n === 'string' ? Buffer.from(n) : Buffer.from(n)),
    );
    assert.deepEqual(names.sort(byCodePoints), ['\u00e9', '\udcc3', '\udcff', '\ue000', '\uff01', '\u{1f600}']);
    assert.equal(surrogateEscaped(Buffer.from([0xed, 0xa0, 0x80, 0x61])), '\udced\udca0\udc80a');
  });

  it('reports an item its agent loads shown not loaded, a shadowed bundle shown kept, and nothing for a shape an op reached', () => {
    const item = (over: Partial<ListedItem>): ListedItem => ({
      id: 'x',
      system: 'rivumi',
      kind: 'skill',
      workspace: '/r/ws',
      path: '.rivumi/skills/a.md',
      parent: null,
      shadowedBy: null,
      decision: 'registered',
      reasons: ['guidance'],
      ...over,
    });
    const shape = (fates: ShapeFate[]): Shape => ({ shape: 'rivumi-caps', entries: [], owns: ['ws/.rivumi'], fates });
    const failures = (s: Shape, items: ListedItem[], ops: Parameters<typeof checkShapeFates>[1] = []) => {
      const out: string[] = [];
      checkShapeFates([s], ops, { root: '/r', ws: '/r/ws' }, items, (signature) => out.push(signature));
      return out;
    };
    const loaded = shape([{ system: 'rivumi', kind: 'skill', path: '.rivumi/skills/a.md', loaded: true }]);
    assert.deepEqual(failures(loaded, [item({})]), []);
    assert.deepEqual(failures(loaded, [item({ decision: 'display_only', reasons: ['skill_limit_exceeded'] })]), [
      'rivumi-caps: rivumi loads a skill shown display_only',
    ]);
    assert.deepEqual(failures(loaded, []), ['rivumi-caps: rivumi loads a skill shown not listed']);
    assert.deepEqual(failures(loaded, [], [{ op: 'delete', path: 'ws/.rivumi/skills/a.md' }]), []);
    const shadowed: Shape = {
      shape: 'codewhale-shadowing',
      entries: [],
      owns: ['home/plugins/a', 'ws/.codewhale/plugins/a'],
      fates: [
        { system: 'codewhale', dir: 'home/plugins/a', fate: 'registry' },
        { system: 'codewhale', dir: 'ws/.codewhale/plugins/a', fate: 'shadowed', winner: 'home/plugins/a' },
      ],
    };
    const user = item({ id: 'u', system: 'codewhale', kind: 'plugin', workspace: null, path: '/r/home/plugins/a' });
    const ws = item({ id: 'w', system: 'codewhale', kind: 'plugin', path: '.codewhale/plugins/a' });
    assert.deepEqual(failures(shadowed, [user, { ...ws, decision: 'shadowed', shadowedBy: 'u' }]), []);
    assert.deepEqual(failures(shadowed, [user, { ...ws, decision: 'disabled' }]), [
      'codewhale-shadowing: codewhale shadows a bundle shown disabled',
    ]);
    assert.deepEqual(failures(shadowed, [{ ...user, decision: 'shadowed', shadowedBy: 'w' }, ws]), [
      'codewhale-shadowing: codewhale keeps a bundle shown shadowed',
      'codewhale-shadowing: codewhale shadows a bundle shown registered',
    ]);
  });

  // Shapes from their own seeded streams, written alone (no ops): 60 of each.
  const SHAPES = 60;

  it(`holds every fate of ${SHAPES} Rivumi cap shapes over the tree as written, and cuts each list, a plugin's skills and a whole load`, async () => {
    const reached = new Set<string>();
    const failed: string[] = [];
    for (let i = 0; i < SHAPES; i++) {
      const shape = generateRivumiCaps(new Rng(`fuzz-shape-rivumi:${i}`));
      const root = written(shape, `r${i}`);
      const doc = await listed(root);
      checkShapeFates([shape], [], { root, ws: layout(root).ws }, doc.items, (s, d) => failed.push(`${i}: ${s}: ${d}`));
      const fates = shape.fates.filter((x) => x.system === 'rivumi');
      const any = fates.some((x) => x.loaded);
      if (!any) reached.add('a failed load');
      if (any && fates.some((x) => x.kind === 'skill' && !x.loaded)) reached.add('a project skill past the cap');
      if (any && fates.some((x) => x.kind === 'plugin' && !x.loaded)) reached.add('a plugin past the cap');
      if (fates.some((x) => x.skills?.includes(true) && x.skills.includes(false))) reached.add("a plugin's skills cut");
    }
    assert.deepEqual(failed, []);
    assert.deepEqual([...reached].sort(), [
      'a failed load',
      'a plugin past the cap',
      "a plugin's skills cut",
      'a project skill past the cap',
    ]);
  });

  it(`holds every fate of ${SHAPES} Codewhale shadowing shapes over the tree as written, and reaches each fate`, async () => {
    const reached = new Set<string>();
    const failed: string[] = [];
    for (let i = 0; i < SHAPES; i++) {
      const shape = generateCodewhaleShadowing(new Rng(`fuzz-shape-codewhale:${i}`));
      const root = written(shape, `c${i}`);
      const doc = await listed(root);
      checkShapeFates([shape], [], { root, ws: layout(root).ws }, doc.items, (s, d) => failed.push(`${i}: ${s}: ${d}`));
      for (const x of shape.fates)
        if (x.system === 'codewhale')
          reached.add(x.winner ? `shadowed by ${x.winner.startsWith('home/') ? 'user' : 'workspace'}` : x.fate);
    }
    assert.deepEqual(failed, []);
    assert.deepEqual([...reached].sort(), [
      'inactive',
      'registry',
      'rejected',
      'shadowed by user',
      'shadowed by workspace',
    ]);
  });

  it('reports a bundle Codewhale activates, or a server it starts, shown not loaded, and a server configured off shown started', async () => {
    const shape = generateCodewhaleEnabledWith((s) =>
      s.lifecycle?.fates.some((x) => x.decision === 'registered' && x.children.some((c) => c.kind === 'mcp-server')),
    );
    const root = written(shape, 'lf');
    const before = (await listed(root)).items;
    const failures = async (edit: (items: ListedItem[]) => ListedItem[]) => {
      const out: string[] = [];
      const base = cli(root, layout(root).shapeState);
      await checkShapeLifecycles(
        [shape],
        [],
        { root, ws: layout(root).ws },
        before,
        async (...args) => {
          const r = await base(...args);
          if (args[0] !== 'list') return r;
          const doc = JSON.parse(r.out) as ContractEnvelope;
          return { ...r, out: JSON.stringify({ ...doc, items: edit(doc.items as unknown as ListedItem[]) }) };
        },
        (signature) => out.push(signature),
      );
      fs.rmSync(layout(root).shapeState, { recursive: true, force: true });
      return out;
    };
    assert.deepEqual(await failures((items) => items), []);
    const active = shape.lifecycle?.fates.find((x) => x.decision === 'registered');
    const server = active?.children.find((c) => c.kind === 'mcp-server');
    assert.ok(active && server);
    const serverOf = (i: ListedItem, items: ListedItem[]) =>
      i.kind === 'mcp-server' &&
      i.name === server.name &&
      i.parent === codewhaleBundleAt(active.dir, { root, ws: layout(root).ws }, items)?.id;
    const flipped = await failures((items) =>
      items.map((i) =>
        serverOf(i, items)
          ? { ...i, decision: i.decision === 'registered' ? 'disabled' : 'registered', reasons: ['bundle_inactive'] }
          : i,
      ),
    );
    assert.deepEqual(flipped, [
      server.loaded
        ? 'codewhale-enabled: codewhale starts an MCP server shown disabled'
        : 'codewhale-enabled: codewhale never starts an MCP server shown registered',
    ]);
    const inactive = await failures((items) =>
      items.map((i) =>
        i.kind === 'plugin' && i.decision === 'registered'
          ? { ...i, decision: 'disabled', reasons: ['not_enabled'] }
          : i,
      ),
    );
    assert.ok(
      inactive.includes('codewhale-enabled: codewhale activates a bundle shown disabled not_enabled'),
      inactive.join('\n'),
    );
  });

  /** The first seeded shape that `want` holds for. */
  const generateCodewhaleEnabledWith = (want: (s: Shape) => boolean | undefined): Shape => {
    for (let i = 0; ; i++) {
      const s = generateCodewhaleEnabled(new Rng(`fuzz-shape-enabled:${i}`));
      if (want(s)) return s;
    }
  };

  it(`holds every fate of ${SHAPES} Codewhale lifecycle shapes after trust and enable, and reaches each fate`, async () => {
    const reached = new Set<string>();
    const failed: string[] = [];
    for (let i = 0; i < SHAPES; i++) {
      const shape = generateCodewhaleEnabled(new Rng(`fuzz-shape-enabled:${i}`));
      const root = written(shape, `e${i}`);
      const dirs = { root, ws: layout(root).ws };
      const doc = await listed(root);
      const fail = (s: string, d: string) => failed.push(`${i}: ${s}: ${d}`);
      checkShapeFates([shape], [], dirs, doc.items, fail);
      await checkShapeLifecycles([shape], [], dirs, doc.items, cli(root, layout(root).shapeState), fail);
      for (const s of shape.lifecycle?.steps ?? [])
        if (s.op === 'enable') reached.add(`enable ${s.ok ? 'done' : 'refused'}`);
      for (const x of shape.lifecycle?.fates ?? []) {
        reached.add(`${x.decision} ${x.reason}`);
        for (const c of x.children)
          if (x.decision === 'registered') reached.add(`${c.kind} ${c.loaded ? 'loaded' : 'configured off'}`);
      }
    }
    assert.deepEqual(failed, []);
    assert.deepEqual([...reached].sort(), [
      'disabled not_enabled',
      'disabled not_reviewed',
      'display_only unsupported_components',
      'enable done',
      'enable refused',
      'mcp-server configured off',
      'mcp-server loaded',
      'registered active',
      'skill loaded',
    ]);
  });

  it(`holds every fate of ${SHAPES} Rivumi hook shapes at the per-event cap, with the opt-in and without`, async () => {
    const reached = new Set<string>();
    const failed: string[] = [];
    for (let i = 0; i < SHAPES; i++) {
      const shape = generateRivumiHooks(new Rng(`fuzz-shape-hooks:${i}`));
      const root = written(shape, `h${i}`);
      for (const hooksOptIn of [false, true]) {
        const doc = await listed(root, hooksOptIn);
        checkShapeFates([shape], [], { root, ws: layout(root).ws, hooksOptIn }, doc.items, (s, d) =>
          failed.push(`${i}${hooksOptIn ? ' (opt-in)' : ''}: ${s}: ${d}`),
        );
      }
      for (const x of shape.fates)
        if (x.system === 'rivumi' && x.hooks?.length)
          reached.add(x.hookReason ? `${x.kind} ${x.hookReason}` : `${x.kind} hooks run`);
    }
    assert.deepEqual(failed, []);
    assert.deepEqual([...reached].sort(), [
      'hooks hooks run',
      'hooks load_aborted',
      'hooks manifest_invalid',
      'plugin hooks run',
      'plugin load_aborted',
      'plugin manifest_invalid',
    ]);
  });

  it(`holds every fate of ${SHAPES} Codewhale shapes of a workspace opened at the home: each bundle the user's, once`, async () => {
    const reached = new Set<string>();
    const failed: string[] = [];
    for (let i = 0; i < SHAPES; i++) {
      const shape = generateCodewhaleDuplicateRoot(new Rng(`fuzz-shape-duplicate-root:${i}`));
      const root = written(shape, `d${i}`);
      const doc = await listed(root, false, path.join(root, shape.codewhaleHome as string));
      checkShapeFates([shape], [], { root, ws: layout(root).ws }, doc.items, (s, d) => failed.push(`${i}: ${s}: ${d}`));
      for (const x of shape.fates) if (x.system === 'codewhale') reached.add(x.fate);
    }
    assert.deepEqual(failed, []);
    assert.deepEqual([...reached].sort(), ['inactive', 'registry', 'rejected', 'shadowed']);
  });

  it('reports a bundle kept through one root shown dropped for its other spelling, and that spelling shown kept', () => {
    const failures = (items: ListedItem[]) => {
      const out: string[] = [];
      checkShapeFates([linked], [], { root: '/r', ws: '/r/ws' }, items, (signature) => out.push(signature));
      return out;
    };
    // `cw/plugins` is a link: Codewhale keeps the workspace's discovery alone.
    const linked: Shape = {
      shape: 'codewhale-linked-root',
      entries: [],
      owns: ['cw/plugins', 'ws/.codewhale/plugins/d0'],
      fates: [{ system: 'codewhale', dir: 'ws/.codewhale/plugins/d0', fate: 'registry', alias: 'cw/plugins/d0' }],
    };
    const base = {
      system: 'codewhale',
      kind: 'plugin',
      parent: null,
      shadowedBy: null,
      decision: 'disabled',
      reasons: ['not_reviewed'],
    };
    const ws: ListedItem = { ...base, id: 'w', workspace: '/r/ws', path: '.codewhale/plugins/d0' };
    const user: ListedItem = { ...base, id: 'u', workspace: null, path: '/r/cw/plugins/d0' };
    assert.deepEqual(failures([ws]), []);
    assert.deepEqual(failures([ws, { ...user, decision: 'rejected' }]), []);
    // The user's spelling taken for the same directory, and winning: the bundle Codewhale loads shown shadowed.
    assert.deepEqual(failures([user, { ...ws, decision: 'shadowed', shadowedBy: 'u' }]), [
      'codewhale-linked-root: codewhale never keeps a bundle through the other root, shown disabled',
      'codewhale-linked-root: codewhale keeps a bundle shown shadowed',
    ]);
    assert.deepEqual(failures([user]), [
      'codewhale-linked-root: codewhale never keeps a bundle through the other root, shown disabled',
      'codewhale-linked-root: codewhale keeps a bundle shown not listed',
    ]);
  });

  it(`holds every fate of ${SHAPES} Codewhale shapes with one root linked to the other: each bundle kept once, through the root that is no link`, async () => {
    const reached = new Set<string>();
    const failed: string[] = [];
    for (let i = 0; i < SHAPES; i++) {
      const shape = generateCodewhaleLinkedRoot(new Rng(`fuzz-shape-linked-root:${i}`));
      const root = written(shape, `k${i}`);
      const doc = await listed(root, false, path.join(root, shape.codewhaleHome as string));
      checkShapeFates([shape], [], { root, ws: layout(root).ws }, doc.items, (s, d) => failed.push(`${i}: ${s}: ${d}`));
      for (const x of shape.fates)
        if (x.system === 'codewhale') reached.add(`${x.dir.startsWith('cw/') ? 'user' : 'workspace'} ${x.fate}`);
    }
    assert.deepEqual(failed, []);
    assert.deepEqual([...reached].sort(), [
      'user inactive',
      'user registry',
      'user rejected',
      'user shadowed',
      'workspace inactive',
      'workspace registry',
      'workspace rejected',
      'workspace shadowed',
    ]);
  });

  it(`lists each bundle of ${SHAPES} linked-root shapes once with a second folder sharing the workspace's .codewhale: ids unique, valid or not`, async () => {
    const failed: string[] = [];
    let invalid = 0;
    for (let i = 0; i < SHAPES; i++) {
      const shape = withSecondFolder(generateCodewhaleLinkedRoot(new Rng(`fuzz-shape-linked-root:${i}`)));
      const root = written(shape, `w${i}`);
      const second = (shape.workspaces ?? []).map((w) => path.join(root, w));
      const doc = await listed(root, false, path.join(root, shape.codewhaleHome as string), second);
      checkShapeFates([shape], [], { root, ws: layout(root).ws }, doc.items, (s, d) => failed.push(`${i}: ${s}: ${d}`));
      const ids = doc.items.map((x) => x.id);
      const repeated = ids.filter((id, n) => ids.indexOf(id) !== n);
      if (repeated.length) failed.push(`${i}: ids listed twice: ${repeated.join(', ')}`);
      // The second folder's discovery of each bundle is a duplicate of the first's: no item of its own.
      for (const x of doc.items.filter((x) => second.includes(x.workspace ?? '')))
        failed.push(`${i}: ${x.id} listed in the second folder, ${x.decision}`);
      if (shape.fates.some((x) => x.system === 'codewhale' && x.fate === 'rejected')) invalid++;
    }
    assert.deepEqual(failed, []);
    assert.ok(invalid > 0, 'some shapes hold an invalid bundle, the case that listed one id twice');
  });

  it(`holds every fate of ${SHAPES} Kimi-format Codewhale shapes with MCP servers after trust and enable, and reaches each fate`, async () => {
    const reached = new Set<string>();
    const failed: string[] = [];
    for (let i = 0; i < SHAPES; i++) {
      const shape = generateCodewhaleKimi(new Rng(`fuzz-shape-kimi:${i}`));
      const root = written(shape, `m${i}`);
      const dirs = { root, ws: layout(root).ws };
      const doc = await listed(root);
      const fail = (s: string, d: string) => failed.push(`${i}: ${s}: ${d}`);
      checkShapeFates([shape], [], dirs, doc.items, fail);
      await checkShapeLifecycles([shape], [], dirs, doc.items, cli(root, layout(root).shapeState), fail);
      const trusted = new Set<string>();
      for (const s of shape.lifecycle?.steps ?? []) {
        if (s.op === 'trust') trusted.add(s.dir);
        // Refused though trusted: its platforms leave the host out (§8.4 3).
        if (s.op === 'enable')
          reached.add(`enable ${s.ok ? 'done' : trusted.has(s.dir) ? 'refused, trusted' : 'refused'}`);
      }
      for (const x of shape.lifecycle?.fates ?? []) {
        reached.add(`${x.decision} ${x.reason}`);
        for (const c of x.children)
          if (x.decision === 'registered') reached.add(`${c.kind} ${c.loaded ? 'loaded' : 'configured off'}`);
      }
      // What is Kimi's own in the manifests written (codewhaleKimi.ts).
      for (const e of shape.entries) {
        if (e.kind !== 'file' || !e.path.endsWith('/kimi.plugin.json')) continue;
        const m = JSON.parse(textBytes(e.text).toString('utf8')) as {
          name: string;
          interface?: { platforms: string[] };
          mcpServers?: Record<string, { type?: string; url?: string }>;
        };
        if (/_|-$/.test(m.name)) reached.add('a name only the Kimi rule allows');
        if (m.interface?.platforms.length === 0) reached.add('platforms []');
        for (const server of Object.values(m.mcpServers ?? {}))
          reached.add(`${server.url ? 'remote' : 'stdio'} server ${server.type ? 'typed' : 'untyped'}`);
      }
    }
    assert.deepEqual(failed, []);
    assert.deepEqual([...reached].sort(), [
      'a name only the Kimi rule allows',
      'disabled not_enabled',
      'disabled not_reviewed',
      'enable done',
      'enable refused',
      'enable refused, trusted',
      'mcp-server configured off',
      'mcp-server loaded',
      'platforms []',
      'registered active',
      'remote server typed',
      'remote server untyped',
      'skill loaded',
      'stdio server typed',
      'stdio server untyped',
    ]);
  });

  it(`holds every fate of ${SHAPES} Eva shapes of adapters sharing an id: the first in Eva's path order registered, every later one shadowed by it`, async () => {
    const reached = new Set<string>();
    const failed: string[] = [];
    for (let i = 0; i < SHAPES; i++) {
      const shape = generateEvaDuplicateIds(new Rng(`fuzz-shape-eva-duplicate-ids:${i}`));
      const root = f.mkdir(`v${i}`);
      f.mkdir(`v${i}/home`);
      // The demo's Eva project, as input.ts copies it (`evaDemo`), then the shape over it.
      for (const dir of ['config', 'schemas'])
        fs.cpSync(path.resolve(__dirname, '../../examples/demo-workspace', dir), path.join(root, 'ws', dir), {
          recursive: true,
        });
      writeShape(shape, root);
      const doc = await listed(root);
      checkShapeFates([shape], [], { root, ws: layout(root).ws }, doc.items, (s, d) => failed.push(`${i}: ${s}: ${d}`));
      for (const x of shape.fates)
        if (x.system === 'eva' && 'path' in x)
          reached.add(
            x.fate === 'registered' ? 'registered' : `shadowed by ${x.winner ? 'a skill adapter' : 'a context file'}`,
          );
      const paths = shape.entries.map((e) => e.path.slice('ws/'.length));
      if ([...paths].sort()[0] !== [...paths].sort(evaPathOrder)[0]) reached.add('a string sort picks another winner');
    }
    assert.deepEqual(failed, []);
    assert.deepEqual([...reached].sort(), [
      'a string sort picks another winner',
      'registered',
      'shadowed by a context file',
      'shadowed by a skill adapter',
    ]);
  });

  it('reports an Eva adapter that wins shown shadowed, and one it shadows shown kept or shadowed by another', () => {
    const shape: Shape = {
      shape: 'eva-duplicate-ids',
      entries: [],
      owns: ['ws/config'],
      fates: [
        { system: 'eva', path: 'config/adapters/a/x.yaml', fate: 'registered' },
        { system: 'eva', path: 'config/adapters/a-b/x.yaml', fate: 'shadowed', winner: 'config/adapters/a/x.yaml' },
      ],
    };
    const item = (p: string, over: Partial<ListedItem> = {}): ListedItem => ({
      id: `eva:p:adapter:${p}`,
      system: 'eva',
      kind: 'skill-adapter',
      workspace: '/r/ws',
      path: p,
      parent: null,
      shadowedBy: null,
      decision: 'registered',
      reasons: ['loaded_unreviewed', 'not_reviewed'],
      ...over,
    });
    const failures = (items: ListedItem[]) => {
      const out: string[] = [];
      checkShapeFates([shape], [], { root: '/r', ws: '/r/ws' }, items, (signature) => out.push(signature));
      return out;
    };
    const a = 'config/adapters/a/x.yaml';
    const ab = 'config/adapters/a-b/x.yaml';
    const shadowed = { decision: 'shadowed', reasons: ['duplicate_id_shadowed', 'not_reviewed'] };
    assert.deepEqual(failures([item(a), item(ab, { ...shadowed, shadowedBy: `eva:p:adapter:${a}` })]), []);
    // By a string sort: `a-b/x.yaml` first.
    assert.deepEqual(failures([item(a, { ...shadowed, shadowedBy: `eva:p:adapter:${ab}` }), item(ab)]), [
      'eva-duplicate-ids: eva registers a skill adapter shown shadowed',
      'eva-duplicate-ids: eva shadows a skill adapter shown registered',
    ]);
  });

  /** The demo's Eva project, and its home when `home` (input.ts `evaDemo`), then the shape over them; listed with Eva's home. */
  const evaListed = async (
    shape: Shape,
    dir: string,
    home: boolean,
  ): Promise<{ root: string; items: ListedItem[] }> => {
    const root = f.mkdir(dir);
    f.mkdir(`${dir}/home`);
    const demo = path.resolve(__dirname, '../../examples');
    for (const d of ['config', 'schemas'])
      fs.cpSync(path.join(demo, 'demo-workspace', d), path.join(root, 'ws', d), { recursive: true });
    if (home) fs.cpSync(path.join(demo, 'demo-home/.codex'), path.join(root, 'home/.codex'), { recursive: true });
    writeShape(shape, root);
    const l = layout(root);
    let out = '';
    let err = '';
    const code = await run(
      ['list', '--json', '--state-dir', l.state, '--workspace', l.ws, '--codewhale-home', l.home, '--eva-home', l.home],
      { out: (t) => (out += t), err: (t) => (err += t), env: { PATH: process.env.PATH }, cwd: root },
    );
    assert.equal(code, 0, err);
    return { root, items: (JSON.parse(out) as ContractEnvelope).items as unknown as ListedItem[] };
  };

  /** UTF-16 code unit order (JavaScript's default sort), which Eva's byte order is not. */
  const byUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

  it(`holds every fate of ${SHAPES} Eva shapes of user skill folders at the cap of 500 per root, cut in byte order`, async () => {
    const reached = new Set<string>();
    const failed: string[] = [];
    for (let i = 0; i < SHAPES; i++) {
      const shape = generateEvaUserCap(new Rng(`fuzz-shape-eva-user-cap:${i}`));
      const { root, items } = await evaListed(shape, `u${i}`, true);
      checkShapeFates([shape], [], { root, ws: layout(root).ws }, items, (s, d) => failed.push(`${i}: ${s}: ${d}`));
      const fates = shape.fates.filter((x) => x.system === 'eva' && 'root' in x);
      for (const x of fates) reached.add(x.fate);
      for (const r of ['codex', 'agents'] as const) {
        const mine = fates.filter((x) => x.root === r && x.fate !== 'absent').map((x) => x.name);
        // The first 500 by bytes are not the first 500 by UTF-16 units: a Skillgate sorting so would cut elsewhere.
        const cut = (order: (a: string, b: string) => number) => [...mine].sort(order).slice(0, 500).join('\n');
        if (mine.length > 500 && cut(byBytes) !== cut(byUnits)) reached.add('UTF-16 order cuts elsewhere');
      }
      if (
        fates.filter((x) => x.fate === 'past-cap').some((x) => x.root === 'codex') &&
        fates.some((x) => x.root === 'agents' && x.fate === 'past-cap')
      )
        reached.add('both roots past the cap');
      const names = (r: string) => new Set(fates.filter((x) => x.root === r && x.fate !== 'absent').map((x) => x.name));
      const agents = names('agents');
      if ([...names('codex')].some((n) => !/^0\d{3}$/.test(n) && agents.has(n))) reached.add('one name in both roots');
      for (const e of shape.entries)
        if (e.kind === 'link') reached.add(e.path.endsWith('/SKILL.md') ? 'a linked SKILL.md' : 'a link in a root');
        else if (e.kind === 'fifo') reached.add('a FIFO named SKILL.md');
    }
    assert.deepEqual(failed, []);
    assert.deepEqual([...reached].sort(), [
      'UTF-16 order cuts elsewhere',
      'a FIFO named SKILL.md',
      'a link in a root',
      'a linked SKILL.md',
      'absent',
      'both roots past the cap',
      'listed',
      'one name in both roots',
      'past-cap',
    ]);
  });

  it('reports an Eva user skill folder read shown past the cap, one past it shown read, and an entry that is no skill folder listed', () => {
    const shape: Shape = {
      shape: 'eva-user-cap',
      entries: [],
      owns: ['ws/config/eva.yaml'],
      entriesOf: ['home/.codex/skills'],
      fates: [
        { system: 'eva', root: 'codex', name: '\uff5e', fate: 'listed' },
        { system: 'eva', root: 'codex', name: '\u{1f600}', fate: 'past-cap' },
        { system: 'eva', root: 'codex', name: '.hidden', fate: 'absent' },
      ],
    };
    const item = (name: string, reasons: string[]): ListedItem => ({
      id: `eva:user:codex:${name}`,
      system: 'eva',
      kind: 'skill',
      scope: 'user',
      workspace: null,
      path: `/r/home/.codex/skills/${name}`,
      parent: null,
      shadowedBy: null,
      decision: 'display_only',
      reasons,
    });
    const failures = (items: ListedItem[], ops: Parameters<typeof checkShapeFates>[1] = []) => {
      const out: string[] = [];
      checkShapeFates([shape], ops, { root: '/r', ws: '/r/ws' }, items, (signature) => out.push(signature));
      return out;
    };
    const read = ['manifest_required', 'capability_missing_schema'];
    assert.deepEqual(failures([item('\uff5e', read), item('\u{1f600}', ['scan_limit_exceeded'])]), []);
    // Cut in UTF-16 order: U+1F600 (D83D) before U+FF5E.
    assert.deepEqual(failures([item('\uff5e', ['scan_limit_exceeded']), item('\u{1f600}', read)]), [
      'eva-user-cap: eva reads a user skill folder within the cap, shown scan_limit_exceeded',
      'eva-user-cap: eva passes over a user skill folder past the cap, shown manifest_required',
    ]);
    assert.deepEqual(
      failures([item('\uff5e', read), item('\u{1f600}', ['scan_limit_exceeded']), item('.hidden', read)]),
      ['eva-user-cap: eva lists no skill folder, shown display_only'],
    );
    assert.deepEqual(failures([]), [
      'eva-user-cap: eva reads a user skill folder within the cap, shown not listed',
      'eva-user-cap: eva passes over a user skill folder past the cap, shown not listed',
    ]);
    // An op that rewrites a SKILL.md's bytes leaves the fates; one that renames a folder voids them.
    assert.equal(failures([], [{ op: 'truncate', path: 'home/.codex/skills/a/SKILL.md', length: 0 }]).length, 2);
    assert.deepEqual(failures([], [{ op: 'rename', path: 'home/.codex/skills/a', name: 'b' }]), []);
    assert.deepEqual(failures([], [{ op: 'flip', path: 'ws/config/eva.yaml', at: 0, byte: 0 }]), []);
  });

  it(`holds every fate of ${SHAPES} Eva shapes of eva.yaml layers naming adapter roots: only the root the last layer names is read`, async () => {
    const reached = new Set<string>();
    const failed: string[] = [];
    for (let i = 0; i < SHAPES; i++) {
      const shape = generateEvaConfigLayers(new Rng(`fuzz-shape-eva-config-layers:${i}`));
      const { root, items } = await evaListed(shape, `y${i}`, false);
      checkShapeFates([shape], [], { root, ws: layout(root).ws }, items, (s, d) => failed.push(`${i}: ${s}: ${d}`));
      const fates = shape.fates.filter(
        (x): x is Extract<ShapeFate, { system: 'eva'; path: string }> => x.system === 'eva' && 'path' in x,
      );
      const won = fates.find((x) => x.fate === 'registered');
      reached.add(`read: ${won ? path.posix.dirname(won.path).replace(/^config\/adapters-\d+$/, 'a decoy') : 'none'}`);
      if (fates.some((x) => x.fate === 'absent')) reached.add('absent');
      for (const e of shape.entries) {
        const layer = /^ws\/config\/(profiles\/|eva\.user\.|environments\/)/.test(e.path);
        if (e.kind !== 'file' || !layer) continue;
        // The base names its layers by `runtime.env` (eva.yaml's first lines); one a layer sets names none.
        if (/^runtime:/m.test(textBytes(e.text).toString())) reached.add('a layer sets runtime.env');
        if (/\/adapters-\d+/.test(textBytes(e.text).toString())) reached.add('a layer Eva never reads');
        else if (/^ {2}schema_dir:/m.test(textBytes(e.text).toString()))
          reached.add('a config mapping without adapter_dir');
      }
    }
    assert.deepEqual(failed, []);
    assert.deepEqual([...reached].sort(), [
      'a config mapping without adapter_dir',
      'a layer Eva never reads',
      'a layer sets runtime.env',
      'absent',
      'read: adapters-rel',
      'read: config/adapters',
      'read: config/adapters-base',
      'read: config/adapters-environment',
      'read: config/adapters-profile',
      'read: config/adapters-user',
      'read: none',
    ]);
  });

  it('reports the adapter of the root Eva reads shown absent, and one it never reads listed', () => {
    const shape: Shape = {
      shape: 'eva-config-layers',
      entries: [],
      owns: ['ws/config'],
      fates: [
        { system: 'eva', path: 'config/adapters-environment/layered.yaml', fate: 'registered' },
        { system: 'eva', path: 'config/adapters-user/layered.yaml', fate: 'absent' },
      ],
    };
    const item = (p: string): ListedItem => ({
      id: `eva:p:adapter:${p}`,
      system: 'eva',
      kind: 'skill-adapter',
      workspace: '/r/ws',
      path: p,
      parent: null,
      shadowedBy: null,
      decision: 'registered',
      reasons: ['loaded_unreviewed', 'not_reviewed'],
    });
    const failures = (items: ListedItem[]) => {
      const out: string[] = [];
      checkShapeFates([shape], [], { root: '/r', ws: '/r/ws' }, items, (signature) => out.push(signature));
      return out;
    };
    assert.deepEqual(failures([item('config/adapters-environment/layered.yaml')]), []);
    // The user layer applied last: Eva's adapter absent, the other listed.
    assert.deepEqual(failures([item('config/adapters-user/layered.yaml')]), [
      'eva-config-layers: eva registers a skill adapter shown not listed',
      'eva-config-layers: eva never reads an adapter shown registered',
    ]);
  });
});
