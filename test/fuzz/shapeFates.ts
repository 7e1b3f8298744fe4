import * as path from 'node:path';
import { textBytes } from './random';
import { surrogateEscaped } from './pythonOrder';
import { touchesShape, type Shape } from './shapeTree';
import type { Op } from './mutations';

/**
 * What the agent does with one item of a shape (shapeTree.ts), worked out by the shape from
 * the agent's own rules when it is written, never from Skillgate.
 *
 * Rivumi: `loaded` (the skill enters the prompt; the plugin is read and its skills and hooks
 * merged; a hook runs) or not (past a cap: never opened; in a load that fails: nothing of it
 * loads; a hook without the opt-in). A plugin's `skills` are its skill references in manifest
 * order; its and `hooks.json`'s `hooks` are its hook entries. Loaded is `registered`, with or
 * without `loaded_unreviewed`: Rivumi gates nothing on trust, so `disabled` is not loaded (a hook
 * without the opt-in) and never right for what it loads.
 *
 * Codewhale: `registry` (the bundle is discovered and kept: Codewhale gates it by its own
 * trust and enable state), `inactive` (kept, and so it shadows, but nothing it declares is
 * supported: it can never be enabled, `display_only`), `shadowed` by the bundle in `winner`,
 * or `rejected` (not discovered: the registry has a `manifest-invalid` diagnostic instead).
 *
 * Eva: a skill adapter `registered` (loaded), `shadowed` by the first manifest of its id, or
 * `absent` (never enumerated: outside the adapter root the layered `eva.yaml` names); a user
 * skill folder `listed` (read: `display_only`, `manifest_required`), `past-cap` (`display_only`,
 * `scan_limit_exceeded` alone, never opened) or `absent` (no skill folder: no item).
 */
export type ShapeFate =
  | {
      readonly system: 'rivumi';
      readonly kind: 'skill' | 'plugin' | 'hooks';
      /** Workspace-relative, `bytesText` form. */
      readonly path: string;
      /** For `hooks` (`optIn`): whether it loads with `RIVUMI_ENABLE_PROJECT_HOOKS=1`; without, nothing of it does. */
      readonly loaded: boolean;
      readonly optIn?: boolean;
      readonly skills?: readonly boolean[];
      /** Its hook entries (events in §4.2 order, entries in file order): whether each runs with the opt-in. */
      readonly hooks?: readonly boolean[];
      /** With the opt-in, when the hook load fails: its hooks' primary reason (decisions.md). */
      readonly hookReason?: 'manifest_invalid' | 'load_aborted';
    }
  | {
      readonly system: 'codewhale';
      /** The bundle directory, root-relative (`ws/.codewhale/plugins/x`, `home/plugins/x`), `bytesText` form. */
      readonly dir: string;
      readonly fate: 'registry' | 'inactive' | 'shadowed' | 'rejected';
      /** The winner's directory, for `shadowed`. */
      readonly winner?: string;
      /**
       * `user` for a bundle under the workspace that Codewhale discovers as the user's (the
       * workspace opened at the home, §2.6: its second discovery, as the workspace's, is dropped).
       */
      readonly scope?: 'user';
      /**
       * The same directory spelled through the other root, where Codewhale never keeps it: that
       * root is a link (§2.2 `root-symlink`) or leads to this one (§2.6 `duplicate-root`).
       */
      readonly alias?: string;
    }
  | {
      readonly system: 'eva';
      /** A skill adapter's manifest, workspace-relative (`config/adapters/a/x.yaml`). */
      readonly path: string;
      /**
       * `registered`: Eva registers it (loaded); `shadowed` by the manifest at `winner` (null: a
       * context file, no item); `absent`: Eva never reads it, so no item.
       */
      readonly fate: 'registered' | 'shadowed' | 'absent';
      readonly winner?: string | null;
    }
  | {
      readonly system: 'eva';
      /** The user skill root, `~/.codex/skills` or `~/.agents/skills` (eva.md §1.3). */
      readonly root: 'codex' | 'agents';
      /** The folder's (or entry's) name in that root. */
      readonly name: string;
      readonly fate: 'listed' | 'past-cap' | 'absent';
    };

