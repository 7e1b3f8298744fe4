import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { check, checkPasses, unreadPlaces } from '../../src/core/trust/checkGate';
import { reasonTextOf } from '../../src/core/systems/registry';
import { REASON_TEXT } from '../../src/core/decisions/reasonText';
import { A0, CORPUS, EvaFixture } from './helpers/evaFixture';
import { trustWorkspace } from './helpers/trustWorkspace';
import type { Snapshot } from '../../src/core/index/snapshot';
import { sarifSchemaErrors } from './helpers/sarifSchema';
import { codeScanningViolations } from './helpers/codeScanningRules';
import { lockSarif } from '../../src/core/lock/lockSarif';
import type { Diagnostic } from '../../src/core/model';

/**
 * `skillgate check` for Eva (eva.md §4.6): it fails for an Eva bundle whose Eva decision is
 * `registered` and whose trust status is not `trusted` — and only for those: a skill Eva
 * does not register (its manifest says `enabled: false`) is not loaded, so the gate does
 * not ask for its trust; a user skill is no trust unit at all.
 */
describe('skillgate check over Eva: trust required for what Eva registers (eva.md §4.6)', () => {
  const w = trustWorkspace({ fixture: () => new EvaFixture().p0() });

  const snap = (): Snapshot => w.snapshot({ workspaces: [w.f.ws], evaHome: w.f.home });
  const failures = () => check(snap()).map((x) => `${x.item.name}: ${x.problem}`);
  const trustNow = async (name: string) => {
    const item = snap().items.find((i) => i.name === name);
    assert.ok(item);
    const r = review(item, w.ctx);
    assert.ok(r.ok && r.value.reviewToken !== null);
    const t = await trust(item, r.value.reviewToken, w.ctx);
    assert.ok(t.ok, t.ok ? '' : t.message);
  };
  const OFF = A0.replace('enabled: true', 'enabled: false').replace('id: review-skill', 'id: off-skill');

  it('fails for a registered adapter until it is trusted, and again once it changes', async () => {
    w.f.adapter(A0);
    assert.deepEqual(failures(), ['review-skill: it is not reviewed']);
    await trustNow('review-skill');
    assert.deepEqual(failures(), []);
    w.f.adapter(A0.replace('priority: 10', 'priority: 11'));
    assert.deepEqual(failures(), ['review-skill: it changed since it was trusted (content-changed)']);
  });

  it('refuses a token the adapter no longer matches, saying how to review it again', async () => {
    w.f.adapter(A0);
    const before = snap().items[0];
    assert.ok(before);
    const r = review(before, w.ctx);
    assert.ok(r.ok && r.value.reviewToken !== null);
    assert.equal(r.value.codewhaleTrustLine, null, 'Eva has no trust command of its own');
    w.f.adapter(A0.replace('priority: 10', 'priority: 11'));
    const now = snap().items[0];
    assert.ok(now);
    const t = await trust(now, r.value.reviewToken, w.ctx);
    assert.deepEqual(
      t.ok ? null : t.message,
      'Review token does not match this bundle content and capability set; run `skillgate review review-skill` again',
    );
  });

  it('does not ask for the trust of an adapter Eva does not register', () => {
    w.f.adapter(OFF, 'off.yaml');
    const s = snap();
    assert.deepEqual(
      s.items.map((i) => [i.name, i.decision, i.trust]),
      [['off-skill', 'disabled', 'not-reviewed']],
    );
    assert.deepEqual(check(s), []);
  });

  it('asks only for the registered one of two, and never for a user skill', () => {
    w.f.adapter(A0);
    w.f.adapter(OFF, 'off.yaml');
    w.f.user('foo');
    const s = snap();
    assert.ok(
      s.items.some((i) => i.trust === null && i.system === 'eva'),
      'a user skill is listed without trust',
    );
    assert.deepEqual(
      check(s).map((x) => x.item.name),
      ['review-skill'],
    );
  });

  it('says in its own words that Eva registers an unreviewed unit whatever Skillgate says', () => {
    const text = reasonTextOf({ system: 'eva' }, 'loaded_unreviewed');
    assert.notEqual(text, REASON_TEXT.loaded_unreviewed);
    assert.match(text, /^Eva-CLI registers it by its own rules whatever Skillgate says, .*review it, then trust it\.$/);
  });
});

