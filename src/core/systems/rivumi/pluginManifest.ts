import * as path from 'node:path';
import { parseJsonDocument } from '../../documents/jsonDocument';
import { decodeUtf8, isInside, lstatEntry, readRegularFile, statEntry } from '../../fs/safeFs';
import type { Findings } from '../../diagnostics/findings';
import { pythonRepr, pythonStrip } from './pythonText';
import { FILE_START } from '../../model';
import { pluginManifest, pydanticDetails } from './schemas';
import { fileStem } from './skillFile';
import { PYTHON_JSON_MAX_DEPTH, pythonRecursionError } from './pythonJsonDepth';
import { pythonIntLimitError } from './pythonJsonInts';
import { encodeOsString, osPath } from '../../fs/rawNames';
import { pythonRealpath } from './pythonRealpath';
import type { RivumiPlugin } from './model';
import type { ParsedDocument } from '../../documents/document';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { pathlibRaises, pythonOsErrorText } from './pythonOsError';
import { rivumiReadFailure } from './readFailure';
import { REPORT_INPUT } from '../../documents/parseContext';
import { canonicalFile } from './canonicalFile';
import { pythonKeyOrder } from './pythonDictOrder';
import { deniedToRivumi } from './deniedLoad';
import { MAX_PLUGIN_MANIFEST_BYTES } from './limits';

/**
 * One `.rivumi/plugins/*.json` as Rivumi reads it (plugins.py `load_project_plugins`,
 * rivumi.md §5.4 checks 1-6, §5.3 skill paths): the manifest's verdict and, for a valid one,
 * its skill paths and raw hook table, held as a draft until the skill load reads those skills
 * (§5.5) and the hook load merges those hooks (§4.4).
 */

/** A valid manifest with its raw hook table, before hooks are merged. */
export interface PluginDraft {
  plugin: RivumiPlugin;
  rawHooks: Record<string, unknown>;
  skillRefs: { path: string; abs: string; index: number }[];
  doc?: ParsedDocument;
  manifestBytes?: Buffer;
  manifestExecutable?: boolean;
}

