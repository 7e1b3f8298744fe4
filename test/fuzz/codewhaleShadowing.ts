import type { Rng } from './random';
import { fileEntry, shapePath, type Shape, type ShapeEntry } from './shapeTree';
import type { ShapeFate } from './shapeFates';

/**
 * Codewhale bundles of one name in the user's root and the workspace's (codewhale.md §2.6),
 * written from scratch in each manifest format (§3), each perhaps found after an earlier
 * manifest name that is no regular file (§2.4: a directory, a dangling link or a FIFO is
 * passed over by `is_file`), and perhaps with a defect that drops it from discovery late
 * (a fatal skill, a link or a declared path missing, §4.6, §4.8, §5.2, §5.3, a linked
 * manifest, §4.1) or one that keeps it (a skill that only warns, `[when] os = []`, nothing
 * supported, §4.9, §5.2, §6.3). Only a bundle that loads takes part in shadowing: builtin
 * beats user beats workspace, then the name, then the canonical root in byte order.
 */

type Format = 'plugin.json' | 'kimi.plugin.json' | 'plugin.toml' | '.claude-plugin/plugin.json';
const FORMATS: readonly Format[] = ['plugin.json', 'kimi.plugin.json', 'plugin.toml', '.claude-plugin/plugin.json'];

type Defect =
  | 'none'
  | 'duplicate-skills'
  | 'skill-not-utf8'
  | 'inner-link'
  | 'missing-skills-path'
  | 'manifest-link'
  | 'soft-skill'
  | 'never-applicable'
  | 'unsupported';

/** Defects after which Codewhale does not discover the bundle. */
const DROPS: ReadonlySet<Defect> = new Set([
  'duplicate-skills',
  'skill-not-utf8',
  'inner-link',
  'missing-skills-path',
  'manifest-link',
]);

/** Names valid in some formats only (§3.8): `a--b` in TOML and Kimi, `a_b` in Kimi, `a.b` in plugin.json. */
const NAMES = ['shade', 'shade', 'shade', 'shade', 'x9', 'x9', 'a--b', 'a_b', 'a.b'];

/**
 * Bundle directory names: ordered by bytes, which upstream's canonical roots compare by; and
 * Codewhale's internal publication directories, never candidates (§2.3 step 1), beside names
 * that only look like them and are ordinary candidates.
 */
const DIRS: readonly Buffer[] = [
  Buffer.from('shade'),
  Buffer.from('B'),
  Buffer.from('a'),
  Buffer.from('shade-2'),
  Buffer.from('z'),
  Buffer.from([0xff]),
  Buffer.from([0xc3]),
  Buffer.from('.staging-0123456789abcdef0123456789abcdef'),
  Buffer.from('.plugin-backup-AbCdEfGh12345678'),
  Buffer.from('.staging-0123456789ABCDEF0123456789abcdef'),
  Buffer.from('.plugin-backup-short'),
];

/** `.staging-` + 32 of `[0-9a-f]`, `.plugin-backup-` + 16 ASCII alphanumerics (§2.3 step 1). */
const PUBLICATION = /^(?:\.staging-[0-9a-f]{32}|\.plugin-backup-[A-Za-z0-9]{16})$/;

/** Whether `name` passes the name rule of `format` (codewhale.md §3.5, §3.6, §3.8). */
function nameValid(name: string, format: Format): boolean {
  const toml = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/.test(name);
  const agentPlugins = /^[a-z0-9](?:[a-z0-9.-]{0,62}[a-z0-9])?$/.test(name) && !/--|\.\./.test(name);
  const kimi = /^[a-z0-9][a-z0-9_-]{0,63}$/.test(name);
  if (format === 'plugin.toml') return toml;
  if (format === 'plugin.json') return agentPlugins;
  if (format === 'kimi.plugin.json') return kimi;
  return kimi && agentPlugins;
}

