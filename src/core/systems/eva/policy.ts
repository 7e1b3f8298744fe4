import * as path from 'node:path';
import type { Diagnostic } from '../../model';
import { rustTrim } from '../../text/rustText';
import { evaDiagnostic } from './diagnostics';
import { capabilityNameError, identifierError } from './ids';
import { firstSchemaError } from './schemaSubset';
import { isMapping, untag, yamlTypeName } from './yamlValue';
import { mappingGet, nonStringKeys, serdeKeys } from './yamlMappingKeys';
import type { YamlDocument } from './yamlDocument';

/**
 * The skill policy knobs of `adapter_policy` (eva.md §3.3), read from the policy files
 * in order: a later document's `adapter_policy` replaces an earlier one wholesale. A
 * malformed `adapter_policy` fails closed: every skill of the project is denied.
 */

export interface EvaPolicy {
  readonly failClosed: boolean;
  readonly defaults: {
    readonly readWorkspace: boolean;
    readonly writeWorkspace: boolean;
    readonly network: boolean;
    readonly shell: boolean;
    readonly maxTimeoutMs: number | null;
  };
  readonly allowWriteWorkspace: readonly string[];
  readonly denyCapabilities: readonly string[];
  readonly requireSchema: boolean;
  readonly allowUserLocalSkills: boolean;
  readonly allowedRuntimeGates: readonly string[];
  readonly denyKinds: readonly string[];
  /** The file `adapter_policy` came from, for `explain` (null: no policy, built-in defaults). */
  readonly source: string | null;
}

export const DEFAULT_POLICY: EvaPolicy = {
  failClosed: false,
  defaults: { readWorkspace: false, writeWorkspace: false, network: false, shell: false, maxTimeoutMs: null },
  allowWriteWorkspace: [],
  denyCapabilities: [],
  requireSchema: true,
  allowUserLocalSkills: false,
  allowedRuntimeGates: ['normal'],
  denyKinds: [],
  source: null,
};

export interface PolicyDocument {
  readonly file: string;
  readonly document: YamlDocument;
}

export interface PolicyReading {
  readonly policy: EvaPolicy;
  readonly diagnostics: Diagnostic[];
  /** Policy files the shipped loader would refuse, in order (§4.5). */
  readonly failing: readonly string[];
}

/** Reads the parsed policy documents (unreadable ones were reported by the caller). */
export function readPolicy(documents: readonly PolicyDocument[], schema: unknown): PolicyReading {
  const diagnostics: Diagnostic[] = [];
  const failing: string[] = [];
  let chosen: EvaPolicy | undefined;
  let anyMalformed = false;
  for (const { file, document } of documents) {
    const schemaError = firstSchemaError(schema, document.value);
    const loaderError = schemaError ? undefined : domainKeysError(document.value);
    if (schemaError || loaderError) {
      const at = schemaError ? document.fieldRange(schemaError.path) : document.lineRange(0);
      diagnostics.push(
        evaDiagnostic(
          file,
          at,
          'eva.policy.invalid',
          schemaError ? `${schemaError.message} (${schemaError.field})` : (loaderError as string),
        ),
      );
      failing.push(file);
      continue;
    }
    const v = document.value as Record<string, unknown>;
    if (!Object.prototype.hasOwnProperty.call(v, 'adapter_policy')) continue;
    // Every document's domain is parsed (from_documents stops at the first that fails, though a
    // later one would have replaced it); the last one read is the policy.
    const problems: Problem[] = [];
    chosen = adapterPolicy(v['adapter_policy'], file, problems);
    for (const p of problems)
      diagnostics.push(
        evaDiagnostic(file, document.fieldRange(['adapter_policy', ...p.path]), 'eva.policy.invalid', p.message),
      );
    if (problems.length) {
      failing.push(file);
      anyMalformed = true;
    }
  }
  if (!chosen) return { policy: DEFAULT_POLICY, diagnostics, failing };
  return { policy: anyMalformed ? { ...chosen, failClosed: true } : chosen, diagnostics, failing };
}

function domainKeysError(value: unknown): string | undefined {
  // Upstream matches `Value::Mapping` itself, not through a tag (`--- !t` is no mapping to it),
  // and then each key as `Value::String`: a number, a boolean or a tagged key is refused.
  if (!isMapping(value)) return 'policy document must be a mapping';
  const odd = nonStringKeys(value);
  if (Object.keys(value).length + odd.shadowed === 0) return 'policy document cannot be empty';
  if (odd.names.size || odd.shadowed) return 'policy domain keys must be non-empty strings';
  for (const key of Object.keys(value)) {
    // Upstream: `!key.trim().is_empty() && key.trim() == key`, with Rust's trim.
    const trimmed = rustTrim(key);
    if (trimmed.length === 0 || trimmed !== key) return 'policy domain keys must be non-empty strings';
  }
  return undefined;
}

type Problem = { path: (string | number)[]; message: string };

/** `Value::as_u64` through the tag: a serde_yaml integer from 0 (a float, `-5`, `"5"`, `1_000` are none). */
function isU64(v: unknown): v is number {
  const n = untag(v);
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}

const U32_MAX = 0xffff_ffff;