/** §5.4 checks 1-6 for one manifest. */
export function readPluginManifest(
  workspace: string,
  pluginsDir: string,
  abs: string,
  fileName: string,
  findings: Findings,
): PluginDraft {
  const source = `.rivumi/plugins/${fileName}`;
  const plugin: RivumiPlugin = {
    name: fileStem(fileName),
    file: abs,
    canonicalFile: canonicalFile(abs),
    fileName,
    source,
    state: 'valid',
    description: '',
    discovery: {},
    skills: [],
    hooks: [],
  };
  const fail = (
    code: Parameters<Findings['inFile']>[0],
    message: string,
    range = FILE_START,
    extra: Partial<PluginDraft> = {},
  ): PluginDraft => {
    return {
      plugin: { ...plugin, state: 'invalid', error: findings.inFile(code, message, abs, range) },
      rawHooks: {},
      skillRefs: [],
      ...extra,
    };
  };
  // readRegularFile checks the last component (no link), the type and the size (from fstat) before reading.
  const read = readRegularFile(osPath(abs), MAX_PLUGIN_MANIFEST_BYTES);
  if (!read.ok) {
    const why = rivumiReadFailure(abs, read, MAX_PLUGIN_MANIFEST_BYTES);
    if (why.kind === 'os-error' && why.denied)
      return {
        plugin: { ...plugin, state: 'invalid', error: deniedToRivumi(why.text, 'plugin', abs, findings) },
        rawHooks: {},
        skillRefs: [],
      };
    return fail(
      'rivumi.plugin.file',
      why.kind === 'os-error'
        ? why.text
        : why.kind === 'too-large'
          ? `project plugin manifest exceeds size limit: ${fileName}`
          : `project plugin manifest must be a regular file: ${fileName}`,
    );
  }
  const text = decodeUtf8(read.bytes);
  const notJson = `project plugin manifest must be UTF-8 JSON: ${fileName}`;
  // A UTF-8 BOM stays in the text as U+FEFF, which JSON rejects: Rivumi refuses it here.
  if (text === undefined) return fail('rivumi.plugin.json', notJson);
  const parsed = parseJsonDocument(abs, text, { python: true, maxDepth: PYTHON_JSON_MAX_DEPTH });
  if (!parsed.ok)
    return fail(
      'rivumi.plugin.json',
      parsed.nesting
        ? `project plugin manifest cannot be parsed by Python's json: ${fileName}: ${pythonRecursionError(parsed.nesting)}`
        : notJson,
      parsed.range,
    );
  const doc = parsed.document;
  findings.addDocument(doc);
  const bigInt = pythonIntLimitError(doc.text);
  if (bigInt)
    return fail(
      'rivumi.plugin.json',
      `project plugin manifest cannot be parsed by Python's json: ${fileName}: ${bigInt.message}`,
      doc.spanRange(bigInt.offset, bigInt.offset + 1),
    );
  const value = doc.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('rivumi.plugin.json', `project plugin manifest must be an object: ${fileName}`, doc.valueRange([]));
  const data: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (!('name' in data)) data.name = fileStem(fileName);
  const result = pluginManifest.safeParse(data, REPORT_INPUT);
  const drafted = { doc, manifestBytes: read.bytes, manifestExecutable: read.executable };
  if (!result.success) {
    // Every error pydantic reports, in its order; the first is the plugin's own error.
    const details = pydanticDetails(result.error, (at, keys) => pythonKeyOrder(doc.text, at, keys));
    const first = details[0] as (typeof details)[number];
    const failed = fail(
      'rivumi.plugin.invalid',
      `project plugin manifest is invalid: ${fileName}: ${first.text}`,
      first.text.includes('Extra inputs') ? doc.keyRange(first.path) : doc.valueRange(first.path),
      drafted,
    );
    for (const d of details.slice(1))
      findings.at('rivumi.plugin.invalid', `project plugin manifest is invalid: ${fileName}: ${d.text}`, {
        file: abs,
        path: d.path,
        key: d.text.includes('Extra inputs'),
      });
    return failed;
  }
  const m = result.data;
  const named: RivumiPlugin = {
    ...plugin,
    name: pythonStrip(m.name),
    description: m.description ?? '',
    discovery: (m.discovery ?? {}) as Record<string, unknown>,
  };
  // Stage 2: follow links, stay inside the repository, reach a regular file (§5.3).
  const root = pythonRealpath(workspace);
  const skillRefs: PluginDraft['skillRefs'] = [];
  for (const [index, s] of (m.skills ?? []).entries()) {
    const stored = pythonStrip(s.path).replace(/\\/g, '/');
    const at = doc.valueRange(['skills', index, 'path']);
    if (encodeOsString(stored) === undefined) {
      // Unreachable while the schema refuses a path with a lone surrogate (pydantic's string_unicode);
      // were one to get here, Python's lstat would raise UnicodeEncodeError: both loads fail.
      const message = `plugin skill path cannot be encoded as a file name: ${pythonRepr(stored)} (Rivumi's load fails with UnicodeEncodeError: surrogates not allowed)`;
      return {
        plugin: { ...named, state: 'invalid', error: findings.inFile('rivumi.path-encoding', message, abs, at) },
        rawHooks: {},
        skillRefs,
        ...drafted,
      };
    }
    const target = pythonRealpath(path.join(pluginsDir, stored));
    if (!isInside(root, target)) {
      return {
        plugin: {
          ...named,
          state: 'invalid',
          error: findings.inFile('rivumi.plugin.skill-path', 'plugin skill path must stay inside repository', abs, at),
        },
        rawHooks: {},
        skillRefs,
        ...drafted,
      };
    }
    // `path.is_symlink()`, then `path.is_file()`, of the resolved path: a path this user may not
    // inspect raises there (a folder on the way at 700 or 744), which is no missing file.
    const targetEntry = statEntry(osPath(target));
    const inspected = [lstatEntry(osPath(target)), targetEntry].find((e) => pathlibRaises(e.fault));
    if (inspected) {
      const text = pythonOsErrorText(inspected.fault, inspected.error ?? 'stat error', target);
      return {
        plugin: {
          ...named,
          state: 'invalid',
          error: deniedByPermissions(inspected.fault)
            ? deniedToRivumi(text, 'plugin', abs, findings, at)
            : findings.inFile('rivumi.plugin.skill-path', text, abs, at),
        },
        rawHooks: {},
        skillRefs,
        ...drafted,
      };
    }
    if (targetEntry.type !== 'file') {
      return {
        plugin: {
          ...named,
          state: 'invalid',
          error: findings.inFile('rivumi.plugin.skill-path', `plugin skill file is missing: ${stored}`, abs, at),
        },
        rawHooks: {},
        skillRefs,
        ...drafted,
      };
    }
    // Rivumi reads the file through the manifest-relative path; its last component is checked then.
    skillRefs.push({ path: stored, abs: path.normalize(path.join(pluginsDir, stored)), index });
  }
  return { plugin: named, rawHooks: (m.hooks ?? {}) as Record<string, unknown>, skillRefs, ...drafted };
}
