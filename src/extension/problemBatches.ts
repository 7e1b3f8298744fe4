import type { Diagnostic } from '../core/model';

/** One file's diagnostics in the Problems panel, or null: the file has none any more. */
export type ProblemEntry = readonly [file: string, diagnostics: readonly Diagnostic[] | null];

/**
 * The changes that take the Problems panel from the files it holds (`held`) to the
 * snapshot's `diagnostics`, in batches the panel gets one per event-loop turn: a batch
 * holds whole files (a later `set` of a file replaces it) and at most `perBatch`
 * diagnostics, unless one file alone has more. Files that lost their diagnostics come
 * first. Together the batches are the one change the panel got before: no file is ever
 * cleared before its new diagnostics arrive, so the panel is never empty between two snapshots.
 */
export function problemBatches(
  diagnostics: readonly Diagnostic[],
  held: ReadonlySet<string>,
  perBatch: number,
): ProblemEntry[][] {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const list = byFile.get(d.file);
    if (list) list.push(d);
    else byFile.set(d.file, [d]);
  }
  const batches: ProblemEntry[][] = [];
  let batch: ProblemEntry[] = [];
  let size = 0;
  for (const file of held) if (!byFile.has(file)) batch.push([file, null]);
  for (const [file, list] of byFile) {
    if (size > 0 && size + list.length > perBatch) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push([file, list]);
    size += list.length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