/** One lifecycle command on a bundle of a shape, and whether Codewhale's own operation succeeds (codewhale.md §8.4). */
export interface LifecycleStep {
  readonly op: 'trust' | 'enable' | 'disable';
  /** The bundle directory, root-relative, `bytesText` form. */
  readonly dir: string;
  readonly ok: boolean;
}

/** A Codewhale bundle's state and decision after its lifecycle steps, and each child's (codewhale.md §8.3, decisions.md). */
export interface LifecycleFate {
  readonly dir: string;
  readonly trust: 'trusted' | 'not-reviewed';
  readonly enabled: boolean;
  readonly decision: 'registered' | 'disabled' | 'display_only';
  /** The primary reason (decisions.md). */
  readonly reason: string;
  readonly children: readonly {
    readonly kind: 'skill' | 'mcp-server';
    readonly name: string;
    /** Whether Codewhale loads the skill or starts the server. */
    readonly loaded: boolean;
    /** The primary reason, where decisions.md gives one. */
    readonly reason?: string;
  }[];
}

export interface Lifecycle {
  readonly steps: readonly LifecycleStep[];
  readonly fates: readonly LifecycleFate[];
}

/** The fields of `list --json` an item's fate is read from (cli.md). */
export interface ListedItem {
  readonly id: string;
  readonly system: string;
  readonly kind: string;
  readonly name?: string;
  readonly trust?: string | null;
  readonly enabled?: boolean | null;
  readonly reviewToken?: string | null;
  readonly scope?: string;
  readonly workspace: string | null;
  readonly path: string;
  readonly parent: string | null;
  readonly shadowedBy: string | null;
  readonly decision: string;
  readonly reasons: readonly string[];
}

/** Decisions that say the agent does not load the item (decisions.md). */
const NOT_LOADED = new Set(['rejected', 'display_only', 'shadowed']);

/**
 * `shape-fate`: each fate of a shape no op reached is the item's listed decision. An item
 * its agent loads shown as not loaded (or not at all) is the worst bug Skillgate can have:
 * `check` gates only what the agent loads, so it passes unreviewed. The other direction is
 * reported too, as the safe side.
 */
export function checkShapeFates(
  shapes: readonly Shape[],
  ops: readonly Op[],
  dirs: { readonly root: string; readonly ws: string; readonly hooksOptIn?: boolean },
  items: readonly ListedItem[],
  fail: (signature: string, detail: string) => void,
): void {
  for (const shape of shapes) {
    if (ops.some((op) => touchesShape(op, shape))) continue;
    for (const fate of shape.fates)
      if (fate.system === 'rivumi') rivumiFate(shape, fate, dirs.ws, dirs.hooksOptIn === true, items, fail);
      else if (fate.system === 'eva' && 'root' in fate) evaUserFate(shape, fate, items, fail);
      else if (fate.system === 'eva') evaFate(shape, fate, dirs.ws, items, fail);
      else codewhaleFate(shape, fate, dirs, items, fail);
  }
}

function shown(i: ListedItem | undefined): string {
  return i ? `${i.decision} (${i.reasons.join(', ')})` : 'not listed';
}

