import type { DocPath } from '../../documents/document';
import type { Diagnostic, Range } from '../../model';
import type { FixDraft } from '../../diagnostics/fixBasis';
import { evaDiagnostic, fixLast } from './diagnostics';
import { capabilityNameError, identifierError, textFieldError } from './ids';
import { rustTrim } from '../../text/rustText';
import { providerRuleError, providerSerdeError } from './providerRules';
import {
  adapterCapabilityList,
  adapterEntriesSerdeError,
  adapterPermissionList,
  adapterStructSerdeError,
  capabilityBufferedTagError,
  capabilitySerdeError,
  manifestEnabled,
  manifestRootSerdeError,
  manifestString,
  serdeString,
  structField,
} from './rawManifestSerde';
import { KNOWN_MODES, type RuntimeGate } from './runtime';
import { firstSchemaError, fieldPath } from './schemaSubset';
import type { EvaDiagnosticCode, EvaSkillKind } from './vocabulary';
import { isMapping, manifestRoot, untag, yamlTypeName, type YamlDocument } from './yamlDocument';

/**
 * The manifest contracts (eva.md §2.2–§2.7): upstream's schema first, then the typed
 * loader's rules (ids, names, capability names), then the skill contract of the design.
 * Upstream stops at the first error of a file, so schema and loader report one error;
 * the skill-contract checks, which the shipped loader does not make, each report theirs.
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

const NO_PERMISSIONS: EvaPermissions = {
  readWorkspace: false,
  writeWorkspace: false,
  network: false,
  shell: false,
  env: [],
  fsRead: [],
  fsWrite: [],
  adapterCapabilities: [],
  adapterProviders: [],
};

class Checker {
  readonly diagnostics: Diagnostic[] = [];
  invalid = false;
  shipped = false;
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
    this.diagnostics.push(evaDiagnostic(this.doc.file, range, code, message));
    this.invalid = true;
    if (shipped) this.shipped = true;
  }

  note(code: EvaDiagnosticCode, message: string, path: DocPath): void {
    this.diagnostics.push(evaDiagnostic(this.doc.file, this.doc.fieldRange(path), code, message));
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
function schemaStage(c: Checker, schema: unknown, discriminator: 'transport' | 'kind'): boolean {
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
function loaderIdentity(c: Checker, value: Record<string, unknown>): boolean {
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

/** Validation of a context adapter manifest (not a skill): schema, then loader rules. */
export function checkAdapterManifest(doc: YamlDocument, schema: unknown): ContractResult {
  const c = new Checker(doc);
  const value = manifestRoot(doc);
  if (schemaStage(c, schema, 'transport')) {
    if (isMapping(value)) adapterLoader(c, value);
    else rootLoader(c, 'adapter');
  }
  return { invalid: c.invalid, shippedError: c.shipped, contract: null, diagnostics: c.diagnostics };
}

/**
 * The typed loader on a document the schema passed (no top-level `type` in the project's schema)
 * that is no mapping: serde refuses it (manifestRootSerdeError), and that is the file's error.
 */
function rootLoader(c: Checker, area: 'adapter' | 'capability'): void {
  const e = manifestRootSerdeError(c.doc, area);
  if (e) c.error('eva.yaml.parse', e.message, e.path, true, e.span);
}

/** The transports Eva-CLI's loader knows (`AdapterTransport::parse`, eva.md §2.2). */
const ADAPTER_TRANSPORTS: readonly string[] = [
  'builtin',
  'stdio',
  'http',
  'eventbus',
  'mcp',
  'skill',
  'hardware',
  'lua_capability',
];

/**
 * The typed loader (`AdapterManifest::try_from_raw`): serde's reading of the provider
 * fields, then id, name, version, transport and capability names, then the provider rules.
 */
