import { strict as assert } from 'node:assert';
import { byName } from './helpers/fixture';
import { runCli } from './helpers/runCli';
import { trustWorkspace } from './helpers/trustWorkspace';
import { problemBatches } from '../../src/extension/problems/problemBatches';
import type { Diagnostic } from '../../src/core/model';
import { review } from '../../src/core/trust/reviewBundle';
import { reviewViewModel } from '../../src/core/review/reviewViewModel';

const CODE = 'rivumi.hooks.label-too-long';
const FAILS_CLOSED = 'Rivumi runs this hook, then fails closed (deny) on every event it matches';

/**
 * A hook whose label (its argv joined by single spaces) is longer than 512 characters
 * (rivumi.md §4.1, §4.6): Rivumi's runner raises after the hook ran, even on a timeout or a
 * non-zero exit, and its fail-closed wrapper makes that a deny (§4.7). The hook loads and
 * runs on every event it matches, and denies every one: a warning at its argv says so.
 * Characters are Python's: code points, an astral character or a lone surrogate one each.
 */
describe('Rivumi hook label longer than 512 characters: runs, then fails closed (rivumi.md §4.1, §4.7)', () => {
  const w = trustWorkspace();
  /** Writes hooks.json with one pre_tool_use entry per argv; returns its text. */
  const hooksJson = (...argvs: string[][]): string => {
    const text = JSON.stringify({ pre_tool_use: argvs.map((command) => ({ command })) });
    w.f.write('ws/.rivumi/hooks.json', text);
    return text;
  };
  /** An argv whose label is `length` characters, no element a name too long for a path (ENAMETOOLONG). */
  const argvOfLabel = (length: number): string[] => [
    'echo',
    'x'.repeat(200),
    'y'.repeat(200),
    'z'.repeat(length - 407),
  ];
  const snap = () => w.snapshot({ rivumiHooksEnv: '1' });
  const labelWarnings = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.code === CODE);

  it('warns at the argv of a hook whose label is 513 characters, and not at 512, counting the joining spaces', () => {
    const text = hooksJson(['a'.repeat(255), 'b'.repeat(256)], ['c'.repeat(256), 'd'.repeat(256)]);
    const warnings = labelWarnings(snap().diagnostics);
    assert.deepEqual(
      warnings.map((d) => [d.severity, d.message, d.file]),
      [
        [
          'warning',
          `hook label is 513 characters, longer than 512: ${FAILS_CLOSED}`,
          w.f.path('ws/.rivumi/hooks.json'),
        ],
      ],
    );
    // At the second entry's `command` array: the argv whose label is too long.
    const at = text.lastIndexOf('"command":') + '"command":'.length;
    assert.deepEqual(warnings[0]?.range.start, { line: 0, character: at });
  });

  it('counts an astral character as one character, not two UTF-16 units', () => {
    // 510 + 1 + 1 = 512 code points (1022 UTF-16 units); one more is 513.
    hooksJson(['😀'.repeat(510), 'x']);
    assert.deepEqual(labelWarnings(snap().diagnostics), []);
    hooksJson(['😀'.repeat(511), 'x']);
    assert.deepEqual(
      labelWarnings(snap().diagnostics).map((d) => d.message),
      [`hook label is 513 characters, longer than 512: ${FAILS_CLOSED}`],
    );
  });

  it('counts a lone surrogate as one character, as Python does', () => {
    hooksJson(['\ud800'.repeat(512)]);
    assert.deepEqual(labelWarnings(snap().diagnostics), []);
    hooksJson(['\ud800'.repeat(512), 'x']);
    assert.deepEqual(
      labelWarnings(snap().diagnostics).map((d) => d.message),
      [`hook label is 514 characters, longer than 512: ${FAILS_CLOSED}`],
    );
  });

  it("warns at a plugin hook's argv too, in its manifest", () => {
    const manifest = w.f.write(
      'ws/.rivumi/plugins/pk.json',
      JSON.stringify({ name: 'pk', hooks: { pre_compact: [{ command: argvOfLabel(513) }] } }),
    );
    assert.deepEqual(
      labelWarnings(snap().diagnostics).map((d) => [d.file, d.message]),
      [[manifest, `hook label is 513 characters, longer than 512: ${FAILS_CLOSED}`]],
    );
  });

  it("leaves the hook's fate as it is: loaded, and run under the opt-in", () => {
    hooksJson(argvOfLabel(512));
    const fits = snap();
    hooksJson(argvOfLabel(513));
    const long = snap();
    const fate = (s: typeof fits) =>
      s.items.filter((i) => i.system === 'rivumi').map((i) => [i.kind, i.decision, i.reasons]);
    assert.deepEqual(fate(long), fate(fits));
    assert.notEqual(byName(long, 'hooks.json').decision, 'rejected');
  });

  describe('every face that lists diagnostics carries it', () => {
    const env = () => ({ SKILLGATE_STATE_DIR: w.f.path('state'), RIVUMI_ENABLE_PROJECT_HOOKS: '1' });
    beforeEach(() => hooksJson(argvOfLabel(513)));

    it('validate --json lists it, a warning that fails nothing', async () => {
      const r = await runCli(['validate', '--json', '--no-user'], env(), w.f.path('ws'));
      const json = JSON.parse(r.out) as { diagnostics: Diagnostic[] };
      assert.deepEqual(
        labelWarnings(json.diagnostics).map((d) => [d.severity, d.message]),
        [['warning', `hook label is 513 characters, longer than 512: ${FAILS_CLOSED}`]],
      );
      assert.equal(r.code, 0, r.err);
    });

    it('validate --format sarif gives it a warning result and its rule', async () => {
      const r = await runCli(['validate', '--format', 'sarif', '--no-user'], env(), w.f.path('ws'));
      const run = (
        JSON.parse(r.out) as {
          runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string }[] }[];
        }
      ).runs[0];
      assert.deepEqual(
        run?.results.filter((x) => x.ruleId === CODE).map((x) => x.level),
        ['warning'],
      );
      assert.ok(run?.tool.driver.rules.some((rule) => rule.id === CODE));
    });

    it('the Problems panel gets it at hooks.json, from the same snapshot', () => {
      const batches = problemBatches(snap().diagnostics, new Map(), 100).flat();
      const shown = batches.find(([file]) => file === w.f.path('ws/.rivumi/hooks.json'))?.[1] ?? [];
      assert.deepEqual(
        labelWarnings(shown).map((d) => d.severity),
        ['warning'],
      );
    });

    it('the review says it where it lists what the hook does', async () => {
      const id = byName(snap(), 'hooks.json').id;
      const r = await runCli(['review', id, '--no-user'], env(), w.f.path('ws'));
      assert.equal(r.code, 0, r.err);
      const line = r.out.split('\n').find((l) => l.startsWith('  hook pre_tool_use: '));
      assert.match(
        line ?? '',
        / runs a host command for up to 5s, then fails closed \(deny\) on every event it matches: its label is longer than 512 characters$/,
      );
      assert.match(r.out, new RegExp(`warning {5}${CODE.replace(/\./g, '\\.')} .*hook label is 513 characters`));
    });

    it('the review panel says it under the hook, and nothing under a hook whose label fits', () => {
      hooksJson(argvOfLabel(513), argvOfLabel(512));
      const s = snap();
      const r = review(byName(s, 'hooks.json'), { store: w.store });
      assert.ok(r.ok);
      assert.deepEqual(
        reviewViewModel(r.value, s, true).capabilities.hooks.map((h) => h.afterRun),
        ['then fails closed (deny) on every event it matches: its label is longer than 512 characters', null],
      );
    });
  });
});
