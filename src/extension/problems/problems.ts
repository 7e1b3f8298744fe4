import * as vscode from 'vscode';
import { fileUri } from '../documents/fileUri';
import { editorRange } from '../documents/editorRange';
import type { Snapshot } from '../../core/index/snapshot';
import type { Diagnostic } from '../../core/model';
import { displayText } from '../../core/text/displayText';
import type { DiagnosticsDoc } from './diagnosticsDoc';
import { problemBatches, type ProblemEntry } from './problemBatches';
import { inTurns } from '../flows/turns';

const SEVERITY: Record<Diagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

/** Diagnostics converted and handed to the Problems panel per event-loop turn. */
const DIAGNOSTICS_PER_TURN = 100;

/**
 * The Problems panel: one collection, changed from each snapshot in batches of whole
 * files, one batch per event-loop turn (problemBatches.ts): no file is cleared before its
 * new diagnostics arrive, and a file whose diagnostics read the same is not set again.
 */
export class Problems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('skillgate');
  /** The files that have diagnostics in the collection now, with the diagnostics set for each. */
  private readonly shown = new Map<string, readonly Diagnostic[]>();

  constructor(private readonly docs: DiagnosticsDoc) {}

  /** Resolves once the panel shows the snapshot's diagnostics (extension.ts shows one snapshot at a time). */
  async update(snapshot: Snapshot): Promise<void> {
    const batches = problemBatches(snapshot.diagnostics, this.shown, DIAGNOSTICS_PER_TURN);
    await inTurns(batches, 1, (batch) => this.set(batch));
  }

  private set(batch: readonly ProblemEntry[]): void {
    this.collection.set(
      batch.map(([file, diagnostics]) => [fileUri(file), diagnostics?.map((d) => this.converted(d))]),
    );
    for (const [file, diagnostics] of batch) {
      if (diagnostics) this.shown.set(file, diagnostics);
      else this.shown.delete(file);
    }
  }

  private converted(d: Diagnostic): vscode.Diagnostic {
    const diag = new vscode.Diagnostic(editorRange(d.range), displayText(d.message), SEVERITY[d.severity]);
    diag.source = 'skillgate';
    // The code links to its section of the bundled docs/diagnostics.md.
    diag.code = { value: d.code, target: this.docs.link(d.code) };
    if (d.related?.length) {
      diag.relatedInformation = d.related.map(
        (r) =>
          new vscode.DiagnosticRelatedInformation(
            new vscode.Location(fileUri(r.file), editorRange(r.range)),
            displayText(r.message),
          ),
      );
    }
    return diag;
  }

  dispose(): void {
    this.collection.dispose();
  }
}
