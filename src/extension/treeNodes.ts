import * as path from 'node:path';
import { childrenOf, type Snapshot } from '../core/index/snapshot';
import type { Item, System } from '../core/model';
import { displayText } from '../core/text/displayText';

/** Nodes of the Skillgate tree: workspace folder (or user bundles) → system → item → parts. */
export type TreeNode =
  | { readonly kind: 'folder'; readonly id: string; readonly label: string; readonly workspace: string | null }
  | { readonly kind: 'system'; readonly id: string; readonly system: System; readonly workspace: string | null }
  | { readonly kind: 'item'; readonly id: string; readonly item: Item };

/**
 * The children of a node (the top level without one). VS Code refuses a tree with two
 * nodes of one id, so the ids of the three kinds never meet: a folder is
 * `folder:<absolute path>` (or `folder:user`), a system `system:<system>\0<folder id>`
 * (a path holds no NUL; `<folder id>/<system>` would be the id of the folder
 * `<path>/<system>`), an item its item id (`workspace/…`, `user/…`, `rivumi:…`), unique
 * in a snapshot.
 */
export function childNodes(s: Snapshot, node?: TreeNode): TreeNode[] {
  const tops = s.items.filter((i) => i.parent === null);
  if (!node) {
    const folders: TreeNode[] = s.workspaces
      .filter((ws) => tops.some((i) => i.workspace === ws))
      .map((ws) => ({ kind: 'folder', id: `folder:${ws}`, label: displayText(path.basename(ws)), workspace: ws }));
    if (tops.some((i) => i.workspace === null)) folders.push({ kind: 'folder', id: 'folder:user', label: 'User bundles', workspace: null });
    return folders;
  }
  if (node.kind === 'folder') {
    return (['rivumi', 'codewhale'] as const)
      .filter((system) => tops.some((i) => i.workspace === node.workspace && i.system === system))
      .map((system) => ({ kind: 'system', id: `system:${system}\0${node.id}`, system, workspace: node.workspace }));
  }
  if (node.kind === 'system') {
    return tops.filter((i) => i.workspace === node.workspace && i.system === node.system).map((item) => ({ kind: 'item', id: item.id, item }));
  }
  return childrenOf(s, node.item.id).map((item) => ({ kind: 'item', id: item.id, item }));
}
