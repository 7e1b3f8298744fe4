import * as fs from 'node:fs';
import { originalExecFileSync as execFileSync } from './spy';
import { bytesText, textBytes } from './random';
import { CONTROL_STRINGS, ENGINE_FENCES } from './payloads';
import { Rng } from './random';
import { asSerdeArrays, jsonLayoutOf, tomlText, withNullOptions } from './serdeForms';
import { parseTomlDocument } from '../../src/core/documents/tomlDocument';
import { PLUGIN_TOML_LAYOUT } from '../../src/core/systems/codewhale/formats/serdeSequence';

/**
 * One change to an input tree, as data: a reproducer prints the list, and shrinking
 * drops entries from it. Paths are relative to the input root, in `bytesText` form
 * (so names that are not UTF-8 survive JSON).
 */
export type Op =
  | { readonly op: 'flip'; readonly path: string; readonly at: number; readonly byte: number }
  | { readonly op: 'insert'; readonly path: string; readonly at: number; readonly bytes: string }
  | { readonly op: 'truncate'; readonly path: string; readonly length: number }
  | {
      readonly op: 'json';
      readonly path: string;
      readonly how: JsonMutation;
      readonly at: number;
      readonly size: number;
    }
  | {
      readonly op: 'toml';
      readonly path: string;
      readonly how: TextMutation;
      readonly at: number;
      readonly size: number;
    }
  | {
      readonly op: 'yaml';
      readonly path: string;
      readonly how: YamlMutation;
      readonly at: number;
      readonly size: number;
    }
  | {
      readonly op: 'frontmatter';
      readonly path: string;
      readonly how: FrontMatterMutation;
      readonly at: number;
      readonly size: number;
    }
  | { readonly op: 'rename'; readonly path: string; readonly name: string }
  | { readonly op: 'add'; readonly path: string; readonly kind: 'file' | 'dir' | 'fifo'; readonly content: string }
  | { readonly op: 'symlink'; readonly path: string; readonly target: string }
  | { readonly op: 'chmod'; readonly path: string; readonly mode: number }
  | { readonly op: 'delete'; readonly path: string }
  | { readonly op: 'nest'; readonly path: string; readonly depth: number }
  | { readonly op: 'many'; readonly path: string; readonly count: number }
  | { readonly op: 'copy'; readonly path: string; readonly to: string };

export type JsonMutation =
  'deep-array' | 'deep-object' | 'duplicate-key' | 'wrong-type' | 'huge' | 'proto' | 'controls' | SerdeJsonMutation;
export type TextMutation =
  'deep-array' | 'deep-table' | 'duplicate-key' | 'wrong-type' | 'huge' | 'controls' | 'serde-array';
/**
 * Codewhale's manifests in the other forms serde derive reads (serdeForms.ts): structs as
 * arrays (all, some, shorter, padded with nulls) and `null` for Option fields. Picked from
 * their own stream (input.ts `generateSerdeOp`), so the inputs a seed gave before stay.
 */
export type SerdeJsonMutation = 'serde-array' | 'serde-null';
export const SERDE_JSON_MUTATIONS: readonly SerdeJsonMutation[] = ['serde-array', 'serde-null'];
export type FrontMatterMutation =
  'engine' | 'deep-yaml' | 'duplicate-name' | 'controls' | 'huge' | 'unclosed' | 'line-endings';

/** Eva's YAML manifests: one top-level key's value replaced. */
export type YamlMutation =
  | 'wide-list'
  | 'wide-map'
  | 'anchors'
  | 'aliases'
  | 'alias-keys'
  | 'deep'
  | 'wrong-type'
  | 'controls'
  | 'huge'
  | YamlStreamMutation;
/**
 * libyaml's stream around and inside a document: directives, document end markers, flow keys over lines;
 * tags on a value, a key or the root, which serde_yaml reads through or refuses (own stream too).
 */
export type YamlStreamMutation = 'directive' | 'document-end' | 'flow-key' | 'tag';
export const YAML_STREAM_MUTATIONS: readonly YamlStreamMutation[] = ['directive', 'document-end', 'flow-key', 'tag'];
export const YAML_MUTATIONS: readonly YamlMutation[] = [
  'wide-list',
  'wide-map',
  'anchors',
  'aliases',
  'alias-keys',
  'deep',
  'wrong-type',
  'controls',
  'huge',
];

