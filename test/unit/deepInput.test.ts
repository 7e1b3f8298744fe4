import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import { nestingExcess } from '../../src/core/documents/nesting';
import { parseJsonDocument } from '../../src/core/documents/jsonDocument';
import { parseTomlDocument } from '../../src/core/documents/tomlDocument';
import { installPlugin } from '../../src/core/systems/rivumi/install';
import { cpuTime } from './helpers/cpuTime';
import { fsPatcher } from './helpers/fsPatch';
import { MAX_DIAGNOSTICS_PER_FILE } from '../../src/core/diagnostics/fileCap';
import { Fixture, index, byName, writeW, top } from './helpers/fixture';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { ReasonCode, System } from '../../src/core/model';

const arrays = (n: number, inner = '') => '['.repeat(n) + inner + ']'.repeat(n);
const objects = (n: number, inner = '1') => '{"a":'.repeat(n) + inner + '}'.repeat(n);
const GOOD_TOML = 'schema_version = 1\n[plugin]\nname = "good"\nversion = "1.0.0"\n';
/** The gate of a bundle with no receipt: only Codewhale's has an enable switch. */
const NOT_REVIEWED: Record<System, readonly ReasonCode[]> = {
  codewhale: ['not_reviewed', 'not_enabled'],
  rivumi: ['not_reviewed'],
  eva: ['not_reviewed'],
};

/** The bundle in `dir` is rejected as `manifest_invalid` (its gate reasons after it) with one error at `file`. */
function rejectedAt(s: Snapshot, name: string, file: string): string {
  const item = byName(s, name);
  assert.equal(item.decision, 'rejected');
  assert.deepEqual(item.reasons, ['manifest_invalid', ...NOT_REVIEWED[item.system]]);
  const d = s.diagnostics.find((x) => x.itemId === item.id && x.severity === 'error' && x.file.endsWith(file));
  assert.ok(d, `no error at ${file}: ${s.diagnostics.map((x) => `${x.file}: ${x.message}`).join('\n')}`);
  return d.message;
}

/**
 * One hostile file never blinds the index (issue 10, item 12): a file nested a few
 * thousand levels deep is that file's error, and every other item is still indexed.
 */