interface Bundle {
  readonly scope: 'user' | 'workspace';
  readonly dir: Buffer;
  readonly format: Format;
  readonly name: string;
  readonly defect: Defect;
  /** An earlier manifest name that is no regular file, and what it is instead. */
  readonly before?: {
    readonly label: Format;
    readonly as: 'dir' | 'dangling' | 'fifo';
  };
}

function manifestText(b: Bundle): string {
  const skillsPath = b.defect === 'missing-skills-path' ? 'nope' : 'skills';
  const never = b.defect === 'never-applicable';
  const lsp = b.defect === 'unsupported';
  switch (b.format) {
    case 'plugin.toml':
      return [
        'schema_version = 1',
        '[plugin]',
        `name = "${b.name}"`,
        'version = "1.0.0"',
        ...(lsp ? ['[lsp]', 'path = "lsp"'] : ['[skills]', `path = "${skillsPath}"`]),
        ...(never ? ['[when]', 'os = []'] : []),
        '',
      ].join('\n');
    case 'plugin.json': {
      const ext: Record<string, unknown> = {};
      if (b.defect === 'missing-skills-path') ext.skills = { path: skillsPath };
      if (lsp) ext.lsp = { path: 'lsp' };
      if (never) ext.when = { os: [] };
      return JSON.stringify({
        $schema: 'https://agent-plugins.org/schemas/plugin.json',
        name: b.name,
        version: '1.0.0',
        ...(Object.keys(ext).length ? { extensions: { 'net.codewhale': ext } } : {}),
      });
    }
    case 'kimi.plugin.json':
      return JSON.stringify({
        name: b.name,
        version: '1.0.0',
        skills: skillsPath,
      });
    case '.claude-plugin/plugin.json':
      // Its `skills/` directory is added to the declared paths (§3.6).
      return JSON.stringify({ name: b.name, version: '1.0.0' });
  }
}

const SKILL = '---\nname: one\ndescription: The one skill.\n---\nBody.\n';

function bundleEntries(b: Bundle): ShapeEntry[] {
  const p = (...parts: string[]) => shapePath(placeOf(b), ...parts);
  const out: ShapeEntry[] = [];
  if (b.before)
    out.push(
      b.before.as === 'dir'
        ? { kind: 'dir', path: p(b.before.label) }
        : b.before.as === 'fifo'
          ? { kind: 'fifo', path: p(b.before.label) }
          : { kind: 'link', path: p(b.before.label), target: 'gone.json' },
    );
  if (b.defect === 'manifest-link') {
    out.push(fileEntry(p('manifest.txt'), manifestText(b)));
    out.push({
      kind: 'link',
      path: p(b.format),
      target: b.format.startsWith('.claude-plugin/') ? '../manifest.txt' : 'manifest.txt',
    });
  } else out.push(fileEntry(p(b.format), manifestText(b)));
  if (b.defect === 'unsupported') {
    out.push(fileEntry(p('lsp', 'server.json'), '{}\n'));
    return out;
  }
  if (b.defect === 'skill-not-utf8')
    out.push(fileEntry(p('skills', 'one', 'SKILL.md'), Buffer.from('---\nname: one\n---\nBody \xff.\n', 'latin1')));
  else out.push(fileEntry(p('skills', 'one', 'SKILL.md'), SKILL));
  if (b.defect === 'duplicate-skills') out.push(fileEntry(p('skills', 'two', 'SKILL.md'), SKILL));
  if (b.defect === 'soft-skill')
    out.push(fileEntry(p('skills', 'two', 'SKILL.md'), '---\ndescription: nameless\n---\nBody.\n'));
  if (b.defect === 'inner-link')
    out.push({
      kind: 'link',
      path: p('skills', 'one', 'extra.md'),
      target: 'SKILL.md',
    });
  return out;
}

/** The bundle's directory, root-relative, raw. */
function placeOf(b: Bundle): Buffer {
  return Buffer.concat([Buffer.from(b.scope === 'user' ? 'home/plugins/' : 'ws/.codewhale/plugins/'), b.dir]);
}

