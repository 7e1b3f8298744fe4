import type { Diagnostic, Range, RelatedLocation } from '../../core/model';

/** One file's diagnostics in the Problems panel, or null: the file has none any more. */
export type ProblemEntry = readonly [file: string, diagnostics: readonly Diagnostic[] | null];

/**
 * The changes that take the Problems panel from what it shows (`shown`: file → the
 * diagnostics last set for it) to the snapshot's `diagnostics`, in batches the panel gets
 * one per event-loop turn: a batch holds whole files (a later `set` of a file replaces it)
 * and at most `perBatch` diagnostics, unless one file alone has more. Files that lost their
 * diagnostics come first. A file whose diagnostics read the same in the panel is left
 * alone: re-setting it would still cross to the workbench, refresh the panel and make every
 * editor on the file ask its quick fixes again, for each file at every snapshot (a
 * refresh of one bundle, a trust change). Together the batches are the one change the
 * panel got before: no file is ever cleared before its new diagnostics arrive, so the
 * panel is never empty between two snapshots.
 */
export function problemBatches(
  diagnostics: readonly Diagnostic[],
  shown: ReadonlyMap<string, readonly Diagnostic[]>,
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
  for (const file of shown.keys()) if (!byFile.has(file)) batch.push([file, null]);
  for (const [file, list] of byFile) {
    const before = shown.get(file);
    if (before && sameInPanel(before, list)) continue;
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

/**
 * Whether two lists of one file's diagnostics show the same in the panel: in order, each
 * with the same range, severity, code, message and related locations (what problems.ts
 * converts). The item and the fix are not shown there: the quick fixes read them from the
 * current snapshot.
 */
function sameInPanel(a: readonly Diagnostic[], b: readonly Diagnostic[]): boolean {
  return a.length === b.length && a.every((x, i) => sameDiagnostic(x, b[i]));
}

function sameDiagnostic(x: Diagnostic, y: Diagnostic | undefined): boolean {
  return (
    x === y ||
    (y !== undefined &&
      x.severity === y.severity &&
      x.code === y.code &&
      x.message === y.message &&
      sameRange(x.range, y.range) &&
      sameRelated(x.related ?? [], y.related ?? []))
  );
}

function sameRelated(a: readonly RelatedLocation[], b: readonly RelatedLocation[]): boolean {
  return (
    a.length === b.length &&
    a.every((r, i) => {
      const s = b[i];
      return s !== undefined && r.file === s.file && r.message === s.message && sameRange(r.range, s.range);
    })
  );
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}