function adapterLoader(c: Checker, value: Record<string, unknown>): boolean {
  // serde reads the mapping in document order: the first entry it refuses is the error.
  const provider = providerSerdeError(c.doc, value);
  const own = adapterEntriesSerdeError(c.doc, value);
  const first = own && (!provider || before(c.doc, own.path, provider.path)) ? own : provider;
  const serde = adapterStructSerdeError(c.doc, value, first);
  if (serde) {
    const code = serde === provider ? 'eva.provider.invalid' : 'eva.yaml.parse';
    return (c.error(code, serde.message, serde.path, true, serde.span), false);
  }
  if (!loaderIdentity(c, value)) return false;
  // The loader's own check (§2.2), reached when a project's schema no longer lists the transports.
  const transport = manifestString(c.doc, value, 'transport');
  if (transport !== undefined && !ADAPTER_TRANSPORTS.includes(transport))
    return (c.error('eva.adapter.transport-unsupported', 'unsupported Adapter transport', ['transport'], true), false);
  // serde's text of each item (`[5]` is "5", `!t [a]` is ["a"]), as the loader parses it.
  for (const cap of adapterCapabilityList(c.doc, value)) {
    const e = capabilityNameError(cap.name);
    if (e) return (c.error('eva.capability.name-invalid', e, cap.field, true), false);
  }
  const rule = providerRuleError(c.doc, value);
  if (rule) return (c.error('eva.provider.invalid', rule.message, rule.path, true), false);
  return true;
}

/** True when the top-level entry of `a` comes before that of `b` in the document. */
function before(doc: YamlDocument, a: DocPath, b: DocPath): boolean {
  const [ra, rb] = [doc.keyRange(a.slice(0, 1)).start, doc.keyRange(b.slice(0, 1)).start];
  return ra.line < rb.line || (ra.line === rb.line && ra.character < rb.character);
}

/** A `transport: skill` adapter: upstream schema and loader, then the skill contract (§2.3). */
export function checkSkillAdapter(doc: YamlDocument, schema: unknown): ContractResult {
  const c = new Checker(doc);
  const value = manifestRoot(doc) as Record<string, unknown>;
  if (!schemaStage(c, schema, 'transport') || !adapterLoader(c, value))
    return { invalid: true, shippedError: c.shipped, contract: null, diagnostics: c.diagnostics };

  const skill = value['skill'];
  if (!isMapping(skill)) {
    c.error('eva.skill.block-missing', 'transport: skill requires a skill mapping', ['transport'], false);
    return { invalid: true, shippedError: c.shipped, contract: null, diagnostics: c.diagnostics };
  }
  const skillId = skill['id'];
  // Blank as Rust's `trim` has it (U+0085 is blank, a byte-order mark is not), not JS `trim`.
  if (typeof skillId !== 'string' || rustTrim(skillId) === '')
    c.error('eva.skill.id-missing', 'Skill adapter is missing skill.id', ['skill'], false);
  const kind = skill['kind'];
  let skillKind: EvaSkillKind = 'workflow_skill';
  if (typeof kind !== 'string')
    c.error('eva.skill.kind-missing', 'skill.kind is required for transport: skill', ['skill'], false);
  else if (kind !== 'workflow_skill' && kind !== 'runtime_worker')
    c.error(
      'eva.skill.kind-invalid',
      'Skill adapter kind is not invokable (expected workflow_skill or runtime_worker)',
      ['skill', 'kind'],
      false,
    );
  else skillKind = kind;
  const gate = readGate(c, skill, ['skill', 'runtime_gate'], 'skill.runtime_gate is required for transport: skill', [
    'skill',
  ]);
  if (gate?.form === 'mapping')
    c.note(
      'eva.compat.gate-mapping',
      'current Eva-CLI invokes skill adapters only with a string runtime gate equal to normal',
      ['skill', 'runtime_gate'],
    );
  const inputSchema = inlineSchema(c, skill, 'input_schema', true);
  const outputSchema = inlineSchema(c, skill, 'output_schema', false);
  const skillPath = pathField(c, skill['path'], ['skill', 'path']);
  const permissions = adapterPermissions(c, value['permissions']);
  const entry = isMapping(skill['entry']) ? skill['entry'] : undefined;
  const runner = isMapping(skill['runner']) ? skill['runner'] : undefined;
  const credentials = isMapping(value['credentials']) ? value['credentials'] : undefined;
  const vault = credentials?.['vault'];
  const contract: SkillContract = {
    // The loader has checked it: serde's text of the scalar (`id: 5` is the id "5", as Eva reads it).
    id: manifestString(doc, value, 'id') as string,
    name: typeof value['name'] === 'string' ? value['name'] : null,
    kind: skillKind,
    transport: 'skill',
    skillId: typeof skillId === 'string' ? skillId : null,
    skillSource: typeof skill['source'] === 'string' ? skill['source'] : null,
    skillPath,
    script: null,
    capabilities: adapterCapabilityList(doc, value),
    capabilitiesField: ['capabilities'],
    runtimeGate: gate,
    gateField: ['skill', 'runtime_gate'],
    inputSchema,
    outputSchema,
    schemaField: ['skill'],
    permissions,
    hasCredentials: Array.isArray(vault) && vault.length > 0,
    entryType: typeof entry?.['type'] === 'string' ? entry['type'] : 'codex_skill',
    runnerCommand: typeof runner?.['command'] === 'string' ? runner['command'] : null,
    runnerArgs: stringList(runner?.['args'], ['skill', 'runner', 'args']).map((a) => a.name),
    topCommand: typeof value['command'] === 'string' ? value['command'] : null,
    topArgs: stringList(value['args'], ['args']).map((a) => a.name),
    // serde's `bool`: `enabled: !t true` is true to Eva where the project's schema leaves it open.
    enabled: manifestEnabled(doc, value),
    limits: numbers(value['limits']),
    allowUnknownCapability: value['allow_unknown_capability'] === true || skill['allow_unknown_capability'] === true,
  };
  if (value['allow_unknown_capability'] !== undefined)
    c.note(
      'eva.capability.allow-unknown-ignored',
      'allow_unknown_capability is not honoured without a policy that allows it',
      ['allow_unknown_capability'],
    );
  return { invalid: c.invalid, shippedError: c.shipped, contract, diagnostics: c.diagnostics };
}

