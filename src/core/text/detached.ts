/**
 * A copy of `text` that shares no storage with the strings it was made from. V8 keeps a
 * substring of 13 characters or more as a view into its parent, so a skill's
 * description kept in the index would hold its whole SKILL.md alive (about 23 MB at
 * 10,000 bundles); and a string built by `+`, a template literal or `path.join` is a
 * tree of its pieces (a SKILL.md's absolute path: about 290 bytes of tree nodes, 100
 * flat). `structuredClone` serializes the characters and reads them back into a string
 * of their own: about half a microsecond for a description.
 */
export function detached(text: string): string {
  return structuredClone(text);
}
