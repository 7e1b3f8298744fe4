import * as zlib from 'node:zlib';

/**
 * The body of a cache file as it is written: text encoded as UTF-8 straight into one
 * piece of memory reused for the whole file, each full piece written at its position
 * with the body's length and CRC-32 counted along. A text too long for a piece is
 * written on its own.
 */
export class BodyWriter {
  private readonly piece = Buffer.allocUnsafe(WRITE_PIECE_BYTES);
  private used = 0;
  private length = 0;
  private crc = 0;

  constructor(
    private readonly write: (data: Uint8Array, position: number) => void,
    private readonly start: number,
  ) {}

  add(text: string): void {
    // A UTF-16 code unit is at most three bytes of UTF-8 (a surrogate pair, two units, is four).
    if (this.used + text.length * 3 > this.piece.length) {
      this.flush();
      if (text.length * 3 > this.piece.length) {
        this.written(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.piece.write(text, this.used, 'utf8');
  }

  /** Writes what is left; the body's length and CRC-32. */
  end(): { length: number; crc: number } {
    this.flush();
    return { length: this.length, crc: this.crc };
  }

  private flush(): void {
    if (this.used === 0) return;
    this.written(this.piece.subarray(0, this.used));
    this.used = 0;
  }

  private written(bytes: Buffer): void {
    this.write(bytes, this.start + this.length);
    this.length += bytes.length;
    this.crc = zlib.crc32(bytes, this.crc);
  }
}

/** Bytes of entries encoded before one write. */
const WRITE_PIECE_BYTES = 1 << 20;
