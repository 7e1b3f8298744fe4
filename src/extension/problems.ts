import * as vscode from 'vscode';
import { fileUri } from './fileUri';
import { editorRange } from './editorRange';
import type { Snapshot } from '../core/index/snapshot';
import type { Diagnostic } from '../core/model';
import { displayText } from '../core/text/displayText';
import type { DiagnosticsDoc } from './diagnosticsDoc';

const SEVERITY: Record<Diagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

/** The Problems panel: one collection, replaced wholesale from each snapshot in one change. */
export class Problems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('skillgate');
  /** The files that have diagnostics in the collection now. */
  private files = new Set<string>();

  constructor(private readonly docs: DiagnosticsDoc) {}

  update(snapshot: Snapshot): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const d of snapshot.diagnostics) {
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
      const list = byFile.get(d.file) ?? [];
      list.push(diag);
      byFile.set(d.file, list);
    }
    // One change, not a clear and a set per file: the workbench gets one message and never sees the panel empty between two snapshots.
    const entries: [vscode.Uri, vscode.Diagnostic[] | undefined][] = [];
    for (const file of this.files) if (!byFile.has(file)) entries.push([fileUri(file), undefined]);
    for (const [file, diags] of byFile) entries.push([fileUri(file), diags]);
    this.collection.set(entries);
    this.files = new Set(byFile.keys());
  }

  dispose(): void {
    this.collection.dispose();
  }
}
