import * as fs from 'node:fs';
import * as path from 'node:path';
import { Rng, bytesText } from './random';
import { generateRivumi, type GeneratedFile } from './rivumi';
import { NAME_POOL, variantsOf } from './names';
import {
  applyOp,
  join,
  ROOT_MARK,
  FRONT_MATTER_MUTATIONS,
  JSON_MUTATIONS,
  SERDE_JSON_MUTATIONS,
  TEXT_MUTATIONS,
  YAML_MUTATIONS,
  YAML_STREAM_MUTATIONS,
  type Op,
} from './mutations';
import { CONTROL_STRINGS } from './payloads';
import {
  evaUserSkillName,
  evaUserSkillText,
  generateEvaBindings,
  generateEvaUserSkills,
  type EvaUserSkills,
} from './eva';
import { writeShape, type Shape } from './shapeTree';
import { generateRivumiCaps } from './rivumiCaps';
import { generateCodewhaleShadowing } from './codewhaleShadowing';
import { generateCodewhaleEnabled } from './codewhaleEnabled';
import { generateRivumiHooks } from './rivumiHooks';
import { generateCodewhaleDuplicateRoot } from './codewhaleDuplicateRoot';
import { generateCodewhaleLinkedRoot, withSecondFolder } from './codewhaleLinkedRoot';
import { generateCodewhaleKimi } from './codewhaleKimi';
import { generateEvaDuplicateIds } from './evaDuplicateIds';
import { generateEvaUserCap } from './evaUserCap';
import { generateEvaConfigLayers } from './evaConfigLayers';

export const PROJECT_ROOT = path.resolve(__dirname, '../..');

/** Real bundles the inputs start from (all inside this repository; see test/fixtures/corpus/README.md and test/fuzz/README.md). */
export const CODEWHALE_BASES: Readonly<Record<string, string>> = {
  'claude-sample': 'test/fixtures/corpus/codewhale/claude-sample',
  'cloudflare-docs': 'test/fixtures/corpus/codewhale/cloudflare-docs',
  'hello-extension': 'test/fixtures/corpus/codewhale/hello-extension',
  loop: 'test/fixtures/corpus/codewhale/loop',
  whalewiki: 'test/fixtures/corpus/codewhale/whalewiki',
  'broken-upload': 'examples/demo-workspace/.codewhale/plugins/broken-upload',
  'docs-search': 'examples/demo-workspace/.codewhale/plugins/docs-search',
  formatter: 'examples/demo-workspace/.codewhale/plugins/formatter',
  'lint-lsp': 'examples/demo-workspace/.codewhale/plugins/lint-lsp',
  'repo-tools': 'examples/demo-workspace/.codewhale/plugins/repo-tools',
  'xss-demo': 'test/fixtures/xss-bundle',
};

/** One fuzz input: what to copy, what to generate, and the changes applied after. */
export interface FuzzInput {
  readonly seed: string;
  readonly index: number;
  /** Bundles copied to `ws/.codewhale/plugins/<name>`. */
  readonly codewhale: readonly string[];
  /** Bundles copied to `home/plugins/<name>` (user bundles). */
  readonly home: readonly string[];
  /** The demo workspace's `.rivumi/` and `scripts/` copied first. */
  readonly rivumiDemo: boolean;
  /** The demo's Eva-CLI project (`config/`, `schemas/`) copied into the workspace, and its user skills into the home; absent in inputs saved before Eva. */
  readonly evaDemo?: boolean;
  /** Eva `kind: skill` bindings (and a non-skill adapter) written into the demo's Eva project, workspace-relative (test/fuzz/eva.ts); absent in inputs saved before them. */
  readonly eva?: readonly GeneratedFile[];
  /** User skill folders made in the home beside the demo's; absent in inputs saved before them. */
  readonly evaUserSkills?: EvaUserSkills;
  readonly rivumi: readonly GeneratedFile[];
  /**
   * Trees written from scratch with the fate their agent gives each item (shapeTree.ts,
   * shapeFates.ts); a Rivumi shape is the whole `.rivumi/` (no demo, no `rivumi` files).
   * Absent in inputs saved before them.
   */
  readonly shapes?: readonly Shape[];
  readonly ops: readonly Op[];
  readonly hooksOptIn: boolean;
  /** The workspace passed twice: directly and through a symbolic link. */
  readonly workspaceTwice: boolean;
}