function rivumiFate(
  shape: Shape,
  fate: Extract<ShapeFate, { system: 'rivumi' }>,
  ws: string,
  optIn: boolean,
  items: readonly ListedItem[],
  fail: (signature: string, detail: string) => void,
): void {
  const listedPath = surrogateEscaped(textBytes(fate.path));
  const item = items.find(
    (i) =>
      i.system === 'rivumi' && i.kind === fate.kind && i.workspace === ws && i.path === listedPath && i.parent === null,
  );
  const check = (i: ListedItem | undefined, loaded: boolean, what: string, which: string) => {
    const says = i?.decision === 'registered';
    if (says === loaded) return;
    fail(
      `${shape.shape}: rivumi ${loaded ? 'loads' : 'never loads'} a ${what} shown ${i?.decision ?? 'not listed'}`,
      `Rivumi ${loaded ? 'loads' : 'does not load'} ${which}${optIn ? '' : ' (no opt-in)'}, which Skillgate shows ${shown(i)}`,
    );
  };
  check(item, fate.loaded && (!fate.optIn || optIn), fate.kind, `${fate.kind} ${JSON.stringify(listedPath)}`);
  if (fate.hooks && item) rivumiHooks(shape, fate, listedPath, item, optIn, items, check, fail);
  if (!fate.skills || !item) return;
  const children = items.filter((i) => i.parent === item.id && i.kind === 'skill');
  if (children.length !== fate.skills.length)
    return fail(
      `${shape.shape}: rivumi plugin skills listed ${children.length < fate.skills.length ? 'fewer' : 'more'} than referenced`,
      `plugin ${JSON.stringify(listedPath)} references ${fate.skills.length} skill(s), of which Rivumi loads ${fate.skills.filter(Boolean).length}; Skillgate lists ${children.length}: ${children.map(shown).join('; ')}`,
    );
  fate.skills.forEach((loaded, n) =>
    check(
      children[n],
      loaded,
      'plugin skill',
      `skill #${n + 1} (${JSON.stringify(children[n]?.path)}) of plugin ${JSON.stringify(listedPath)}`,
    ),
  );
}

/** The Codewhale bundle item listed for a root-relative bundle directory (`bytesText` form), user or workspace. */
export function codewhaleBundleAt(
  dir: string,
  dirs: { readonly root: string; readonly ws: string },
  items: readonly ListedItem[],
  scope?: 'user' | 'workspace',
): ListedItem | undefined {
  const abs = surrogateEscaped(Buffer.concat([Buffer.from(`${dirs.root}/`), textBytes(dir)]));
  const user = scope ? scope === 'user' : !abs.startsWith(`${dirs.ws}/`);
  const listed = user ? abs : path.relative(dirs.ws, abs);
  return items.find(
    (i) =>
      i.system === 'codewhale' &&
      i.kind === 'plugin' &&
      i.path === listed &&
      (user ? i.workspace === null : i.workspace === dirs.ws),
  );
}

/** The hook children of a Rivumi plugin or `hooks.json`: each runs only with the opt-in, and then as the merged load gives. */
function rivumiHooks(
  shape: Shape,
  fate: Extract<ShapeFate, { system: 'rivumi' }>,
  listedPath: string,
  item: ListedItem,
  optIn: boolean,
  items: readonly ListedItem[],
  check: (i: ListedItem | undefined, loaded: boolean, what: string, which: string) => void,
  fail: (signature: string, detail: string) => void,
): void {
  const hooks = fate.hooks ?? [];
  const children = items.filter((i) => i.parent === item.id && i.kind === 'hook');
  if (children.length !== hooks.length)
    return fail(
      `${shape.shape}: rivumi hooks listed ${children.length < hooks.length ? 'fewer' : 'more'} than written`,
      `${fate.kind} ${JSON.stringify(listedPath)} has ${hooks.length} hook entries; Skillgate lists ${children.length}: ${children.map(shown).join('; ')}`,
    );
  hooks.forEach((runs, n) => {
    const child = children[n] as ListedItem;
    const which = `hook #${n + 1} (${JSON.stringify(child.name)}) of ${fate.kind} ${JSON.stringify(listedPath)}`;
    check(child, runs && optIn, 'hook', which);
    // decisions.md: without the opt-in, `hooks_not_opted_in`; with it and a failed merge, the contributor that overflows it `manifest_invalid`, every other `load_aborted`.
    const reason = !optIn ? 'hooks_not_opted_in' : fate.hookReason;
    if (reason && child.decision !== 'registered' && !child.reasons.includes(reason))
      fail(
        `${shape.shape}: rivumi hook ${optIn ? 'of a failed hook load' : 'without the opt-in'} without ${reason}`,
        `${which}: decisions.md gives ${reason}; Skillgate shows ${shown(child)}`,
      );
    else if (reason && optIn && child.reasons[0] !== reason)
      fail(
        `${shape.shape}: rivumi hook of a failed hook load with ${child.reasons[0] ?? 'no reason'} first, not ${reason}`,
        `${which}: decisions.md gives ${reason}; Skillgate shows ${shown(child)}`,
      );
  });
}