/**
 * Skillgate's own Eva caps (eva.md §1.2 "Caps (design `discovery.limits`) [S: upstream code
 * has none]"): past `max_files_per_dir` a file is neither read nor an item, over
 * `max_manifest_bytes` a manifest is `rejected manifest_too_large` unread, and a project's
 * `config/eva.yaml` may lower both. The shipped Eva-CLI (eva-config `collect_files`,
 * `read_data`) has no cap and registers every adapter, so what those caps hide is loaded
 * unreviewed: `check` cannot vouch for it and fails.
 */
describe('skillgate check over Eva: what Skillgate left unread by its own caps fails closed', () => {
  const w = trustWorkspace({ fixture: () => new EvaFixture().p0() });
  const snap = (): Snapshot => w.snapshot({ workspaces: [w.f.ws], evaHome: w.f.home });
  const withLimits = (limits: string) =>
    w.f.write(
      'ws/config/eva.yaml',
      `${fs.readFileSync(path.join(CORPUS, 'config/eva.yaml'), 'utf8')}discovery:\n  limits:\n${limits}`,
    );
  const UNREAD =
    'Skillgate did not read it (larger than max_manifest_bytes), and Eva-CLI has no such limit, so it cannot be vouched for';
  const cli = async (...args: string[]) => {
    let out = '';
    let err = '';
    const code = await run([...args, '--eva-home', w.f.home, '--no-user'], {
      out: (t) => (out += t),
      err: (t) => (err += t),
      env: { SKILLGATE_STATE_DIR: w.f.path('state') },
      cwd: w.f.ws,
    });
    return { code, out, err };
  };

  it('passes once everything read is trusted and no cap is hit', async () => {
    w.f.adapter(A0);
    await w.trustNow('review-skill (skill review)');
    const s = snap();
    assert.deepEqual(check(s), []);
    assert.deepEqual(unreadPlaces(s), []);
    assert.equal(checkPasses(s, check(s)), true);
    assert.equal((await cli('check')).code, 0);
  });

  it('fails with max_files_per_dir: 0, where no adapter is read at all', async () => {
    w.f.adapter(A0);
    withLimits('    max_files_per_dir: 0\n');
    const s = snap();
    assert.deepEqual(
      s.items.filter((i) => i.system === 'eva').map((i) => i.name),
      [],
      'nothing past the cap is an item',
    );
    // The capability root is empty: nothing is past its cap.
    assert.deepEqual(
      unreadPlaces(s).map((d) => [d.code, path.relative(w.f.ws, d.file)]),
      [
        ['eva.scan.limit', 'config/policies/adapter.yaml'],
        ['eva.scan.limit', 'config/adapters/review.yaml'],
      ],
    );
    assert.equal(checkPasses(s, check(s)), false);
    const text = await cli('check');
    assert.equal(text.code, 1);
    assert.equal(text.out, '');
    assert.match(text.err, /^skillgate: 2 place\(s\) the agents read were left unread by Skillgate's own limits/);
    assert.match(text.err, /config\/adapters\/review\.yaml: more than 0 files in this directory/);
    const json = JSON.parse((await cli('check', '--json')).out) as { ok: boolean; message: string; failing: unknown[] };
    assert.equal(json.ok, false);
    assert.deepEqual(json.failing, []);
    assert.equal(
      json.message,
      "2 place(s) the agents read were left unread by Skillgate's own limits, which the agents do not have (`skillgate validate` names them), so nothing there can be vouched for",
    );
  });

  it('fails with max_manifest_bytes: 10, naming the adapter Eva-CLI registers unread', async () => {
    w.f.adapter(A0);
    withLimits('    max_manifest_bytes: 10\n');
    const s = snap();
    assert.deepEqual(
      s.items.map((i) => [i.name, i.decision, i.reasons]),
      // Unparsed, it is named by its manifest's path: its id is unknown.
      [['config/adapters/review.yaml', 'rejected', ['manifest_too_large']]],
    );
    assert.deepEqual(
      check(s).map((x) => `${x.item.name}: ${x.problem}`),
      [`config/adapters/review.yaml: ${UNREAD}`],
    );
    assert.equal(checkPasses(s, check(s)), false);
    const json = JSON.parse((await cli('check', '--json')).out) as {
      ok: boolean;
      message: string;
      failing: { name: string; problem: string }[];
    };
    assert.equal(json.ok, false);
    assert.deepEqual(
      json.failing.map((x) => [x.name, x.problem]),
      [['config/adapters/review.yaml', UNREAD]],
    );
    // The policy file is over the cap too: Eva-CLI reads it, Skillgate did not.
    assert.match(
      json.message,
      /^1 bundle\(s\) the agents would load are not trusted at their current hashes; 1 place\(s\) the agents read were left unread/,
    );
  });

  it('fails for a manifest over the cap that no item stands for (its transport not sniffable)', () => {
    w.f.adapter(`{${A0.split('\n')[0]}, transport: skill, name: Review}\n`);
    withLimits('    max_manifest_bytes: 10\n');
    const s = snap();
    assert.deepEqual(s.items, []);
    assert.ok(unreadPlaces(s).some((d) => d.code === 'eva.manifest.too-large' && d.file.endsWith('review.yaml')));
    assert.equal(checkPasses(s, check(s)), false);
  });

  it('fails for a policy over the default cap, whose denial Eva-CLI never makes', async () => {
    w.f.adapter(A0);
    await w.trustNow('review-skill (skill review)');
    w.f.policy(
      `${fs.readFileSync(path.join(CORPUS, 'config/policies/adapter.yaml'), 'utf8')}#${'x'.repeat(1_048_576)}\n`,
    );
    const s = snap();
    assert.deepEqual(check(s), []);
    assert.equal(checkPasses(s, check(s)), false);
  });

  it('fails at the default cap: the 501st adapter of a directory is unread', () => {
    // 500 files that are no skill (no item), then the skill adapter Eva-CLI still registers.
    for (let n = 0; n < 500; n++) w.f.adapter(`id: ctx-${n}\n`, `a${String(n).padStart(3, '0')}.yaml`);
    w.f.adapter(A0, 'z-review.yaml');
    const s = snap();
    assert.deepEqual(s.items, []);
    assert.deepEqual(
      unreadPlaces(s).map((d) => [d.code, path.basename(d.file)]),
      [['eva.scan.limit', 'z-review.yaml']],
    );
    assert.equal(checkPasses(s, check(s)), false);
  });

  it('fails `check --lock` too: a lock cannot pin what Skillgate did not read', async () => {
    w.f.adapter(A0);
    withLimits('    max_manifest_bytes: 10\n');
    assert.equal((await cli('lock')).code, 1, 'the unread adapter cannot be pinned');
    const r = await cli('check', '--lock', '--format', 'json');
    assert.equal(r.code, 1);
    const j = JSON.parse(r.out) as { ok: boolean; message: string; failing: { status: string; name: string }[] };
    assert.equal(j.ok, false);
    assert.deepEqual(
      j.failing.map((x) => [x.status, x.name]),
      [['unpinnable', 'config/adapters/review.yaml']],
    );
    assert.match(j.message, /1 place\(s\) the agents read were left unread by Skillgate's own limits/);
  });

  it('writes the lock but exits 1 and names each place, escaped, where files past max_files_per_dir were left unread', async () => {
    w.f.adapter(A0);
    // Sorts before review.yaml: the first skipped file, the place `check` names, has a hostile name.
    w.f.adapter(A0.replace('id: review-skill', 'id: hostile-skill'), 'e\u001b[31m\u202e.yaml');
    withLimits('    max_files_per_dir: 0\n');
    const r = await cli('lock');
    assert.equal(r.code, 1, 'a script notices a lock over a repository Skillgate did not read whole');
    assert.ok(fs.existsSync(path.join(w.f.ws, 'skillgate.lock')), 'the lock is written, as for a bundle it cannot pin');
    assert.match(r.out, /^Wrote skillgate\.lock: 0 bundle\(s\) pinned\./);
    // `check`'s own words: the count, then each place as `check` lists it.
    const check = await cli('check');
    const said = (text: string) => text.split('\n').filter((l) => /left unread|^ {2}config\//.test(l));
    assert.deepEqual(said(r.err), said(check.err));
    assert.match(
      r.err,
      /^skillgate: 2 place\(s\) the agents read were left unread by Skillgate's own limits, which the agents do not have \(`skillgate validate` names them\), so nothing there can be vouched for:$/m,
    );
    assert.match(
      r.err,
      /^ {2}config\/adapters\/e\\u\{1b\}\[31m\\u\{202e\}\.yaml: more than 0 files in this directory; Eva's discovery limit stops here \(2 skipped\)$/m,
    );
    assert.match(r.err, /^ {2}config\/policies\/adapter\.yaml: more than 0 files in this directory/m);
    assert.doesNotMatch(r.err, /[\u001b\u202e]/);
    assert.match(r.err, /^The lock pins none of what is there, so `skillgate check --lock` fails/m);
    const j = await cli('lock', '--json');
    assert.equal(j.code, 1);
    const doc = JSON.parse(j.out) as { ok: boolean; message: string };
    assert.equal(doc.ok, false);
    assert.match(
      doc.message,
      /^wrote skillgate\.lock: 0 bundle\(s\) pinned; 2 place\(s\) the agents read were left unread by Skillgate's own limits/,
    );
    // Once the cap is Eva's own again, everything is read: the lock pins both, and exits 0.
    withLimits('');
    const again = await cli('lock');
    assert.equal(again.code, 0, again.err);
    assert.equal(again.err, '');
  });

  it('fails `check --lock` for files past max_files_per_dir, which no lock entry names', async () => {
    // The lock of the base branch; the pull request adds the adapter and the cap at once.
    assert.equal((await cli('lock')).code, 0);
    w.f.adapter(A0);
    withLimits('    max_files_per_dir: 0\n');
    const r = await cli('check', '--lock');
    assert.equal(r.code, 1);
    assert.match(r.err, /left unread by Skillgate's own limits/);
  });

  it('gives `check --lock --format sarif` one error result per unread place, so code scanning says why it failed', async () => {
    assert.equal((await cli('lock')).code, 0);
    w.f.adapter(A0);
    withLimits('    max_files_per_dir: 0\n');
    interface Log {
      runs: {
        tool: { driver: { rules: { id: string; help: { text: string } }[] } };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          message: { text: string };
          locations: {
            physicalLocation: {
              artifactLocation: { uri: string; uriBaseId?: string };
              region: { startLine: number; startColumn: number; endLine: number; endColumn: number };
            };
          }[];
          partialFingerprints: Record<string, string>;
        }[];
      }[];
    }
    const sarif = async () => {
      const r = await cli('check', '--lock', '--format', 'sarif');
      assert.equal(r.code, 1, r.err);
      const log = JSON.parse(r.out) as Log;
      assert.deepEqual(sarifSchemaErrors(log), []);
      assert.deepEqual(codeScanningViolations(log), []);
      return log;
    };
    const log = await sarif();
    const run0 = log.runs[0];
    assert.ok(run0);
    const places = unreadPlaces(snap());
    // One result per place `check --lock` fails on, at the place's file and range, relative to the workspace folder.
    assert.deepEqual(
      run0.results.map((x) => [
        x.ruleId,
        x.level,
        x.locations[0]?.physicalLocation.artifactLocation.uri,
        x.locations[0]?.physicalLocation.artifactLocation.uriBaseId,
        x.locations[0]?.physicalLocation.region,
      ]),
      places.map((d) => [
        'skillgate.lock.unread',
        'error',
        path.relative(w.f.ws, d.file),
        '%SRCROOT%',
        {
          startLine: d.range.start.line + 1,
          startColumn: d.range.start.character + 1,
          endLine: d.range.end.line + 1,
          endColumn: d.range.end.character + 1,
        },
      ]),
    );
    assert.equal(places.length, 2);
    // The diagnostic's own words, then why the gate fails on it.
    for (const [i, d] of places.entries()) {
      const text = run0.results[i]?.message.text ?? '';
      assert.ok(text.startsWith(d.message), text);
      assert.match(text, /left unread by Skillgate's own limits, which the agents do not have/);
    }
    // The rule is described, with help, at the index the results name.
    assert.deepEqual(
      run0.results.map((x) => run0.tool.driver.rules[x.ruleIndex]?.id),
      ['skillgate.lock.unread', 'skillgate.lock.unread'],
    );
    assert.notEqual(run0.tool.driver.rules[0]?.help.text, 'skillgate.lock.unread');
    // Fingerprints: one per place, and the same once the message's count changes (a second file past the cap).
    const prints = run0.results.map((x) => JSON.stringify(x.partialFingerprints));
    assert.equal(new Set(prints).size, 2);
    w.f.adapter(A0.replace('id: review-skill', 'id: second-skill'), 'second.yaml');
    const again = (await sarif()).runs[0];
    assert.notDeepEqual(
      again?.results.map((x) => x.message.text),
      run0.results.map((x) => x.message.text),
      'the skipped count changed',
    );
    assert.deepEqual(
      again?.results.map((x) => JSON.stringify(x.partialFingerprints)),
      prints,
    );
  });

  it('keeps the fingerprint of a place past max_files_per_dir when a new file sorting first moves its first skipped file', async () => {
    w.f.adapter(A0);
    withLimits('    max_files_per_dir: 0\n');
    interface Log {
      runs: {
        results: {
          ruleId: string;
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
          partialFingerprints: Record<string, string>;
        }[];
      }[];
    }
    const adapterPlace = async () => {
      const r = await cli('check', '--lock', '--format', 'sarif');
      assert.equal(r.code, 1, r.err);
      const results = (JSON.parse(r.out) as Log).runs[0]?.results ?? [];
      const found = results.filter(
        (x) =>
          x.ruleId === 'skillgate.lock.unread' &&
          x.locations[0]?.physicalLocation.artifactLocation.uri.startsWith('config/adapters/'),
      );
      assert.equal(found.length, 1, JSON.stringify(results));
      return found[0] as Log['runs'][number]['results'][number];
    };
    const before = await adapterPlace();
    assert.equal(before.locations[0]?.physicalLocation.artifactLocation.uri, 'config/adapters/review.yaml');
    // The same directory, its cap hit as before: only its first skipped file is another.
    w.f.adapter(A0.replace('id: review-skill', 'id: first-skill'), 'a-first.yaml');
    const after = await adapterPlace();
    assert.equal(after.locations[0]?.physicalLocation.artifactLocation.uri, 'config/adapters/a-first.yaml');
    assert.deepEqual(after.partialFingerprints, before.partialFingerprints);
  });

  it('places an unread place relative to its own workspace folder in the lock SARIF, as the other results are', () => {
    const place = (file: string): Diagnostic => ({
      file,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: 'warning',
      code: 'eva.scan.limit',
      message: "more than 0 files in this directory; Eva's discovery limit stops here (1 skipped)",
      itemId: null,
    });
    const report = (workspace: string) => ({
      workspace,
      lockFile: path.join(workspace, 'skillgate.lock'),
      findings: [],
      placeInLock: () => ({ line: 1, startColumn: 1, endColumn: 1 }),
    });
    const log = lockSarif([report('/r/a'), report('/r/b')], '0', [
      place('/r/b/config/adapters/x.yaml'),
      place('/r/a/config/adapters/x.yaml'),
      place('/elsewhere/config/adapters/x.yaml'),
    ]) as {
      runs: {
        results: {
          locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
          partialFingerprints: Record<string, string>;
        }[];
      }[];
    };
    const results = log.runs[0]?.results ?? [];
    assert.deepEqual(
      results.map((x) => x.locations[0]?.physicalLocation.artifactLocation),
      [
        { uri: 'config/adapters/x.yaml', uriBaseId: '%SRCROOT2%' },
        { uri: 'config/adapters/x.yaml', uriBaseId: '%SRCROOT%' },
        { uri: 'file:///elsewhere/config/adapters/x.yaml' },
      ],
    );
    // The same file name in two folders is two alerts.
    assert.equal(new Set(results.map((x) => JSON.stringify(x.partialFingerprints))).size, 3);
    assert.deepEqual(sarifSchemaErrors(log), []);
    assert.deepEqual(codeScanningViolations(log), []);
  });
});
