import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Rng } from './random';
import { fileEntry, shapePath, type Shape, type ShapeEntry } from './shapeTree';
import type { ShapeFate } from './shapeFates';
import { EVA_USER_CAP } from './eva';

/**
 * Eva's user skill folders at the cap of each root (eva.md §1.3), over the demo's Eva project
 * and home (input.ts `evaDemo`: user items are listed only beside an Eva project, §1.3 [S]).
 * Eva's rules, each from eva.md:
 *
 * - the two roots are `~/.codex/skills` and `~/.agents/skills`, each read one level deep (§1.3);
 * - a skill folder is a direct child directory, a link to one followed (§1.3 "A child directory
 *   that is a symlink is followed"), not hidden (`.x` skipped, §1.3 [S]), holding a regular file
 *   named exactly `SKILL.md`; one whose `SKILL.md` is a link to a file is still listed (§1.3
 *   `eva.user.symlink`: "item still listed"). Anything else (a hidden folder, a folder without
 *   `SKILL.md`, with `skill.md`, with a directory or a FIFO named `SKILL.md`, a file, a dangling
 *   link, a link to a file) is no skill folder: not an item, and it takes no place in the count;
 * - the folders of one root are sorted by raw name bytes and the first 500 are read
 *   (`max_files_per_dir`, §1.3; §4.2 C0); every later one is listed `display_only` with the one
 *   reason `scan_limit_exceeded`, its `SKILL.md` never opened (C0 **stop**); one read is
 *   `display_only` with `manifest_required` (C7: no project manifest wraps it, the demo's
 *   adapters name `skill.source: project`, §4.3 4);
 * - each root is capped on its own, and the same name in both is listed in both, neither
 *   shadowing the other (§4.3 5: `same_skill_multiple_directory`, no shadowing).
 *
 * The cut falls among names whose byte order differs from UTF-16 order (U+FF5E and U+E000 before
 * U+1F600 by bytes, after it by UTF-16 units), from locale order (`Zeta` before `alpha`, `a b` <
 * `a-b` < `a.b` < `a_b` < `ab`, `10` before `9`), and between a composed `Å` and a decomposed
 * `A` + U+030A: a Skillgate that sorted otherwise, counted a hidden folder, a link to a file or
 * a folder without a regular `SKILL.md`, or shared one count between the roots cuts elsewhere.
 * Fillers `0000`… sort first by bytes and by UTF-16 units, so the cut lands among those names.
 * (`team` is a `runtime_worker` by name, §3.2: read, it adds `runtime_worker_display_only`.)
 *
 * Its fates hang on which entries the roots hold, not on their bytes (a `SKILL.md` whose front
 * matter fails is still listed, §1.3), so an op that only rewrites a file there leaves them
 * (`entriesOf`); the project's `eva.yaml` layers (`discovery.scan_user_dirs`, §1.3) are owned whole.
 */

/** Names whose orders by bytes, by UTF-16 units and by locale all differ somewhere. */
const NAMES = [
  'Zeta',
  'alpha',
  'a b',
  'a-b',
  'a.b',
  'a_b',
  'ab',
  '9',
  '10',
  '\u00e9',
  'z',
  '\u00c5',
  'A\u030a',
  '\u00df',
  'ss',
  '\uff5e',
  '\u{1f600}',
  '\ue000',
  'team',
];

/** How a name is written: a skill folder Eva counts, or an entry that is none. */
type Kind =
  | 'folder'
  | 'linked-folder'
  | 'linked-skill-md'
  | 'hidden'
  | 'no-skill-md'
  | 'lowercase'
  | 'file'
  | 'skill-md-dir'
  | 'skill-md-fifo'
  | 'dangling'
  | 'file-link';

const COUNTED = new Set<Kind>(['folder', 'linked-folder', 'linked-skill-md']);

type Root = 'codex' | 'agents';

const DIR: Record<Root, string> = { codex: 'home/.codex/skills', agents: 'home/.agents/skills' };

function skillText(name: string): string {
  return `---\nname: ${JSON.stringify(name)}\ndescription: A user skill.\n---\nBody.\n`;
}

