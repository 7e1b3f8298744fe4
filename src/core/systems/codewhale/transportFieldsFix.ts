import type { Findings } from '../../diagnostics/findings';
import type { FixDraft } from '../../diagnostics/fixBasis';
import type { DocPath } from '../../documents/document';
import { jsonKeyRemoval } from '../../documents/jsonKeyRemoval';
import { tomlKeyRemoval } from '../../documents/tomlKeyRemoval';
import type { McpServerDecl, Where } from './manifest';

/**
 * A field of a server: the keys it may be written under, and where each of its values was
 * read. `depth` 1: the values are the elements or entries of the field (`args`, `headers`),
 * one level below its key.
 */
type Field = readonly [keys: readonly string[], read: (s: McpServerDecl) => readonly { at: Where }[], depth: 0 | 1];

const one = (v: { at: Where } | undefined) => (v ? [v] : []);

/** The fields a transport may not declare (codewhale.md §4.7): a stdio server the remote ones, a remote server the stdio ones. */
const FOREIGN_FIELDS: Record<'remote' | 'stdio', { readonly title: string; readonly fields: readonly Field[] }> = {
  remote: {
    title: 'Remove the remote fields from the local server',
    fields: [
      [['transport'], (s) => one(s.transport), 0],
      [['headers'], (s) => s.headers, 1],
      [['env_headers', 'env_http_headers'], (s) => s.envHeaders, 1],
      [['bearer_token_env_var'], (s) => one(s.bearerTokenEnvVar), 0],
      [['scopes'], (s) => one(s.scopes), 0],
      [['oauth'], (s) => one(s.oauth), 0],
      [['oauth_resource'], (s) => one(s.oauthResource), 0],
    ],
  },
  stdio: {
    title: 'Remove the stdio fields from the remote server',
    fields: [
      [['cwd'], (s) => one(s.cwd), 0],
      [['args'], (s) => s.args, 1],
      [['env'], (s) => s.env, 1],
    ],
  },
};

/**
 * Removes every `foreign` field the server declares. Codewhale refuses the bundle for them and
 * runs neither a command nor a connection from them, so what the server runs stays as it is.
 * None unless each field is one key, written under its own name, that the edit removes exactly
 * with all its values: not a field read from elsewhere (a Claude header becomes `env_headers`),
 * nor one of a struct written as an array, whose fields are its elements by position
 * (serdeSequence.ts), nor one a TOML table spreads over dotted keys or writes inline.
 */
export function transportFieldsFix(
  findings: Findings,
  s: McpServerDecl,
  foreign: 'remote' | 'stdio',
): FixDraft | undefined {
  const { title, fields } = FOREIGN_FIELDS[foreign];
  const file = s.at.file;
  const keys: DocPath[] = [];
  for (const [names, read, depth] of fields) {
    const values = read(s);
    if (values.length === 0) continue;
    const key = keyPath(values, depth, file);
    if (!key || !names.includes(key[key.length - 1] as string)) return undefined;
    keys.push(key);
  }
  const doc = findings.document(file);
  if (!doc || keys.length === 0 || keys.some((k) => doc.literalAt(k) === undefined)) return undefined;
  const edits = tomlKeyRemoval(doc, ...keys) ?? jsonKeyRemoval(doc, ...keys);
  return edits && { title, edits: edits.map((e) => ({ file, ...e })) };
}

/** The one key all `values` were read under, in `file`, with no array on the way. */
function keyPath(values: readonly { at: Where }[], depth: 0 | 1, file: string): DocPath | undefined {
  const [first] = values;
  if (!first) return undefined;
  const key = first.at.path.slice(0, first.at.path.length - depth);
  const same = (p: DocPath) => p.length === key.length + depth && key.every((k, i) => p[i] === k);
  if (values.some((v) => v.at.file !== file || !same(v.at.path))) return undefined;
  return key.some((k) => typeof k === 'number') ? undefined : key;
}
