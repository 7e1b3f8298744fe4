import * as z from 'zod';
import { REPORT_INPUT } from './parseContext';

/**
 * Records keyed by names a repository chooses (file paths, MCP server ids, mapping
 * names) are prototype-free maps, so `__proto__`, `constructor` or `toString` is an
 * ordinary key. zod's `z.record` builds into `{}` and silently drops a `__proto__` key
 * (an assignment there would replace the prototype), which would lose, e.g., a bundle
 * file of that name from a receipt.
 *
 * Made as `{}` whose prototype is then taken away, not `Object.create(null)`: V8 keeps
 * an object made by `Object.create(null)` in dictionary mode from the start, about 190
 * bytes for an empty one against about 60. A snapshot of 10,000 bundles holds some
 * 50,000 of these records, most of them empty (docs/memory.md). V8 still turns a record
 * that grows large into a dictionary, as it does any object filled by computed keys.
 */
export type OwnRecord<V> = Record<string, V>;

/** A prototype-free record from entries (a later entry replaces an earlier one, as `Object.fromEntries`). */
export function ownRecordOf<V>(entries: Iterable<readonly [string, V]>): OwnRecord<V> {
  const out = emptyOwnRecord<V>();
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/** An empty prototype-free record. */
export function emptyOwnRecord<V>(): OwnRecord<V> {
  return Object.setPrototypeOf({}, null) as OwnRecord<V>;
}

/**
 * `z.record(key, value)` that parses into a prototype-free map and keeps every own
 * key. Issues are z.record's (the same codes, the key in their path), with their input.
 */
export function ownRecord<V extends z.ZodType>(key: z.ZodType<string>, value: V) {
  return z.unknown().transform((input, ctx) => {
    const out = emptyOwnRecord<z.output<V>>();
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      // The issue z.record reports, so callers render it the same way.
      ctx.issues.push({ code: 'invalid_type', expected: 'record', input });
      return out;
    }
    const record = input as Record<string, unknown>;
    for (const k of Object.keys(record)) {
      const parsedKey = key.safeParse(k, REPORT_INPUT);
      if (!parsedKey.success) {
        ctx.issues.push({ code: 'invalid_key', origin: 'record', issues: parsedKey.error.issues, input: k, path: [k] });
        continue;
      }
      const parsed = value.safeParse(record[k], REPORT_INPUT);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.issues.push({ ...issue, input: issue.input, path: [k, ...issue.path] } as (typeof ctx.issues)[number]);
        continue;
      }
      out[parsedKey.data] = parsed.data;
    }
    return out;
  });
}
