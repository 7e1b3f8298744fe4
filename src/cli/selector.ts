import type { Item } from '../core/model';
import type { Snapshot } from '../core/index/snapshot';

export type Selection = { readonly ok: true; readonly item: Item } | { readonly ok: false; readonly message: string };

/** An item id, else a bundle or skill name (spec/cli.md); ambiguity lists the candidates. */
export function selectItem(snapshot: Snapshot, selector: string): Selection {
  const byId = snapshot.items.find((i) => i.id === selector);
  if (byId) return { ok: true, item: byId };
  const matches = snapshot.items.filter(
    (i) => i.qualifiedName === selector || (i.parent === null && i.name === selector),
  );
  // A name shared by a bundle and the bundles it shadows means the winner.
  const live = matches.filter((i) => i.decision !== 'shadowed');
  const pick = live.length === 1 ? live : matches;
  if (pick.length === 1) return { ok: true, item: pick[0] as Item };
  if (pick.length === 0)
    return { ok: false, message: `No item matches \`${selector}\`; run \`skillgate list\` to see ids and names.` };
  return {
    ok: false,
    message: `\`${selector}\` is ambiguous; use one of these ids: ${pick.map((i) => i.id).join(', ')}`,
  };
}
