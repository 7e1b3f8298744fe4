import * as path from 'node:path';
import type { Diagnostic } from '../../model';
import { rustTrim } from '../../text/rustText';
import { evaDiagnostic } from './diagnostics';
import { capabilityNameError, identifierError } from './ids';
import { firstSchemaError } from './schemaSubset';
import { isMapping, nonStringKeys, yamlTypeName, type YamlDocument } from './yamlDocument';

/**
 * The skill policy knobs of `adapter_policy` (eva.md §3.3), read from the policy files
 * in order: a later document's `adapter_policy` replaces an earlier one wholesale. A
 * malformed `adapter_policy` fails closed: every skill of the project is denied.
 */

export interface PolicySource {
  readonly file: string;
  /** The dotted key that decided the value, e.g. `adapter_policy.defaults.network`; null for a default. */
  readonly key: string | null;
}

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
  let chosen: { file: string; document: YamlDocument; value: unknown } | undefined;
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
    if (Object.prototype.hasOwnProperty.call(v, 'adapter_policy'))
      chosen = { file, document, value: v['adapter_policy'] };
  }
  if (!chosen) return { policy: DEFAULT_POLICY, diagnostics, failing };
  const problems: { path: (string | number)[]; message: string }[] = [];
  const policy = adapterPolicy(chosen.value, chosen.file, problems);
  for (const p of problems)
    diagnostics.push(
      evaDiagnostic(
        chosen.file,
        chosen.document.fieldRange(['adapter_policy', ...p.path]),
        'eva.policy.invalid',
        p.message,
      ),
    );
  if (problems.length) {
    failing.push(chosen.file);
    return { policy: { ...policy, failClosed: true }, diagnostics, failing };
  }
  return { policy, diagnostics, failing };
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

function adapterPolicy(
  value: unknown,
  file: string,
  problems: { path: (string | number)[]; message: string }[],
): EvaPolicy {
  if (!isMapping(value)) {
    problems.push({ path: [], message: 'policy domain field must be a mapping' });
    return DEFAULT_POLICY;
  }
  const mapping = (v: unknown, at: (string | number)[]): Record<string, unknown> | undefined => {
    if (v === undefined) return undefined;
    if (!isMapping(v)) {
      problems.push({ path: at, message: 'policy domain field must be a mapping' });
      return undefined;
    }
    return v;
  };
  const bool = (v: unknown, at: (string | number)[], fallback: boolean): boolean => {
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') {
      problems.push({ path: at, message: 'policy field must be a boolean' });
      return fallback;
    }
    return v;
  };
  const list = (v: unknown, at: (string | number)[], check: (s: string) => string | undefined): string[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      problems.push({ path: at, message: 'policy field must be a list of strings' });
      return [];
    }
    const out: string[] = [];
    v.forEach((s, i) => {
      const error =
        typeof s === 'string' ? check(s) : `policy field must be a list of strings (got ${yamlTypeName(s)})`;
      if (error) problems.push({ path: [...at, i], message: error });
      else out.push(s as string);
    });
    return out;
  };
  const defaults = mapping(value['defaults'], ['defaults']);
  const skill = mapping(value['skill'], ['skill']);
  const maxTimeout = defaults?.['max_timeout_ms'];
  if (maxTimeout !== undefined && !(typeof maxTimeout === 'number' && Number.isInteger(maxTimeout)))
    problems.push({ path: ['defaults', 'max_timeout_ms'], message: 'policy field must be an integer' });
  return {
    failClosed: false,
    defaults: {
      readWorkspace: bool(defaults?.['read_workspace'], ['defaults', 'read_workspace'], false),
      writeWorkspace: bool(defaults?.['write_workspace'], ['defaults', 'write_workspace'], false),
      network: bool(defaults?.['network'], ['defaults', 'network'], false),
      shell: bool(defaults?.['shell'], ['defaults', 'shell'], false),
      maxTimeoutMs: typeof maxTimeout === 'number' ? maxTimeout : null,
    },
    allowWriteWorkspace: list(value['allow_write_workspace'], ['allow_write_workspace'], identifierError),
    denyCapabilities: list(value['deny_capabilities'], ['deny_capabilities'], capabilityNameError),
    requireSchema: bool(skill?.['require_schema'], ['skill', 'require_schema'], true),
    allowUserLocalSkills: bool(skill?.['allow_user_local_skills'], ['skill', 'allow_user_local_skills'], false),
    // No `skill` section: {normal}; a `skill` section without the key: the empty set (eva.md §3.3).
    allowedRuntimeGates: skill
      ? list(skill['allowed_runtime_gates'], ['skill', 'allowed_runtime_gates'], () => undefined)
      : ['normal'],
    denyKinds: skill ? list(skill['deny_kinds'], ['skill', 'deny_kinds'], () => undefined) : [],
    source: path.resolve(file),
  };
}
