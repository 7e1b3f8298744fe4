import { surrogateEscaped } from './pythonOrder';
import { textBytes } from './random';
import { touchesShape, type Shape } from './shapeTree';
import { codewhaleBundleAt, type LifecycleFate, type ListedItem } from './shapeFates';
import type { Op } from './mutations';

/** What the runner needs of a CLI run. */
export interface LifecycleRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/**
 * `shape-fate` after trust and enable: for each shape with lifecycle steps that no op reached,
 * runs the steps with the CLI's own `trust <id> <token>` (the token the first listing shows),
 * `enable <id>` and `disable <id>`, through `cli` (which must use a trust store of its own,
 * empty before), checks each exits as Codewhale's operation succeeds or is refused (0 or 1),
 * then holds one more `list --json` to each bundle's and child's fate. An item Codewhale
 * loads (an active bundle's skill, a server it starts) shown not loaded is the worst bug
 * Skillgate can have; a server configured off, or a bundle Codewhale refuses to enable,
 * shown loaded is reported too.
 */
export async function checkShapeLifecycles(
  shapes: readonly Shape[],
  ops: readonly Op[],
  dirs: { readonly root: string; readonly ws: string },
  listed: readonly ListedItem[],
  cli: (...args: string[]) => Promise<LifecycleRun>,
  fail: (signature: string, detail: string) => void,
): Promise<void> {
  const live = shapes.filter((s) => s.lifecycle && !ops.some((op) => touchesShape(op, s)));
  if (!live.length) return;
  for (const shape of live)
    for (const step of shape.lifecycle?.steps ?? []) {
      const item = codewhaleBundleAt(step.dir, dirs, listed);
      // A bundle not listed fails the first listing's fate already.
      if (!item) return;
      // Every bundle Codewhale loads has hashes, and so a token (codewhale.md §7.7): none leaves it untrustable.
      if (!item.reviewToken)
        return fail(
          `${shape.shape}: a bundle Codewhale loads listed without a review token`,
          `bundle ${where(step.dir)} is listed ${shown(item)} with no review token, so \`trust\` cannot be given one`,
        );
      const args = step.op === 'trust' ? ['trust', item.id, item.reviewToken] : [step.op, item.id];
      const r = await cli(...args);
      if (r.code === (step.ok ? 0 : 1)) continue;
      fail(
        `${shape.shape}: ${step.op} ${step.ok ? 'refused' : 'done'} where Codewhale ${step.ok ? 'does it' : 'refuses'}`,
        `\`${step.op}\` of bundle ${where(step.dir)} exited ${r.code}; Codewhale's ${step.op} ${step.ok ? 'succeeds' : 'is refused'} there (codewhale.md §8.4): ${r.err.slice(0, 300)}`,
      );
    }
  const after = await cli('list', '--json');
  let items: ListedItem[];
  try {
    items = (JSON.parse(after.out) as { items: ListedItem[] }).items;
  } catch {
    return; // json-valid and exit-codes report the run
  }
  for (const shape of live) for (const fate of shape.lifecycle?.fates ?? []) checkFate(shape, fate, dirs, items, fail);
}

function where(dir: string): string {
  return JSON.stringify(surrogateEscaped(textBytes(dir)));
}

function shown(i: ListedItem | undefined): string {
  return i ? `${i.decision} (${i.reasons.join(', ')}), trust ${i.trust}, enabled ${String(i.enabled)}` : 'not listed';
}

function checkFate(
  shape: Shape,
  fate: LifecycleFate,
  dirs: { readonly root: string; readonly ws: string },
  items: readonly ListedItem[],
  fail: (signature: string, detail: string) => void,
): void {
  const bundle = codewhaleBundleAt(fate.dir, dirs, items);
  const active = fate.decision === 'registered';
  const state = `trust ${fate.trust}, enabled ${String(fate.enabled)}`;
  if (
    !bundle ||
    bundle.decision !== fate.decision ||
    bundle.reasons[0] !== fate.reason ||
    bundle.trust !== fate.trust ||
    bundle.enabled !== fate.enabled
  ) {
    fail(
      `${shape.shape}: codewhale ${active ? 'activates' : 'does not activate'} a bundle shown ${bundle ? `${bundle.decision} ${bundle.reasons[0] ?? ''}` : 'not listed'}`,
      `after its lifecycle steps Codewhale's bundle ${where(fate.dir)} is ${fate.decision} (${fate.reason}), ${state} (codewhale.md §8.3); Skillgate shows ${shown(bundle)}`,
    );
    if (!bundle) return;
  }
  const children = items.filter((i) => i.parent === bundle.id);
  for (const c of fate.children) {
    const item = children.find((i) => i.kind === c.kind && i.name === c.name);
    // Loaded is `registered` only: `disabled` is a closed gate here, not a kept bundle waiting for one.
    const loadedShown = item?.decision === 'registered';
    const what = c.kind === 'skill' ? 'skill' : 'MCP server';
    if (loadedShown !== c.loaded)
      fail(
        `${shape.shape}: codewhale ${c.loaded ? (c.kind === 'skill' ? 'loads' : 'starts') : c.kind === 'skill' ? 'never loads' : 'never starts'} a${c.kind === 'skill' ? '' : 'n'} ${what} shown ${item?.decision ?? 'not listed'}`,
        `${what} ${JSON.stringify(c.name)} of bundle ${where(fate.dir)} (${fate.decision}, ${state}): Codewhale ${c.loaded ? 'loads' : 'does not load'} it; Skillgate shows ${shown(item)}`,
      );
    else if (item && c.reason !== undefined && item.reasons[0] !== c.reason)
      fail(
        `${shape.shape}: ${what} of a ${fate.decision} bundle with reason ${item.reasons[0] ?? 'none'}`,
        `${what} ${JSON.stringify(c.name)} of bundle ${where(fate.dir)} (${fate.decision}): decisions.md gives ${c.reason}; Skillgate shows ${shown(item)}`,
      );
  }
}