/**
 * The layout of an input root: the workspace, user home, a directory outside both, the trust store.
 * `wsLink`: the workspace's second spelling when it is passed twice; `wsAlias`: the link
 * `link-equivalence` gives the workspace through instead (invariants.ts).
 */
export function layout(root: string): {
  ws: string;
  wsLink: string;
  wsAlias: string;
  home: string;
  outside: string;
  state: string;
  /** The trust store a shape's lifecycle steps write (shapeLifecycle.ts), apart from the one the write phase checks. */
  shapeState: string;
} {
  return {
    ws: path.join(root, 'ws'),
    wsLink: path.join(root, 'ws-link'),
    wsAlias: path.join(root, 'ws-alias'),
    home: path.join(root, 'home'),
    outside: path.join(root, 'outside'),
    state: path.join(root, 'state'),
    shapeState: path.join(root, 'state-shapes'),
  };
}

/** Writes an input's starting tree (everything but the ops) under an empty `root`. */
export function materializeBase(input: FuzzInput, root: string): void {
  const l = layout(root);
  fs.mkdirSync(l.ws, { recursive: true });
  fs.mkdirSync(l.outside, { recursive: true });
  fs.writeFileSync(path.join(l.outside, 'run.sh'), '#!/bin/sh\necho outside\n', { mode: 0o755 });
  fs.writeFileSync(
    path.join(l.outside, 'secret.md'),
    '---\nname: secret\ndescription: outside the workspace\n---\nsecret\n',
  );
  fs.writeFileSync(
    path.join(l.outside, 'plugin.toml'),
    'schema_version = 1\n[plugin]\nname = "outside"\nversion = "1.0.0"\n',
  );
  for (const name of input.codewhale)
    fs.cpSync(path.join(PROJECT_ROOT, CODEWHALE_BASES[name] as string), path.join(l.ws, '.codewhale/plugins', name), {
      recursive: true,
    });
  for (const name of input.home)
    fs.cpSync(path.join(PROJECT_ROOT, CODEWHALE_BASES[name] as string), path.join(l.home, 'plugins', name), {
      recursive: true,
    });
  if (input.rivumiDemo) {
    fs.cpSync(path.join(PROJECT_ROOT, 'examples/demo-workspace/.rivumi'), path.join(l.ws, '.rivumi'), {
      recursive: true,
    });
    fs.cpSync(path.join(PROJECT_ROOT, 'examples/demo-workspace/scripts'), path.join(l.ws, 'scripts'), {
      recursive: true,
    });
  }
  if (input.evaDemo) {
    for (const dir of ['config', 'schemas'])
      fs.cpSync(path.join(PROJECT_ROOT, 'examples/demo-workspace', dir), path.join(l.ws, dir), { recursive: true });
    fs.cpSync(path.join(PROJECT_ROOT, 'examples/demo-home/.codex'), path.join(l.home, '.codex'), { recursive: true });
  }
  for (const f of [...input.rivumi, ...(input.eva ?? [])]) {
    const p = path.join(l.ws, f.path);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.text);
    if (f.mode !== undefined) fs.chmodSync(p, f.mode);
  }
  for (const shape of input.shapes ?? []) writeShape(shape, root);
  if (input.evaUserSkills)
    for (let i = 0; i < input.evaUserSkills.count; i++) {
      const dir = path.join(l.home, `.${input.evaUserSkills.root}/skills`, evaUserSkillName(i));
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'SKILL.md'), evaUserSkillText(i));
    }
  if (input.workspaceTwice) fs.symlinkSync(l.ws, l.wsLink);
}

export function materialize(input: FuzzInput, root: string): void {
  materializeBase(input, root);
  for (const op of input.ops) applyOpTolerant(root, op);
}

