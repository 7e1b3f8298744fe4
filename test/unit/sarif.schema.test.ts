import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from './helpers/runCli';
import { Fixture, writeW } from './helpers/fixture';
import { A0, EvaFixture } from './helpers/evaFixture';
import { sarifSchemaErrors } from './helpers/sarifSchema';
import { codeScanningViolations } from './helpers/codeScanningRules';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics/diagnosticCodes';
import { sarifRule } from '../../src/core/report/sarif';

const DEMO = path.resolve(__dirname, '../../examples/demo-workspace');

/** What a file name can hold that breaks a URI or a terminal: a fragment, a query, an escape, a space, control and bidi characters. */
const NAME = ' #?%20%\x1b[1A\u009b\u202e\t\n';

interface SarifLog {
  runs: {
    tool: { driver: { rules: { id: string }[] } };
    columnKind?: string;
    originalUriBaseIds: Record<string, { uri: string }>;
    results: {
      ruleId: string;
      locations: {
        physicalLocation: {
          artifactLocation: { uri: string; uriBaseId?: string };
          region: { startLine: number; startColumn: number; endLine: number; endColumn: number };
        };
      }[];
      properties: { path?: string };
    }[];
  }[];
}

/**
 * The whole SARIF log of `validate --format sarif` and `check --lock --format sarif`, run
 * in process on real workspaces, is valid against the official SARIF 2.1.0 schema and
 * meets what GitHub code scanning requires of an upload (helpers/codeScanningRules.ts):
 * otherwise `github/codeql-action/upload-sarif` rejects the file (it validates against
 * the schema, upload-lib.ts validateSarifFileSchema) and the CI gate shows nothing.
 */