function adapterPolicy(value: unknown, file: string, problems: Problem[]): EvaPolicy {
  const root = untag(value);
  if (!isMapping(root)) {
    problems.push({ path: [], message: 'policy domain field must be a mapping' });
    return DEFAULT_POLICY;
  }
  const mapping = (v: unknown, at: (string | number)[]): Record<string, unknown> | undefined => {
    if (v === undefined) return undefined;
    const m = untag(v);
    if (!isMapping(m)) {
      problems.push({ path: at, message: 'policy domain field must be a mapping' });
      return undefined;
    }
    return m;
  };
  const bool = (v: unknown, at: (string | number)[], fallback: boolean): boolean => {
    if (v === undefined) return fallback;
    const b = untag(v);
    if (typeof b !== 'boolean') {
      problems.push({ path: at, message: 'policy field must be a boolean' });
      return fallback;
    }
    return b;
  };
  const u64 = (v: unknown, at: (string | number)[]): number | null => {
    if (v === undefined) return null;
    if (isU64(v)) return untag(v) as number;
    problems.push({ path: at, message: 'policy field must be an unsigned integer' });
    return null;
  };
  const list = (v: unknown, at: (string | number)[], check: (s: string) => string | undefined): string[] => {
    if (v === undefined) return [];
    const items = untag(v);
    if (!Array.isArray(items)) {
      problems.push({ path: at, message: 'policy field must be a list of strings' });
      return [];
    }
    // Upstream stops at a list's first bad entry: that one is reported, once per list, not
    // once per entry (a list of 20,000 aliases would be 20,000 diagnostics).
    const out: string[] = [];
    let refused = false;
    items.forEach((item, i) => {
      const s = untag(item);
      const error =
        typeof s === 'string' ? check(s) : `policy field must be a list of strings (got ${yamlTypeName(s)})`;
      if (!error) out.push(s as string);
      else if (!refused) {
        refused = true;
        problems.push({ path: [...at, i], message: error });
      }
    });
    return out;
  };
  const defaults = mapping(mappingGet(root, 'defaults'), ['defaults']);
  const skill = mapping(mappingGet(root, 'skill'), ['skill']);
  const maxTimeoutMs = defaults ? u64(mappingGet(defaults, 'max_timeout_ms'), ['defaults', 'max_timeout_ms']) : null;
  const knob = (m: Record<string, unknown> | undefined, key: string): unknown => (m ? mappingGet(m, key) : undefined);
  const retry = mappingGet(root, 'retry');
  if (retry !== undefined) retryPolicy(retry, mapping, u64, problems);
  return {
    failClosed: false,
    defaults: {
      readWorkspace: bool(knob(defaults, 'read_workspace'), ['defaults', 'read_workspace'], false),
      writeWorkspace: bool(knob(defaults, 'write_workspace'), ['defaults', 'write_workspace'], false),
      network: bool(knob(defaults, 'network'), ['defaults', 'network'], false),
      shell: bool(knob(defaults, 'shell'), ['defaults', 'shell'], false),
      maxTimeoutMs,
    },
    allowWriteWorkspace: list(mappingGet(root, 'allow_write_workspace'), ['allow_write_workspace'], identifierError),
    denyCapabilities: list(mappingGet(root, 'deny_capabilities'), ['deny_capabilities'], capabilityNameError),
    requireSchema: bool(knob(skill, 'require_schema'), ['skill', 'require_schema'], true),
    allowUserLocalSkills: bool(knob(skill, 'allow_user_local_skills'), ['skill', 'allow_user_local_skills'], false),
    // No `skill` section: {normal}; a `skill` section without the key: the empty set (eva.md §3.3).
    allowedRuntimeGates: skill
      ? list(mappingGet(skill, 'allowed_runtime_gates'), ['skill', 'allowed_runtime_gates'], () => undefined)
      : ['normal'],
    denyKinds: skill ? list(mappingGet(skill, 'deny_kinds'), ['skill', 'deny_kinds'], () => undefined) : [],
    source: path.resolve(file),
  };
}

/**
 * `adapter_policy.retry` (domains.rs `parse_retry_policy`): nothing a skill's decision reads, but
 * a malformed one fails the whole policy gate as any other knob does, so it is checked.
 */
function retryPolicy(
  value: unknown,
  mapping: (v: unknown, at: (string | number)[]) => Record<string, unknown> | undefined,
  u64: (v: unknown, at: (string | number)[]) => number | null,
  problems: Problem[],
): void {
  const retry = mapping(value, ['retry']);
  if (!retry) return;
  // `max_attempts` is read as a u64, then narrowed to a u32.
  const attempts = (m: Record<string, unknown>, at: (string | number)[]): void => {
    const n = u64(mappingGet(m, 'max_attempts'), [...at, 'max_attempts']);
    if (n !== null && n > U32_MAX)
      problems.push({ path: [...at, 'max_attempts'], message: 'retry max_attempts is too large' });
  };
  const fallback = mapping(mappingGet(retry, 'default'), ['retry', 'default']);
  if (fallback) attempts(fallback, ['retry', 'default']);
  const capabilities = mapping(mappingGet(retry, 'capabilities'), ['retry', 'capabilities']);
  if (!capabilities) return;
  // Every pair, keys that are no string included (`capability_key` reads each through `as_str`).
  const odd = nonStringKeys(capabilities);
  const pairs = serdeKeys(capabilities)?.map((k) => [k.name, k.value] as const) ?? Object.entries(capabilities);
  for (const [name, config] of pairs) {
    const at = ['retry', 'capabilities', name];
    const keyIsString = !odd.names.has(name) || odd.taggedStrings.has(name);
    const keyError = !keyIsString
      ? 'policy field must be a string'
      : rustTrim(name).length === 0 || rustTrim(name) !== name
        ? 'policy mapping key must be non-empty and trimmed'
        : capabilityNameError(name);
    if (keyError) problems.push({ path: at, message: keyError });
    const m = mapping(config, at);
    if (m) {
      attempts(m, at);
      u64(mappingGet(m, 'backoff_ms'), [...at, 'backoff_ms']);
    }
  }
  if (odd.shadowedNonStrings)
    problems.push({ path: ['retry', 'capabilities'], message: 'policy field must be a string' });
}