export const JSON_MUTATIONS: readonly JsonMutation[] = [
  'deep-array',
  'deep-object',
  'duplicate-key',
  'wrong-type',
  'huge',
  'proto',
  'controls',
];
export const TEXT_MUTATIONS: readonly TextMutation[] = [
  'deep-array',
  'deep-table',
  'duplicate-key',
  'wrong-type',
  'huge',
  'controls',
];
export const FRONT_MATTER_MUTATIONS: readonly FrontMatterMutation[] = [
  'engine',
  'deep-yaml',
  'duplicate-name',
  'controls',
  'huge',
  'unclosed',
  'line-endings',
];

const SLASH = Buffer.from('/');
/** A symlink target written as `@root/outside/x` points into the input root wherever it is built. */
export const ROOT_MARK = '@root/';

export function join(...parts: Buffer[]): Buffer {
  const out: Buffer[] = [];
  parts.forEach((p, i) => {
    if (i > 0) out.push(SLASH);
    out.push(p);
  });
  return Buffer.concat(out);
}

function dirOf(p: Buffer): Buffer {
  const i = p.lastIndexOf(0x2f);
  return i < 0 ? Buffer.alloc(0) : p.subarray(0, i);
}

function isUtf8(b: Buffer): boolean {
  return Buffer.from(b.toString('utf8'), 'utf8').equals(b);
}

function lstat(p: Buffer): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

function readText(p: Buffer): string | undefined {
  const st = lstat(p);
  if (!st?.isFile()) return undefined;
  return fs.readFileSync(p).toString('utf8');
}

/** Applies one op under `root`; an op whose target is gone (after shrinking) does nothing. */
export function applyOp(root: string, op: Op): void {
  const abs = join(Buffer.from(root), textBytes(op.path));
  const st = lstat(abs);
  switch (op.op) {
    case 'flip': {
      if (!st?.isFile() || st.size === 0) return;
      const b = fs.readFileSync(abs);
      b[op.at % b.length] = op.byte;
      fs.writeFileSync(abs, b);
      return;
    }
    case 'insert': {
      if (!st?.isFile()) return;
      const b = fs.readFileSync(abs);
      const at = op.at % (b.length + 1);
      fs.writeFileSync(abs, Buffer.concat([b.subarray(0, at), textBytes(op.bytes), b.subarray(at)]));
      return;
    }
    case 'truncate':
      if (st?.isFile()) fs.truncateSync(abs, Math.min(op.length, st.size));
      return;
    case 'json': {
      const t = readText(abs);
      if (t !== undefined) fs.writeFileSync(abs, mutateJson(t, op.how, op.at, op.size, op.path));
      return;
    }
    case 'toml': {
      const t = readText(abs);
      if (t !== undefined) fs.writeFileSync(abs, mutateToml(t, op.how, op.at, op.size));
      return;
    }
    case 'yaml': {
      const t = readText(abs);
      if (t !== undefined) fs.writeFileSync(abs, mutateYaml(t, op.how, op.at, op.size));
      return;
    }
    case 'frontmatter': {
      const t = readText(abs);
      if (t !== undefined) fs.writeFileSync(abs, mutateFrontMatter(t, op.how, op.at, op.size));
      return;
    }
    case 'rename': {
      if (!st) return;
      const to = join(dirOf(abs), textBytes(op.name));
      if (lstat(to)) return;
      fs.renameSync(abs, to);
      return;
    }
    case 'add': {
      if (st) return;
      fs.mkdirSync(dirOf(abs), { recursive: true });
      if (op.kind === 'dir') fs.mkdirSync(abs);
      else if (op.kind === 'fifo') {
        // mkfifo takes its path as text, which cannot spell a name that is not UTF-8 (it failed
        // with "No such file or directory"): made under a plain name in the input's root, then
        // renamed into place, as bytes.
        const plain = `${root}/.fifo-${process.pid}`;
        execFileSync('mkfifo', [plain]);
        fs.renameSync(plain, abs);
      } else fs.writeFileSync(abs, textBytes(op.content));
      return;
    }
    case 'symlink':
      if (st) fs.rmSync(abs, { recursive: true, force: true });
      fs.mkdirSync(dirOf(abs), { recursive: true });
      fs.symlinkSync(
        op.target.startsWith(ROOT_MARK)
          ? join(Buffer.from(root), textBytes(op.target.slice(ROOT_MARK.length)))
          : textBytes(op.target),
        abs,
      );
      return;
    case 'chmod':
      if (st && !st.isSymbolicLink()) fs.chmodSync(abs, op.mode);
      return;
    case 'delete':
      if (st) fs.rmSync(abs, { recursive: true, force: true });
      return;
    case 'nest': {
      if (!st?.isDirectory()) return;
      let cur = abs;
      for (let i = 0; i < op.depth; i++) cur = join(cur, Buffer.from(i % 2 ? 'd' : 'skills'));
      fs.mkdirSync(cur, { recursive: true });
      fs.writeFileSync(join(cur, Buffer.from('SKILL.md')), '---\nname: deep\ndescription: deep\n---\nbody\n');
      return;
    }
    case 'many': {
      if (!st?.isDirectory()) return;
      const dir = join(abs, Buffer.from('many'));
      fs.mkdirSync(dir, { recursive: true });
      for (let i = 0; i < op.count; i++) fs.writeFileSync(join(dir, Buffer.from(`f${i}`)), '');
      return;
    }
    case 'copy': {
      if (!st || st.isSymbolicLink()) return;
      const to = join(dirOf(abs), textBytes(op.to));
      if (lstat(to)) return;
      // cpSync takes string paths only: a source or destination that is not UTF-8 is left alone.
      if (!isUtf8(abs) || !isUtf8(to)) return;
      fs.cpSync(abs.toString('utf8'), to.toString('utf8'), { recursive: true });
      return;
    }
  }
}

