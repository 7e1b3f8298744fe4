import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { DIAGNOSTICS_PAGE, headingCode } from '../../core/diagnostics/diagnosticsPage';

/**
 * The diagnostics page that ships in the VSIX (`docs/diagnostics.md`): each code's link
 * in the Problems panel and the "Show the documentation" action open it at that code's
 * section. A file URI with an `L<line>` fragment is what the editor's opener turns into
 * a selection, so the link works offline and names no placeholder repository.
 */
export class DiagnosticsDoc {
  static readonly command = 'skillgate.showDiagnosticDocumentation';
  private lines: Map<string, number> | undefined;

  constructor(private readonly extensionUri: vscode.Uri) {}

  get file(): vscode.Uri {
    return vscode.Uri.joinPath(this.extensionUri, ...DIAGNOSTICS_PAGE);
  }

  /** The 0-based line of the code's heading (0 when the page does not list it). */
  line(code: string): number {
    if (!this.lines) {
      this.lines = new Map();
      let text = '';
      try {
        text = fs.readFileSync(this.file.fsPath, 'utf8');
      } catch {
        // A build without the page still opens the link, at the top.
      }
      text.split(/\r?\n/).forEach((l, i) => {
        const code = headingCode(l);
        if (code) this.lines?.set(code, i);
      });
    }
    return this.lines.get(code) ?? 0;
  }

  /** The code link of a diagnostic. */
  link(code: string): vscode.Uri {
    return this.file.with({ fragment: `L${this.line(code) + 1}` });
  }

  /** Opens the page at the code's section, its heading at the top of the editor. */
  async show(code: string): Promise<void> {
    const line = this.line(code);
    const editor = await vscode.window.showTextDocument(this.file, {
      preview: true,
      selection: new vscode.Range(line, 0, line, 0),
    });
    editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.AtTop);
  }
}