/** An op the file system refuses (a name too long for a deep path, say) leaves what it did so far, in generation and replay alike. */
export function applyOpTolerant(root: string, op: Op): void {
  try {
    applyOp(root, op);
  } catch {
    // kept in the input all the same, so a replay does exactly what generation did
  }
}

interface Entry {
  readonly rel: Buffer;
  readonly type: 'file' | 'dir' | 'link' | 'other';
}

/** Every entry under ws/ and home/ (not outside/), root-relative, without following links. */
function entries(root: string): Entry[] {
  const out: Entry[] = [];
  const walk = (rel: Buffer, depth: number) => {
    let names: Buffer[];
    try {
      names = fs.readdirSync(join(Buffer.from(root), rel), { encoding: 'buffer' });
    } catch {
      return;
    }
    for (const n of names) {
      const r = join(rel, n);
      let st: fs.Stats;
      try {
        st = fs.lstatSync(join(Buffer.from(root), r));
      } catch {
        continue;
      }
      const type = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
      out.push({ rel: r, type });
      if (type === 'dir' && depth < 12 && out.length < 400) walk(r, depth + 1);
    }
  };
  for (const top of ['ws', 'home']) if (fs.existsSync(path.join(root, top))) walk(Buffer.from(top), 0);
  return out;
}

function baseName(rel: Buffer): Buffer {
  return rel.subarray(rel.lastIndexOf(0x2f) + 1);
}

function parentOf(rel: Buffer): Buffer {
  return rel.subarray(0, Math.max(0, rel.lastIndexOf(0x2f)));
}

function newName(rng: Rng, of: Buffer): Buffer {
  return rng.bool(0.3) ? rng.pick(variantsOf(of)) : rng.pick(NAME_POOL);
}

const SIZES = { deep: [50, 500, 3000, 12000], huge: [1000, 70000, 200000] };

