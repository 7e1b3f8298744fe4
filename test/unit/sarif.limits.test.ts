import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { toSarif } from '../../src/core/report/sarif';
import { lockSarif, type LockReport } from '../../src/core/lock/lockSarif';
import type { LockFinding } from '../../src/core/lock/lockCheck';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Diagnostic } from '../../src/core/model';
import { sarifSchemaErrors } from './helpers/sarifSchema';
import { codeScanningViolations } from './helpers/codeScanningRules';

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
  properties: { omitted?: { error: number; warning: number; note: number } };
}
interface Log {
  runs: { tool: { driver: { rules: { id: string }[] } }; results: Result[] }[];
}

/**
 * GitHub code scanning rejects a run of more than 25,000 results and a file over 10 MB
 * gzip-compressed (docs.github.com, "SARIF results exceed one or more limits" and
 * "SARIF results file is too large"): a repository with that many findings got no code
 * scanning at all. The SARIF keeps the most severe results and says, in one last result of
 * its own rule, how many of each level it left out and which command lists them all.
 */
describe('SARIF within the limits GitHub code scanning accepts', function () {
  this.timeout(60_000);
  const LIMIT = 25_000;
  const TRUNCATED = 'skillgate.sarif.truncated';

  const diagnostic = (i: number, severity: Diagnostic['severity'], message = `finding ${i}`): Diagnostic => ({
    file: `/ws/.codewhale/plugins/p${i}/plugin.toml`,
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
    severity,
    code: severity === 'error' ? 'codewhale.manifest.parse' : 'codewhale.name-conflict',
    message,
    itemId: null,
  });
  const validate = (diagnostics: Diagnostic[]): Log =>
    toSarif(
      { generation: 1, workspaces: ['/ws'], items: [], diagnostics, trustProblem: null } as Snapshot,
      '0.0.0',
    ) as Log;
  const run = (log: Log) => log.runs[0] as Log['runs'][number];
  /** Valid SARIF 2.1.0 that code scanning takes (checked on the run's results, not the 25,000 copies of one rule). */
  const accepted = (log: Log) => {
    assert.deepEqual(codeScanningViolations(log), []);
    const sample = { ...log, runs: [{ ...run(log), results: run(log).results.slice(-50) }] };
    assert.deepEqual(sarifSchemaErrors(sample), []);
  };

  it('keeps a run of exactly 25,000 results whole, in its order', () => {
    const levels = ['information', 'warning', 'error'] as const;
    const log = validate(Array.from({ length: LIMIT }, (_, i) => diagnostic(i, levels[i % 3] ?? 'error')));
    accepted(log);
    assert.equal(run(log).results.length, LIMIT);
    assert.ok(!run(log).results.some((r) => r.ruleId === TRUNCATED));
    assert.deepEqual(
      run(log)
        .results.slice(0, 3)
        .map((r) => r.level),
      ['note', 'warning', 'error'],
    );
  });

  it('keeps the errors, then the warnings in their order, and says how many of each level it left out', () => {
    // 25,010 results: 20,000 notes first, then 5,005 warnings, and 5 errors last.
    const diagnostics = [
      ...Array.from({ length: 20_000 }, (_, i) => diagnostic(i, 'information')),
      ...Array.from({ length: 5_005 }, (_, i) => diagnostic(20_000 + i, 'warning')),
      ...Array.from({ length: 5 }, (_, i) => diagnostic(25_005 + i, 'error')),
    ];
    const log = validate(diagnostics);
    accepted(log);
    const results = run(log).results;
    assert.equal(results.length, LIMIT);
    assert.deepEqual(
      results.slice(0, 6).map((r) => [r.level, r.message.text]),
      [
        ['error', 'finding 25005'],
        ['error', 'finding 25006'],
        ['error', 'finding 25007'],
        ['error', 'finding 25008'],
        ['error', 'finding 25009'],
        ['warning', 'finding 20000'],
      ],
    );
    // 5 errors + 5,005 warnings + 19,989 notes = 24,999 kept: 11 notes left out.
    assert.equal(results.filter((r) => r.level === 'warning' && r.ruleId !== TRUNCATED).length, 5_005);
    assert.equal(results[LIMIT - 2]?.message.text, 'finding 19988');
    const last = results[LIMIT - 1] as Result;
    assert.equal(last.ruleId, TRUNCATED);
    assert.equal(run(log).tool.driver.rules[last.ruleIndex]?.id, TRUNCATED);
    assert.equal(last.level, 'warning');
    assert.deepEqual(last.properties.omitted, { error: 0, warning: 0, note: 11 });
    assert.match(last.message.text, /^11 results are left out of this SARIF run \(0 errors, 0 warnings, 11 notes\)/);
    assert.match(last.message.text, /25,000 results/);
    assert.match(last.message.text, /`skillgate validate` \(text or `--json`\) lists them all/);
    // Its place is the first result it stands for.
    assert.equal(last.locations[0]?.physicalLocation.artifactLocation.uri, '.codewhale/plugins/p19989/plugin.toml');
  });

  it('is an error itself when an error is left out', () => {
    const log = validate(Array.from({ length: LIMIT + 2 }, (_, i) => diagnostic(i, 'error')));
    accepted(log);
    const last = run(log).results[LIMIT - 1] as Result;
    assert.equal(run(log).results.length, LIMIT);
    assert.equal(last.ruleId, TRUNCATED);
    assert.equal(last.level, 'error');
    assert.deepEqual(last.properties.omitted, { error: 3, warning: 0, note: 0 });
  });

  it('keeps a file within 10 MB gzip-compressed when its messages cannot be compressed', () => {
    // 2,000 findings whose messages hold 8 KB of random text each: about 12 MB gzip-compressed.
    const noise = randomBytes(2_000 * 6_000).toString('base64');
    const diagnostics = Array.from({ length: 2_000 }, (_, i) =>
      diagnostic(i, i < 10 ? 'error' : 'warning', noise.slice(i * 8_000, (i + 1) * 8_000)),
    );
    const log = validate(diagnostics);
    accepted(log);
    assert.ok(gzipSync(JSON.stringify(log)).length <= 10_000_000);
    const results = run(log).results;
    const last = results[results.length - 1] as Result;
    assert.equal(last.ruleId, TRUNCATED);
    assert.ok(results.length > 1_000, `${results.length} results kept`);
    assert.deepEqual(
      results.slice(0, 10).map((r) => r.level),
      Array.from({ length: 10 }, () => 'error'),
    );
    assert.deepEqual(last.properties.omitted, { error: 0, warning: 2_000 - (results.length - 1), note: 0 });
    assert.match(last.message.text, /10 MB gzip-compressed/);
  });

  it('check --lock: the same limit, and the command that lists every bundle', () => {
    const findings = Array.from({ length: LIMIT + 1 }, (_, i): LockFinding => ({
      status: 'new',
      system: 'codewhale',
      name: `p${i}`,
      path: `.codewhale/plugins/p${i}`,
      item: null,
      reviewToken: 't',
      lockedReviewToken: null,
      contentChanged: false,
      capabilitiesChanged: false,
      capabilityChanges: null,
      message: `Codewhale bundle p${i} is not in skillgate.lock`,
    }));
    const report: LockReport = {
      workspace: '/ws',
      lockFile: '/ws/skillgate.lock',
      findings,
      placeInLock: () => ({ line: 1, startColumn: 1, endColumn: 2 }),
    };
    const log = lockSarif([report], '0.0.0') as Log;
    accepted(log);
    const results = run(log).results;
    assert.equal(results.length, LIMIT);
    const last = results[LIMIT - 1] as Result;
    assert.equal(last.ruleId, TRUNCATED);
    assert.equal(last.level, 'error');
    assert.deepEqual(last.properties.omitted, { error: 2, warning: 0, note: 0 });
    assert.match(last.message.text, /`skillgate check --lock` \(text or `--json`\) lists them all/);
  });

  it('check --lock: counts what it left out by rule, so the Action tells the unread places from the bundles', () => {
    const findings = Array.from({ length: LIMIT }, (_, i): LockFinding => ({
      status: 'new',
      system: 'codewhale',
      name: `p${i}`,
      path: `.codewhale/plugins/p${i}`,
      item: null,
      reviewToken: 't',
      lockedReviewToken: null,
      contentChanged: false,
      capabilitiesChanged: false,
      capabilityChanges: null,
      message: `Codewhale bundle p${i} is not in skillgate.lock`,
    }));
    const report: LockReport = {
      workspace: '/ws',
      lockFile: '/ws/skillgate.lock',
      findings,
      placeInLock: () => ({ line: 1, startColumn: 1, endColumn: 2 }),
    };
    const unread = Array.from({ length: 3 }, (_, i): Diagnostic => ({
      file: `/ws/config/adapters/d${i}/a.yaml`,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: 'warning',
      code: 'eva.scan.limit',
      message: "more than 0 files in this directory; Eva's discovery limit stops here (1 skipped)",
      itemId: null,
    }));
    const log = lockSarif([report], '0.0.0', unread) as Log;
    accepted(log);
    const last = run(log).results[LIMIT - 1] as Result & { properties: { omittedByRule?: Record<string, number> } };
    assert.equal(last.ruleId, TRUNCATED);
    // 25,003 results, 24,999 kept: one bundle and the three places left out.
    assert.deepEqual(last.properties.omitted, { error: 4, warning: 0, note: 0 });
    assert.deepEqual(last.properties.omittedByRule, { 'skillgate.lock.new': 1, 'skillgate.lock.unread': 3 });
  });
});
