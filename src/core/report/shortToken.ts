/**
 * A review token (`<content hash>.<capability hash>`, hashing/identity.ts) shortened for a
 * sentence: the first 12 hex digits of each hash, so a change to either still shows.
 */
export function shortToken(token: string): string {
  return `${token.slice(0, 12)}…${token.slice(65, 77)}`;
}
