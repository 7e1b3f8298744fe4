import { createHash } from 'node:crypto';

/**
 * A small seeded generator (xoshiro128**): the same seed and input index give the same
 * input on every machine, so a failure is reproduced by `--replay=<seed>:<index>`.
 */
export class Rng {
  private s: Uint32Array;

  constructor(seed: string) {
    const d = createHash('sha256').update(seed).digest();
    this.s = new Uint32Array([d.readUInt32LE(0), d.readUInt32LE(4), d.readUInt32LE(8), d.readUInt32LE(12)]);
    if (this.s.every((x) => x === 0)) this.s[0] = 1;
  }

  /** A uniformly distributed 32-bit unsigned integer. */
  next(): number {
    const s = this.s;
    const r = Math.imul(rotl(Math.imul(s[1] as number, 5), 7), 9) >>> 0;
    const t = (s[1] as number) << 9;
    s[2] = (s[2] as number) ^ (s[0] as number);
    s[3] = (s[3] as number) ^ (s[1] as number);
    s[1] = (s[1] as number) ^ (s[2] as number);
    s[0] = (s[0] as number) ^ (s[3] as number);
    s[2] = (s[2] as number) ^ t;
    s[3] = rotl(s[3] as number, 11);
    return r;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return n <= 0 ? 0 : Math.floor((this.next() / 4294967296) * n);
  }

  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  bool(p = 0.5): boolean {
    return this.next() / 4294967296 < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** At most `n` of the items, each as likely as another, in the order the list has them. */
  sample<T>(items: readonly T[], n: number): T[] {
    const chosen = new Set<number>();
    // Floyd's method: n draws, whatever the list's length.
    for (let j = items.length - Math.min(n, items.length); j < items.length; j++) {
      const t = this.int(j + 1);
      chosen.add(chosen.has(t) ? j : t);
    }
    return items.filter((_, i) => chosen.has(i));
  }

  /** Picks by weight: `[[weight, value], ...]`. */
  weighted<T>(choices: readonly (readonly [number, T])[]): T {
    const total = choices.reduce((a, [w]) => a + w, 0);
    let r = this.int(total);
    for (const [w, v] of choices) {
      if (r < w) return v;
      r -= w;
    }
    return (choices[choices.length - 1] as readonly [number, T])[1];
  }

  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/**
 * Raw bytes as readable text for reproducers: printable ASCII as is, `\\` doubled,
 * every other byte as `\xHH` (so a non-UTF-8 name or an escape sequence is visible).
 */
export function bytesText(b: Buffer): string {
  let out = '';
  for (const c of b) {
    if (c === 0x5c) out += '\\\\';
    else if (c >= 0x20 && c < 0x7f) out += String.fromCharCode(c);
    else out += `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** The inverse of `bytesText`. */
export function textBytes(t: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < t.length; i++) {
    const ch = t[i] as string;
    if (ch === '\\' && t[i + 1] === '\\') {
      out.push(0x5c);
      i++;
    } else if (ch === '\\' && t[i + 1] === 'x') {
      out.push(parseInt(t.slice(i + 2, i + 4), 16));
      i += 3;
    } else out.push(...Buffer.from(ch, 'utf8'));
  }
  return Buffer.from(out);
}