function codewhaleFate(
  shape: Shape,
  fate: Extract<ShapeFate, { system: 'codewhale' }>,
  dirs: { readonly root: string; readonly ws: string },
  items: readonly ListedItem[],
  fail: (signature: string, detail: string) => void,
): void {
  const itemOf = (dir: string) => codewhaleBundleAt(dir, dirs, items, fate.scope);
  const item = itemOf(fate.dir);
  const where = `bundle ${JSON.stringify(surrogateEscaped(textBytes(fate.dir)))}`;
  if (fate.scope === 'user') {
    // The same directory reached as the workspace's root: a discovery Codewhale drops (§2.6 `duplicate-root`).
    const again = codewhaleBundleAt(fate.dir, dirs, items, 'workspace');
    if (again && again.decision !== 'rejected')
      fail(
        `${shape.shape}: codewhale drops a duplicate discovery shown ${again.decision}`,
        `Codewhale discovers ${where} once, as the user's (the workspace root is the user root: duplicate-root); Skillgate lists it again in the workspace, ${shown(again)}`,
      );
  }
  if (fate.alias !== undefined) {
    const again = codewhaleBundleAt(fate.alias, dirs, items);
    if (again && again.decision !== 'rejected')
      fail(
        `${shape.shape}: codewhale never keeps a bundle through the other root, shown ${again.decision}`,
        `Codewhale keeps ${where} only as spelled there (the other root is a link, root-symlink, or the same directory, duplicate-root); Skillgate lists it again as ${JSON.stringify(surrogateEscaped(textBytes(fate.alias)))}, ${shown(again)}`,
      );
  }
  if (fate.fate === 'registry' || fate.fate === 'inactive') {
    const inactive = fate.fate === 'inactive';
    if (item && (inactive ? item.decision === 'display_only' : !NOT_LOADED.has(item.decision))) return;
    fail(
      `${shape.shape}: codewhale keeps ${inactive ? 'an unsupported' : 'a'} bundle shown ${item?.decision ?? 'not listed'}`,
      `Codewhale discovers and keeps ${where} (${inactive ? 'it shadows by name, yet declares nothing it can activate' : 'it loads it once trusted and enabled'}), which Skillgate shows ${shown(item)}${item?.shadowedBy ? ` by ${item.shadowedBy}` : ''}`,
    );
  } else if (fate.fate === 'shadowed') {
    const winner = itemOf(fate.winner as string);
    if (item?.decision === 'shadowed' && winner && item.shadowedBy === winner.id) return;
    fail(
      `${shape.shape}: codewhale shadows a bundle shown ${item?.decision ?? 'not listed'}${item?.decision === 'shadowed' ? ' by another' : ''}`,
      `Codewhale drops ${where} as shadowed by ${JSON.stringify(fate.winner)} (${winner?.id ?? 'not listed'}); Skillgate shows ${shown(item)}${item?.shadowedBy ? ` by ${item.shadowedBy}` : ''}`,
    );
  } else if (item && !NOT_LOADED.has(item.decision))
    fail(
      `${shape.shape}: codewhale rejects a bundle shown ${item.decision}`,
      `Codewhale does not discover ${where} (manifest-invalid); Skillgate shows ${shown(item)}`,
    );
}

