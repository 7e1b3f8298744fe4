import { displayText } from '../../core/text/displayText';
import type { CommandId } from '../commands/commandTable';

/**
 * What the editor shows while no index could be read at all (the first full index failed,
 * in the worker and in the extension host, and each one since): the snapshot it publishes
 * then is empty, and an empty view would read as a workspace without agent configuration,
 * which is not what Skillgate knows. The tree says that indexing failed and why, with a
 * row to try again and one to open the log; the status bar says it too. The reason is an
 * error's message, which can name a repository's file: one line, escaped (displayText).
 */

/** One row of the tree while indexing fails, as plain data (itemTree.ts turns it into a TreeItem). */
export interface FailureRow {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  /** Plain text (a string tooltip is never Markdown). */
  readonly tooltip: string;
  readonly ariaLabel: string;
  /** A codicon's name, and a theme colour's id. */
  readonly icon: string;
  readonly color?: string;
  /** What a click runs. */
  readonly command?: { readonly id: CommandId; readonly title: string };
}

const FAILED = 'Skillgate could not index this workspace, so it cannot tell what the agents would load.';

export function failureRows(reason: string): FailureRow[] {
  const why = displayText(reason);
  return [
    {
      id: 'failure:reason',
      label: 'Indexing failed',
      description: why,
      tooltip: `${FAILED}\n\n${why}`,
      ariaLabel: `Indexing failed: ${why}`,
      icon: 'error',
      color: 'errorForeground',
    },
    {
      id: 'failure:retry',
      label: 'Retry',
      tooltip: 'Index the workspace again (Skillgate: Refresh)',
      ariaLabel: 'Retry indexing the workspace',
      icon: 'refresh',
      command: { id: 'skillgate.refresh', title: 'Retry' },
    },
    {
      id: 'failure:log',
      label: 'Show Log',
      tooltip: "Skillgate's log: every index run, and this failure (Skillgate: Show Log)",
      ariaLabel: "Show Skillgate's log",
      icon: 'output',
      command: { id: 'skillgate.showLog', title: 'Show Log' },
    },
  ];
}

/** The status bar while indexing fails: no counts (there are none to give), the error's colour, a click to try again. */
export function failureStatus(reason: string): { readonly text: string; readonly tooltip: string } {
  return {
    text: '$(shield) $(error) not indexed',
    tooltip: `${FAILED}\n\n${displayText(reason)}\n\nClick to try again.`,
  };
}