/** Every value position of a parsed JSON document: [container, key]. */
function slots(
  v: unknown,
  out: [Record<string, unknown> | unknown[], string | number][] = [],
): [Record<string, unknown> | unknown[], string | number][] {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push([v, i]);
      slots(x, out);
    });
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push([v as Record<string, unknown>, k]);
      slots(x, out);
    }
  }
  return out;
}

const MARK = '\u0001FUZZ\u0001';
const MARK_JSON = JSON.stringify(MARK);

function deepArray(depth: number): string {
  return '['.repeat(depth) + '1' + ']'.repeat(depth);
}

function deepObject(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function hugeJson(size: number, at: number): string {
  switch (at % 5) {
    case 0:
      return JSON.stringify('A'.repeat(size));
    case 1:
      return `[${Array.from({ length: Math.min(size, 50000) }, (_, i) => i).join(',')}]`;
    case 2:
      return `{${Array.from({ length: Math.min(size, 20000) }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    case 3:
      // A list of one value repeated: every repeat of a list the agents want unique is a finding with its fix.
      return `[${Array(Math.min(size, 20000)).fill('"a"').join(',')}]`;
    default:
      return `1${'0'.repeat(Math.min(size, 400))}`;
  }
}

const WRONG_TYPES = ['null', '0', '-1', '1e308', '""', '[]', '{}', 'true', '"x"', '1.5', '[null]', '{"":null}'];

export function mutateJson(text: string, how: JsonMutation, at: number, size: number, file = ''): string {
  if (how === 'serde-array' || how === 'serde-null') return serdeJson(text, how, at, size, file);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    // Not JSON (any more): insert the nesting as text.
    const pos = at % (text.length + 1);
    return text.slice(0, pos) + deepArray(size) + text.slice(pos);
  }
  const all = slots(doc);
  const objects = all.filter(([c]) => !Array.isArray(c)) as [Record<string, unknown>, string][];
  if (all.length === 0) return how === 'deep-object' ? deepObject(size) : deepArray(size);
  const [container, key] = all[at % all.length] as [Record<string, unknown>, string];
  let replacement: string;
  switch (how) {
    case 'deep-array':
      replacement = deepArray(size);
      break;
    case 'deep-object':
      replacement = deepObject(size);
      break;
    case 'wrong-type':
      replacement = WRONG_TYPES[size % WRONG_TYPES.length] as string;
      break;
    case 'huge':
      replacement = hugeJson(size, at);
      break;
    case 'controls':
      replacement = JSON.stringify(CONTROL_STRINGS[size % CONTROL_STRINGS.length]);
      break;
    case 'duplicate-key':
    case 'proto': {
      const target = objects.length ? (objects[at % objects.length] as [Record<string, unknown>, string]) : undefined;
      if (!target) return text;
      const [obj, k] = target;
      const dupKey = how === 'proto' ? '__proto__' : k;
      obj[MARK] = 0;
      const value =
        how === 'proto' ? '{"polluted":true,"name":"x"}' : (WRONG_TYPES[size % WRONG_TYPES.length] as string);
      return JSON.stringify(doc, null, 2).replace(`${MARK_JSON}: 0`, `${JSON.stringify(dupKey)}: ${value}`);
    }
  }
  (container as Record<string, unknown>)[key] = MARK;
  return JSON.stringify(doc, null, 2).replace(MARK_JSON, replacement);
}

export function mutateToml(text: string, how: TextMutation, at: number, size: number): string {
  if (how === 'serde-array') return serdeToml(text, at, size);
  const lines = text.split('\n');
  const keyed = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\s*[A-Za-z0-9_."-]+\s*=/.test(l));
  const pick = keyed.length ? (keyed[at % keyed.length] as readonly [string, number]) : undefined;
  const setValue = (value: string): string => {
    if (!pick) return `${text}\nfuzz = ${value}\n`;
    const [line, i] = pick;
    lines[i] = `${line.slice(0, line.indexOf('='))}= ${value}`;
    return lines.join('\n');
  };
  switch (how) {
    case 'deep-array':
      return setValue(deepArray(size));
    case 'deep-table':
      return setValue('{a='.repeat(size) + '1' + '}'.repeat(size));
    case 'duplicate-key':
      if (!pick) return text;
      lines.splice(
        pick[1] + 1,
        0,
        `${pick[0].slice(0, pick[0].indexOf('='))}= ${WRONG_TYPES[size % 3] === 'null' ? '"dup"' : '1'}`,
      );
      return lines.join('\n');
    case 'wrong-type':
      return setValue(
        ['1', 'true', '[]', '{}', '"x"', '1979-05-27', '-inf', '0x10', "'''multi'''"][size % 9] as string,
      );
    case 'huge':
      return setValue(`"${'A'.repeat(size)}"`);
    case 'controls':
      return setValue(JSON.stringify(CONTROL_STRINGS[size % CONTROL_STRINGS.length]).replace(/\\u00/g, '\\u00'));
  }
}

export function mutateFrontMatter(text: string, how: FrontMatterMutation, at: number, size: number): string {
  const hasFence = text.startsWith('---');
  const firstNl = text.indexOf('\n');
  const rest = firstNl < 0 ? '' : text.slice(firstNl + 1);
  switch (how) {
    case 'engine': {
      const e = ENGINE_FENCES[at % ENGINE_FENCES.length] as (typeof ENGINE_FENCES)[number];
      return `${e.fence}\n${e.block}\n---\n${hasFence ? rest.slice(rest.indexOf('\n---') + 4) : text}`;
    }
    case 'deep-yaml': {
      // Block nesting indents each level, so a nest of mappings costs the square of its depth in
      // bytes: 12,000 levels made a 144 MB file, refused by every agent's size limit before any
      // parser saw it. Compact nested sequences (`- - - a`) nest as deep at two bytes a level;
      // mappings nest to 100 levels (10 KB).
      const nested =
        Math.floor(at / 2) % 2
          ? `deep:\n${'- '.repeat(size)}a`
          : Array.from({ length: Math.min(size, 100) }, (_, i) => `${'  '.repeat(i)}a:`).join('\n');
      return hasFence
        ? `---\n${at % 2 ? `x: ${deepArray(size)}` : nested}\n${rest}`
        : `---\nname: deep\n${nested}\n---\n${text}`;
    }
    case 'duplicate-name':
      return hasFence
        ? `---\nname: first\n${rest.replace(/^---/m, 'name: second\n---')}`
        : `---\nname: a\nname: b\n---\n${text}`;
    case 'controls': {
      const c = CONTROL_STRINGS[size % CONTROL_STRINGS.length] as string;
      return hasFence ? `---\ndescription: ${c}\n${rest.replace(/^(name:.*)$/m, `$1${c}`)}` : `# ${c}\n${text}`;
    }
    case 'huge':
      return hasFence ? `---\ndescription: ${'D'.repeat(size)}\n${rest}` : `${text}${'B'.repeat(size)}`;
    case 'unclosed':
      return text.replace(/\n---(\r?\n|$)/, '\n');
    case 'line-endings':
      return at % 2 ? text.replace(/\n/g, '\r\n') : text.replace(/\n/g, '\r');
  }
}

