import type { Position, Range } from '../model';

/**
 * Maps UTF-16 offsets of a decoded text to editor positions. Line breaks are the
 * ones the editor counts (`\n`, `\r\n`, lone `\r`), so a range computed here lands on
 * the same character in VS Code. A leading U+FEFF is a UTF-8 byte-order mark the editor
 * keeps out of its text (the encoding remembers it): offsets count it, positions on the
 * first line do not, or every range there would land one character late.
 *
 * `markDropped`: the reader already dropped that mark from `text` (Eva's, as libyaml's reader
 * drops it), so the text is the editor's as it stands. A U+FEFF still at its start was a
 * second one in the file: VS Code strips one mark only and shows the next as a character
 * (libyaml skips it as one column), so positions count it.
 */
export class LineMap {
  private readonly starts: number[] = [0];
  private readonly bom: boolean;

  constructor(
    private readonly text: string,
    markDropped = false,
  ) {
    this.bom = !markDropped && text.charCodeAt(0) === 0xfeff;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: Math.max(0, clamped - (this.starts[lo] ?? 0) - this.hidden(lo)) };
  }

  range(offset: number, length: number): Range {
    return { start: this.position(offset), end: this.position(offset + length) };
  }

  /** The whole of one 0-based line, without its line break. */
  lineRange(line: number): Range {
    const start = this.starts[line] ?? this.text.length;
    let end = this.starts[line + 1] ?? this.text.length;
    while (end > start && (this.text.charCodeAt(end - 1) === 10 || this.text.charCodeAt(end - 1) === 13)) end--;
    return { start: { line, character: 0 }, end: { line, character: Math.max(0, end - start - this.hidden(line)) } };
  }

  /** Characters of `line` the editor does not show: the byte-order mark on the first. */
  private hidden(line: number): number {
    return line === 0 && this.bom ? 1 : 0;
  }
}
