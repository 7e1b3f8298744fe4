import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';
import { loadEvaProject, type EvaProject } from '../../src/core/systems/eva/project';
import { EMBEDDED_SCHEMAS, type EvaSchemas } from '../../src/core/systems/eva/schemas';
import { readEntry } from '../../src/core/systems/eva/manifestEntry';

/**
 * eva.md §4.2's classification of a file that parses: by its `transport` / `kind` when
 * they read as strings, else by the sniff of its raw text, and such a file is invalid as
 * shipped whatever the project's own schema says; every other file is checked by the
 * contract of its own root.
 */

describe('Eva classification of a parsed manifest (eva.md §4.2)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  const entry = (
    rel: string,
    text: string,
    area: 'adapter' | 'capability' = 'adapter',
    schemas: EvaSchemas = { schemas: EMBEDDED_SCHEMAS, diagnostics: [] },
  ) => {
    const abs = f.write(`ws/config/${area === 'adapter' ? 'adapters' : 'capabilities'}/${rel}`, text);
    return readEntry(abs, area, loadEvaProject(f.ws) as EvaProject, 'ws', schemas);
  };

  // Upstream's schema stage reads a mapping through its tag (`as_mapping`), and serde's
  // `deserialize_struct` ignores the tag: Eva registers the skill (upstream over eva.md §2.1).
  it('a tagged manifest mapping is the manifest under its tag: a skill item Eva loads', () => {
    const e = entry('t.yaml', `--- !adapter\n${A0}`);
    assert.deepEqual(
      [e.role, e.check?.invalid, e.shipped, e.id, e.diagnostics.map((d) => d.message)],
      ['skill-adapter', false, false, 'review-skill', []],
    );
    const lua = entry('l.yaml', '--- !cap\nid: l\nkind: lua_skill\n', 'capability');
    assert.deepEqual([lua.role, lua.check?.invalid], ['lua-skill', true]);
  });

  it("marks a manifest without a readable transport invalid as shipped even when the project's schema allows it", () => {
    const adapterSchema = JSON.parse(JSON.stringify(EMBEDDED_SCHEMAS.adapter)) as {
      required: string[];
      properties: Record<string, unknown>;
    };
    adapterSchema.required = adapterSchema.required.filter((k) => k !== 'transport');
    delete adapterSchema.properties['transport'];
    const lenient = { schemas: { ...EMBEDDED_SCHEMAS, adapter: adapterSchema }, diagnostics: [] };
    const e = entry('n.yaml', A0.replace('transport: skill', 'transport: 5'), 'adapter', lenient);
    assert.deepEqual([e.role, e.check?.invalid, e.shipped], ['context', true, true]);
    const without = entry('w.yaml', A0.replace('transport: skill\n', ''), 'adapter', lenient);
    assert.deepEqual([without.role, without.check?.invalid, without.shipped], ['context', true, true]);
    // A readable transport under the same schema is checked as usual: valid.
    assert.deepEqual(entry('ok.yaml', A0.replace('transport: skill', 'transport: stdio'), 'adapter', lenient).check, {
      invalid: false,
      shippedError: false,
      contract: null,
      diagnostics: [],
    });
  });

  it('checks a capability manifest that is no skill by the capability contract, not the adapter one', () => {
    const cap = 'id: c\nname: C\nversion: 1.0.0\nenabled: true\ncapability: repo.read\n';
    for (const kind of ['mcp_tool', 'adapter_capability', 'skill']) {
      const e = entry(`${kind}.yaml`, `${cap}kind: ${kind}\n`, 'capability');
      assert.deepEqual([e.check?.invalid, e.diagnostics, e.shipped], [false, [], false], kind);
    }
  });
});