/** Picks one op against the tree as it is now; undefined when nothing fits. */
export function generateOp(rng: Rng, root: string): Op | undefined {
  const all = entries(root);
  const files = all.filter((e) => e.type === 'file');
  const dirs = all.filter((e) => e.type === 'dir');
  const ofType = (re: RegExp) => files.filter((f) => re.test(f.rel.toString('latin1')));
  const file = () => (files.length ? rng.pick(files).rel : undefined);
  const kind = rng.weighted<Op['op']>([
    [14, 'flip'],
    [8, 'insert'],
    [6, 'truncate'],
    [14, 'json'],
    [6, 'toml'],
    [5, 'yaml'],
    [9, 'frontmatter'],
    [9, 'rename'],
    [8, 'add'],
    [7, 'symlink'],
    [3, 'chmod'],
    [4, 'delete'],
    [2, 'nest'],
    [1, 'many'],
    [4, 'copy'],
  ]);
  const text = (b: Buffer) => bytesText(b);
  switch (kind) {
    case 'flip': {
      const f = file();
      return (
        f && {
          op: 'flip',
          path: text(f),
          at: rng.next(),
          byte: rng.pick([0x00, 0x1b, 0x7f, 0x80, 0x9b, 0xc3, 0xff, 0x22, 0x5b, 0x7b, 0x0a, 0x0d, rng.int(256)]),
        }
      );
    }
    case 'insert': {
      const f = file();
      const bytes = rng.pick([
        Buffer.from('\x1b[1A\x1b[2K'),
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('\u202e'),
        Buffer.from('\0'),
        Buffer.from('"'),
        Buffer.from('\n---\n'),
        rng.bytes(rng.range(1, 8)),
      ]);
      return f && { op: 'insert', path: text(f), at: rng.next(), bytes: text(bytes) };
    }
    case 'truncate': {
      const f = file();
      return f && { op: 'truncate', path: text(f), length: rng.range(0, 400) };
    }
    case 'json': {
      const js = ofType(/\.json$/i);
      const how = rng.pick(JSON_MUTATIONS);
      const size = how === 'huge' ? rng.pick(SIZES.huge) : how.startsWith('deep') ? rng.pick(SIZES.deep) : rng.int(100);
      return js.length ? { op: 'json', path: text(rng.pick(js).rel), how, at: rng.int(1000), size } : undefined;
    }
    case 'toml': {
      const ts = ofType(/\.toml$/i);
      const how = rng.pick(TEXT_MUTATIONS);
      const size = how === 'huge' ? rng.pick(SIZES.huge) : how.startsWith('deep') ? rng.pick(SIZES.deep) : rng.int(100);
      return ts.length ? { op: 'toml', path: text(rng.pick(ts).rel), how, at: rng.int(1000), size } : undefined;
    }
    case 'yaml': {
      const ys = ofType(/\.ya?ml$/i);
      const how = rng.pick(YAML_MUTATIONS);
      const size =
        how === 'deep'
          ? rng.pick(SIZES.deep)
          : how === 'wrong-type' || how === 'controls'
            ? rng.int(100)
            : rng.pick(SIZES.huge);
      return ys.length ? { op: 'yaml', path: text(rng.pick(ys).rel), how, at: rng.int(1000), size } : undefined;
    }
    case 'frontmatter': {
      const ms = ofType(/\.md$/i);
      const how = rng.pick(FRONT_MATTER_MUTATIONS);
      const size =
        how === 'huge'
          ? rng.pick(SIZES.huge)
          : how === 'deep-yaml'
            ? rng.pick(SIZES.deep)
            : rng.int(CONTROL_STRINGS.length * 10);
      return ms.length ? { op: 'frontmatter', path: text(rng.pick(ms).rel), how, at: rng.int(1000), size } : undefined;
    }
    case 'rename': {
      const e = all.length ? rng.pick(all) : undefined;
      return e && { op: 'rename', path: text(e.rel), name: text(newName(rng, baseName(e.rel))) };
    }
    case 'add': {
      const d = dirs.length ? rng.pick(dirs).rel : Buffer.from('ws');
      const k = rng.weighted<'file' | 'dir' | 'fifo'>([
        [6, 'file'],
        [3, 'dir'],
        [1, 'fifo'],
      ]);
      return {
        op: 'add',
        path: text(join(d, rng.pick(NAME_POOL))),
        kind: k,
        content: rng.bool(0.5)
          ? ''
          : text(
              Buffer.from(
                rng.pick(['---\nname: added\n---\nbody\n', '{}', 'schema_version = 1\n', ...CONTROL_STRINGS]),
              ),
            ),
      };
    }
    case 'symlink': {
      const e = all.length ? rng.pick(all) : undefined;
      if (!e) return undefined;
      const sibling = all.filter((x) => x !== e && parentOf(x.rel).equals(parentOf(e.rel)));
      const target = rng.weighted<Buffer>([
        [4, sibling.length ? baseName(rng.pick(sibling).rel) : Buffer.from('missing')],
        [3, Buffer.from(`${ROOT_MARK}outside/${rng.pick(['run.sh', 'secret.md', 'plugin.toml', '.'])}`)],
        [1, Buffer.from('dangling-target')],
        [1, baseName(e.rel)],
        [1, Buffer.from(`${ROOT_MARK}ws`)],
        [1, Buffer.from('/dev/zero')],
      ]);
      const at = rng.bool(0.3) && dirs.length ? join(rng.pick(dirs).rel, rng.pick(NAME_POOL)) : e.rel;
      return { op: 'symlink', path: text(at), target: text(target) };
    }
    case 'chmod': {
      const e = all.length ? rng.pick(all) : undefined;
      return e && { op: 'chmod', path: text(e.rel), mode: rng.pick([0o755, 0o644, 0o000, 0o777, 0o4755]) };
    }
    case 'delete': {
      const e = all.length ? rng.pick(all) : undefined;
      return e && { op: 'delete', path: text(e.rel) };
    }
    case 'nest': {
      const d = dirs.length ? rng.pick(dirs).rel : undefined;
      return d && { op: 'nest', path: text(d), depth: rng.pick([20, 100, 300]) };
    }
    case 'many': {
      const d = dirs.length ? rng.pick(dirs).rel : undefined;
      return (
        d && {
          op: 'many',
          path: text(d),
          count: rng.weighted([
            [8, rng.range(20, 300)],
            [1, 4100],
          ]),
        }
      );
    }
    case 'copy': {
      const e = all.length
        ? rng.pick(all.filter((x) => x.type !== 'link').length ? all.filter((x) => x.type !== 'link') : all)
        : undefined;
      return e && { op: 'copy', path: text(e.rel), to: text(newName(rng, baseName(e.rel))) };
    }
  }
}