/** The capability kinds Eva-CLI's loader knows (eva.md §2.4); `lua_skill` is not one (§2.5). */
const CAPABILITY_KINDS: readonly string[] = ['adapter_capability', 'lua_capability', 'mcp_tool', 'skill'];

/** A generic capability manifest (context or `kind: skill` binding): schema, then loader. */
export function checkCapabilityManifest(doc: YamlDocument, schema: unknown): ContractResult {
  const c = new Checker(doc);
  const value = manifestRoot(doc);
  if (schemaStage(c, schema, 'kind')) {
    if (isMapping(value)) capabilityLoader(c, value);
    else rootLoader(c, 'capability');
  }
  return { invalid: c.invalid, shippedError: c.shipped, contract: null, diagnostics: c.diagnostics };
}

/**
 * The typed loader (`CapabilityManifest::try_from_raw`): serde's reading, then id, name,
 * version, kind, capability, the provider ids and `permissions.adapters`, first error only.
 */
function capabilityLoader(c: Checker, value: Record<string, unknown>): void {
  const serde = capabilitySerdeError(c.doc, value);
  if (serde) return c.error('eva.yaml.parse', serde.message, serde.path, true, serde.span);
  if (!loaderIdentity(c, value)) return;
  // The loader's own check (§2.4), reached when a project's schema no longer lists the kinds.
  const kind = manifestString(c.doc, value, 'kind');
  if (kind !== undefined && !CAPABILITY_KINDS.includes(kind))
    return c.error('eva.capability.kind-unsupported', 'unsupported capability kind', ['kind'], true);
  const cap = manifestString(c.doc, value, 'capability');
  const e = cap !== undefined ? capabilityNameError(cap) : undefined;
  if (e) return c.error('eva.capability.name-invalid', e, ['capability'], true);
  for (const key of ['default_provider', 'provider']) {
    const id = serdeString(c.doc, [key], value[key]);
    const invalid = id === null ? undefined : identifierError(id);
    if (invalid) return c.error('eva.id.invalid', invalid, [key], true);
  }
  for (const cap of adapterPermissionList(c.doc, value, 'capabilities')) {
    const invalid = capabilityNameError(cap.name);
    if (invalid) return c.error('eva.capability.name-invalid', invalid, cap.field, true);
  }
  for (const provider of adapterPermissionList(c.doc, value, 'providers')) {
    const invalid = identifierError(provider.name);
    if (invalid) return c.error('eva.id.invalid', invalid, provider.field, true);
  }
}

