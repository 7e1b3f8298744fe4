import type { DocPath } from '../../documents/document';
import { Checker, loaderIdentity, type ContractResult, type SchemaRef, type SkillContract } from './contracts';
import { capabilityNameError } from './ids';
import { noteAllowUnknownIgnored } from './allowUnknownFix';
import { capabilityBufferedTagError } from './rawCapabilityManifest';
import { manifestEnabled, manifestString } from './rawManifestSerde';
import { numbers, pathField, readGate, stringList } from './skillContractFields';
import { luaPermissions } from './skillPermissions';
import type { YamlDocument } from './yamlDocument';
import { isMapping, manifestRoot, untag, yamlTypeName } from './yamlValue';

/**
 * The contract of a `kind: lua_skill` capability manifest, which the skill design defines and
 * the shipped loader does not know (eva.md §2.5, §2.8: `unsupported capability kind`): the file
 * is read as serde reads `RawCapabilityManifest` (upstream manifest/capability.rs), then
 * checked against the design's contract and read into a SkillContract.
 */

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
  // The first name the loader would refuse, as for an adapter's list (adapterContract.ts).
  for (const cap of capabilities) {
    const e = capabilityNameError(cap.name);
    if (e) {
      c.error('eva.capability.name-invalid', e, cap.field, true);
      break;
    }
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
  noteAllowUnknownIgnored(c, value);
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
