import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';
import { checkAdapterManifest } from '../../src/core/systems/eva/adapterContract';
import { checkCapabilityManifest } from '../../src/core/systems/eva/capabilityContract';
import { EMBEDDED_SCHEMAS } from '../../src/core/systems/eva/schemas';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';

/**
 * A manifest whose document is no mapping, past a project schema with no top-level `type`
 * (the repository's own schema_dir): Eva's typed loader reads it with serde_yaml 0.9 into
 * `RawAdapterManifest` / `RawCapabilityManifest`, whose `deserialize_map` (de.rs) refuses
 * anything but a mapping in serde's words, and reads an empty document (`Void`) or an empty
 * plain scalar (`---`, `!t`) as an empty map, which then lacks `id`. Before, the file only
 * aborted the project, with no error saying why (fixtures /tmp/nonmap/*).
 */
describe('Eva manifest whose document is not a mapping (eva.md §2.1, serde_yaml deserialize_map)', () => {
  /** The corpus schema with no top-level `type` and no `required`, as a project may write it. */
  const rootless = (schema: unknown): unknown => {
    const s = structuredClone(schema) as Record<string, unknown>;
    delete s['type'];
    delete s['required'];
    return s;
  };
  const ADAPTER = rootless(EMBEDDED_SCHEMAS.adapter);
  const CAPABILITY = rootless(EMBEDDED_SCHEMAS.capability);
  const check = (text: string, area: 'adapter' | 'capability') => {
    const parsed = parseEvaYaml(`/p/config/${area}s/x.yaml`, text);
    assert.ok(parsed.ok, text);
    return area === 'adapter'
      ? checkAdapterManifest(parsed.document, ADAPTER)
      : checkCapabilityManifest(parsed.document, CAPABILITY);
  };
  const words = (r: ReturnType<typeof check>): string[] => r.diagnostics.map((d) => `${d.code} ${d.message}`);

  const SHAPES: readonly (readonly [string, string])[] = [
    ['- a\n- b\n', 'invalid type: sequence, expected struct {S}'],
    ['[a]\n', 'invalid type: sequence, expected struct {S}'],
    ['!t [a]\n', 'invalid type: sequence, expected struct {S}'],
    ['x\n', 'invalid type: string "x", expected struct {S}'],
    ['"x"\n', 'invalid type: string "x", expected struct {S}'],
    ["''\n", 'invalid type: string "", expected struct {S}'],
    ['!t x\n', 'invalid type: string "x", expected struct {S}'],
    ['|\n  a\n', 'invalid type: string "a\\n", expected struct {S}'],
    ['~\n', 'invalid type: unit value, expected struct {S}'],
    ['null\n', 'invalid type: unit value, expected struct {S}'],
    ['!t ~\n', 'invalid type: unit value, expected struct {S}'],
    ['5\n', 'invalid type: integer `5`, expected struct {S}'],
    ['1.5\n', 'invalid type: floating point `1.5`, expected struct {S}'],
    ['true\n', 'invalid type: boolean `true`, expected struct {S}'],
    // An empty document, or an empty plain scalar, is an empty map to serde_yaml: the first required field is missing.
    ['', 'missing field `id`'],
    ['# only a comment\n', 'missing field `id`'],
    ['---\n', 'missing field `id`'],
    ['!t\n', 'missing field `id`'],
  ];

  it("gives serde's words for each shape, as the loader's error, at the document's start", () => {
    for (const [area, struct] of [
      ['adapter', 'RawAdapterManifest'],
      ['capability', 'RawCapabilityManifest'],
    ] as const) {
      for (const [text, detail] of SHAPES) {
        const r = check(text, area);
        const label = `${area} ${JSON.stringify(text)}`;
        assert.deepEqual(words(r), [`eva.yaml.parse failed to parse YAML: ${detail.replace('{S}', struct)}`], label);
        assert.deepEqual([r.invalid, r.shippedError], [true, true], label);
        assert.equal(r.diagnostics[0]?.severity, 'error', label);
        assert.equal(r.diagnostics[0]?.range.start.line, 0, label);
      }
    }
  });

  it('leaves the schema its own words where it types the root', () => {
    const parsed = parseEvaYaml('/p/config/adapters/x.yaml', '- a\n');
    assert.ok(parsed.ok);
    assert.deepEqual(
      checkAdapterManifest(parsed.document, EMBEDDED_SCHEMAS.adapter).diagnostics.map((d) => d.message),
      ['schema type mismatch: expected object, got array'],
    );
  });

  describe('in a project', () => {
    let f: EvaFixture;
    beforeEach(() => {
      f = new EvaFixture().p0();
      f.write('ws/config/schemas/adapter.schema.json', JSON.stringify(ADAPTER));
      f.adapter(A0);
    });
    afterEach(() => f.remove());

    it('says why the project stops loading at that file', () => {
      f.adapter('- a\n- b\n', 'zz-list.yaml');
      const r = f.index();
      const errors = r
        .diagnostics()
        .filter((d) => d.severity === 'error' && r.rel(d.file) === 'config/adapters/zz-list.yaml')
        .map((d) => `${d.code} ${d.message}`);
      assert.deepEqual(errors, [
        'eva.yaml.parse failed to parse YAML: invalid type: sequence, expected struct RawAdapterManifest',
      ]);
      // Per-item decisions stay (eva.md §4.5, Q1); the project-level warning now has its cause beside it.
      assert.deepEqual(
        r.diagnostics('eva.project.load-aborted').map((d) => r.rel(d.file)),
        ['config/adapters/zz-list.yaml'],
      );
    });
  });
});
