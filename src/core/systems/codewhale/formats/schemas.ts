import * as z from 'zod';
import { ownRecord } from '../../../documents/ownRecord';

/** Shared zod building blocks for Codewhale manifests (codewhale.md §3). */
export const text = z.string();
export const textList = z.array(z.string());
export const u64 = z.number().int().min(0);
// Names a manifest chooses (env and header names) parse into prototype-free maps: `__proto__` is kept.
export const stringMap = ownRecord(z.string(), z.string());

/**
 * A field upstream declares `Option<T>`: serde reads JSON `null` there as None, the same as
 * the field left out, where a `String`, `Vec`, map or `bool` field refuses it (codewhale.md
 * §4.2). Read as absent. TOML has no null, so a TOML manifest reads the same either way.
 */
export function option<T extends z.ZodType>(schema: T) {
  // The outer `optional` keeps the key optional in the parsed type, as `.optional()` does.
  return schema
    .nullish()
    .transform((v) => v ?? undefined)
    .optional();
}

export const pathSpec = z.strictObject({ path: option(text), paths: textList.optional() });

export const capabilities = z.strictObject({
  filesystem_roots: textList.optional(),
  network_hosts: textList.optional(),
  lifecycle_mutation: z.boolean().optional(),
});

export const when = z.strictObject({ os: option(textList), binaries: option(textList) });

export const oauth = z.strictObject({ client_id: option(text) });

/**
 * serde fills an unsigned integer field only from an integer literal: `1.0` or `1e3`
 * is a type error in TOML and in JSON alike, though JavaScript reads both as the
 * integer 1 (codewhale.md §3.1 `schema_version` u32, §3.3 timeouts u64). serde_json
 * reads `-0` as the float -0.0, not an integer, though JavaScript's -0 passes `min(0)`.
 */
export function isIntegerLiteral(literal: string, format: 'toml' | 'json'): boolean {
  return format === 'json'
    ? /^(0|-?[1-9][0-9]*)$/.test(literal)
    : /^[+-]?(?:0x[0-9A-Fa-f_]+|0o[0-7_]+|0b[01_]+|[0-9_]+)$/.test(literal);
}

export const TIMEOUT_FIELDS = ['connect_timeout', 'execute_timeout', 'read_timeout'] as const;