describe('SARIF logs against the SARIF 2.1.0 schema and GitHub code scanning', function () {
  this.timeout(60000);
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const sarif = async (args: string[], cwd: string, exit: number[] = [0, 1]): Promise<SarifLog> => {
    const r = await runCli([...args, '--format', 'sarif'], { SKILLGATE_STATE_DIR: f.path('state') }, cwd);
    assert.ok(exit.includes(r.code), `exit ${r.code}: ${r.err}`);
    return JSON.parse(r.out) as SarifLog;
  };
  /** Valid and accepted; ajv's errors and the code scanning violations printed when not. */
  const accepted = (log: SarifLog): SarifLog => {
    const schema = sarifSchemaErrors(log);
    assert.deepEqual(schema, [], `schema errors:\n${schema.join('\n')}`);
    const github = codeScanningViolations(log);
    assert.deepEqual(github, [], `code scanning would not accept it:\n${github.join('\n')}`);
    // Columns count UTF-16 code units (model.ts `Position`, as in the editor); the run says so (SARIF §3.14.21).
    assert.deepEqual(
      log.runs.map((r) => r.columnKind),
      log.runs.map(() => 'utf16CodeUnits'),
    );
    return log;
  };
  const results = (log: SarifLog) => log.runs.flatMap((r) => r.results);

  it('every rule of the diagnostic catalogue has the descriptions and help code scanning requires, within its limits', () => {
    const rules = Object.keys(DIAGNOSTIC_CODES).map(sarifRule);
    const log = {
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [{ tool: { driver: { name: 'Skillgate', rules } }, results: [] }],
    };
    assert.deepEqual(sarifSchemaErrors(log), []);
    assert.deepEqual(codeScanningViolations(log), []);
  });

  it('validate on the demo workspace', async () => {
    fs.cpSync(DEMO, f.path('demo'), { recursive: true });
    const log = accepted(await sarif(['validate', '--no-user'], f.path('demo')));
    assert.ok(results(log).length > 0, 'the demo has findings');
  });

  it('validate on a workspace without findings, and on one without agent content', async () => {
    writeW(f);
    const clean = accepted(await sarif(['validate', '--no-user'], f.path('ws'), [0]));
    assert.deepEqual(results(clean), []);
    const empty = accepted(await sarif(['validate', '--no-user'], f.mkdir('empty'), [0]));
    assert.deepEqual(results(empty), []);
  });

  it('validate on hostile names: control characters, a byte that is not UTF-8, #, ?, %, spaces', async () => {
    const ws = `ws${NAME}`;
    f.mkdir(ws);
    // Findings at files whose path holds every hostile character: a broken manifest, a broken skill, an unknown key.
    f.write(`${ws}/.codewhale/plugins/bad${NAME}/plugin.toml`, '[plugin\nname = "b"');
    writeW(f, 'unknown = true\n', `${ws}/.codewhale/plugins/odd${NAME}`);
    f.write(`${ws}/.rivumi/skills/r${NAME}.md`, '---\nname: [unclosed\n');
    f.write(`${ws}/.rivumi/plugins/p${NAME}.json`, '{,}');
    // A skill whose name is not UTF-8 (0xFF 0x9B), and a manifest that is not UTF-8.
    fs.writeFileSync(
      Buffer.concat([Buffer.from(f.path(`${ws}/.rivumi/skills/raw`)), Buffer.from([0xff, 0x9b]), Buffer.from('.md')]),
      '---\nname: [unclosed\n',
    );
    f.write(`${ws}/.codewhale/plugins/bytes/plugin.json`, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    const log = accepted(await sarif(['validate', '--no-user'], f.path(ws)));
    const uris = results(log).map((x) => x.locations[0]?.physicalLocation.artifactLocation.uri ?? '');
    assert.ok(uris.length >= 5, uris.join('\n'));
    assert.ok(
      uris.some((u) => u.includes('bad%20%23%3F%2520%25%1B%5B1A%C2%9B%E2%80%AE%09%0A/plugin.toml')),
      uris.join('\n'),
    );
    assert.ok(
      log.runs[0]?.originalUriBaseIds['%SRCROOT%']?.uri.endsWith('/ws%20%23%3F%2520%25%1B%5B1A%C2%9B%E2%80%AE%09%0A/'),
    );
  });

  it('validate on an Eva project with findings', async () => {
    const e = new EvaFixture().p0();
    try {
      e.adapter(A0);
      e.adapter('id: broken\nname: [unclosed\n', 'broken.yaml');
      e.adapter(`${A0}unknown_key: 1\n`, `odd${NAME}.yaml`);
      e.l0();
      const log = accepted(await sarif(['validate', '--no-user'], e.ws));
      assert.ok(
        results(log).some((x) => x.ruleId.startsWith('eva.')),
        results(log)
          .map((x) => x.ruleId)
          .join(),
      );
    } finally {
      e.remove();
    }
  });

  it('validate on two workspace folders', async () => {
    writeW(f, 'unknown = true\n');
    writeW(f, 'unknown = true\n', 'ws2/.codewhale/plugins/example-plugin');
    const log = accepted(
      await sarif(['validate', '--no-user', '--workspace', f.path('ws'), '--workspace', f.path('ws2')], f.root),
    );
    assert.deepEqual(Object.keys(log.runs[0]?.originalUriBaseIds ?? {}), ['%SRCROOT%', '%SRCROOT2%']);
  });

  it('check --lock with a new, a changed and a gone bundle, and a lock outside the workspace', async () => {
    writeW(f);
    writeW(f, '', 'ws/.codewhale/plugins/changes');
    writeW(f, '', `ws/.codewhale/plugins/goes${NAME}`);
    const locked = await runCli(['lock', '--no-user'], { SKILLGATE_STATE_DIR: f.path('state') }, f.path('ws'));
    assert.equal(locked.code, 0, locked.err);
    fs.appendFileSync(f.path('ws/.codewhale/plugins/changes/skills/example/SKILL.md'), 'more\n');
    fs.rmSync(f.path(`ws/.codewhale/plugins/goes${NAME}`), { recursive: true });
    writeW(f, '', `ws/.codewhale/plugins/new${NAME}`);
    const log = accepted(await sarif(['check', '--lock', '--no-user'], f.path('ws'), [1]));
    assert.deepEqual(
      results(log)
        .map((x) => x.ruleId)
        .sort(),
      ['skillgate.lock.changed', 'skillgate.lock.gone', 'skillgate.lock.new'],
    );
    // A gone bundle is reported at its `"path"` member in the lock, start to end.
    const gone = results(log).find((x) => x.ruleId === 'skillgate.lock.gone');
    const region = gone?.locations[0]?.physicalLocation.region;
    const line = fs.readFileSync(f.path('ws/skillgate.lock'), 'utf8').split('\n')[(region?.startLine ?? 0) - 1] ?? '';
    assert.equal(region?.endLine, region?.startLine);
    assert.equal(
      line.slice((region?.startColumn ?? 0) - 1, (region?.endColumn ?? 0) - 1),
      `"path": ${JSON.stringify(gone?.properties.path)}`,
    );
    // The lock kept outside the workspace: the gone bundle is reported at an absolute file:// URI.
    fs.copyFileSync(f.path('ws/skillgate.lock'), f.path('elsewhere.lock'));
    const outside = accepted(
      await sarif(['check', '--lock', f.path('elsewhere.lock'), '--no-user'], f.path('ws'), [1]),
    );
    const outsideGone = results(outside).find((x) => x.ruleId === 'skillgate.lock.gone');
    assert.ok(
      outsideGone?.locations[0]?.physicalLocation.artifactLocation.uri.startsWith('file:///'),
      JSON.stringify(outsideGone),
    );
  });
});
