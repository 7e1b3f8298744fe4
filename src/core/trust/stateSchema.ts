import * as z from 'zod';
import { emptyOwnRecord, ownRecord } from '../documents/ownRecord';
import { systemIdSchema } from '../systems/registry';

/** The trust store file, a closed schema: an unknown field makes the store unavailable (trust.md). */

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

export const receiptSchema = z.strictObject({
  contentHash: hex64,
  capabilityHash: hex64,
  // What the unit could do when reviewed: the typed model (capabilities.ts), in the very shape
  // receipts always held. Read as an open record, so another tool's record leaves the store
  // available: trust follows the hashes, and the review compares the record as it is (docs/hashes.md).
  // Keys a bundle chooses (file paths, capability names): prototype-free, so `__proto__` survives.
  capabilities: ownRecord(z.string(), z.unknown()),
  files: ownRecord(
    z.string(),
    z.strictObject({ sha256: hex64, size: z.number().int().min(0), executable: z.boolean() }),
  ),
  reviewedAt: z.string().datetime(),
});

export const bundleStateSchema = z.strictObject({
  system: systemIdSchema,
  scope: z.enum(['workspace', 'user']),
  name: z.string(),
  path: z.string(),
  generation: z.number().int().min(0),
  enabled: z.boolean(),
  trust: receiptSchema.nullable(),
  reviewHistory: z.array(receiptSchema).max(32),
});

export const STATE_SCHEMA_VERSION = 1;

export const stateSchema = z.strictObject({
  schemaVersion: z.literal(STATE_SCHEMA_VERSION),
  bundles: ownRecord(z.string().regex(/^[0-9a-f]{64}$/), bundleStateSchema),
});

export type Receipt = z.infer<typeof receiptSchema>;
export type BundleState = z.infer<typeof bundleStateSchema>;
export type TrustState = z.infer<typeof stateSchema>;

export const MAX_REVIEW_HISTORY = 32;

export function emptyState(): TrustState {
  return { schemaVersion: STATE_SCHEMA_VERSION, bundles: emptyOwnRecord() };
}
