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

/** The Problems panel: one collection, replaced wholesale from each snapshot. */
export class Problems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('skillgate');

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
    this.collection.clear();
    for (const [file, diags] of byFile) this.collection.set(fileUri(file), diags);
  }

  dispose(): void {
    this.collection.dispose();
  }
}
