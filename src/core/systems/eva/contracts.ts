import type { DocPath } from '../../documents/document';
import type { Diagnostic, Range } from '../../model';
import type { FixDraft } from '../../diagnostics/fixBasis';
import { evaDiagnostic, fixLast } from './diagnostics';
import { identifierError, textFieldError } from './ids';
import { manifestRootSerdeError, manifestString } from './rawManifestSerde';
import type { RuntimeGate } from './runtime';
import { firstSchemaError } from './schemaSubset';
import type { EvaDiagnosticCode, EvaSkillKind } from './vocabulary';
import type { YamlDocument } from './yamlDocument';
import { isMapping, manifestRoot } from './yamlValue';
import { FileCap } from '../../diagnostics/fileCap';

/**
 * The manifest contracts (eva.md §2.2–§2.7): upstream's schema first, then the typed
 * loader's rules (ids, names, capability names), then the skill contract of the design.
 * Upstream stops at the first error of a file, so schema and loader report one error;
 * the skill-contract checks, which the shipped loader does not make, each report theirs.
 *
 * This file ties them together: what a check gives (ContractResult, the SkillContract read),
 * the Checker that collects a file's errors, and the stages the contracts share (upstream's
 * schema, the loader's identity rules, a root that is no mapping). Each manifest's contract has
 * its own file: adapterContract.ts, skillAdapterContract.ts, capabilityContract.ts and
 * luaSkillContract.ts.
 */

/** A schema reference: inline, or a file path (lua_skill). */
export type SchemaRef =
  { readonly inline: Record<string, unknown> } | { readonly file: string; readonly field: string };

export interface EvaPermissions {
  readonly readWorkspace: boolean;
  readonly writeWorkspace: boolean;
  readonly network: boolean;
  readonly shell: boolean;
  readonly env: readonly string[];
  readonly fsRead: readonly string[];
  readonly fsWrite: readonly string[];
  readonly adapterCapabilities: readonly string[];
  readonly adapterProviders: readonly string[];
}

/** What a skill manifest declares, as read (the parts of the §3.1 descriptor that come from the file). */
export interface SkillContract {
  readonly id: string;
  readonly name: string | null;
  readonly kind: EvaSkillKind;
  readonly transport: string | null;
  readonly skillId: string | null;
  readonly skillSource: string | null;
  /** `skill.path` (adapters) or `lua.script` (lua_skill), as declared, with its field. */
  readonly skillPath: { readonly declared: string; readonly field: DocPath } | null;
  readonly script: { readonly declared: string; readonly field: DocPath } | null;
  readonly capabilities: readonly { readonly name: string; readonly field: DocPath }[];
  readonly capabilitiesField: DocPath;
  readonly runtimeGate: RuntimeGate | null;
  readonly gateField: DocPath;
  readonly inputSchema: SchemaRef | null;
  readonly outputSchema: SchemaRef | null;
  readonly schemaField: DocPath;
  readonly permissions: EvaPermissions;
  readonly hasCredentials: boolean;
  readonly entryType: string | null;
  readonly runnerCommand: string | null;
  /** `skill.runner.args` (strings only), which go with `runnerCommand`. */
  readonly runnerArgs: readonly string[];
  readonly topCommand: string | null;
  /** Top-level `args`, which go with `topCommand`. */
  readonly topArgs: readonly string[];
  readonly enabled: boolean;
  readonly limits: Record<string, number>;
  readonly allowUnknownCapability: boolean;
}

export interface ContractResult {
  /** Set when schema, loader or skill-contract rules failed (`schema_invalid`). */
  readonly invalid: boolean;
  /** Set when the shipped loader would refuse the file (§4.5). */
  readonly shippedError: boolean;
  readonly contract: SkillContract | null;
  readonly diagnostics: Diagnostic[];
}

export class Checker {
  readonly diagnostics: Diagnostic[] = [];
  invalid = false;
  shipped = false;
  /** Skillgate's own contract checks report each problem; the cap bounds a hostile list's (fileCap.ts). */
  private readonly cap = new FileCap();
  constructor(readonly doc: YamlDocument) {}

  /** An error at `path` (the key when it exists, else the mapping that lacks it). */
  error(
    code: EvaDiagnosticCode,
    message: string,
    path: DocPath,
    shipped: boolean,
    span?: readonly [number, number],
  ): void {
    const range = span ? this.doc.spanRange(span[0], span[1]) : this.doc.fieldRange(path);
    this.cap.add(this.diagnostics, evaDiagnostic(this.doc.file, range, code, message));
    this.invalid = true;
    if (shipped) this.shipped = true;
  }

