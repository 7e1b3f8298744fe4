import * as vscode from 'vscode';
import { FILTER_LABEL, TREE_FILTERS, readTreeMode, type TreeMode } from './treeNodes';
import type { ItemTreeProvider } from './itemTree';
import type { CommandHandlers } from '../commands/commands';

const STATE_KEY = 'skillgate.treeMode';
/**
 * The tree's filter and grouping: title-bar commands, remembered per workspace
 * (`workspaceState`), shown as the view's description and as context keys for the
 * menus.
 */
export class TreeModes {
  private mode: TreeMode;

  constructor(
    private readonly state: vscode.Memento,
    private readonly tree: ItemTreeProvider,
    private readonly view: vscode.TreeView<unknown>,
  ) {
    this.mode = readTreeMode(state.get(STATE_KEY));
    // The view's description and the menus' keys wait for `show`: activation sends nothing the first frame can do without.
    tree.setMode(this.mode);
  }

  get current(): TreeMode {
    return this.mode;
  }

  async set(change: Partial<TreeMode>): Promise<void> {
    this.mode = { ...this.mode, ...change };
    this.tree.setMode(this.mode);
    this.show();
    await this.state.update(STATE_KEY, this.mode);
  }

  /**
   * The Filter and Group commands, and the status bar's click: the view, filtered to its worst
   * state (or everything when all is well). Run from the palette while the view is out of sight,
   * a Filter or Group command brings it into sight, or its change would go unseen; from the
   * view's own menu, the view is in sight and the focus stays where it is.
   */
  commands(
    focusView: () => Thenable<unknown>,
  ): CommandHandlers<
    | 'skillgate.showNeedsReview'
    | 'skillgate.showRejected'
    | 'skillgate.showAll'
    | 'skillgate.groupByDecision'
    | 'skillgate.groupByFolder'
    | 'skillgate.showFiltered'
  > {
    const setInSight = async (change: Partial<TreeMode>) => {
      await this.set(change);
      if (!this.view.visible) await focusView();
    };
    return {
      'skillgate.showNeedsReview': () => setInSight({ filter: 'needsReview' }),
      'skillgate.showRejected': () => setInSight({ filter: 'rejected' }),
      'skillgate.showAll': () => setInSight({ filter: 'all' }),
      'skillgate.groupByDecision': () => setInSight({ groupByDecision: true }),
      'skillgate.groupByFolder': () => setInSight({ groupByDecision: false }),
      'skillgate.showFiltered': async (filter) => {
        await this.set({ filter: TREE_FILTERS.find((f) => f === filter) ?? 'needsReview' });
        await focusView();
      },
    };
  }

  /** The mode as the view's description and as context keys for the title bar's menus. */
  show(): void {
    const label = FILTER_LABEL[this.mode.filter];
    this.view.description =
      [label, this.mode.groupByDecision ? 'by decision' : ''].filter(Boolean).join(' · ') || undefined;
    void vscode.commands.executeCommand('setContext', 'skillgate.filter', this.mode.filter);
    void vscode.commands.executeCommand('setContext', 'skillgate.groupByDecision', this.mode.groupByDecision);
  }
}
