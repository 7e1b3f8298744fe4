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
 * merged) or not (past a cap: never opened; in a load that fails: nothing of it loads). A
 * plugin's `skills` are its skill references in manifest order.
 *
 * Codewhale: `registry` (the bundle is discovered and kept: Codewhale gates it by its own
 * trust and enable state), `inactive` (kept, and so it shadows, but nothing it declares is
 * supported: it can never be enabled, `display_only`), `shadowed` by the bundle in `winner`,
 * or `rejected` (not discovered: the registry has a `manifest-invalid` diagnostic instead).
 */
export type ShapeFate =
  | {
      readonly system: 'rivumi';
      readonly kind: 'skill' | 'plugin';
      /** Workspace-relative, `bytesText` form. */
      readonly path: string;
      readonly loaded: boolean;
      readonly skills?: readonly boolean[];
    }
  | {
      readonly system: 'codewhale';
      /** The bundle directory, root-relative (`ws/.codewhale/plugins/x`, `home/plugins/x`), `bytesText` form. */
      readonly dir: string;
      readonly fate: 'registry' | 'inactive' | 'shadowed' | 'rejected';
      /** The winner's directory, for `shadowed`. */
      readonly winner?: string;
    };

/** The fields of `list --json` an item's fate is read from (cli.md). */
export interface ListedItem {
  readonly id: string;
  readonly system: string;
  readonly kind: string;
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
  dirs: { readonly root: string; readonly ws: string },
  items: readonly ListedItem[],
  fail: (signature: string, detail: string) => void,
): void {
  for (const shape of shapes) {
    if (ops.some((op) => touchesShape(op, shape))) continue;
    for (const fate of shape.fates)
      if (fate.system === 'rivumi') rivumiFate(shape, fate, dirs.ws, items, fail);
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
  items: readonly ListedItem[],
  fail: (signature: string, detail: string) => void,
): void {
  const listedPath = surrogateEscaped(textBytes(fate.path));
  const item = items.find(
    (i) =>
      i.system === 'rivumi' && i.kind === fate.kind && i.workspace === ws && i.path === listedPath && i.parent === null,
  );
  const check = (i: ListedItem | undefined, loaded: boolean, what: string, which: string) => {
    const says = i !== undefined && !NOT_LOADED.has(i.decision);
    if (says === loaded) return;
    fail(
      `${shape.shape}: rivumi ${loaded ? 'loads' : 'never loads'} a ${what} shown ${i?.decision ?? 'not listed'}`,
      `Rivumi ${loaded ? 'loads' : 'does not load'} ${which}, which Skillgate shows ${shown(i)}`,
    );
  };
  check(item, fate.loaded, fate.kind, `${fate.kind} ${JSON.stringify(listedPath)}`);
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

function codewhaleFate(
  shape: Shape,
  fate: Extract<ShapeFate, { system: 'codewhale' }>,
  dirs: { readonly root: string; readonly ws: string },
  items: readonly ListedItem[],
  fail: (signature: string, detail: string) => void,
): void {
  const itemOf = (dir: string) => {
    const abs = surrogateEscaped(Buffer.concat([Buffer.from(`${dirs.root}/`), textBytes(dir)]));
    const user = !abs.startsWith(`${dirs.ws}/`);
    const listed = user ? abs : path.relative(dirs.ws, abs);
    return items.find(
      (i) =>
        i.system === 'codewhale' &&
        i.kind === 'plugin' &&
        i.path === listed &&
        (user ? i.workspace === null : i.workspace === dirs.ws),
    );
  };
  const item = itemOf(fate.dir);
  const where = `bundle ${JSON.stringify(surrogateEscaped(textBytes(fate.dir)))}`;
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
