import type { ParsedDocument } from '../../documents/document';
import { indentationOf, modifyFormatted } from '../../documents/jsonEdit';
import { jsonDuplicateKeys } from '../../documents/jsonDocument';
import type { Range } from '../../model';
import type { FixDraft } from '../../diagnostics/fixBasis';
import type { Manifest } from './manifest';

/**
 * The quick fix for a `network_hosts` mismatch (codewhale.md §4.4 step 7): the one
 * list that passes is the normalized host set of the MCP URLs, so setting it is
 * unambiguous wherever the declaration lives — an existing list is replaced, a missing
 * key is added to `[capabilities]`, a missing table is added (in `plugin.json` under
 * `extensions["net.codewhale"].capabilities`, §3.2).
 */
export function networkHostsFix(
  m: Manifest,
  doc: ParsedDocument | undefined,
  hosts: readonly string[],
): FixDraft | undefined {
  // The manifest's own document (findings key documents by file): absent only when it was never parsed.
  if (!doc) return undefined;
  const title = `Set network_hosts to [${hosts.map((h) => JSON.stringify(h)).join(', ')}]`;
  const edit = (range: Range, newText: string): FixDraft => ({ title, edits: [{ file: m.file, range, newText }] });
  if (m.label === 'plugin.json') {
    const path = ['extensions', 'net.codewhale', 'capabilities', 'network_hosts'];
    // `extensions` is a map, which keeps the last of a repeated key as serde_json does
    // (repeatedKeys.ts), and the mismatch was read there; jsonc-parser's edit follows the first
    // (`findNodeAtLocation`), so where a key on the way repeats, it would change a value no one reads.
    if (jsonDuplicateKeys(doc).some((d) => d.length <= path.length && d.every((k, i) => k === path[i])))
      return undefined;
    // A struct on the way written as an array (serde reads that too, serdeSequence.ts) has no
    // key to set; the element the list would be is not a place an edit can name unambiguously.
    // An `Option` written `null` is read as left out (schemas.ts `option`): the table takes its
    // place, since jsonc-parser cannot add a key under a null (it threw).
    let node: unknown = doc.value;
    let at = path.length;
    for (const [i, key] of path.slice(0, -1).entries()) {
      if (Array.isArray(node)) return undefined;
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
      if (node === null) {
        at = i + 1;
        break;
      }
    }
    if (Array.isArray(node)) return undefined;
    const value = path.slice(at).reduceRight<unknown>((v, key) => ({ [key]: v }), [...hosts]);
    // Line ends: jsonc-parser keeps the document's own (its first), '\n' in a file of one line.
    const edits = modifyFormatted(doc.text, path.slice(0, at), value, indentationOf(doc.text));
    if (edits.length === 0) return undefined;
    return {
      title,
      edits: edits.map((e) => ({
        file: m.file,
        range: doc.spanRange(e.offset, e.offset + e.length),
        newText: e.content,
      })),
    };
  }
  if (m.label !== 'plugin.toml') return undefined;
  const list = `[${hosts.map((h) => JSON.stringify(h)).join(', ')}]`;
  if (doc.literalAt(['capabilities', 'network_hosts']) !== undefined)
    return edit(doc.valueRange(['capabilities', 'network_hosts']), list);
  if (doc.literalAt(['capabilities']) !== undefined) {
    // Only a `[capabilities]` header has an obvious place for the key: the line after it.
    const header = doc.keyRange(['capabilities']).start.line;
    const all = doc.text.split(/\r\n|\r|\n/);
    const text = all[header] ?? '';
    if (!/^\s*\[\s*capabilities\s*\]\s*(#.*)?$/.test(text)) return undefined;
    if (header === all.length - 1) {
      const at = { line: header, character: text.length };
      return edit({ start: at, end: at }, `\nnetwork_hosts = ${list}\n`);
    }
    const at = { line: header + 1, character: 0 };
    return edit({ start: at, end: at }, `network_hosts = ${list}\n`);
  }
  const end = doc.spanRange(doc.text.length, doc.text.length).start;
  const lead = doc.text === '' || doc.text.endsWith('\n') ? '\n' : '\n\n';
  return edit({ start: end, end }, `${lead}[capabilities]\nnetwork_hosts = ${list}\n`);
}
