import { strict as assert } from 'node:assert';
import { FileCap, MAX_DIAGNOSTICS_PER_FILE } from '../../src/core/diagnostics/fileCap';
import { Findings } from '../../src/core/diagnostics/findings';
import { thousands } from '../../src/core/text/thousands';
import type { Diagnostic, Severity } from '../../src/core/model';
import { Fixture, index, writeW } from './helpers/fixture';

/**
 * One unit of work lists at most MAX_DIAGNOSTICS_PER_FILE diagnostics of a file, and one more
 * that counts the rest: a hostile list of 150,000 values was 300,000 diagnostics (fileCap.ts).
 * What is left out is never silent and never less severe than what stands for it.
 */
describe('the per-file cap on diagnostics', () => {
  const d = (file: string, n: number, severity: Severity = 'warning'): Diagnostic => ({
    file,
    range: { start: { line: n, character: 0 }, end: { line: n, character: 1 } },
    severity,
    code: 'codewhale.manifest.list',
    message: `problem ${n}`,
    itemId: null,
  });

  it('keeps the first of a file, and counts the rest in one diagnostic where the first left out was', () => {
    const cap = new FileCap();
    const list: Diagnostic[] = [];
    for (let n = 0; n < 250; n++) {
      cap.add(list, d('/a', n));
      if (n % 50 === 0) cap.add(list, d('/b', n));
    }
    const a = list.filter((x) => x.file === '/a');
    assert.equal(a.length, MAX_DIAGNOSTICS_PER_FILE + 1);
    assert.deepEqual(
      a.slice(0, MAX_DIAGNOSTICS_PER_FILE).map((x) => x.message),
      Array.from({ length: MAX_DIAGNOSTICS_PER_FILE }, (_, n) => `problem ${n}`),
    );
    const summary = a[MAX_DIAGNOSTICS_PER_FILE];
    assert.deepEqual(
      [summary?.code, summary?.severity, summary?.range.start.line, summary?.message],
      [
        'skillgate.diagnostics.truncated',
        'warning',
        100,
        '150 more problems in this file not listed (Skillgate lists the first 100 of a file); the first of the most severe: problem 100',
      ],
    );
    // In the list's order: after the file's 100th, before what the other file reported later.
    assert.equal(list.indexOf(summary as Diagnostic), 102);
    assert.deepEqual([list[103]?.file, list[103]?.message], ['/b', 'problem 100']);
    assert.deepEqual(
      list.filter((x) => x.file === '/b').map((x) => x.message),
      ['problem 0', 'problem 50', 'problem 100', 'problem 150', 'problem 200'],
      'another file keeps its own',
    );
  });

  it('is as severe as the worst left out, and names the first of those, at its place', () => {
    const cap = new FileCap();
    const list: Diagnostic[] = [];
    for (let n = 0; n < 130; n++) cap.add(list, d('/a', n, n === 120 || n === 125 ? 'error' : 'information'));
    const summary = list[list.length - 1];
    assert.equal(list.length, MAX_DIAGNOSTICS_PER_FILE + 1);
    assert.deepEqual(
      [summary?.severity, summary?.range.start.line, summary?.message.endsWith('most severe: problem 120')],
      ['error', 120, true],
    );
    assert.ok(summary?.message.startsWith('30 more problems'));
  });

  it('says one left out as one, and groups the digits of a count', () => {
    const cap = new FileCap();
    const list: Diagnostic[] = [];
    for (let n = 0; n <= MAX_DIAGNOSTICS_PER_FILE; n++) cap.add(list, d('/a', n));
    assert.match(list.at(-1)?.message ?? '', /^1 more problem in this file not listed/);
    cap.add(list, d('/a', 101));
    assert.match(list.at(-1)?.message ?? '', /^2 more problems in this file not listed/);
    assert.deepEqual([0, 7, 999, 1_000, 25_000, 199_901, 1_234_567, 1_000_000_000].map(thousands), [
      '0',
      '7',
      '999',
      '1,000',
      '25,000',
      '199,901',
      '1,234,567',
      '1,000,000,000',
    ]);
  });

  it('answers whether a diagnostic would only be counted, so its fix and its range need not be built', () => {
    const cap = new FileCap();
    const list: Diagnostic[] = [];
    for (let n = 0; n < MAX_DIAGNOSTICS_PER_FILE - 1; n++) cap.add(list, d('/a', n));
    assert.equal(cap.full('/a'), false, 'one more is still listed');
    assert.equal(cap.onlyCounts('/a', 'information'), false);
    cap.add(list, d('/a', 99));
    assert.equal(cap.full('/a'), true, 'the next one is not listed: no fix for it');
    assert.equal(cap.full('/b'), false, 'another file has its own');
    // Full, but nothing left out yet: the first one left out gives the summary its place.
    assert.equal(cap.onlyCounts('/a', 'information'), false);
    cap.add(list, d('/a', 100, 'warning'));
    assert.deepEqual(
      (['information', 'warning', 'error'] as const).map((s) => cap.onlyCounts('/a', s)),
      [true, true, false],
      'one more severe than the worst left out moves the summary to its own range',
    );
    assert.equal(cap.onlyCounts('/b', 'information'), false);
    cap.add(list, d('/a', 101, 'error'));
    assert.equal(cap.onlyCounts('/a', 'error'), true);
    assert.equal(list.at(-1)?.range.start.line, 101);
  });

  it('Findings counts every error, those left out too, and returns each diagnostic to its rule', () => {
    const f = new Findings();
    for (let n = 0; n < 150; n++) f.inFile('skillgate.hidden-unicode', `hidden ${n}`, '/p/SKILL.md');
    const last = f.inFile('codewhale.manifest.list', 'duplicate keyword value `x`', '/p/SKILL.md');
    assert.equal(last.message, 'duplicate keyword value `x`', 'the rule still gets its diagnostic');
    assert.equal(f.errorCount, 1, 'a bundle whose only error was left out is still invalid');
    assert.equal(f.diagnostics.length, MAX_DIAGNOSTICS_PER_FILE + 1);
    assert.deepEqual(
      [f.diagnostics.at(-1)?.severity, f.diagnostics.at(-1)?.message],
      [
        'error',
        '51 more problems in this file not listed (Skillgate lists the first 100 of a file); the first of the most severe: duplicate keyword value `x`',
      ],
    );
  });

  describe('in a snapshot', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    it('a Codewhale manifest with 5,000 unknown OS selectors lists 101 diagnostics, and the bundle is rejected', () => {
      const dir = writeW(f, `[when]\nos = [${Array(5_000).fill('"x"').join(', ')}]\n`);
      const s = index([f.path('ws')]);
      const own = s.diagnostics.filter((x) => x.file === `${dir}/plugin.toml`);
      assert.equal(own.length, MAX_DIAGNOSTICS_PER_FILE + 1);
      assert.equal(own.filter((x) => x.code === 'skillgate.diagnostics.truncated').length, 1);
      assert.match(own.at(-1)?.message ?? '', /^9,900 more problems in this file not listed/);
      const bundle = s.items.find((i) => i.name === 'example-plugin' && i.parent === null);
      assert.deepEqual([bundle?.decision, bundle?.reasons[0]], ['rejected', 'manifest_invalid']);
    });

    it('a Rivumi hooks.json of 3,000 entries that are no mappings lists 101 diagnostics; its hooks stay rejected', () => {
      f.write('ws/.rivumi/hooks.json', JSON.stringify({ pre_tool_use: Array(3_000).fill(1) }));
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      const own = s.diagnostics.filter((x) => x.file === f.path('ws/.rivumi/hooks.json'));
      assert.equal(own.length, MAX_DIAGNOSTICS_PER_FILE + 1);
      assert.equal(own.at(-1)?.code, 'skillgate.diagnostics.truncated');
      assert.equal(own.at(-1)?.severity, 'error');
      const hooks = s.items.filter((i) => i.kind === 'hook');
      assert.equal(hooks.length, 3_000);
      assert.ok(hooks.every((h) => h.decision === 'rejected'));
    });
  });
});
