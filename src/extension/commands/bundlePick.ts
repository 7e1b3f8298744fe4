import * as vscode from 'vscode';
import { itemPick } from '../tree/itemText';
import { notificationText } from '../text/uiText';
import type { SkillgateService } from '../skillgateService';
import type { Item } from '../../core/model';
import type { Snapshot } from '../../core/index/snapshot';

/**
 * The item a command acts on: the one it was given (an id from a quick fix or a test,
 * a tree node, an item), else one the user picks from those `offered` accepts. Given
 * an id that no longer exists (a tree row or a quick fix from before the bundle was
 * removed), nothing: the command says so rather than ask, and never acts on another.
 */
export async function pickBundle(
  service: SkillgateService,
  arg: unknown,
  what: string,
  offered: (i: Item) => boolean,
): Promise<Item | undefined> {
  const snapshot = await service.published();
  const given = typeof arg === 'string' ? { id: arg, name: undefined } : givenItem(arg);
  if (given !== undefined) {
    const item = snapshot.items.find((i) => i.id === given.id);
    if (!item) void vscode.window.showInformationMessage(gone(given.name, what));
    return item;
  }
  const candidates = snapshot.items.filter(offered);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(`Skillgate: no bundle to ${what}.`);
    return undefined;
  }
  return chooseBundle(candidates, snapshot, what);
}

/**
 * Asks which of `items` to act on, each in its tree row's words (`snapshot`: the one they
 * are shown in, whose folders tell two bundles of one name apart); undefined on Escape.
 */
export async function chooseBundle(
  items: readonly Item[],
  snapshot: Snapshot,
  what: string,
): Promise<Item | undefined> {
  // Open until a choice or Escape. Run from the palette while a review panel is the active
  // editor, the closing palette hands focus back to the panel's webview, which can take it
  // just after this pick opened: a pick that closes on losing focus then vanished unused
  // (VS Code issue 93950; seen in the browser suites as a revoke pick that never stayed).
  // Focus going elsewhere no longer closes it.
  const picked = await vscode.window.showQuickPick(
    items.map((i) => ({ ...itemPick(i, snapshot.workspaces, snapshot), item: i })),
    {
      title: `Skillgate: choose a bundle to ${what}`,
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    },
  );
  return picked?.item;
}

/** The id (and name) an item or a tree node with a `system` names (a system node's own id matches no item); undefined for a folder node or no argument. */
function givenItem(arg: unknown): { readonly id: string; readonly name: string | undefined } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  if ('kind' in arg && arg.kind === 'item' && 'item' in arg) return nameOf(arg.item as Item);
  if ('id' in arg && 'system' in arg) return nameOf(arg as Item);
  return undefined;
}

const nameOf = (i: Item) => ({ id: i.id, name: typeof i.name === 'string' ? i.name : undefined });

/** Why a command given a bundle does nothing: it left the index since it was shown (its name is repository text, escaped). */
function gone(name: string | undefined, what: string): string {
  return notificationText(
    `Skillgate: cannot ${what} ${name ?? 'that item'}: it is no longer found in the workspace (removed or renamed since it was shown).`,
  );
}

/** Items with a trust state: the bundles, not their parts. */
export const isBundle = (i: Item): boolean => i.trust !== null;
