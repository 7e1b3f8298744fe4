import { rustTrim } from '../../text/rustText';
import { adapterLoader } from './adapterContract';
import { Checker, schemaStage, type ContractResult, type SchemaRef, type SkillContract } from './contracts';
import { adapterCapabilityList } from './rawAdapterManifest';
import { manifestEnabled, manifestString } from './rawManifestSerde';
import { numbers, pathField, readGate, stringList } from './skillContractFields';
import { adapterPermissions } from './skillPermissions';
import type { EvaSkillKind } from './vocabulary';
import type { YamlDocument } from './yamlDocument';
import { isMapping, manifestRoot, yamlTypeName } from './yamlValue';
import { fixLast } from './diagnostics';
import { objectTypeFix } from './objectTypeFix';
import { noteAllowUnknownIgnored } from './allowUnknownFix';

/**
 * The contract of a `transport: skill` adapter (eva.md §2.3): the adapter's schema and loader
 * (adapterContract.ts), then the skill contract of the design, read into a SkillContract: the
 * `skill` mapping, its id, kind, runtime gate, inline schemas and path, the permissions asked.
 * The shipped loader makes none of the skill contract's checks.
 */

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
  noteAllowUnknownIgnored(c, value);
  return { invalid: c.invalid, shippedError: c.shipped, contract, diagnostics: c.diagnostics };
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
  if (input && v['type'] !== 'object') {
    c.error('eva.skill.schema-type', 'Skill input schema type is unsupported', ['skill', key, 'type'], false);
    fixLast(c.diagnostics, objectTypeFix(c.doc, ['skill', key, 'type']), c.doc);
  }
  return { inline: v };
}