describe('deep input', function () {
  this.timeout(60000);
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.write('ws/.codewhale/plugins/good/plugin.toml', GOOD_TOML);
    f.write('ws/.rivumi/skills/keep.md', '---\nname: keep\n---\nbody\n');
  });
  afterEach(() => f.remove());

  const othersIndexed = (s: Snapshot) => {
    assert.equal(byName(s, 'good').decision, 'disabled');
    assert.equal(byName(s, 'keep').system, 'rivumi');
  };

  describe("Codewhale manifests stop at serde_json's recursion limit (128)", () => {
    it("rejects a plugin.json of 3,000 nested arrays with serde's message, and indexes the rest", () => {
      f.write('ws/.codewhale/plugins/deep/plugin.json', arrays(3000));
      const s = index([f.path('ws')]);
      assert.equal(
        rejectedAt(s, 'deep', 'deep/plugin.json'),
        'failed to parse plugin.json: recursion limit exceeded at line 1 column 128',
      );
      othersIndexed(s);
    });

    it('rejects deep nesting inside an ignored extension namespace of plugin.json', () => {
      f.write(
        'ws/.codewhale/plugins/deep/plugin.json',
        `{"$schema": "s", "name": "deep", "extensions": {"other": ${objects(5000)}}}`,
      );
      const s = index([f.path('ws')]);
      assert.match(
        rejectedAt(s, 'deep', 'deep/plugin.json'),
        /^failed to parse plugin\.json: recursion limit exceeded at line 1 column \d+$/,
      );
      othersIndexed(s);
    });

    it('accepts 127 levels, as serde does, and refuses the 128th', () => {
      const manifest = (n: number) => `{"$schema": "s", "name": "deep", "extensions": {"other": ${arrays(n - 2)}}}`;
      f.write('ws/.codewhale/plugins/deep/plugin.json', manifest(127));
      assert.equal(byName(index([f.path('ws')]), 'deep').decision, 'disabled');
      f.write('ws/.codewhale/plugins/deep/plugin.json', manifest(128));
      assert.equal(byName(index([f.path('ws')]), 'deep').decision, 'rejected');
    });

    it('rejects a bundle whose mcp.json nests 3,000 deep', () => {
      f.write('ws/.codewhale/plugins/deep/plugin.json', '{"$schema": "s", "name": "deep"}');
      f.write('ws/.codewhale/plugins/deep/mcp.json', `{"mcpServers": ${objects(3000)}}`);
      const s = index([f.path('ws')]);
      assert.match(
        rejectedAt(s, 'deep', 'deep/mcp.json'),
        /^failed to parse mcp\.json: recursion limit exceeded at line 1 column \d+$/,
      );
      othersIndexed(s);
    });

    it('rejects a kimi.plugin.json nested 3,000 deep', () => {
      f.write('ws/.codewhale/plugins/deep/kimi.plugin.json', `{"name": "deep", "mcpServers": ${arrays(3000)}}`);
      const s = index([f.path('ws')]);
      assert.match(
        rejectedAt(s, 'deep', 'deep/kimi.plugin.json'),
        /^failed to parse kimi\.plugin\.json: recursion limit exceeded/,
      );
      othersIndexed(s);
    });

    it('rejects a Claude bundle whose .mcp.json nests 3,000 deep', () => {
      f.write('ws/.codewhale/plugins/deep/.claude-plugin/plugin.json', '{"name": "deep"}');
      f.write('ws/.codewhale/plugins/deep/.mcp.json', `{"s": {"command": "x", "env": ${objects(3000)}}}`);
      const s = index([f.path('ws')]);
      assert.match(rejectedAt(s, 'deep', 'deep/.mcp.json'), /^failed to parse \.mcp\.json: recursion limit exceeded/);
      othersIndexed(s);
    });

    for (const [what, value] of [
      ['inline arrays', arrays(3000, '1')],
      ['inline tables', `${'{ a = '.repeat(3000)}1${' }'.repeat(3000)}`],
      ['inline tables holding long dotted keys', `${`{ ${'k.'.repeat(100)}a = `.repeat(120)}1${' }'.repeat(120)}`],
    ] as const) {
      it(`rejects a plugin.toml with deeply nested ${what}, quickly`, () => {
        f.write(
          'ws/.codewhale/plugins/deep/plugin.toml',
          `${GOOD_TOML.replace('good', 'deep')}[capabilities]\nx = ${value}\n`,
        );
        const { result: s, ms } = cpuTime(() => index([f.path('ws')]));
        assert.ok(ms < 5000, `took ${ms} ms of CPU`);
        assert.match(
          rejectedAt(s, 'deep', 'deep/plugin.toml'),
          /^failed to parse plugin\.toml; check the v1 schema and field types \(recursion limit exceeded\)$/,
        );
        othersIndexed(s);
      });
    }

    it('rejects a plugin.toml whose table header has 20,000 segments, quickly', () => {
      f.write(
        'ws/.codewhale/plugins/deep/plugin.toml',
        `${GOOD_TOML.replace('good', 'deep')}[${'a.'.repeat(20000)}b]\nc = 1\n`,
      );
      const { result: s, ms } = cpuTime(() => index([f.path('ws')]));
      assert.ok(ms < 5000, `took ${ms} ms of CPU`);
      assert.match(rejectedAt(s, 'deep', 'deep/plugin.toml'), /recursion limit exceeded/);
    });

    it('never parses SKILL.md front matter as YAML: deep flow sequences and alias bombs are inert', () => {
      writeW(f, '', 'ws/.codewhale/plugins/skilled');
      const bomb = [
        'a: &a ["x","x","x","x","x","x","x","x","x"]',
        ...Array.from(
          { length: 9 },
          (_, i) =>
            `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
        ),
      ].join('\n');
      f.write(
        'ws/.codewhale/plugins/skilled/skills/example/SKILL.md',
        `---\nname: example\ndescription: example\ndeep: ${arrays(20000)}\n${bomb}\n---\nbody\n`,
      );
      f.write('ws/.rivumi/skills/deep.md', `---\nname: deep\ndescription: ${arrays(5000)}\n---\nbody\n`);
      const { result: s, ms } = cpuTime(() => index([f.path('ws')]));
      assert.ok(ms < 5000, `took ${ms} ms of CPU`);
      assert.equal(byName(s, 'example-plugin').decision, 'disabled');
      othersIndexed(s);
    });
  });

  describe("Rivumi files: Python's json raises RecursionError, and the load that read the file fails", () => {
    it('rejects a plugin manifest of 10,000 nested arrays and aborts the skill load, naming the file', () => {
      f.write('ws/.rivumi/plugins/deep.json', arrays(10000));
      const s = index([f.path('ws')]);
      assert.equal(
        rejectedAt(s, 'deep', 'plugins/deep.json'),
        "project plugin manifest cannot be parsed by Python's json: deep.json: RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string",
      );
      assert.deepEqual(byName(s, 'keep').reasons, ['load_aborted']);
      assert.equal(byName(s, 'good').decision, 'disabled');
    });

    it('rejects a hooks.json of 10,000 nested objects', () => {
      f.write('ws/.rivumi/hooks.json', objects(10000));
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.equal(
        rejectedAt(s, 'hooks.json', '.rivumi/hooks.json'),
        "project hook config cannot be parsed by Python's json: RecursionError: maximum recursion depth exceeded while decoding a JSON object from a unicode string",
      );
      othersIndexed(s);
    });

    it('accepts 512 levels under an ignored plugin hook key and refuses 513', () => {
      const manifest = (n: number) => `{"hooks": {"unknown_event": ${arrays(n - 2)}}}`;
      f.write('ws/.rivumi/plugins/deep.json', manifest(512));
      assert.equal(byName(index([f.path('ws')]), 'deep').decision, 'registered');
      f.write('ws/.rivumi/plugins/deep.json', manifest(513));
      assert.equal(byName(index([f.path('ws')]), 'deep').decision, 'rejected');
    });

    it('refuses to install a package manifest nested 10,000 deep', () => {
      f.write('pkg/plugin.json', objects(10000));
      const r = installPlugin(f.path('pkg/plugin.json'), f.path('ws'));
      assert.equal(r.ok, false);
      assert.match(
        r.ok ? '' : r.message,
        /RecursionError: maximum recursion depth exceeded while decoding a JSON object/,
      );
    });
  });

  it('CLI list --json exits 0 and lists every other bundle with each deep format present at once', async () => {
    f.write('ws/.codewhale/plugins/a/plugin.json', arrays(3000));
    f.write('ws/.codewhale/plugins/b/plugin.json', '{"$schema": "s", "name": "b"}');
    f.write('ws/.codewhale/plugins/b/mcp.json', arrays(3000));
    f.write('ws/.codewhale/plugins/c/kimi.plugin.json', arrays(3000));
    f.write('ws/.codewhale/plugins/d/plugin.toml', `x = ${arrays(3000)}\n`);
    f.write('ws/.codewhale/plugins/e/.claude-plugin/plugin.json', '{"name": "e"}');
    f.write('ws/.codewhale/plugins/e/.mcp.json', arrays(3000));
    f.write('ws/.rivumi/plugins/p.json', arrays(10000));
    f.write('ws/.rivumi/hooks.json', arrays(10000));
    let out = '';
    let err = '';
    const code = await run(['list', '--json', '--no-user'], {
      out: (t) => (out += t),
      err: (t) => (err += t),
      env: { SKILLGATE_STATE_DIR: f.path('state'), RIVUMI_ENABLE_PROJECT_HOOKS: '1' },
      cwd: f.path('ws'),
    });
    assert.equal(code, 0, err);
    const doc = JSON.parse(out) as { items: { name: string; decision: string }[] };
    const decision = (n: string) => doc.items.find((i) => i.name === n)?.decision;
    assert.equal(decision('good'), 'disabled');
    assert.equal(decision('keep'), 'rejected');
    for (const n of ['a', 'b', 'c', 'd', 'e', 'p', 'hooks.json']) assert.equal(decision(n), 'rejected', n);
    // validate reports the errors (exit 1), it does not fail (exit 2).
    const v = await run(['validate', '--no-user'], {
      out: () => undefined,
      err: () => undefined,
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.path('ws'),
    });
    assert.equal(v, 1);
  });

  it('reviews and shows a bundle nested right at the limit', async () => {
    f.write(
      'ws/.codewhale/plugins/edge/plugin.json',
      `{"$schema": "s", "name": "edge", "extensions": {"other": ${arrays(124)}}}`,
    );
    f.write(
      'ws/.codewhale/plugins/edge/mcp.json',
      `{"mcpServers": {"s": {"command": "x", "extensions": {"o": ${arrays(123)}}}}}`,
    );
    f.write('ws/.rivumi/plugins/edge.json', `{"hooks": {"unknown_event": ${arrays(510)}}}`);
    const s = index([f.path('ws')]);
    assert.equal(
      top(s).filter((i) => i.decision === 'rejected').length,
      0,
      s.diagnostics.map((d) => d.message).join('\n'),
    );
    for (const cmd of ['review', 'show']) {
      for (const name of ['edge']) {
        for (const id of s.items.filter((i) => i.name === name && i.parent === null).map((i) => i.id)) {
          let err = '';
          const code = await run([cmd, id, '--json', '--no-user'], {
            out: () => undefined,
            err: (t) => (err += t),
            env: { SKILLGATE_STATE_DIR: f.path('state') },
            cwd: f.path('ws'),
          });
          assert.equal(code, 0, `${cmd} ${id}: ${err}`);
        }
      }
    }
  });
});

describe('wide input', function () {
  const fsPatch = fsPatcher();
  this.timeout(60000);
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('lists 100 schema problems and counts the rest for a manifest with 50,000 wrong values', () => {
    f.write(
      'ws/.codewhale/plugins/wide/plugin.json',
      `{"$schema": "s", "name": "wide", "keywords": [${Array(50000).fill('1').join(',')}]}`,
    );
    f.write(
      'ws/.codewhale/plugins/wider/plugin.toml',
      `${GOOD_TOML.replace('good', 'wider')}[capabilities]\nnetwork_hosts = [${Array(50000).fill('1').join(',')}]\n`,
    );
    const s = index([f.path('ws')]);
    for (const name of ['wide', 'wider']) {
      const item = byName(s, name);
      assert.equal(item.decision, 'rejected');
      const own = s.diagnostics.filter((d) => d.itemId === item.id);
      assert.equal(own.length, MAX_DIAGNOSTICS_PER_FILE + 1, name);
      assert.match(own.at(-1)?.message ?? '', /^49,9\d\d more problems in this file not listed/, name);
    }
  });

  it('finds each of 50,000 repeated keywords in linear time, lists the first of the file with a fix removing its own repeat, and counts the rest', () => {
    // Each fix's range once built a line map of the whole file: minutes for this one.
    const text = JSON.stringify({ $schema: 's', name: 'wide', keywords: Array(50000).fill('a') }, null, 2);
    const file = f.write('ws/.codewhale/plugins/wide/plugin.json', text);
    const { result: s, ms } = cpuTime(() => index([f.path('ws')]));
    assert.ok(ms < 10000, `took ${ms} ms of CPU`);
    const own = s.diagnostics.filter((d) => d.file === file);
    assert.equal(own.length, MAX_DIAGNOSTICS_PER_FILE + 1, 'the per-file cap (fileCap.ts)');
    const repeats = own.filter((d) => d.message === 'duplicate keyword value `a`');
    assert.ok(repeats.length >= MAX_DIAGNOSTICS_PER_FILE - 2, `${repeats.length} repeats listed`);
    // Element i of the list is on line 4 + i: each fix removes from the end of the value before it to its own end.
    for (const r of repeats) {
      const edit = r.fix?.edits[0];
      const line = r.range.start.line;
      assert.deepEqual(edit?.range, { start: { line: line - 1, character: 7 }, end: { line, character: 7 } });
      assert.equal(edit?.newText, '');
    }
    const rest = 49999 - repeats.length;
    assert.equal(
      own.at(-1)?.message,
      `${rest.toLocaleString('en-US')} more problems in this file not listed (Skillgate lists the first 100 of a file); the first of the most severe: duplicate keyword value \`a\``,
    );
  });

  it('looks on disk once for a component path declared 16,000 times (fuzz seed 7006)', () => {
    const text = JSON.stringify({ name: 'wide', version: '1.0.0', skills: Array(16000).fill('a') });
    const dir = path.dirname(f.write('ws/.codewhale/plugins/wide/kimi.plugin.json', text));
    const looks = fsPatch.calls('lstatSync', (p) => p === `${dir}/a`);
    const s = index([f.path('ws')]);
    assert.equal(looks.length, 1);
    assert.equal(byName(s, 'wide').decision, 'rejected');
    assert.match(
      s.diagnostics
        .filter((d) => d.code === 'codewhale.component.path')
        .map((d) => d.message)
        .join('\n'),
      /^failed to inspect skills path a: /m,
    );
  });

  it('finds the range of every key of an object with 30,000 keys in linear time', () => {
    const keys = Array.from({ length: 30000 }, (_, i) => `k${i}`);
    const parsed = parseJsonDocument('f.json', `{${keys.map((k) => `"${k}": {"command": "x"}`).join(',')}}`);
    assert.ok(parsed.ok);
    const { ms } = cpuTime(() => {
      for (const k of keys) parsed.document.valueRange([k, 'command']);
    });
    assert.ok(ms < 3000, `took ${ms} ms of CPU`);
    assert.deepEqual(parsed.document.valueRange(['k29999', 'command']).start.line, 0);
  });

  it('takes the last of two same-named keys for a range, the one whose value the document holds', () => {
    for (const python of [false, true]) {
      const parsed = parseJsonDocument('f.json', '{"a": 1,\n"a": 2}', { python });
      assert.ok(parsed.ok);
      assert.equal(parsed.document.valueRange(['a']).start.line, 1);
    }
  });
});

describe('nesting pre-scan', () => {
  it('ignores brackets inside JSON strings, escaped quotes included', () => {
    assert.equal(nestingExcess(`["${'['.repeat(50)}\\"${'{'.repeat(50)}"]`, 2, 'json'), undefined);
    assert.deepEqual(nestingExcess('[[["x"]]]', 2, 'json'), { offset: 2, container: 'array' });
    assert.deepEqual(nestingExcess('{"a": {"b": {}}}', 2, 'json'), { offset: 12, container: 'object' });
  });

  it('ignores brackets inside TOML strings, multi-line strings and comments', () => {
    const text = `a = "[[[[\\"[[[["\nb = '[[[['\nc = """\n[[[[\n"""\nd = '''[[[[\n'''\n# [[[[[[\ne = [[1]]\n`;
    assert.equal(nestingExcess(text, 3, 'toml'), undefined);
    assert.equal(nestingExcess('e = [[[1]]]\n', 3, 'toml'), undefined);
    assert.deepEqual(nestingExcess('e = [[[[1]]]]\n', 3, 'toml'), { offset: 7, container: 'array' });
  });

  it('counts TOML table headers and dotted keys as levels, but not floats or dates', () => {
    assert.equal(
      nestingExcess('[a.b]\nc.d = 1.5\nt = 1979-05-27T07:32:00.999Z\n[[e.f]]\ng = [1.5, 2.5]\n', 4, 'toml'),
      undefined,
    );
    assert.ok(nestingExcess('[a.b.c]\nd.e = 1\n', 4, 'toml'));
    assert.ok(nestingExcess('a = { b = { c.d.e = 1 } }\n', 4, 'toml'));
  });

  it('leaves ordinary documents to the parsers, which report their own errors', () => {
    const json = parseJsonDocument('f.json', '{"a": [1, 2]}');
    assert.ok(json.ok);
    const bad = parseJsonDocument('f.json', '{"a": ');
    assert.ok(!bad.ok && bad.nesting === undefined);
    assert.ok(parseTomlDocument('f.toml', 'a = [[1], [2]]\n[b.c]\nd = 1\n', 127).ok);
  });
});