  note(code: EvaDiagnosticCode, message: string, path: DocPath): void {
    this.cap.add(this.diagnostics, evaDiagnostic(this.doc.file, this.doc.fieldRange(path), code, message));
  }

  range(path: DocPath): Range {
    return this.doc.fieldRange(path);
  }
}

/**
 * Upstream's schema error, reported at the field it names. When that first error is
 * elsewhere, a bad `transport`/`kind` is added as information (eva.md §2.1): it is why
 * the file is not a skill.
 */
export function schemaStage(c: Checker, schema: unknown, discriminator: 'transport' | 'kind'): boolean {
  const e = firstSchemaError(schema, c.doc.value);
  if (!e) return true;
  const path = e.missing === undefined ? e.path : [...e.path, e.missing];
  c.error(e.code, e.code === 'eva.schema.required' ? `${e.message}: ${e.field}` : e.message, path, true);
  fixLast(c.diagnostics, booleanFix(c.doc, e.path, e.message), c.doc);
  const properties = isMapping(schema) && isMapping(schema['properties']) ? schema['properties'] : undefined;
  const value = manifestRoot(c.doc);
  if (
    e.path[0] !== discriminator &&
    properties?.[discriminator] !== undefined &&
    isMapping(value) &&
    value[discriminator] !== undefined
  ) {
    const d = firstSchemaError(properties[discriminator], value[discriminator], [discriminator]);
    if (d) c.diagnostics.push(evaDiagnostic(c.doc.file, c.doc.fieldRange(d.path), d.code, d.message, 'information'));
  }
  return false;
}

/**
 * A boolean written as a YAML 1.1 word (`yes`, `off`, a quoted `"true"`): YAML 1.2 reads a
 * string, Eva refuses it. The meaning is unambiguous, so the fix writes the boolean.
 */
function booleanFix(doc: YamlDocument, path: DocPath, message: string): FixDraft | undefined {
  if (!message.startsWith('schema type mismatch: expected boolean, got string')) return undefined;
  const v = path.reduce<unknown>(
    (o, k) => (isMapping(o) || Array.isArray(o) ? (o as Record<string, unknown>)[k as string] : undefined),
    manifestRoot(doc),
  );
  if (typeof v !== 'string') return undefined;
  const word = v.trim().toLowerCase();
  const meant = ['yes', 'y', 'on', 'true'].includes(word)
    ? 'true'
    : ['no', 'n', 'off', 'false'].includes(word)
      ? 'false'
      : undefined;
  // A tag or an anchor written on the value is not the word: `!!str true` is still a string,
  // and an anchored value is every alias of it too, which the word would change as well.
  if (!meant || doc.hasNodeProperties(path)) return undefined;
  // A block scalar (`|`, `>`) runs through the line break that ends it: the word replaces it
  // up to that break, which stays, or the next key would join this line.
  const [start, end] = doc.valueSpan(path);
  let until = end;
  while (until > start && (doc.text[until - 1] === '\n' || doc.text[until - 1] === '\r')) until--;
  return {
    title: `Write ${meant} (a YAML 1.2 boolean)`,
    edits: [{ file: doc.file, range: doc.spanRange(start, until), newText: meant }],
  };
}

/**
 * Loader rules shared by adapter and capability manifests: id, name, version, each on the text
 * serde read into its `String` (`id:` is "", `name: !t " "` is " ").
 */
export function loaderIdentity(c: Checker, value: Record<string, unknown>): boolean {
  const id = manifestString(c.doc, value, 'id');
  if (id !== undefined) {
    const e = identifierError(id);
    if (e) return (c.error('eva.id.invalid', e, ['id'], true), false);
  }
  for (const key of ['name', 'version']) {
    const v = manifestString(c.doc, value, key);
    if (v !== undefined) {
      const e = textFieldError(v);
      if (e) return (c.error('eva.field.empty', e, [key], true), false);
    }
  }
  return true;
}

/**
 * The typed loader on a document the schema passed (no top-level `type` in the project's schema)
 * that is no mapping: serde refuses it (manifestRootSerdeError), and that is the file's error.
 */
export function rootLoader(c: Checker, area: 'adapter' | 'capability'): void {
  const e = manifestRootSerdeError(c.doc, area);
  if (e) c.error('eva.yaml.parse', e.message, e.path, true, e.span);
}