/** A `kind: lua_skill` capability manifest against the design contract (§2.5). */
export function checkLuaSkill(doc: YamlDocument): ContractResult {
  const c = new Checker(doc);
  // The shipped loader refuses the kind outright (§2.8): the project would not load.
  c.note(
    'eva.compat.lua-skill',
    'current Eva-CLI does not know capability kind lua_skill (unsupported capability kind); this manifest follows the skill design',
    ['kind'],
  );
  c.shipped = true;
  const value = manifestRoot(doc) as Record<string, unknown>;
  // Eva reads the file into `RawCapabilityManifest` before any rule (eva.md §2.1), so the values
  // below are serde's: a local tag in what it buffers (`permissions: {fs: !t {…}}`) fails the
  // whole manifest, and a tagged struct (`permissions: !t {network: true}`) is its mapping.
  const serde = capabilityBufferedTagError(doc, value);
  if (serde) {
    c.error('eva.yaml.parse', serde.message, serde.path, true, serde.span);
    return { invalid: true, shippedError: true, contract: null, diagnostics: c.diagnostics };
  }
  const typed = (key: string, want: 'string' | 'boolean' | 'object', required: boolean): boolean => {
    const v = value[key];
    if (v === undefined) {
      if (required) c.error('eva.schema.required', `required field is missing: $.${key}`, [key], true);
      return false;
    }
    // Typed through the tag, as upstream's schema types a value (`id: !t lint` is a string).
    const type = yamlTypeName(untag(v));
    if (type !== want)
      return (c.error('eva.schema.type', `schema type mismatch: expected ${want}, got ${type}`, [key], true), false);
    return true;
  };
  const hasId = typed('id', 'string', true);
  typed('version', 'string', true);
  const hasName = typed('name', 'string', false);
  const hasEnabled = typed('enabled', 'boolean', false);
  const hasLua = typed('lua', 'object', true);
  if (!c.invalid) loaderIdentity(c, value);
  // serde's text of each `String` (`id: !t lint-skill` is "lint-skill"), and its `bool`.
  const id = hasId ? manifestString(doc, value, 'id') : undefined;
  const enabled = hasEnabled ? manifestEnabled(doc, value) : true;

  const declared: { name: string; field: DocPath }[] = [];
  const list = value['capabilities'];
  if (list !== undefined) {
    if (!Array.isArray(list))
      c.error(
        'eva.schema.type',
        `schema type mismatch: expected array, got ${yamlTypeName(list)}`,
        ['capabilities'],
        true,
      );
    else for (const s of stringList(list, ['capabilities'], c)) declared.push(s);
  }
  const single = value['capability'];
  if (single !== undefined) {
    if (yamlTypeName(untag(single)) !== 'string')
      c.error(
        'eva.schema.type',
        `schema type mismatch: expected string, got ${yamlTypeName(untag(single))}`,
        ['capability'],
        true,
      );
    else declared.push({ name: manifestString(doc, value, 'capability') ?? '', field: ['capability'] });
  }
  const seen = new Set<string>();
  const capabilities = declared.filter((d) => !seen.has(d.name) && seen.add(d.name));
  for (const cap of capabilities) {
    const e = capabilityNameError(cap.name);
    if (e) c.error('eva.capability.name-invalid', e, cap.field, true);
  }

  const lua = hasLua ? (value['lua'] as Record<string, unknown>) : undefined;
  let script: SkillContract['script'] = null;
  if (lua) {
    if (lua['script'] === undefined)
      c.error('eva.schema.required', 'required field is missing: $.lua.script', ['lua', 'script'], true);
    else script = pathField(c, lua['script'], ['lua', 'script']);
  }
  const gate = readGate(c, value, ['runtime_gate'], 'runtime_gate is required for lua_skill', []);
  const inputSchema = schemaRef(c, value, 'input_schema');
  const outputSchema = schemaRef(c, value, 'output_schema');
  const permissions = luaPermissions(c, value);
  const contract: SkillContract | null =
    id !== undefined
      ? {
          id,
          name: (hasName ? manifestString(doc, value, 'name') : undefined) ?? id,
          kind: 'lua_skill',
          transport: null,
          skillId: null,
          skillSource: null,
          skillPath: null,
          script,
          capabilities,
          capabilitiesField: list !== undefined ? ['capabilities'] : single !== undefined ? ['capability'] : [],
          runtimeGate: gate,
          gateField: ['runtime_gate'],
          inputSchema,
          outputSchema,
          schemaField: [],
          permissions,
          hasCredentials: false,
          entryType: null,
          runnerCommand: null,
          runnerArgs: [],
          topCommand: null,
          topArgs: [],
          enabled,
          limits: numbers(value['limits']),
          allowUnknownCapability: value['allow_unknown_capability'] === true,
        }
      : null;
  return { invalid: c.invalid, shippedError: true, contract, diagnostics: c.diagnostics };
}