/**
 * One op of today's readings (codewhale.md §4.2 serde forms, Eva's YAML stream), against the
 * tree as it is now: a Codewhale JSON manifest's structs as arrays or its options as null, a
 * plugin.toml's tables as arrays, an Eva YAML file's directives, end markers or flow keys.
 */
export function generateSerdeOp(rng: Rng, root: string): Op | undefined {
  const files = entries(root).filter((e) => e.type === 'file');
  const named = (re: RegExp) => files.filter((f) => re.test(f.rel.toString('latin1')));
  const kind = rng.weighted<'json' | 'toml' | 'yaml'>([
    [5, 'json'],
    [2, 'toml'],
    [3, 'yaml'],
  ]);
  const at = rng.int(1000);
  const size = rng.int(100);
  if (kind === 'json') {
    const js = named(/(^|\/)(\.?mcp|plugin|kimi\.plugin)\.json$/);
    return js.length
      ? { op: 'json', path: bytesText(rng.pick(js).rel), how: rng.pick(SERDE_JSON_MUTATIONS), at, size }
      : undefined;
  }
  if (kind === 'toml') {
    const ts = named(/(^|\/)plugin\.toml$/);
    return ts.length ? { op: 'toml', path: bytesText(rng.pick(ts).rel), how: 'serde-array', at, size } : undefined;
  }
  const ys = named(/\.ya?ml$/i);
  return ys.length
    ? { op: 'yaml', path: bytesText(rng.pick(ys).rel), how: rng.pick(YAML_STREAM_MUTATIONS), at, size }
    : undefined;
}

/**
 * Input `index` of `seed`: picks the starting tree, writes it under `root`, then
 * generates and applies each op against the tree as it stands (so ops hit real paths).
 */
