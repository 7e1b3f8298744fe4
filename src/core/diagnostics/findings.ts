import { severityOf, type DiagnosticCode } from './diagnosticCodes';
import { FILE_START, type Diagnostic, type Range, type RelatedLocation, type Severity } from '../model';
import { boundFix, type FixDraft, type RangedText } from './fixBasis';
import type { ParsedDocument } from '../documents/document';
import type { Where } from '../documents/located';
import { FileCap } from './fileCap';

/**
 * Collects the diagnostics of one unit of work (a bundle, a Rivumi load) and turns
 * "where in the document" into an exact range, using the parsed documents it knows.
 * A file's diagnostics past the per-file cap are counted in one (fileCap.ts); each is
 * still returned to the rule that reports it, and counted in `errorCount`.
 */
export class Findings {
  readonly diagnostics: Diagnostic[] = [];
  private readonly cap = new FileCap();
  private errors = 0;
  private readonly documents = new Map<string, ParsedDocument>();
  private readonly texts = new Map<string, RangedText>();

  addDocument(doc: ParsedDocument): void {
    this.documents.set(doc.file, doc);
  }

  /** The text of a file a fix edits that no document parser read (a SKILL.md), which the fix's ranges index. */
  addText(file: string, text: RangedText): void {
    this.texts.set(file, text);
  }

  /** The parsed document of `file`, when this unit of work parsed it. */
  document(file: string): ParsedDocument | undefined {
    return this.documents.get(file);
  }

  rangeOf(where: Where): Range {
    const doc = this.documents.get(where.file);
    if (!doc) return FILE_START;
    return where.key ? doc.keyRange(where.path) : doc.valueRange(where.path);
  }

  /** Report at a field of a parsed document; returns the diagnostic (a load failure may name it). */
  at(
    code: DiagnosticCode,
    message: string,
    where: Where,
    extra?: { severity?: Severity; related?: RelatedLocation[]; fix?: FixDraft; place?: string },
  ): Diagnostic {
    // Past the file's cap, one that is only counted is never shown: its place is not looked up (fileCap.ts).
    const counted = this.cap.onlyCounts(where.file, extra?.severity ?? severityOf(code));
    return this.inFile(code, message, where.file, counted ? FILE_START : this.rangeOf(where), extra);
  }

  /** Report at a known range of a file (or its first line when the file did not parse). */
  inFile(
    code: DiagnosticCode,
    message: string,
    file: string,
    range: Range = FILE_START,
    extra?: { severity?: Severity; related?: RelatedLocation[]; fix?: FixDraft; place?: string },
  ): Diagnostic {
    // Bound here, to the documents the rules read: the ranges of a fix name places in that text only.
    // A diagnostic past the file's cap is only counted: its fix would never be offered.
    const fix =
      extra?.fix && !this.cap.full(file) && boundFix(extra.fix, (f) => this.documents.get(f) ?? this.texts.get(f));
    const diagnostic: Diagnostic = {
      file,
      range,
      severity: extra?.severity ?? severityOf(code),
      code,
      message,
      itemId: null,
      ...(extra?.related ? { related: extra.related } : {}),
      ...(fix ? { fix } : {}),
      ...(extra?.place !== undefined ? { place: extra.place } : {}),
    };
    if (diagnostic.severity === 'error') this.errors++;
    this.cap.add(this.diagnostics, diagnostic);
    return diagnostic;
  }

  /**
   * A fix that replaces the value exactly at `where` with `newText`; none when the parsed document
   * holds no value there: its ranges fall back to the nearest ancestor, which the fix would replace whole.
   */
  replaceFix(title: string, where: Where, newText: string): FixDraft | undefined {
    if (this.documents.get(where.file)?.literalAt(where.path) === undefined) return undefined;
    return { title, edits: [{ file: where.file, range: this.rangeOf({ ...where, key: false }), newText }] };
  }

  /** Every error reported, those the per-file cap left out of `diagnostics` included. */
  get errorCount(): number {
    return this.errors;
  }
}