/** A runtime gate in either form (§3.4); missing or malformed gates are contract errors. */
function readGate(
  c: Checker,
  owner: Record<string, unknown>,
  field: DocPath,
  missingMessage: string,
  missingAt: DocPath,
): RuntimeGate | null {
  const key = field[field.length - 1] as string;
  const v = owner[key];
  if (v === undefined || v === null) {
    c.error('eva.skill.gate-missing', missingMessage, missingAt, false);
    return null;
  }
  const invalid = () => (
    c.error(
      'eva.skill.gate-invalid',
      'runtime gate must be a mode string or a mapping with allowed_modes',
      field,
      false,
    ),
    null
  );
  let gate: RuntimeGate;
  if (typeof v === 'string') {
    if (v.trim() === '') return invalid();
    gate = { allowedModes: [v], disallowTeamWorker: false, requiresInteractiveUser: false, form: 'string' };
  } else if (isMapping(v)) {
    const modes = v['allowed_modes'];
    const dtw = v['disallow_team_worker'] ?? false;
    const riu = v['requires_interactive_user'] ?? false;
    if (
      !Array.isArray(modes) ||
      modes.length === 0 ||
      !modes.every((m) => typeof m === 'string') ||
      typeof dtw !== 'boolean' ||
      typeof riu !== 'boolean'
    )
      return invalid();
    gate = { allowedModes: modes as string[], disallowTeamWorker: dtw, requiresInteractiveUser: riu, form: 'mapping' };
  } else return invalid();
  for (const mode of gate.allowedModes)
    if (!KNOWN_MODES.includes(mode)) c.note('eva.gate.unknown-mode', `unknown runtime mode ${mode}`, field);
  return gate;
}

/** An inline schema of a skill adapter: absent is C8's concern; present must be a mapping (input: of type object). */
function inlineSchema(
  c: Checker,
  skill: Record<string, unknown>,
  key: 'input_schema' | 'output_schema',
  input: boolean,
): SchemaRef | null {
  const v = skill[key];
  if (v === undefined || v === null) return null;
  if (!isMapping(v))
    return (
      c.error(
        'eva.schema.type',
        `schema type mismatch: expected object, got ${yamlTypeName(v)}`,
        ['skill', key],
        false,
      ),
      null
    );
  if (input && v['type'] !== 'object')
    c.error('eva.skill.schema-type', 'Skill input schema type is unsupported', ['skill', key, 'type'], false);
  return { inline: v };
}

/** A lua_skill schema: a project-relative file path or an inline mapping. */
function schemaRef(
  c: Checker,
  value: Record<string, unknown>,
  key: 'input_schema' | 'output_schema',
): SchemaRef | null {
  const v = value[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') {
    if (v.includes('\0')) return (c.error('eva.schema.type', `${key} path contains a NUL byte`, [key], false), null);
    return { file: v, field: key };
  }
  if (isMapping(v)) return { inline: v };
  c.error('eva.schema.type', `schema type mismatch: expected string or object, got ${yamlTypeName(v)}`, [key], false);
  return null;
}

