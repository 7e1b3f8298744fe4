import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';
import { checkAdapterManifest } from '../../src/core/systems/eva/adapterContract';
import { EMBEDDED_SCHEMAS } from '../../src/core/systems/eva/schemas';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';

/**
 * An adapter `transport` outside Eva's eight, past a project schema that leaves it untyped:
 * Eva's loader parses serde's text of it (`AdapterTransport::parse`, case-sensitive) and
 * refuses the file with `unsupported Adapter transport`, so the project loads nothing (eva.md
 * §2.2, §4.5). Skillgate's code for it is `eva.adapter.transport-unsupported` (error).
 */
describe('Eva adapter transport outside the loader’s enum (eva.md §2.2, §4.5)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  /** A context adapter: A0 without its skill block, on `transport: stdio`. */
  const CONTEXT = A0.replace(/^skill:\n(?: {2}.*\n)+/m, '')
    .replace('id: review-skill', 'id: codex-cli')
    .replace('transport: skill', 'transport: stdio');
  const TRANSPORT_LINE = CONTEXT.split('\n').indexOf('transport: stdio');

  /** The corpus schema with `fields` left untyped, as a project's own schema_dir may have it. */
  const openSchema = (fields: readonly string[] = ['transport']): unknown => {
    const s = structuredClone(EMBEDDED_SCHEMAS.adapter) as { properties: Record<string, unknown> };
    for (const k of fields) s.properties[k] = {};
    return s;
  };
  const check = (text: string, schema: unknown = openSchema()) => {
    const parsed = parseEvaYaml('/p/config/adapters/x.yaml', text);
    assert.ok(parsed.ok, text);
    return checkAdapterManifest(parsed.document, schema);
  };
  const words = (r: ReturnType<typeof check>): string[] => r.diagnostics.map((d) => `${d.code} ${d.message}`);

  it("refuses serde's text of a transport outside the eight, case-sensitively, at the transport field", () => {
    for (const value of ['mystery', 'Skill', 'STDIO', '~', '', '5', '""', '"stdio "', '!t mcpx']) {
      const r = check(CONTEXT.replace('transport: stdio', `transport: ${value}`));
      assert.deepEqual(words(r), ['eva.adapter.transport-unsupported unsupported Adapter transport'], value);
      assert.deepEqual([r.invalid, r.shippedError], [true, true], value);
      assert.equal(r.diagnostics[0]?.severity, 'error', value);
      assert.equal(r.diagnostics[0]?.range.start.line, TRANSPORT_LINE, value);
    }
    // Each of the eight, also as serde's text of a tagged scalar.
    for (const value of ['builtin', 'stdio', 'http', 'eventbus', 'mcp', 'hardware', 'lua_capability', '!t http']) {
      const r = check(CONTEXT.replace('transport: stdio', `transport: ${value}`));
      assert.deepEqual(words(r), [], value);
    }
  });

  it('reports a transport serde refuses once, and keeps the loader order (id before transport)', () => {
    assert.deepEqual(words(check(CONTEXT.replace('transport: stdio', 'transport: [stdio]'))), [
      'eva.yaml.parse failed to parse YAML: transport: invalid type: sequence, expected a string',
    ]);
    assert.deepEqual(
      words(
        check(
          CONTEXT.replace('transport: stdio', 'transport: mystery').replace('id: codex-cli', 'id: a/b'),
          openSchema(['id', 'transport']),
        ),
      ),
      ['eva.id.invalid identifier cannot contain path separators'],
    );
  });

  it("adds nothing under a schema that types transport: Eva's schema stage reports first", () => {
    assert.deepEqual(
      words(check(CONTEXT.replace('transport: stdio', 'transport: mystery'), EMBEDDED_SCHEMAS.adapter)),
      ['eva.schema.enum value is not allowed by schema enum'],
    );
  });

  it('aborts the project at the first refused file in load order, without changing item decisions', () => {
    f.write('ws/config/schemas/adapter.schema.json', JSON.stringify(openSchema(['id', 'transport'])));
    f.adapter(A0);
    const before = f.index().item('adapters/review.yaml');
    for (const value of ['mystery', 'Skill', '~', '5']) {
      f.adapter(CONTEXT.replace('transport: stdio', `transport: ${value}`), 'codex-cli.yaml');
      const r = f.index();
      const [d] = r.diagnostics('eva.adapter.transport-unsupported');
      assert.deepEqual(
        [d?.file, d?.severity, d?.range.start.line],
        [f.path('ws/config/adapters/codex-cli.yaml'), 'error', TRANSPORT_LINE],
        value,
      );
      assert.deepEqual(
        r.diagnostics('eva.project.load-aborted').map((a) => a.file),
        [f.path('ws/config/adapters/codex-cli.yaml')],
        value,
      );
      const item = r.item('adapters/review.yaml');
      assert.deepEqual([item.decision, item.reasons], [before.decision, before.reasons], value);
    }
    // An earlier file that fails otherwise is where Eva stops.
    f.adapter(CONTEXT.replace('id: codex-cli', 'id: a/b').replace('transport: stdio', 'transport: x'), 'a.yaml');
    assert.deepEqual(
      f
        .index()
        .diagnostics('eva.project.load-aborted')
        .map((a) => a.file),
      [f.path('ws/config/adapters/a.yaml')],
    );
  });

  it('loads a transport or kind written as a tagged scalar whose serde text Eva knows (it was a silent load-aborted)', () => {
    // serde_yaml's `deserialize_str` ignores a scalar's tag: `!t stdio` is the String "stdio".
    f.write('ws/config/schemas/adapter.schema.json', JSON.stringify(openSchema()));
    const capability = structuredClone(EMBEDDED_SCHEMAS.capability) as { properties: Record<string, unknown> };
    capability.properties['kind'] = {};
    f.write('ws/config/schemas/capability.schema.json', JSON.stringify(capability));
    f.adapter(A0);
    f.adapter(CONTEXT.replace('transport: stdio', 'transport: !t stdio'), 'codex-cli.yaml');
    f.write(
      'ws/config/capabilities/summary.yaml',
      'id: summary\nname: Summary\nversion: 1.0.0\nenabled: true\nkind: !t mcp_tool\ncapability: repo.summary\n',
    );
    const r = f.index();
    assert.deepEqual(
      r.codes(false).filter((c) => !c.startsWith('eva.skill.path')),
      [],
    );
    assert.equal(r.item('adapters/review.yaml').decision, 'registered');
  });
});
