/**
 * The editor's last line of defence around indexing. The core's fault boundaries keep
 * one bad bundle or folder from failing an index; whatever still throws (a bug outside
 * them) must neither leave the view blank nor escape into the extension host from a
 * watcher callback: it is reported, and the last good snapshot stays on screen.
 */
export interface IndexFailureUi {
  error(message: string): void;
}

export function indexFailureMessage(error: unknown): string {
  return `Skillgate could not index the workspace: ${error instanceof Error ? error.message : String(error)}. The view shows the last complete index; run "Skillgate: Refresh" to try again.`;
}

/** Runs one indexing step (in the worker or in-host); a throw is reported and `fallback` is returned instead. */
export async function guardIndexAsync<T>(step: () => Promise<T>, fallback: () => T, ui: IndexFailureUi): Promise<T> {
  try {
    return await step();
  } catch (e) {
    ui.error(indexFailureMessage(e));
    return fallback();
  }
}