export function generateInput(seed: string, index: number, root: string): FuzzInput {
  const rng = new Rng(`${seed}:${index}`);
  const names = Object.keys(CODEWHALE_BASES);
  const codewhale = [
    ...new Set(
      Array.from(
        {
          length: rng.weighted([
            [2, 0],
            [6, 1],
            [3, 2],
            [1, 3],
          ]),
        },
        () => rng.pick(names),
      ),
    ),
  ];
  const home = rng.bool(0.15) ? [rng.pick(codewhale.length ? codewhale : names)] : [];
  const rivumiDemo = rng.bool(0.2);
  const rivumi = rng.bool(0.75) ? generateRivumi(rng) : [];
  // Its own stream, so every input a seed gave before Eva stays the same.
  const evaDemo = new Rng(`${seed}:${index}:eva`).bool(0.25);
  // Bindings and user skill folders over the demo's project, from a stream of their own too.
  const evaRng = new Rng(`${seed}:${index}:eva-shapes`);
  const eva = evaDemo && evaRng.bool(0.6) ? generateEvaBindings(evaRng) : [];
  const evaUserSkills = evaDemo && evaRng.bool(0.4) ? generateEvaUserSkills(evaRng) : undefined;
  // Shapes with a known fate, from a stream of their own too: an input that draws none is the one the seed gave before.
  const shapeRng = new Rng(`${seed}:${index}:shapes`);
  const shapes: Shape[] = [];
  if (shapeRng.bool(0.12)) shapes.push(generateRivumiCaps(shapeRng));
  if (shapeRng.bool(0.15)) shapes.push(generateCodewhaleShadowing(shapeRng));
  // Drawn after the others, so every shape a seed gave before stays the same.
  if (shapeRng.bool(0.1)) shapes.push(generateCodewhaleEnabled(shapeRng));
  // Rivumi fails fast over the whole `.rivumi/`: its shape is all there is of it, and one at most.
  if (!shapes.some((s) => s.shape === 'rivumi-caps') && shapeRng.bool(0.1)) shapes.push(generateRivumiHooks(shapeRng));
  // Codewhale's home moved into the workspace: every other Codewhale shape's fates assume it is `home`.
  if (!shapes.some((s) => s.shape.startsWith('codewhale-')) && shapeRng.bool(0.06))
    shapes.push(generateCodewhaleDuplicateRoot(shapeRng));
  // Drawn after the others, each, so every shape a seed gave before stays the same. Codewhale's
  // home at `cw`, reached through a link: alone of the Codewhale shapes, as the one above. Both
  // arrangements (codewhaleLinkedRoot.ts): a change spelled under the linked home
  // (`cw/plugins/d0/plugin.toml`) is re-read in the workspace's discovery of the same directory
  // too (codewhale/rootAliases.ts; `home-link` was held back until it was, having failed inputs
  // 75, 104 and 210 of seed skillgate-ci).
  if (!shapes.some((s) => s.shape.startsWith('codewhale-')) && shapeRng.bool(0.05)) {
    const linked = generateCodewhaleLinkedRoot(shapeRng);
    // Half of them with a second workspace folder sharing the workspace's `.codewhale`, from a stream of its own.
    shapes.push(new Rng(`${seed}:${index}:second-folder`).bool(0.5) ? withSecondFolder(linked) : linked);
  }
  // Kimi bundles of their own names, in `home/plugins` too: never with a home moved elsewhere.
  if (!shapes.some((s) => s.codewhaleHome !== undefined) && shapeRng.bool(0.08))
    shapes.push(generateCodewhaleKimi(shapeRng));
  // Adapters of one id in the demo's Eva project, so only where it is copied.
  if (evaDemo && shapeRng.bool(0.12)) shapes.push(generateEvaDuplicateIds(shapeRng));
  // Drawn after the others, each, so every shape a seed gave before stays the same. Eva's user
  // skill folders at the cap of each root, over the demo's home (so only where it is copied), in
  // place of `evaUserSkills`' numbered folders, whose count would move the cut.
  if (evaDemo && shapeRng.bool(0.1)) shapes.push(generateEvaUserCap(shapeRng));
  // The demo's eva.yaml in layers naming adapter roots: it owns `config/` as eva-duplicate-ids does, so never with it.
  if (evaDemo && !shapes.some((s) => s.shape === 'eva-duplicate-ids') && shapeRng.bool(0.1))
    shapes.push(generateEvaConfigLayers(shapeRng));
  const userCap = shapes.some((s) => s.shape === 'eva-user-cap');
  const ownsRivumi = shapes.some((s) => s.shape === 'rivumi-caps' || s.shape === 'rivumi-hooks');
  const base: FuzzInput = {
    seed,
    index,
    codewhale,
    home,
    rivumiDemo: rivumiDemo && !ownsRivumi,
    evaDemo,
    ...(eva.length ? { eva } : {}),
    ...(evaUserSkills && !userCap ? { evaUserSkills } : {}),
    ...(shapes.length ? { shapes } : {}),
    rivumi: ownsRivumi ? [] : rivumi,
    ops: [],
    hooksOptIn: rng.bool(0.4),
    workspaceTwice: rng.bool(0.05),
  };
  materializeBase(base, root);
  const ops: Op[] = [];
  const count = rng.weighted([
    [1, 0],
    [4, 1],
    [4, 2],
    [3, 3],
    [2, 5],
  ]);
  for (let i = 0; i < count; i++) {
    const op = generateOp(rng, root);
    if (!op) continue;
    applyOpTolerant(root, op);
    ops.push(op);
  }
  // Today's readings from a stream of their own: an input that draws none is the one the seed gave before.
  const serde = new Rng(`${seed}:${index}:serde`);
  if (serde.bool(0.35)) {
    const op = generateSerdeOp(serde, root);
    if (op) {
      applyOpTolerant(root, op);
      ops.push(op);
    }
  }
  return { ...base, ops };
}
