import * as vscode from 'vscode';
import { itemPick } from './itemText';
import type { SkillgateService } from './skillgateService';
import type { Item } from '../core/model';

/**
 * The item a command acts on: the one it was given (an id from a quick fix or a test,
 * a tree node, an item), else one the user picks from those `offered` accepts. Given
 * an id that no longer exists, nothing: the command does nothing rather than ask.
 */
export async function pickBundle(
  service: SkillgateService,
  arg: unknown,
  what: string,
  offered: (i: Item) => boolean,
): Promise<Item | undefined> {
  const snapshot = await service.published();
  if (typeof arg === 'string') return snapshot.items.find((i) => i.id === arg);
  const given = givenItemId(arg);
  if (given !== undefined) return snapshot.items.find((i) => i.id === given);
  const candidates = snapshot.items.filter(offered);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(`Skillgate: no bundle to ${what}.`);
    return undefined;
  }
  // Open until a choice or Escape. Run from the palette while a review panel is the active
  // editor, the closing palette hands focus back to the panel's webview, which can take it
  // just after this pick opened: a pick that closes on losing focus then vanished unused
  // (VS Code issue 93950; seen in the browser suites as a revoke pick that never stayed).
  // Focus going elsewhere no longer closes it.
  const picked = await vscode.window.showQuickPick(
    candidates.map((i) => ({ ...itemPick(i, snapshot.workspaces), item: i })),
    {
      title: `Skillgate: choose a bundle to ${what}`,
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    },
  );
  return picked?.item;
}

/** The id an item or a tree node with a `system` names (a system node's own id matches no item); undefined for a folder node or no argument. */
function givenItemId(arg: unknown): string | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  if ('kind' in arg && arg.kind === 'item' && 'item' in arg) return (arg.item as Item).id;
  if ('id' in arg && 'system' in arg) return (arg as Item).id;
  return undefined;
}

/** Items with a trust state: the bundles, not their parts. */
export const isBundle = (i: Item): boolean => i.trust !== null;
