import { lstatEntry, type IoFault } from '../../fs/safeFs';
import { rawPathParts } from './rawPathParts';

export type Walk =
  | { kind: 'file'; rel: Buffer; size: number; watch: Buffer }
  | { kind: 'none'; watch: Buffer | undefined }
  | { kind: 'outside'; watch: undefined }
  | { kind: 'symlink'; rel: Buffer; at: Buffer; watch: Buffer }
  | { kind: 'special'; rel: Buffer; error: string | undefined; fault?: IoFault; watch: Buffer };

/**
 * Follows `rel` from the folder `ws` one component at a time, never through a link: here
 * from the workspace folder, and for plugin skill files from `.rivumi/plugins` (hashes.ts).
 */
export function walkInside(ws: Buffer, rel: Buffer): Walk {
  const parts = rawPathParts(rel).filter((p) => p.length > 0 && !(p.length === 1 && p[0] === 0x2e));
  const stack: Buffer[] = [];
  const joined = () => Buffer.concat(stack.flatMap((p, i) => (i ? [Buffer.from('/'), p] : [p])));
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Buffer;
    if (part.length === 2 && part[0] === 0x2e && part[1] === 0x2e) {
      if (stack.length === 0) return { kind: 'outside', watch: undefined };
      stack.pop();
      continue;
    }
    stack.push(part);
    const here = joined();
    const entry = lstatEntry(Buffer.concat([ws, Buffer.from('/'), here]));
    const last = i === parts.length - 1;
    if (entry.type === 'symlink')
      return { kind: 'symlink', rel: fullRel(stack, parts.slice(i + 1)), at: here, watch: here };
    if (entry.type === 'missing') return { kind: 'none', watch: fullRel(stack, parts.slice(i + 1)) };
    if (entry.error !== undefined || entry.type === 'other')
      return {
        kind: 'special',
        rel: here,
        error: entry.error,
        ...(entry.fault ? { fault: entry.fault } : {}),
        watch: here,
      };
    if (entry.type === 'file')
      return last ? { kind: 'file', rel: here, size: entry.size, watch: here } : { kind: 'none', watch: here };
  }
  return { kind: 'none', watch: stack.length ? joined() : undefined };
}

function fullRel(stack: readonly Buffer[], rest: readonly Buffer[]): Buffer {
  const all = [...stack, ...rest];
  return Buffer.concat(all.flatMap((p, i) => (i ? [Buffer.from('/'), p] : [p])));
}