/** An Eva skill adapter of the workspace's project: registered (loaded), or shadowed by the first manifest of its id (eva.md §4.3). */
function evaFate(
  shape: Shape,
  fate: Extract<ShapeFate, { system: 'eva'; path: string }>,
  ws: string,
  items: readonly ListedItem[],
  fail: (signature: string, detail: string) => void,
): void {
  const at = (p: string) =>
    items.find((i) => i.system === 'eva' && i.kind === 'skill-adapter' && i.workspace === ws && i.path === p);
  const item = at(fate.path);
  const where = `adapter ${JSON.stringify(fate.path)}`;
  if (fate.fate === 'absent') {
    // Outside the adapter root Eva reads (eva.md §1.1): no item, whatever its file holds.
    const any = items.find((i) => i.system === 'eva' && i.workspace === ws && i.path === fate.path);
    if (any)
      fail(
        `${shape.shape}: eva never reads an adapter shown ${any.decision}`,
        `Eva never enumerates ${where} (not under the adapter_dir its layered eva.yaml names), which Skillgate shows ${shown(any)}`,
      );
    return;
  }
  if (fate.fate === 'registered') {
    if (item?.decision === 'registered') return;
    fail(
      `${shape.shape}: eva registers a skill adapter shown ${item?.decision ?? 'not listed'}`,
      `Eva registers ${where}, under the adapter_dir its layered eva.yaml names and the first manifest of its id in path order (component by component, by bytes), which Skillgate shows ${shown(item)}${item?.shadowedBy ? ` by ${item.shadowedBy}` : ''}`,
    );
    return;
  }
  const winner = fate.winner ? at(fate.winner) : undefined;
  const by = fate.winner ? (winner?.id ?? 'an item not listed') : null;
  if (item?.decision === 'shadowed' && item.reasons[0] === 'duplicate_id_shadowed' && item.shadowedBy === by) return;
  fail(
    `${shape.shape}: eva shadows a skill adapter shown ${item?.decision ?? 'not listed'}${item?.decision === 'shadowed' ? ' by another' : ''}`,
    `Eva drops ${where} as shadowed by ${fate.winner ? JSON.stringify(fate.winner) : 'a context manifest of the same id (shadowedBy null)'}; Skillgate shows ${shown(item)}${item?.shadowedBy ? ` by ${item.shadowedBy}` : ''}`,
  );
}

/**
 * A user skill folder of Eva's (eva.md §1.3): one of the first 500 of its root in byte order is
 * read (`display_only`, `manifest_required`), a later one is `display_only` past the cap
 * (`scan_limit_exceeded` alone, §4.2 C0 stop), and an entry that is no skill folder is no item.
 */
function evaUserFate(
  shape: Shape,
  fate: Extract<ShapeFate, { system: 'eva'; root: string }>,
  items: readonly ListedItem[],
  fail: (signature: string, detail: string) => void,
): void {
  const item = items.find((i) => i.system === 'eva' && i.id === `eva:user:${fate.root}:${fate.name}`);
  // Spelled in ASCII: a name outside it (U+E000, a combining ring) reads the same in any report.
  const escaped = JSON.stringify(fate.name).replace(
    /[^\x20-\x7e]/gu,
    (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`,
  );
  const where = `~/.${fate.root}/skills/${escaped}`;
  if (fate.fate === 'absent') {
    if (item)
      fail(
        `${shape.shape}: eva lists no skill folder, shown ${item.decision}`,
        `${where} is no skill folder of Eva's (hidden, not a directory, or no regular SKILL.md in it), which Skillgate shows ${shown(item)}`,
      );
    return;
  }
  const past = fate.fate === 'past-cap';
  const ok =
    item?.decision === 'display_only' &&
    (past
      ? item.reasons[0] === 'scan_limit_exceeded' && item.reasons.length === 1
      : item.reasons[0] === 'manifest_required');
  if (ok) return;
  fail(
    `${shape.shape}: eva ${past ? 'passes over a user skill folder past the cap' : 'reads a user skill folder within the cap'}, shown ${item ? (item.reasons[0] ?? item.decision) : 'not listed'}`,
    `${where} is ${past ? 'past' : 'within'} the first 500 skill folders of its root in byte order (eva.md §1.3, §4.2 C0), ${past ? 'display_only, scan_limit_exceeded' : 'read: display_only, manifest_required'}; Skillgate shows ${shown(item)}`,
  );
}
