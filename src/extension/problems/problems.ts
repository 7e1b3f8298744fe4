import * as vscode from 'vscode';
import { fileUri, openableUri } from '../documents/fileUri';
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
 *
 * A file's diagnostics are set under the URI Skillgate's own opens use (`openableUri`),
 * looked at when they are set: VS Code opens a diagnostic's resource when it is clicked,
 * and a symbolic link (`notes.md -> /etc/hostname`, where Codewhale's diagnostic sits)
 * would open as its target's text, a FIFO would hold the editor. Such a file's diagnostics
 * sit under the read-only note that says what it is (notOpenedFile.ts). Every file shown is
 * looked at again at each snapshot, with the files its related places name: a regular file
 * can become a link (or a link a file again) while its diagnostics read the same, and a
 * panel that kept its file URI would open the link's target, and offer its quick fixes
 * there. One `lstat` per file shown or set, per snapshot.
 */
export class Problems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('skillgate');
  /** The files that have diagnostics in the collection now, with the diagnostics set for each. */
  private readonly shown = new Map<string, readonly Diagnostic[]>();
  /**
   * What each file in `shown` was set with: the URI it is under (its file URI, or a note's),
   * and the URI each path its diagnostics name (itself, and its related places' files) had then.
   */
  private readonly published = new Map<
    string,
    { readonly uri: vscode.Uri; readonly places: ReadonlyMap<string, string> }
  >();

  constructor(private readonly docs: DiagnosticsDoc) {}

  /** Resolves once the panel shows the snapshot's diagnostics (extension.ts shows one snapshot at a time). */
  async update(snapshot: Snapshot): Promise<void> {
    // A file shown whose path, or a related place's, now opens by another URI (a file become a
    // link, a link become a file) is set again: as shown with no diagnostics, it differs from any
    // it has, and is cleared if it has none. Each path is looked at once per snapshot: what was
    // looked at here is kept for the set.
    const uris = new Map<string, vscode.Uri>();
    const named = new Set<string>();
    for (const { places } of this.published.values()) for (const place of places.keys()) named.add(place);
    await Promise.all([...named].map(async (place) => uris.set(place, await openableUri(place))));
    for (const [file, { places }] of this.published)
      for (const [place, uri] of places)
        if (uris.get(place)?.toString() !== uri) {
          this.shown.set(file, []);
          break;
        }
    const batches = problemBatches(snapshot.diagnostics, this.shown, DIAGNOSTICS_PER_TURN);
    const files = new Set<string>();
    for (const batch of batches)
      for (const [file, diagnostics] of batch) {
        if (!diagnostics) continue;
        files.add(file);
        for (const d of diagnostics) for (const r of d.related ?? []) files.add(r.file);
      }
    const unseen = [...files].filter((file) => !uris.has(file));
    await Promise.all(unseen.map(async (file) => uris.set(file, await openableUri(file))));
    await inTurns(batches, 1, (batch) => this.set(batch, uris));
  }

  private set(batch: readonly ProblemEntry[], uris: ReadonlyMap<string, vscode.Uri>): void {
    const entries: [vscode.Uri, vscode.Diagnostic[] | undefined][] = [];
    for (const [file, diagnostics] of batch) {
      const before = this.published.get(file)?.uri;
      const uri = diagnostics ? (uris.get(file) ?? fileUri(file)) : undefined;
      // Cleared where it was, in the same change that sets it where it is now.
      if (before && before.toString() !== uri?.toString()) entries.push([before, undefined]);
      if (diagnostics && uri) {
        const places = new Map<string, string>([[file, uri.toString()]]);
        entries.push([uri, diagnostics.map((d) => this.converted(d, uris, places))]);
        this.shown.set(file, diagnostics);
        this.published.set(file, { uri, places });
      } else {
        this.shown.delete(file);
        this.published.delete(file);
      }
    }
    this.collection.set(entries);
  }

  /** `d` as the panel shows it; the URI of each related place's file is added to `places`. */
  private converted(
    d: Diagnostic,
    uris: ReadonlyMap<string, vscode.Uri>,
    places: Map<string, string>,
  ): vscode.Diagnostic {
    const diag = new vscode.Diagnostic(editorRange(d.range), displayText(d.message), SEVERITY[d.severity]);
    diag.source = 'skillgate';
    // The code links to its section of the bundled docs/diagnostics.md.
    diag.code = { value: d.code, target: this.docs.link(d.code) };
    if (d.related?.length) {
      diag.relatedInformation = d.related.map((r) => {
        const uri = uris.get(r.file) ?? fileUri(r.file);
        places.set(r.file, uri.toString());
        return new vscode.DiagnosticRelatedInformation(
          new vscode.Location(uri, editorRange(r.range)),
          displayText(r.message),
        );
      });
    }
    return diag;
  }

  dispose(): void {
    this.collection.dispose();
  }
}
