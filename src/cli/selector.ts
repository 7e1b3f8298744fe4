import type { Item } from '../core/model';
import type { Snapshot } from '../core/index/snapshot';
import { displayText } from '../core/text/displayText';

export type Selection = { readonly ok: true; readonly item: Item } | { readonly ok: false; readonly message: string };

/**
 * An item id, else a bundle or skill name (spec/cli.md); ambiguity lists the candidates.
 * Each is also taken as the CLI prints it: a Rivumi name or path that is not UTF-8 carries
 * its bytes as lone surrogates, which no terminal can type and Node's argv cannot carry
 * (it decodes them as U+FFFD), so `\u{dcff}` as printed is how such an item is named (in
 * quotes: a shell reads an unquoted `\u` as `u`).
 */
export function selectItem(snapshot: Snapshot, selector: string): Selection {
  const byId = snapshot.items.find((i) => i.id === selector);
  const shownIds = snapshot.items.filter((i) => {
    const shown = displayText(i.id);
    return shown !== i.id && shown === selector;
  });
  // A repository can name a file as another item's id prints (`p\u{dcff}.json` beside `p<FF>.json`):
  // then the text names both, and taking either would let the planted one answer for the other.
  if (byId && shownIds.length > 0)
    return {
      ok: false,
      message: `\`${selector}\` is ambiguous: it is the id of ${byId.name} and how the id of ${shownIds.map((i) => i.name).join(', ')} prints (a path that is not UTF-8); select one by its name`,
    };
  if (byId) return { ok: true, item: byId };
  if (shownIds.length === 1) return { ok: true, item: shownIds[0] as Item };
  const named = (name: string) => name === selector || displayText(name) === selector;
  const matches =
    shownIds.length > 1
      ? shownIds
      : snapshot.items.filter((i) => named(i.qualifiedName) || (i.parent === null && named(i.name)));
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
