/** The byte of `/`, where a raw path's parts end. */
export const SLASH = 0x2f;

/** The parts of a raw path between its slashes, empty ones included (`/a//b`: ``, `a`, ``, `b`). */
export function rawPathParts(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= b.length; i++) {
    if (i === b.length || b[i] === SLASH) {
      out.push(b.subarray(start, i));
      start = i + 1;
    }
  }
  return out;
}
