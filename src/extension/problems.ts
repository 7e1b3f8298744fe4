import * as vscode from 'vscode';
import { fileUri } from './fileUri';
import type { Snapshot } from '../core/index/snapshot';
import type { Diagnostic } from '../core/model';
import { displayText } from '../core/text/displayText';

const SEVERITY: Record<Diagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

const DOCS = 'https://github.com/skillgate/skillgate/blob/main/docs/diagnostics.md';

/** The Problems panel: one collection, replaced wholesale from each snapshot. */
export class Problems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('skillgate');

  update(snapshot: Snapshot): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const d of snapshot.diagnostics) {
      const diag = new vscode.Diagnostic(new vscode.Range(d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character), displayText(d.message), SEVERITY[d.severity]);
      diag.source = 'skillgate';
      diag.code = { value: d.code, target: vscode.Uri.parse(`${DOCS}#${d.code.replace(/[^a-z0-9]+/g, '-')}`) };
      if (d.related?.length) {
        diag.relatedInformation = d.related.map((r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(fileUri(r.file), new vscode.Range(r.range.start.line, r.range.start.character, r.range.end.line, r.range.end.character)), displayText(r.message)));
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