/** The same in `bytesText` form, as fates and owned paths are written. */
function where(b: Bundle): string {
  return shapePath(placeOf(b));
}

/** Whether Codewhale discovers the bundle (§2.3-§2.5): a candidate, its manifest found as a file, valid, its tree hashable, its skills loadable. */
function discovered(b: Bundle): boolean {
  if (PUBLICATION.test(b.dir.toString('latin1'))) return false;
  if (!nameValid(b.name, b.format)) return false;
  // Hashing walks the whole bundle: a link or a FIFO anywhere fails it (§4.8, §7.2); an empty directory is hashed.
  if (b.before && b.before.as !== 'dir') return false;
  return !DROPS.has(b.defect);
}

export function generateCodewhaleShadowing(rng: Rng): Shape {
  const name = rng.pick(NAMES);
  const bundles: Bundle[] = [];
  for (let i = 0, n = rng.range(2, 4); i < n; i++) {
    const scope = rng.bool(i === 0 ? 0.6 : 0.35) ? 'user' : 'workspace';
    const taken = bundles.filter((b) => b.scope === scope).map((b) => b.dir);
    const free = DIRS.filter((d) => !taken.some((t) => t.equals(d)));
    const format = rng.pick(FORMATS);
    const index = FORMATS.indexOf(format);
    const defect = rng.weighted<Defect>([
      [12, 'none'],
      [1, 'duplicate-skills'],
      [1, 'skill-not-utf8'],
      [1, 'inner-link'],
      [format === '.claude-plugin/plugin.json' ? 0 : 1, 'missing-skills-path'],
      [1, 'manifest-link'],
      [1, 'soft-skill'],
      [format === 'plugin.toml' || format === 'plugin.json' ? 1 : 0, 'never-applicable'],
      [format === 'plugin.toml' || format === 'plugin.json' ? 1 : 0, 'unsupported'],
    ]);
    const before =
      index > 0 && rng.bool(0.35)
        ? {
            label: FORMATS[rng.int(index)] as Format,
            as: rng.weighted<'dir' | 'dangling' | 'fifo'>([
              [3, 'dir'],
              [1, 'dangling'],
              [1, 'fifo'],
            ]),
          }
        : undefined;
    bundles.push({
      scope,
      dir: rng.pick(free),
      format,
      name: rng.bool(0.8) ? name : `other-${i}`,
      defect,
      ...(before ? { before } : {}),
    });
  }

  // §2.6: discovered bundles by scope (user first), name, canonical root (the directory's bytes:
  // every bundle of a root is a child of its one canonical directory); the first of a name wins.
  const winners = new Map<string, Bundle>();
  const fates: ShapeFate[] = [];
  const rank = (b: Bundle) => Buffer.concat([Buffer.from(b.scope === 'user' ? '0' : '1'), b.dir]);
  for (const b of [...bundles].sort((x, y) => Buffer.compare(rank(x), rank(y)))) {
    if (!discovered(b)) {
      fates.push({ system: 'codewhale', dir: where(b), fate: 'rejected' });
      continue;
    }
    const winner = winners.get(b.name);
    if (winner)
      fates.push({
        system: 'codewhale',
        dir: where(b),
        fate: 'shadowed',
        winner: where(winner),
      });
    else {
      winners.set(b.name, b);
      // §6.3: a bundle with nothing supported is kept (and shadows) but can never be enabled.
      fates.push({
        system: 'codewhale',
        dir: where(b),
        fate: b.defect === 'unsupported' ? 'inactive' : 'registry',
      });
    }
  }
  return {
    shape: 'codewhale-shadowing',
    entries: bundles.flatMap(bundleEntries),
    owns: bundles.map(where),
    fates,
    userBundles: bundles.some((b) => b.scope === 'user'),
  };
}