const YAML_WRONG_TYPES = ['null', '0', '[]', '{}', 'yes', '"true"', '~', '!!js/function "x"', '!!binary AAAA', '.nan'];
const YAML_WORDS = ['a', 'w.x', '0', '""', '{}'];

/**
 * Replaces the value of one top-level key (the `at`-th; a new key where there is none),
 * the lines indented under it included: a list of up to 20,000 items, a mapping of 10,000
 * keys, one anchor named 20,000 times, as many aliases of one anchor, a mapping keyed by
 * 5,000 aliases, nesting, a wrong type, control characters, a long string. Each weighs at
 * most about 20,000 nodes. The yaml library parses about 6 µs an item: longer lists, say past the 125,000
 * arguments a spread can pass here, would take an input's dozen commands past the time
 * bound (test/unit/eva.hostile.test.ts reads those once).
 */
export function mutateYaml(text: string, how: YamlMutation, at: number, size: number): string {
  if (how === 'directive' || how === 'document-end') return yamlStream(text, how, at);
  if (how === 'tag') return retag(text, at, size);
  let value: string;
  switch (how) {
    case 'wide-list':
      value = `[${Array(Math.min(size, 20000))
        .fill(YAML_WORDS[at % YAML_WORDS.length])
        .join(',')}]`;
      break;
    case 'wide-map':
      // Two nodes a key: 10,000 keys weigh as a list of 20,000 items.
      value = `{${Array.from({ length: Math.min(size, 10000) }, (_, i) => `k${i}: ${i}`).join(', ')}}`;
      break;
    case 'anchors':
      value = `[${Array(Math.min(size, 20000)).fill('&a 0').join(',')}]`;
      break;
    case 'aliases':
      value = `[&a [x, y], ${Array(Math.min(size, 20000)).fill('*a').join(',')}]`;
      break;
    case 'alias-keys': {
      // A mapping keyed by aliases of anchors defined in its first value: four nodes an alias key,
      // so 5,000 of them weigh as a list of 20,000 items (10,000 took an input's commands past the bound).
      const n = Math.min(size, 5000);
      const anchors = Array.from({ length: n }, (_, i) => `&k${i} a${i}`).join(', ');
      const keys = Array.from({ length: n }, (_, i) => `*k${i} : ${i}`).join(', ');
      value = `{x: [${anchors}], ${keys}}`;
      break;
    }
    case 'deep':
      value = deepArray(size);
      break;
    case 'wrong-type':
      value = YAML_WRONG_TYPES[size % YAML_WRONG_TYPES.length] as string;
      break;
    case 'controls':
      value = JSON.stringify(CONTROL_STRINGS[size % CONTROL_STRINGS.length]);
      break;
    case 'huge':
      value = JSON.stringify('D'.repeat(size));
      break;
    case 'flow-key':
      value = FLOW_KEYS[size % FLOW_KEYS.length] as string;
      break;
  }
  const lines = text.split('\n');
  const keys = topLevelKeyLines(lines);
  if (keys.length === 0) return `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}x: ${value}\n`;
  const start = keys[at % keys.length] as number;
  let end = start + 1;
  while (end < lines.length && /^([ \t-]|$)/.test(lines[end] as string) && lines[end] !== '') end++;
  const key = (lines[start] as string).slice(0, (lines[start] as string).indexOf(':'));
  return [...lines.slice(0, start), `${key}: ${value}`, ...lines.slice(end)].join('\n');
}

