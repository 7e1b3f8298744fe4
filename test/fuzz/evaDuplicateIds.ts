import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Rng } from './random';
import { fileEntry, shapePath, type Shape } from './shapeTree';
import type { ShapeFate } from './shapeFates';

/**
 * Eva adapters of one id in the demo's Eva project (input.ts `evaDemo`), each a copy of the
 * demo's `review-skill` skill adapter or, now and then, a non-skill adapter (context, eva.md
 * §1.4), at paths under `config/adapters/` whose order by path differs between a plain string
 * sort and Eva's. Eva's rules (eva.md):
 *
 * - the adapter id namespace spans every adapter manifest, skill or not; the first manifest in
 *   path order with an id wins and every later one is shadowed (`duplicate_id_shadowed`,
 *   `shadowedBy` the winner's item id, or null when the winner is a context file) (§4.3 1);
 * - path order is component by component, comparing raw bytes (§1.2 4, Rust `PathBuf` order):
 *   `a/x.yaml` before `a-b/x.yaml` and `a.yaml` (`a` is a prefix of both components), where a
 *   string sort puts `a-b/x.yaml` (`-` 0x2D) and `a.yaml` (`.` 0x2E) before it (`/` 0x2F);
 * - a duplicate id makes Eva-CLI refuse the project, yet item decisions are not changed
 *   (§4.5 [S]), so the winner, a copy of `review-skill`, passes every check of §4.2 as the
 *   demo's own does under the demo's policy (enabled, `skill.path` in the project, inline
 *   schemas, `workflow_skill`, gate `normal`, `workflow.review`, read-only permissions) and is
 *   registered: loaded. A Skillgate that sorted paths as strings would show it shadowed.
 *
 * Its fates depend on the whole `config/` (policy, `eva.yaml`'s roots and limits, the skill
 * folder), so the shape owns all of it.
 */

/** Manifest paths under `config/adapters/`; by Eva's order `A/` < `a b/` < `a/` < `a-b/` < `a.yaml` < `a0.yaml` < `z/` < `é/`. */
const PATHS = [
  'a/x.yaml',
  'a/x.yml',
  'a/b/x.yaml',
  'a-b/x.yaml',
  'a.yaml',
  'a b/x.yaml',
  'a0.yaml',
  'A/x.yaml',
  '.h/x.yaml',
  'z/x.yaml',
  '\u00e9/x.yaml',
];

const ID = 'twin-skill';

/** The demo's skill adapter, registered in the demo (examples/demo-workspace/config/adapters/review-skill.yaml). */
function skillText(): string {
  const demo = path.resolve(__dirname, '../../examples/demo-workspace/config/adapters/review-skill.yaml');
  return fs.readFileSync(demo, 'utf8').replace(/^id: review-skill$/m, `id: ${ID}`);
}

const CONTEXT_TEXT = `id: ${ID}\nname: Twin Tool\nversion: 1.0.0\nenabled: true\ntransport: stdio\ncapabilities: [repo.read]\npermissions: {read_workspace: true}\nlimits: {timeout_ms: 1000}\nrouting: {priority: 5}\n`;

/** Rust's `Path` order: component by component, each by its raw bytes; a prefix first. */
export function evaPathOrder(x: string, y: string): number {
  const a = x.split('/');
  const b = y.split('/');
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = Buffer.compare(Buffer.from(a[i] as string), Buffer.from(b[i] as string));
    if (c) return c;
  }
  return a.length - b.length;
}

export function generateEvaDuplicateIds(rng: Rng): Shape {
  const free = [...PATHS];
  const files: { path: string; skill: boolean }[] = [];
  for (let i = 0, n = rng.range(2, 4); i < n; i++) {
    const at = free.splice(rng.int(free.length), 1)[0] as string;
    files.push({
      path: `config/adapters/${at}`,
      skill: rng.weighted([
        [5, true],
        [1, false],
      ]),
    });
  }
  const ordered = [...files].sort((x, y) => evaPathOrder(x.path, y.path));
  const winner = ordered[0] as { path: string; skill: boolean };
  const fates: ShapeFate[] = ordered
    .filter((f) => f.skill)
    .map((f) =>
      f === winner
        ? { system: 'eva', path: f.path, fate: 'registered' }
        : { system: 'eva', path: f.path, fate: 'shadowed', winner: winner.skill ? winner.path : null },
    );
  const text = skillText();
  return {
    shape: 'eva-duplicate-ids',
    entries: files.map((f) => fileEntry(shapePath('ws', f.path), f.skill ? text : CONTEXT_TEXT)),
    owns: ['ws/config'],
    fates,
  };
}
