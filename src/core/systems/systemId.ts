/**
 * The id of every agent Skillgate knows: stored in the trust store and the lock, and the
 * key of every per-agent table, so adding an agent here is a compile error until each
 * table (registry.ts) has it.
 */
export type System = 'rivumi' | 'codewhale' | 'eva';