/** The indexes of the lines that start a top-level `key:` of a YAML text split at `\n`. */
function topLevelKeyLines(lines: readonly string[]): number[] {
  return lines.flatMap((l, i) => (/^[A-Za-z_][\w-]*:/.test(l) ? [i] : []));
}

/** The choices a serde op makes, from its own numbers (so replay and shrinking redo them). */
function serdeChoices(at: number, size: number) {
  const rng = new Rng(`serde:${at}:${size}`);
  // Mostly every struct; sometimes some; sometimes with trailing nulls.
  const all = rng.bool(0.5);
  return { convert: () => all || rng.bool(0.5), trailingNulls: () => rng.bool(0.3), rng };
}

function serdeJson(text: string, how: SerdeJsonMutation, at: number, size: number, file: string): string {
  const layout = jsonLayoutOf(textBytes(file).toString('latin1'));
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return text;
  }
  if (!layout) return text;
  const c = serdeChoices(at, size);
  const out =
    how === 'serde-array' ? asSerdeArrays(doc, layout, 'json', c) : withNullOptions(doc, layout, () => c.rng.bool(0.5));
  // Shorter: sometimes the root array (a struct) loses its last element, a field serde may then miss.
  if (how === 'serde-array' && Array.isArray(out) && out.length > 1 && c.rng.bool(0.2)) out.pop();
  return JSON.stringify(out, null, size % 2 ? 2 : undefined);
}