/** Raw byte order of names (Eva's, §1.3). */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * Whether, with the first `within` of `counted` (byte order) inside the cap after the fillers,
 * a cut in UTF-16 unit order (JavaScript's default sort) would take other folders.
 */
function unitsDiffer(counted: readonly string[], within: number): boolean {
  const byUnits = [...counted].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return counted.slice(0, within).some((name) => !byUnits.slice(0, within).includes(name));
}

/** The skill folders of the demo's home (examples/demo-home), copied into the home before the shape. */
function demoSkills(root: Root): string[] {
  const dir = path.resolve(__dirname, '../../examples/demo-home', `.${root}`, 'skills');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter(
      (n) => !n.startsWith('.') && fs.lstatSync(path.join(dir, n, 'SKILL.md'), { throwIfNoEntry: false })?.isFile(),
    );
}

/** One name's entries under its root; `n` numbers its link targets in the root's hidden `.store`. */
function entriesFor(root: Root, name: string, kind: Kind, n: number): ShapeEntry[] {
  const at = (...parts: string[]) => shapePath(DIR[root], ...parts);
  switch (kind) {
    case 'folder':
      return [fileEntry(at(name, 'SKILL.md'), skillText(name))];
    case 'linked-folder':
      return [
        fileEntry(at('.store', `d${n}`, 'SKILL.md'), skillText(name)),
        { kind: 'link', path: at(name), target: `.store/d${n}` },
      ];
    case 'linked-skill-md':
      return [
        fileEntry(at('.store', `f${n}.md`), skillText(name)),
        { kind: 'dir', path: at(name) },
        { kind: 'link', path: at(name, 'SKILL.md'), target: `../.store/f${n}.md` },
      ];
    case 'hidden':
      return [fileEntry(at(`.${name}`, 'SKILL.md'), skillText(name))];
    case 'no-skill-md':
      return [fileEntry(at(name, 'README.md'), 'not a skill\n')];
    case 'lowercase':
      return [fileEntry(at(name, 'skill.md'), skillText(name))];
    case 'file':
      return [fileEntry(at(name), skillText(name))];
    case 'skill-md-dir':
      return [{ kind: 'dir', path: at(name, 'SKILL.md') }];
    case 'skill-md-fifo':
      return [
        { kind: 'dir', path: at(name) },
        { kind: 'fifo', path: at(name, 'SKILL.md') },
      ];
    case 'dangling':
      return [{ kind: 'link', path: at(name), target: `.store/none${n}` }];
    case 'file-link':
      return [
        fileEntry(at('.store', `n${n}.md`), skillText(name)),
        { kind: 'link', path: at(name), target: `.store/n${n}.md` },
      ];
  }
}

export function generateEvaUserCap(rng: Rng): Shape {
  const entries: ShapeEntry[] = [];
  const fates: ShapeFate[] = [];
  // At least one root at the cap; the other at it too, or holding a few folders only.
  const capped: Record<Root, boolean> = rng.bool(0.5)
    ? { codex: true, agents: rng.bool(0.5) }
    : { codex: rng.bool(0.5), agents: true };
  let n = 0;
  for (const root of ['codex', 'agents'] as const) {
    const free = [...NAMES];
    const written: { name: string; kind: Kind }[] = [];
    // Half the roots at the cap hold a pair UTF-16 orders the other way round: U+1F600 and U+FF5E or U+E000.
    if (capped[root] && rng.bool(0.5))
      for (const name of ['\u{1f600}', rng.pick(['\uff5e', '\ue000'])]) {
        free.splice(free.indexOf(name), 1);
        written.push({ name, kind: 'folder' });
        entries.push(...entriesFor(root, name, 'folder', n++));
      }
    for (let i = 0, count = rng.range(capped[root] ? 4 : 1, capped[root] ? 10 : 4); i < count; i++) {
      const name = free.splice(rng.int(free.length), 1)[0] as string;
      const kind = rng.weighted<Kind>([
        [10, 'folder'],
        [3, 'linked-folder'],
        [2, 'linked-skill-md'],
        [2, 'hidden'],
        [1, 'no-skill-md'],
        [1, 'lowercase'],
        [1, 'file'],
        [1, 'skill-md-dir'],
        [1, 'skill-md-fifo'],
        [1, 'dangling'],
        [1, 'file-link'],
      ]);
      written.push({ name, kind });
      entries.push(...entriesFor(root, name, kind, n++));
    }
    // The skill folders Eva counts, in its order (§1.3: raw name bytes), the demo's among them.
    const counted = [...written.filter((w) => COUNTED.has(w.kind)).map((w) => w.name), ...demoSkills(root)].sort(
      byBytes,
    );
    // How many of them fall within the cap: mostly not all, so the cut falls among them, and more
    // often than not where the first 500 by UTF-16 units are others (`unitsDiffer`).
    const cuts = Array.from({ length: counted.length }, (_, k) => k);
    const telling = cuts.filter((k) => unitsDiffer(counted, k));
    const within =
      !capped[root] || counted.length === 0 || rng.bool(0.15)
        ? counted.length
        : telling.length && rng.bool(0.6)
          ? rng.pick(telling)
          : rng.int(counted.length);
    const fillers = capped[root] ? EVA_USER_CAP - within : 0;
    for (let i = 0; i < fillers; i++) {
      const name = `0${String(i).padStart(3, '0')}`;
      entries.push(fileEntry(shapePath(DIR[root], name, 'SKILL.md'), skillText(name)));
      fates.push({ system: 'eva', root, name, fate: 'listed' });
    }
    counted.forEach((name, i) =>
      fates.push({ system: 'eva', root, name, fate: fillers + i < EVA_USER_CAP ? 'listed' : 'past-cap' }),
    );
    for (const w of written)
      if (!COUNTED.has(w.kind))
        fates.push({ system: 'eva', root, name: w.kind === 'hidden' ? `.${w.name}` : w.name, fate: 'absent' });
  }
  return {
    shape: 'eva-user-cap',
    entries,
    owns: ['ws/config/eva.yaml', 'ws/config/eva.user.yaml', 'ws/config/profiles', 'ws/config/environments'],
    entriesOf: [DIR.codex, DIR.agents],
    fates,
  };
}
