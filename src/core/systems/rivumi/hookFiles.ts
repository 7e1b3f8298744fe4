import { decodeUtf8 } from '../../fs/rawNames';
import { parseJsonDocument } from '../../documents/jsonDocument';
import { readRegularFile, statEntry } from '../../fs/safeFs';
import type { Findings } from '../../diagnostics/findings';
import { FILE_START, type Diagnostic, type Range } from '../../model';
import type { ParsedDocument } from '../../documents/document';
import { PYTHON_JSON_MAX_DEPTH, pythonRecursionError } from './pythonJsonDepth';
import { pythonIntLimitError } from './pythonJsonInts';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { rivumiReadFailure } from './readFailure';
import { deniedToRivumi, uninspectable } from './deniedLoad';
import { MAX_HOOK_CONFIG_BYTES } from './limits';

/**
 * `.rivumi/hooks.json` as Rivumi reads it (hooks.py `load_project_hook_config`, rivumi.md
 * §4.4 step 1): its bytes decoded as Python's `json.loads(bytes)` decodes them, parsed into
 * the project's hook object, or the error that fails the whole hook load.
 */

/**
 * Python's `json.loads(bytes)` detects UTF-8 (with or without BOM), UTF-16 and UTF-32
 * from the first bytes; Rivumi reads `hooks.json` that way (rivumi.md §4.4). The branches
 * are those of Python's `json.detect_encoding`, in its order. It decodes with
 * `'surrogatepass'` (`s.decode(detect_encoding(s), 'surrogatepass')` in json/__init__.py),
 * so an encoded lone surrogate (UTF-8 `ED A0 80`, a lone UTF-16 or UTF-32 unit D800–DFFF)
 * is text, not a decoding error: it becomes that lone surrogate, as a `\ud800` escape does.
 */
export function decodeJsonBytes(b: Uint8Array): string | undefined {
  const startsWith = (...prefix: number[]) => prefix.every((x, i) => b[i] === x);
  if (startsWith(0, 0, 0xfe, 0xff)) return utf32(b.subarray(4), false);
  if (startsWith(0xff, 0xfe, 0, 0)) return utf32(b.subarray(4), true);
  // Python's utf-16 codec reads the BOM for the byte order and drops it.
  if (startsWith(0xfe, 0xff)) return utf16(b.subarray(2), false);
  if (startsWith(0xff, 0xfe)) return utf16(b.subarray(2), true);
  if (b.length >= 4) {
    if (!b[0]) return b[1] ? utf16(b, false) : utf32(b, false);
    if (!b[1]) return b[2] || b[3] ? utf16(b, true) : utf32(b, true);
  } else if (b.length === 2) {
    if (!b[0]) return utf16(b, false);
    if (!b[1]) return utf16(b, true);
  }
  // utf-8-sig after a UTF-8 BOM drops it; plain UTF-8 (no BOM at the start) keeps every character.
  return startsWith(0xef, 0xbb, 0xbf) ? utf8(b.subarray(3)) : utf8(b);
}

/**
 * Strict UTF-8 but for the three-byte encodings of U+D800–U+DFFF (`ED A0..BF 80..BF`),
 * which surrogatepass turns into the surrogate. `ED` is only ever a lead byte, so the
 * text between them decodes on its own, each piece keeping a U+FEFF it starts with.
 */
function utf8(b: Uint8Array): string | undefined {
  let out = '';
  let from = 0;
  for (let i = 0; i + 2 < b.length; i++) {
    const [x, y, z] = [b[i] as number, b[i + 1] as number, b[i + 2] as number];
    if (x !== 0xed || y < 0xa0 || y > 0xbf || (z & 0xc0) !== 0x80) continue;
    const piece = decodeUtf8(b.subarray(from, i));
    if (piece === undefined) return undefined;
    out += piece + String.fromCharCode(0xd000 | ((y & 0x3f) << 6) | (z & 0x3f));
    from = i + 3;
    i += 2;
  }
  const rest = decodeUtf8(b.subarray(from));
  return rest === undefined ? undefined : out + rest;
}

/** UTF-16 without its BOM: whole code units, each kept as it is, lone surrogates included. */
function utf16(b: Uint8Array, littleEndian: boolean): string | undefined {
  if (b.length % 2 !== 0) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const units: string[] = [];
  for (let i = 0; i < b.length; i += 2) units.push(String.fromCharCode(view.getUint16(i, littleEndian)));
  return units.join('');
}