function pathField(c: Checker, v: unknown, field: DocPath): { declared: string; field: DocPath } | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string')
    return (
      c.error('eva.schema.type', `schema type mismatch: expected string, got ${yamlTypeName(v)}`, field, false),
      null
    );
  if (v.includes('\0'))
    return (c.error('eva.schema.type', `${fieldPath(field).slice(2)} contains a NUL byte`, field, false), null);
  return { declared: v, field };
}

/** One boolean of a `permissions` table: absent is false; any other type is a schema error, read as false (fail closed). */
function permissionFlag(c: Checker, table: Record<string, unknown>, key: string): boolean {
  const b = table[key];
  if (b === undefined) return false;
  if (typeof b !== 'boolean')
    return (
      c.error(
        'eva.schema.type',
        `schema type mismatch: expected boolean, got ${yamlTypeName(b)}`,
        ['permissions', key],
        false,
      ),
      false
    );
  return b;
}

function adapterPermissions(c: Checker, v: unknown): EvaPermissions {
  if (!isMapping(v)) return NO_PERMISSIONS;
  const bool = (key: string): boolean => permissionFlag(c, v, key);
  return {
    ...NO_PERMISSIONS,
    readWorkspace: bool('read_workspace'),
    writeWorkspace: bool('write_workspace'),
    network: bool('network'),
    shell: bool('shell'),
    env: strings(c, v['env'], ['permissions', 'env']),
  };
}

/**
 * A lua_skill's `permissions` as serde reads them (no local tag in what it buffers, checked
 * first): the structs `RawCapabilityPermissions` and its `adapters` under any tag
 * (`permissions: !t {network: true}` requests network), their `Vec<String>`s too.
 */
function luaPermissions(c: Checker, manifest: Record<string, unknown>): EvaPermissions {
  const v = untag(structField(manifest, 'permissions'));
  if (!isMapping(v)) return NO_PERMISSIONS;
  const bool = (key: string): boolean => permissionFlag(c, v, key);
  const fs = isMapping(v['fs']) ? v['fs'] : undefined;
  const adapters = untag(structField(v, 'adapters'));
  const list = (key: string): unknown => {
    const items = isMapping(adapters) ? untag(structField(adapters, key)) : undefined;
    return Array.isArray(items) ? items.map(untag) : items;
  };
  return {
    ...NO_PERMISSIONS,
    network: bool('network'),
    shell: bool('shell'),
    env: strings(c, v['env'], ['permissions', 'env']),
    fsRead: strings(c, fs?.['read'], ['permissions', 'fs', 'read']),
    fsWrite: strings(c, fs?.['write'], ['permissions', 'fs', 'write']),
    adapterCapabilities: strings(c, list('capabilities'), ['permissions', 'adapters', 'capabilities']),
    adapterProviders: strings(c, list('providers'), ['permissions', 'adapters', 'providers']),
  };
}

function strings(c: Checker, v: unknown, field: DocPath): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) {
    c.error('eva.schema.type', `schema type mismatch: expected array of strings, got ${yamlTypeName(v)}`, field, false);
    return [];
  }
  return v as string[];
}

function stringList(v: unknown, field: DocPath, c?: Checker): { name: string; field: DocPath }[] {
  if (!Array.isArray(v)) return [];
  const out: { name: string; field: DocPath }[] = [];
  v.forEach((s, i) => {
    if (typeof s === 'string') out.push({ name: s, field: [...field, i] });
    else
      c?.error('eva.schema.type', `schema type mismatch: expected string, got ${yamlTypeName(s)}`, [...field, i], true);
  });
  return out;
}

function numbers(v: unknown): Record<string, number> {
  const out: Record<string, number> = Object.create(null) as Record<string, number>;
  if (isMapping(v)) for (const [k, n] of Object.entries(v)) if (typeof n === 'number') out[k] = n;
  return out;
}
