import type * as z from 'zod';

/**
 * The context every zod parse here is given: issues carry their input (diagnostics quote
 * it). `async: false` is zod's own setting for a synchronous parse, written here although
 * `safeParse` sets it too: zod copies the context by spreading it and setting `async`, and
 * Node 20's V8 gives a spread copy that gains a key a hidden class of its own. Without the
 * key every parse's context was a new shape, and zod's reads of it missed their inline
 * caches (about 33,000 misses at 2,000 bundles); with it the copy only overwrites, and
 * every copy shares one class (docs/memory.md).
 */
export const REPORT_INPUT: z.core.ParseContext<z.core.$ZodIssue> & { readonly async: false } = {
  reportInput: true,
  async: false,
};