/** UTF-32 without its BOM: whole code points, lone surrogates included, nothing above U+10FFFF. */
function utf32(b: Uint8Array, littleEndian: boolean): string | undefined {
  if (b.length % 4 !== 0) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let out = '';
  for (let i = 0; i < b.length; i += 4) {
    const cp = view.getUint32(i, littleEndian);
    if (cp > 0x10ffff) return undefined;
    out += String.fromCodePoint(cp);
  }
  return out;
}

/** Code-point order, as Python sorts strings (rivumi.md §2 "Order"). */
export function codePointCompare(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
}

/** `.rivumi/hooks.json` as read (H1, H2): its object, or the error that makes the whole hook load fail. */
export interface ProjectHooksRead {
  readonly exists: boolean;
  readonly project: Record<string, unknown>;
  readonly bytes?: Buffer;
  readonly executable?: boolean;
  /** The JSON text of a hooks.json read as an object, where its keys' order is (pythonDictOrder.ts). */
  readonly text?: string;
  readonly error?: Diagnostic;
}

export function readProjectHooks(hooksPath: string, findings: Findings): ProjectHooksRead {
  const entry = statEntry(hooksPath);
  // hooks.py `load_project_hook_config`: `if path.exists():` on a hooks.json whose directory this user may not
  // search raises PermissionError (Python 3.11 to 3.13), whether or not the file is there: the hook load fails.
  if (deniedByPermissions(entry.fault))
    return { exists: false, project: {}, error: uninspectable(hooksPath, 'hook', entry, findings) };
  if (entry.type === 'missing') return { exists: false, project: {} };
  // Not a link, a regular file, at most 65536 bytes: readRegularFile reads one byte past the limit to tell.
  const read = readRegularFile(hooksPath, MAX_HOOK_CONFIG_BYTES);
  // No size check comes before `path.open("rb")`: a hooks.json of another user at mode 600 raises
  // PermissionError there, whatever its size; a read that fails once it is open raises OSError.
  const why = read.ok ? undefined : rivumiReadFailure(hooksPath, read);
  if (why?.kind === 'os-error')
    return {
      exists: true,
      project: {},
      error: why.denied
        ? deniedToRivumi(why.text, 'hook', hooksPath, findings)
        : findings.inFile('rivumi.hooks.file', why.text, hooksPath),
    };
  if (!read.ok && why?.kind !== 'too-large')
    return {
      exists: true,
      project: {},
      error: findings.inFile('rivumi.hooks.file', 'project hook config must be a regular file', hooksPath),
    };
  if (!read.ok)
    return {
      exists: true,
      project: {},
      error: findings.inFile(
        'rivumi.hooks.file',
        `project hook config exceeds ${MAX_HOOK_CONFIG_BYTES} bytes`,
        hooksPath,
      ),
    };
  const bytes = read.bytes;
  // A file read but refused: its bytes stay on the record (hashed, so a fix drops trust), with the finding.
  const refused = (message: string, range: Range): ProjectHooksRead => ({
    exists: true,
    project: {},
    bytes,
    executable: read.executable,
    error: findings.inFile('rivumi.hooks.json', message, hooksPath, range),
  });
  const text = decodeJsonBytes(bytes);
  const parsed =
    text === undefined
      ? undefined
      : // decodeJsonBytes drops one BOM, as Python's utf-8-sig does; a second one is text JSON refuses.
        parseJsonDocument(hooksPath, text, { python: true, maxDepth: PYTHON_JSON_MAX_DEPTH });
  if (parsed && !parsed.ok && parsed.nesting)
    return refused(
      `project hook config cannot be parsed by Python's json: ${pythonRecursionError(parsed.nesting)}`,
      parsed.range,
    );
  if (!parsed || !parsed.ok)
    return refused('project hook config is not valid UTF-8 JSON', parsed && !parsed.ok ? parsed.range : FILE_START);
  const doc: ParsedDocument = parsed.document;
  findings.addDocument(doc);
  const bigInt = pythonIntLimitError(doc.text);
  if (bigInt)
    return refused(
      `project hook config cannot be parsed by Python's json: ${bigInt.message}`,
      doc.spanRange(bigInt.offset, bigInt.offset + 1),
    );
  const v = doc.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return refused('project hook config must be a JSON object', doc.valueRange([]));
  return { exists: true, project: v as Record<string, unknown>, bytes, executable: read.executable, text: doc.text };
}
