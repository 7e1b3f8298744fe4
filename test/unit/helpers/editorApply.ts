import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { editorTextBasis } from '../../../src/core/text/editorTextBasis';
import type { Diagnostic, Fix, Position, Range } from '../../../src/core/model';

/**
 * A file as VS Code's text model holds it, for tests that check a range or apply a quick
 * fix the way the editor would: a leading UTF-8 BOM is not part of the text (the encoding
 * remembers it and writes it back on save); lines end at `\r\n`, `\r` or `\n` and nothing
 * else (U+2028, U+2029 and U+0085 are ordinary characters); characters are UTF-16 code
 * units. On load, mixed line ends become the file's dominant one (`\r\n` when more than
 * half of the breaks contain a CR), and text inserted by an edit gets the model's line end
 * (pieceTreeTextBuffer `applyEdits`).
 */
export class EditorModel {
  readonly bom: boolean;
  text: string;
  readonly eol: '\n' | '\r\n';

  constructor(bytes: Uint8Array) {
    this.bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    const decoded = new TextDecoder('utf-8', { ignoreBOM: true }).decode(this.bom ? bytes.subarray(3) : bytes);
    let cr = 0;
    let crlf = 0;
    let all = 0;
    for (const m of decoded.matchAll(/\r\n|\r|\n/g)) {
      all++;
      if (m[0] === '\r\n') crlf++;
      else if (m[0] === '\r') cr++;
    }
    this.eol = all > 0 && cr + crlf > all / 2 ? '\r\n' : '\n';
    this.text = decoded.replace(/\r\n|\r|\n/g, this.eol);
  }

  static read(file: string): EditorModel {
    return new EditorModel(fs.readFileSync(file));
  }

  lines(): string[] {
    return this.text.split(this.eol);
  }

  /** The model's offset of a position; throws where VS Code would clamp a position off its line. */
  offset(p: Position): number {
    const lines = this.lines();
    const line = lines[p.line];
    if (line === undefined) throw new Error(`line ${p.line} is past the end (${lines.length} lines)`);
    if (p.character > line.length)
      throw new Error(`character ${p.character} is past the end of line ${p.line} (${line.length})`);
    return lines.slice(0, p.line).reduce((n, l) => n + l.length + this.eol.length, 0) + p.character;
  }

  /** The text a range covers. */
  slice(r: Range): string {
    return this.text.slice(this.offset(r.start), this.offset(r.end));
  }

  /** Applies edits as one workspace edit: all ranges are of the text before any of them. */
  apply(edits: readonly { readonly range: Range; readonly newText: string }[]): void {
    const spans = edits
      .map((e) => ({ from: this.offset(e.range.start), to: this.offset(e.range.end), text: e.newText }))
      .sort((a, b) => b.from - a.from);
    for (const s of spans) {
      this.text = this.text.slice(0, s.from) + s.text.replace(/\r\n|\r|\n/g, this.eol) + this.text.slice(s.to);
    }
  }

  bytes(): Buffer {
    return Buffer.concat([this.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(this.text)]);
  }
}

/** Applies a diagnostic's fix to the files on disk as the editor's quick fix does, then saves them. */
export function applyFixAsEditor(d: Diagnostic | undefined): void {
  if (!d?.fix) throw new Error(`${d?.code ?? 'no diagnostic'} has no fix`);
  const files = [...new Set(d.fix.edits.map((e) => e.file))];
  for (const file of files) {
    const model = EditorModel.read(file);
    model.apply(d.fix.edits.filter((e) => e.file === file));
    fs.writeFileSync(file, model.bytes());
  }
}

/** Each edit of a fix is bound to the text the editor holds for its file now, so the editor offers it. */
export function assertFixBoundToEditorText(fix: Fix): void {
  for (const e of fix.edits) assert.equal(e.basis, editorTextBasis(EditorModel.read(e.file).text), e.file);
}
