/**
 * The editor's last line of defence around indexing. The core's fault boundaries keep
 * one bad bundle or folder from failing an index; whatever still throws (a bug outside
 * them) must neither leave the view blank nor escape into the extension host from a
 * watcher callback: it is reported, and the last good snapshot stays on screen.
 */
export interface IndexFailureUi {
  error(message: string): void;
  /** Whether the view shows a complete index to fall back on (none while the first has not succeeded); yes when absent. */
  readonly showsIndex?: () => boolean;
}

/** What failed, as the error says it (its message can name a repository's file: escape it where it is shown). */
export function indexFailureReason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function indexFailureMessage(error: unknown, showsIndex: boolean): string {
  const shown = showsIndex
    ? 'The view shows the last complete index'
    : 'No index could be read, so the view shows no bundles';
  return `Skillgate could not index the workspace: ${indexFailureReason(error)}. ${shown}; run "Skillgate: Refresh" to try again.`;
}

/** Runs one indexing step (in the worker or in-host); a throw is reported and `fallback` is returned instead, given the error. */
export async function guardIndexAsync<T>(
  step: () => Promise<T>,
  fallback: (error: unknown) => T,
  ui: IndexFailureUi,
): Promise<T> {
  try {
    return await step();
  } catch (e) {
    ui.error(indexFailureMessage(e, ui.showsIndex?.() ?? true));
    return fallback(e);
  }
}