function serdeToml(text: string, at: number, size: number): string {
  const parsed = parseTomlDocument('plugin.toml', text, 64);
  if (!parsed.ok) return text;
  try {
    return tomlText(
      asSerdeArrays(parsed.document.value, PLUGIN_TOML_LAYOUT, 'toml', serdeChoices(at, size)) as Record<
        string,
        unknown
      >,
    );
  } catch {
    return text; // a value tomlText cannot write (a date): left as it was
  }
}

/** Directives before the document, and document end markers after it or between its lines. */
const DIRECTIVES = [
  '%YAML 1.2\n---\n',
  '%YAML 1.1\n---\n',
  '%TAG !e! tag:example.com,2000:\n---\n',
  '%YAML 1.2\n%TAG ! !foo\n---\n',
  '%YAML 1.2\n',
  '%YAML 1.2\n%YAML 1.2\n---\n',
  '%FOO bar\n---\n',
  '%YAML 2.0\n---\n',
  '%TAG !e! x\n%TAG !e! y\n---\n',
  '---\n',
];
const FLOW_KEYS = [
  '{ a\n  b: 1 }',
  '{ ? a\n  b : 1 }',
  '[ a\n  : b ]',
  '{ "a\n  b": 1 }',
  '{ a: 1, b\n  : 2 }',
  `{ ${'k'.repeat(1030)}: 1 }`,
  '{ [a, b]: c }',
  '{ ? [a,\n  b] : c }',
];

/** Local tags (a tagged value to serde_yaml), tags that are not (the plain value), a core tag. */
const TAGS = ['!t', '!!js/x', '!<tag:x,2000:y>', '!', '!<!t>', '!!str'];

/**
 * A tag on the `at`-th top-level key's value (its block under it kept), on that key, or on the
 * whole document: Eva's schema reads values through a local tag, serde ignores a mapping's tag,
 * and a tag that is not local is no tag at all (docs/eva.md).
 */
function retag(text: string, at: number, size: number): string {
  const tag = TAGS[size % TAGS.length] as string;
  const where = Math.floor(size / TAGS.length) % 3;
  if (where === 2) return `--- ${tag}\n${text}`;
  const lines = text.split('\n');
  const keys = topLevelKeyLines(lines);
  if (keys.length === 0) return text;
  const i = keys[at % keys.length] as number;
  const line = lines[i] as string;
  const colon = line.indexOf(':');
  lines[i] =
    where === 1
      ? `${tag} ${line}`
      : `${line.slice(0, colon + 1)} ${tag}${line.slice(colon + 1).replace(/^(?=\S)/, ' ')}`;
  return lines.join('\n');
}

function yamlStream(text: string, how: 'directive' | 'document-end', at: number): string {
  if (how === 'directive') return (DIRECTIVES[at % DIRECTIVES.length] as string) + text;
  const ends = ['...\n', '...\n...\n', '\n...\n', '... # end\n', '...\n---\n'];
  const end = ends[at % ends.length] as string;
  if (at % 3 === 0) {
    // Between two top-level keys: what follows is a second document, or text after its end.
    const lines = text.split('\n');
    const keys = topLevelKeyLines(lines).filter((i) => i > 0);
    if (keys.length) {
      const i = keys[at % keys.length] as number;
      return [...lines.slice(0, i), end.replace(/\n$/, ''), ...lines.slice(i)].join('\n');
    }
  }
  return `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${end}`;
}

export function describeOp(op: Op): string {
  return JSON.stringify(op);
}

export { bytesText };
