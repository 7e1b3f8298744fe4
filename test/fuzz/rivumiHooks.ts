import type { Rng } from './random';
import { fileEntry, type Shape, type ShapeEntry } from './shapeTree';
import type { ShapeFate } from './shapeFates';

/**
 * A `.rivumi/` whose project `hooks.json` and plugin hooks meet Rivumi's per-event cap once
 * merged (rivumi.md §4.1 `MAX_HOOKS_PER_EVENT` = 16, counted after the merge; §4.4 step 2-3):
 * 0, 1 or 14-17 project entries for one event, and 1-3 plugins adding 0-2 entries each, in
 * their sorted manifest order, so the merged list holds 15, 16, 17 or more. A list past 16
 * is invalid and the whole hook load fails: no hook runs, nothing is truncated (§4.4, §6
 * H3-H4). The hook load happens only with `RIVUMI_ENABLE_PROJECT_HOOKS=1` (§4.5); without
 * it no hook runs either, and nothing is an error. The skill load never checks hooks (§6),
 * so every plugin, valid, is loaded whatever its hooks (decisions.md "Rivumi has two separate
 * loads"). With the opt-in and an overflow, decisions.md gives the hooks of the contributor
 * whose entries cross 16 `manifest_invalid`, every other hook `load_aborted`.
 *
 * One other event gets a few entries now and then, never past the cap: only one event can
 * overflow, so which contributor crosses it is well defined.
 */

const MAX_HOOKS_PER_EVENT = 16; // hooks.py MAX_HOOKS_PER_EVENT

/** rivumi.md §4.2, in merge order. */
const EVENTS = ['pre_tool_use', 'post_tool_use', 'approval_request', 'pre_compact', 'post_compact'] as const;
type Event = (typeof EVENTS)[number];

interface Contributor {
  /** `.rivumi`-relative file: `hooks.json` or `plugins/<name>.json`. */
  readonly file: string;
  /** Entries per event, in §4.2 order. */
  readonly hooks: Partial<Record<Event, number>>;
}

function entries(who: string, event: Event, n: number): { command: string[] }[] {
  // `echo` by name: a bare word names no file in the workspace, so trust covers nothing more (trust.md).
  return Array.from({ length: n }, (_, i) => ({ command: ['echo', `${who}-${event}-${i}`] }));
}

function hooksObject(who: string, c: Contributor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of EVENTS) if (c.hooks[e] !== undefined) out[e] = entries(who, e, c.hooks[e] as number);
  return out;
}

export function generateRivumiHooks(rng: Rng): Shape {
  const event = rng.pick(EVENTS);
  const other = rng.pick(EVENTS.filter((e) => e !== event));
  const projectCount = rng.weighted([
    [2, 0],
    [1, 1],
    [2, 14],
    [4, 15],
    [3, 16],
    [1, 17],
  ]);
  // Absent `hooks.json` is `{}` (§4.4 step 1): then the plugins alone fill the event.
  const withFile = projectCount > 0 || rng.bool(0.5);
  const project: Contributor | undefined = withFile
    ? {
        file: 'hooks.json',
        hooks: { [event]: projectCount, ...(rng.bool(0.3) ? { [other]: rng.range(1, 3) } : {}) },
      }
    : undefined;
  const plugins: Contributor[] = Array.from({ length: rng.range(1, 3) }, (_, j) => {
    const n = rng.weighted([
      [1, 0],
      [3, 1],
      [3, 2],
    ]);
    return {
      file: `plugins/p${j}.json`,
      hooks: {
        ...(n || rng.bool(0.5) ? { [event]: n } : {}),
        ...(rng.bool(0.2) ? { [other]: 1 } : {}),
      },
    };
  });

  // §4.4 step 2: project entries, then each plugin's in sorted manifest order (`p0` < `p1` < `p2`).
  const order = [...(project ? [project] : []), ...plugins];
  let merged = 0;
  let crosser: Contributor | undefined;
  for (const c of order) {
    merged += c.hooks[event] ?? 0;
    if (merged > MAX_HOOKS_PER_EVENT && !crosser) crosser = c;
  }
  const runs = crosser === undefined;
  const count = (c: Contributor) => EVENTS.reduce((n, e) => n + (c.hooks[e] ?? 0), 0);
  const hooksFate = (c: Contributor) => ({
    // Each hook runs with the opt-in exactly when the merged configuration is valid.
    hooks: Array.from({ length: count(c) }, () => runs),
    ...(crosser ? { hookReason: c === crosser ? ('manifest_invalid' as const) : ('load_aborted' as const) } : {}),
  });

  const out: ShapeEntry[] = [{ kind: 'dir', path: 'ws/.rivumi/skills' }];
  const fates: ShapeFate[] = [];
  if (project) {
    out.push(fileEntry('ws/.rivumi/hooks.json', `${JSON.stringify(hooksObject('project', project), null, 2)}\n`));
    fates.push({
      system: 'rivumi',
      kind: 'hooks',
      path: '.rivumi/hooks.json',
      loaded: runs,
      optIn: true,
      ...hooksFate(project),
    });
  }
  plugins.forEach((p, j) => {
    const name = `p${j}`;
    out.push(fileEntry(`ws/.rivumi/${p.file}`, `${JSON.stringify({ name, hooks: hooksObject(name, p) }, null, 2)}\n`));
    // The skill load reads the manifest and never its hooks (§6): the plugin loads either way.
    fates.push({
      system: 'rivumi',
      kind: 'plugin',
      path: `.rivumi/${p.file}`,
      loaded: true,
      skills: [],
      ...hooksFate(p),
    });
  });
  return { shape: 'rivumi-hooks', entries: out, owns: ['ws/.rivumi'], fates };
}
