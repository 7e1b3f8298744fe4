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

/**
 * `parts` as one flat string. A template literal or `+` of 13 characters or more makes
 * a tree of its pieces (a 32-byte node over each); the first `JSON.stringify` of it then
 * makes a flat copy that lives beside the tree as long as the string does. Ids and
 * names that every report writes are made flat at once: at 10,000 bundles the peak of
 * `list --json` is about 10 MiB lower (docs/memory.md, "What the bundle keeps").
 * `join` copies the characters once, about 70 ns for an item id.
 */
export function flatJoin(...parts: string[]): string {
  return parts.join('');
}
