import { z } from 'zod';
import { ownRecord } from '../../documents/ownRecord';

/** Shared zod building blocks for Codewhale manifests (codewhale.md §3). */
export const text = z.string();
export const textList = z.array(z.string());
export const u64 = z.number().int().min(0);
// Names a manifest chooses (env and header names) parse into prototype-free maps: `__proto__` is kept.
export const stringMap = ownRecord(z.string(), z.string());

export const pathSpec = z.strictObject({ path: text.optional(), paths: textList.optional() });

export const capabilities = z.strictObject({
  filesystem_roots: textList.optional(),
  network_hosts: textList.optional(),
  lifecycle_mutation: z.boolean().optional(),
});

export const when = z.strictObject({ os: textList.optional(), binaries: textList.optional() });

export const oauth = z.strictObject({ client_id: text.optional() });
