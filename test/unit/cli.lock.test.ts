import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, type CliResult } from './helpers/runCli';
import { MAX_LOCK_BYTES } from '../../src/cli/lockCommands';
import { Fixture, writeW, writeD } from './helpers/fixture';

/**
 * `skillgate lock` and `skillgate check --lock` (spec/cli.md): a pin file a team reviews
 * like a lockfile, and the CI gate against it. The lock never grants trust.
 */

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'src/cli/cli.ts');

const PACK = '.rivumi/plugins/pack.json';

function writePack(f: Fixture, hookCommand = ['bash', 'tools/h.sh']): void {
  f.write(
    `ws/${PACK}`,
    JSON.stringify(
      {
        name: 'pack',
        description: 'A pack.',
        skills: [{ path: 'pack.md' }],
        hooks: { pre_tool_use: [{ command: hookCommand }] },
      },
      null,
      2,
    ),
  );
  f.write('ws/.rivumi/plugins/pack.md', '---\nname: pack-skill\ndescription: A skill.\n---\nDo the thing.\n');
  f.write('ws/tools/h.sh', '#!/bin/sh\nexit 0\n', 0o755);
}

interface LockDoc {
  lockVersion: number;
  bundles: { path: string; system: string; name: string; reviewToken: string }[];
}

interface Finding {
  status: string;
  system: string;
  name: string;
  path: string;
  reviewToken: string | null;
  lockedReviewToken: string | null;
  contentChanged: boolean;
  capabilitiesChanged: boolean;
}

describe('the repository lock: skillgate lock and check --lock (spec/cli.md)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const cli = (args: string[], env: NodeJS.ProcessEnv = {}, cwd = f.path('ws')): Promise<CliResult> =>
    runCli(args, { SKILLGATE_STATE_DIR: f.path('state'), ...env }, cwd);
  const lock = (): LockDoc => JSON.parse(fs.readFileSync(f.path('ws/skillgate.lock'), 'utf8')) as LockDoc;
  const findings = async (
    ...extra: string[]
  ): Promise<{ code: number; doc: { ok: boolean; bundles: Finding[]; failing: Finding[] } }> => {
    const r = await cli(['check', '--lock', ...extra, '--format', 'json', '--no-user']);
    return { code: r.code, doc: JSON.parse(r.out) };
  };

  describe('lock', () => {
    it('pins every bundle by workspace-relative path, system, name and review token, sorted by path, with a trailing newline', async () => {
      writePack(f);
      writeW(f);
      f.write('ws/.rivumi/hooks.json', JSON.stringify({ pre_tool_use: [{ command: ['bash', 'tools/h.sh'] }] }));
      const r = await cli(['lock', '--no-user']);
      assert.equal(r.code, 0, r.err);
      const text = fs.readFileSync(f.path('ws/skillgate.lock'), 'utf8');
      assert.ok(text.endsWith('}\n'));
      const doc = lock();
      assert.equal(doc.lockVersion, 1);
      assert.deepEqual(
        doc.bundles.map((b) => [b.path, b.system, b.name]),
        [
          ['.codewhale/plugins/example-plugin', 'codewhale', 'example-plugin'],
          ['.rivumi/hooks.json', 'rivumi', 'hooks.json'],
          ['.rivumi/plugins/pack.json', 'rivumi', 'pack'],
        ],
      );
      for (const b of doc.bundles) assert.deepEqual(Object.keys(b), ['path', 'system', 'name', 'reviewToken']);
      const listed = JSON.parse((await cli(['list', '--json', '--no-user'])).out) as {
        items: { path: string; reviewToken: string | null }[];
      };
      for (const b of doc.bundles)
        assert.equal(b.reviewToken, listed.items.find((i) => i.path === b.path)?.reviewToken);
      assert.doesNotMatch(
        text,
        new RegExp(f.root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
        'no absolute path of this machine',
      );
    });

    it('writes the same bytes whatever this machine trusts, enables, opts into or shadows (the lock is the same on every machine)', async () => {
      writeW(f);
      writePack(f);
      assert.equal((await cli(['lock', '--no-user'])).code, 0);
      const before = fs.readFileSync(f.path('ws/skillgate.lock'));
      // A trusted, enabled bundle; hooks opted in; a user bundle shadowing a workspace bundle of its name.
      const token = lock().bundles.find((b) => b.system === 'codewhale')?.reviewToken as string;
      assert.equal((await cli(['trust', 'example-plugin', token, '--no-user'])).code, 0);
      assert.equal((await cli(['enable', 'example-plugin', '--no-user'])).code, 0);
      writeD(f, '', 'home/plugins/example-plugin');
      fs.writeFileSync(
        f.path('home/plugins/example-plugin/plugin.toml'),
        'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.0.0"\n',
      );
      assert.equal(
        (await cli(['lock', '--codewhale-home', f.path('home')], { RIVUMI_ENABLE_PROJECT_HOOKS: '1' })).code,
        0,
      );
      assert.deepEqual(fs.readFileSync(f.path('ws/skillgate.lock')), before);
    });

    it('never grants trust: after lock the bundles are still not reviewed, the trust store is untouched and check still fails', async () => {
      writePack(f);
      assert.equal((await cli(['lock', '--no-user'])).code, 0);
      assert.equal(fs.existsSync(f.path('state')), false, 'nothing written to the trust store');
      const listed = JSON.parse((await cli(['list', '--json', '--no-user'])).out) as {
        items: { path: string; trust: string | null }[];
      };
      assert.equal(listed.items.find((i) => i.path === PACK)?.trust, 'not-reviewed');
      assert.equal((await cli(['check', '--no-user'])).code, 1);
      assert.equal((await cli(['check', '--lock', '--no-user'])).code, 0);
    });

    it('writes to --lock <file> when given', async () => {
      writePack(f);
      assert.equal((await cli(['lock', '--lock', '../pins.json', '--no-user'])).code, 0);
      assert.equal(fs.existsSync(f.path('ws/skillgate.lock')), false);
      assert.equal((JSON.parse(fs.readFileSync(f.path('pins.json'), 'utf8')) as LockDoc).bundles.length, 1);
      assert.equal((await cli(['check', '--lock', '../pins.json', '--no-user'])).code, 0);
    });

    it('refuses to pin a bundle whose token does not cover what it runs (exit 1), and check --lock names it unpinnable', async () => {
      writePack(f, ['bash', '../outside.sh']);
      f.write('outside.sh', '#!/bin/sh\n');
      const r = await cli(['lock', '--no-user']);
      assert.equal(r.code, 1);
      assert.match(
        r.err,
        /rivumi bundle pack \(\.rivumi\/plugins\/pack\.json\) cannot be pinned: its review token does not cover what it runs/,
      );
      assert.deepEqual(lock().bundles, []);
      const c = await findings();
      assert.equal(c.code, 1);
      assert.deepEqual(
        c.doc.failing.map((x) => [x.status, x.path]),
        [['unpinnable', PACK]],
      );
    });

    it('refuses to pin a bundle that cannot be hashed, and check --lock names it unpinnable rather than new', async () => {
      writeW(f);
      fs.symlinkSync('/etc/hostname', f.path('ws/.codewhale/plugins/example-plugin/linked.txt'));
      const r = await cli(['lock', '--no-user']);
      assert.equal(r.code, 1);
      assert.match(r.err, /example-plugin .* cannot be pinned: it has no review token \(it could not be hashed/);
      assert.deepEqual(lock().bundles, []);
      const c = await findings();
      assert.equal(c.code, 1);
      assert.deepEqual(
        c.doc.failing.map((x) => [x.status, x.reviewToken]),
        [['unpinnable', null]],
      );
    });

    it('pins the 16 Rivumi plugins Rivumi reads and leaves out the ones past its cap, which it never reads, instead of refusing them as unhashable', async () => {
      for (let i = 0; i < 18; i++)
        f.write(
          `ws/.rivumi/plugins/p${String(i).padStart(2, '0')}.json`,
          JSON.stringify({ name: `p${i}`, description: 'A pack.' }),
        );
      const r = await cli(['lock', '--no-user']);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err, '');
      assert.deepEqual(
        lock().bundles.map((b) => b.path),
        Array.from({ length: 16 }, (_, i) => `.rivumi/plugins/p${String(i).padStart(2, '0')}.json`),
      );
      const c = await findings();
      assert.equal(c.code, 0, JSON.stringify(c.doc.failing));
      // A plugin that sorts before them pushes p15 past the cap and is read instead: it is new.
      f.write('ws/.rivumi/plugins/a.json', JSON.stringify({ name: 'a', description: 'A pack.' }));
      const d = await findings();
      assert.equal(d.code, 1);
      assert.deepEqual(
        d.doc.failing.map((x) => [x.status, x.path]),
        [
          ['new', '.rivumi/plugins/a.json'],
          ['gone', '.rivumi/plugins/p15.json'],
        ],
      );
    });

    it('writes through no symbolic link a repository planted at the old temporary name, and replaces a linked lock with a regular file', async () => {
      writePack(f);
      const victim = f.write('victim', 'victim\n');
      const linkedVictim = f.write('linked-victim', 'linked victim\n');
      // `skillgate lock` once wrote `skillgate.lock.<pid>.tmp`; a repository can commit that name for every pid.
      for (const pid of [process.pid, process.pid - 1, process.pid + 1])
        f.symlink(victim, `ws/skillgate.lock.${pid}.tmp`);
      f.symlink(linkedVictim, 'ws/skillgate.lock');
      const r = await cli(['lock', '--no-user']);
      assert.equal(r.code, 0, r.err);
      assert.equal(fs.readFileSync(victim, 'utf8'), 'victim\n');
      assert.equal(fs.readFileSync(linkedVictim, 'utf8'), 'linked victim\n');
      assert.ok(fs.lstatSync(f.path('ws/skillgate.lock')).isFile(), 'skillgate.lock is a regular file');
      assert.deepEqual(
        lock().bundles.map((b) => b.path),
        [PACK],
      );
      assert.deepEqual(
        fs.readdirSync(f.path('ws')).filter((n) => n.startsWith('skillgate.lock.skillgate-')),
        [],
        'no temporary file left behind',
      );
    });

    it('refuses a --lock whose folder in the workspace is a link the repository placed, and writes nothing where it points (exit 2)', async () => {
      writePack(f);
      f.mkdir('elsewhere');
      f.mkdir('ws/ci');
      f.symlink('../../elsewhere', 'ws/ci/pins');
      const r = await cli(['lock', '--lock', 'ci/pins/skillgate.lock', '--no-user']);
      assert.equal(r.code, 2, r.err);
      assert.equal(
        r.err,
        `skillgate: cannot write ${f.path('ws/ci/pins/skillgate.lock')}: ci/pins is a symbolic link in the workspace; a lock is never written through one\n`,
      );
      assert.deepEqual(fs.readdirSync(f.path('elsewhere')), []);
      // A lock outside the workspace is the user's own place, reached as they named it.
      f.symlink('elsewhere', 'pins-link');
      assert.equal((await cli(['lock', '--lock', '../pins-link/skillgate.lock', '--no-user'])).code, 0);
      assert.deepEqual(fs.readdirSync(f.path('elsewhere')), ['skillgate.lock']);
    });
  });

  describe('check --lock', () => {
    it('passes (exit 0) when every bundle is pinned at exactly its current token', async () => {
      writeW(f);
      writePack(f);
      await cli(['lock', '--no-user']);
      const r = await cli(['check', '--lock', '--no-user']);
      assert.equal(r.code, 0, r.err);
      assert.match(
        r.out,
        /^ok: every bundle under \/.*\/ws is pinned at its current review token \(2 bundle\(s\)\)\n$/,
      );
      const c = await findings();
      assert.deepEqual(
        c.doc.bundles.map((b) => b.status),
        ['pinned', 'pinned'],
      );
      assert.deepEqual(c.doc.failing, []);
    });

    it('names a bundle that is not in the lock as new (exit 1)', async () => {
      writeW(f);
      await cli(['lock', '--no-user']);
      writePack(f);
      const r = await cli(['check', '--lock', '--no-user']);
      assert.equal(r.code, 1);
      assert.match(r.err, /new: Rivumi bundle pack \(\.rivumi\/plugins\/pack\.json\) is not in skillgate\.lock/);
      assert.match(r.err, /run `skillgate lock` and commit skillgate\.lock/);
      const c = await findings();
      assert.deepEqual(
        c.doc.failing.map((x) => [x.status, x.path, x.lockedReviewToken]),
        [['new', PACK, null]],
      );
    });

    it('says whether content or capabilities changed from the token pair alone', async () => {
      writePack(f);
      await cli(['lock', '--no-user']);
      const locked = lock().bundles[0]?.reviewToken;
      // The script a hook runs: content only.
      fs.appendFileSync(f.path('ws/tools/h.sh'), '# edited\n');
      let c = await findings();
      assert.equal(c.code, 1);
      assert.deepEqual(
        c.doc.failing.map((x) => [x.status, x.contentChanged, x.capabilitiesChanged, x.lockedReviewToken]),
        [['changed', true, false, locked]],
      );
      let text = await cli(['check', '--lock', '--no-user']);
      assert.match(
        text.err,
        /changed: Rivumi bundle pack \(\.rivumi\/plugins\/pack\.json\) differs from skillgate\.lock: its content changed \(capabilities unchanged\)/,
      );
      // A new hook command: capabilities too.
      writePack(f, ['python3', 'tools/h.sh']);
      c = await findings();
      assert.deepEqual(
        c.doc.failing.map((x) => [x.status, x.contentChanged, x.capabilitiesChanged]),
        [['changed', true, true]],
      );
      text = await cli(['check', '--lock', '--no-user']);
      assert.match(text.err, /its content and its capabilities changed/);
    });

    it('pins the whole token: a lock with this content hash and another capability hash is changed, not pinned', async () => {
      writePack(f);
      await cli(['lock', '--no-user']);
      const [content, capabilities] = (lock().bundles[0]?.reviewToken as string).split('.') as [string, string];
      const other = `${content}.${capabilities === '0'.repeat(64) ? '1' : '0'}${capabilities.slice(1)}`;
      const text = fs.readFileSync(f.path('ws/skillgate.lock'), 'utf8');
      f.write('ws/skillgate.lock', text.replace(`${content}.${capabilities}`, other));
      const c = await findings();
      assert.equal(c.code, 1);
      assert.deepEqual(
        c.doc.bundles.map((x) => [x.status, x.contentChanged, x.capabilitiesChanged, x.lockedReviewToken]),
        [['changed', false, true, other]],
      );
    });

    it('lists the capability changes since the locked receipt when a later trust moved it into the history', async () => {
      writePack(f);
      await cli(['lock', '--no-user']);
      const locked = lock().bundles[0]?.reviewToken as string;
      assert.equal((await cli(['trust', 'pack', locked, '--no-user'])).code, 0);
      writePack(f, ['python3', 'tools/h.sh']);
      const now = (
        JSON.parse((await cli(['review', 'pack', '--format', 'json', '--no-user'])).out) as { reviewToken: string }
      ).reviewToken;
      assert.equal((await cli(['trust', 'pack', now, '--no-user'])).code, 0);
      // The receipt in force is the new one (nothing changed since it); the lock pins the one before.
      const changed = (await findings()).doc.failing[0] as Finding & { capabilityChanges: string[] | null };
      assert.equal(changed.status, 'changed');
      assert.ok(
        changed.capabilityChanges?.some((x) => x.includes('python3')),
        JSON.stringify(changed.capabilityChanges),
      );
    });

    it('lists the capability changes when this machine reviewed the copy the lock pins (a receipt with the locked token)', async () => {
      writePack(f);
      await cli(['lock', '--no-user']);
      const locked = lock().bundles[0]?.reviewToken as string;
      assert.equal((await cli(['trust', 'pack', locked, '--no-user'])).code, 0);
      writePack(f, ['python3', 'tools/h.sh']);
      const c = await findings();
      assert.equal(c.code, 1);
      const changed = c.doc.failing[0] as Finding & { capabilityChanges: string[] | null };
      assert.equal(changed.status, 'changed');
      assert.ok(changed.capabilityChanges && changed.capabilityChanges.length > 0, JSON.stringify(changed));
      assert.ok(
        changed.capabilityChanges.some((x) => x.includes('python3')),
        JSON.stringify(changed.capabilityChanges),
      );
      assert.match(
        (await cli(['check', '--lock', '--no-user'])).err,
        /its content and its capabilities changed \(since the reviewed copy in your trust store: .*python3/,
      );
      // Another machine (no receipt for the locked token): the token pair only.
      const elsewhere = await cli(['check', '--lock', '--format', 'json', '--no-user'], {
        SKILLGATE_STATE_DIR: f.path('other-state'),
      });
      assert.equal(
        (JSON.parse(elsewhere.out) as { failing: { capabilityChanges: unknown }[] }).failing[0]?.capabilityChanges,
        null,
      );
    });

    it('names a pinned bundle that left the repository as gone (exit 1)', async () => {
      writeW(f);
      writePack(f);
      await cli(['lock', '--no-user']);
      fs.rmSync(f.path('ws/.codewhale'), { recursive: true });
      const c = await findings();
      assert.equal(c.code, 1);
      assert.deepEqual(
        c.doc.failing.map((x) => [x.status, x.path, x.reviewToken]),
        [['gone', '.codewhale/plugins/example-plugin', null]],
      );
      assert.match(
        (await cli(['check', '--lock', '--no-user'])).err,
        /gone: Codewhale bundle example-plugin \(\.codewhale\/plugins\/example-plugin\) is pinned in skillgate\.lock but no longer in the repository/,
      );
    });

    it('treats a missing default lock as empty: every bundle is new, and a repository without bundles passes', async () => {
      writePack(f);
      const c = await findings();
      assert.equal(c.code, 1);
      assert.deepEqual(
        c.doc.failing.map((x) => x.status),
        ['new'],
      );
      f.mkdir('empty');
      const empty = await cli(['check', '--lock', '--no-user'], {}, f.path('empty'));
      assert.equal(empty.code, 0);
      // A run from a subdirectory checks only what lies under it, and says so.
      assert.equal(
        empty.out,
        `ok: every bundle under ${f.path('empty')} is pinned at its current review token (0 bundle(s)); no agent bundle and no lock are there (run from the repository root, or pass --workspace)\n`,
      );
    });

    it('refuses a lock file named on the command line that does not exist, and a malformed lock, as usage errors (exit 2)', async () => {
      writePack(f);
      const missing = await cli(['check', '--lock', 'nope.lock', '--no-user']);
      assert.equal(missing.code, 2);
      assert.match(missing.err, /--lock nope\.lock does not exist/);
      const token = `${'a'.repeat(64)}.${'b'.repeat(64)}`;
      const bad: [string, RegExp][] = [
        ['not json', /is not a valid lock: it is not JSON/],
        [
          JSON.stringify({ lockVersion: 2, bundles: [] }),
          /it has lockVersion 2, and this Skillgate reads lockVersion 1: write it again with `skillgate lock`/,
        ],
        // JSON.parse would take the second token; a reviewer of the lock's diff reads the first.
        [
          `{"lockVersion": 1, "bundles": [{"path": "${PACK}", "system": "rivumi", "name": "pack", "reviewToken": "${token}", "reviewToken": "${'c'.repeat(64)}.${'d'.repeat(64)}"}]}`,
          /at bundles\.0\.reviewToken: the key is given twice/,
        ],
        [
          JSON.stringify({
            lockVersion: 1,
            bundles: [{ path: PACK, system: 'rivumi', name: 'pack', reviewToken: token, trusted: true }],
          }),
          /bundles\.0/,
        ],
        [
          JSON.stringify({
            lockVersion: 1,
            bundles: [{ path: PACK, system: 'rivumi', name: 'pack', reviewToken: 'abc' }],
          }),
          /reviewToken/,
        ],
        [
          JSON.stringify({
            lockVersion: 1,
            bundles: [{ path: PACK, system: 'rivumi', name: 'pack', reviewToken: `${token}\n${token}` }],
          }),
          /reviewToken/,
        ],
        [
          JSON.stringify({
            lockVersion: 1,
            bundles: [{ path: '/etc/x', system: 'rivumi', name: 'pack', reviewToken: token }],
          }),
          /bundles\.0\.path/,
        ],
        [
          JSON.stringify({
            lockVersion: 1,
            bundles: [{ path: 'sub/../../x', system: 'rivumi', name: 'pack', reviewToken: token }],
          }),
          /bundles\.0\.path/,
        ],
        [
          JSON.stringify({
            lockVersion: 1,
            bundles: [1, 2].map(() => ({ path: PACK, system: 'rivumi', name: 'pack', reviewToken: token })),
          }),
          /pins rivumi bundle \.rivumi\/plugins\/pack\.json twice/,
        ],
      ];
      for (const [text, message] of bad) {
        f.write('ws/skillgate.lock', text);
        const r = await cli(['check', '--lock', '--no-user']);
        assert.equal(r.code, 2, text);
        assert.match(r.err, message, text);
      }
    });

    describe('reads the lock as repository content: no link, no FIFO or device, no more than a lock can be (exit 2)', () => {
      /**
       * The CLI in a process of its own, killed after `timeout`: the old read of a FIFO
       * blocked for ever and one of /dev/zero grew without bound, neither of which a
       * test in this process could stop.
       */
      function cliChild(args: string[], timeout = 30000): { code: number | null; err: string; signal: string | null } {
        const r = spawnSync(
          process.execPath,
          ['--require', 'tsx/cjs', CLI, ...args, '--no-user', '--workspace', f.path('ws')],
          {
            cwd: ROOT,
            env: { ...process.env, SKILLGATE_STATE_DIR: f.path('state') },
            timeout,
            killSignal: 'SIGKILL',
            encoding: 'utf8',
          },
        );
        return { code: r.status, err: r.stderr, signal: r.signal };
      }

      it('refuses a skillgate.lock that links to a file outside the repository, and prints none of its bytes', async () => {
        writePack(f);
        const secret = f.write('secret', 'TOP-SECRET-\u001b[2K-value\n');
        f.symlink(secret, 'ws/skillgate.lock');
        const r = await cli(['check', '--lock', '--no-user']);
        assert.equal(r.code, 2);
        assert.match(r.err, /skillgate\.lock is a symbolic link; a lock is read only from a regular file/);
        assert.doesNotMatch(r.err, /SECRET/);
        // Named on the command line too: CI names the repository's own file, which a pull request controls.
        const named = await cli(['check', '--lock', 'skillgate.lock', '--no-user']);
        assert.equal(named.code, 2);
        assert.match(named.err, /is a symbolic link/);
        assert.doesNotMatch(named.err, /SECRET/);
      });

      it('refuses a --lock whose folder in the workspace is a link the repository placed, and prints none of what it leads to', async () => {
        writePack(f);
        f.write('elsewhere/skillgate.lock', 'TOP-SECRET-value\n');
        f.mkdir('ws/ci');
        f.symlink('../../elsewhere', 'ws/ci/pins');
        const r = await cli(['check', '--lock', 'ci/pins/skillgate.lock', '--no-user']);
        assert.equal(r.code, 2, r.err);
        assert.equal(
          r.err,
          `skillgate: cannot read ${f.path('ws/ci/pins/skillgate.lock')}: ci/pins is a symbolic link in the workspace; a lock is never read through one\n`,
        );
        // A lock outside the workspace is the user's own place, reached as they named it.
        await cli(['lock', '--lock', '../elsewhere/skillgate.lock', '--no-user']);
        f.symlink('elsewhere', 'pins-link');
        const outside = await cli(['check', '--lock', '../pins-link/skillgate.lock', '--no-user']);
        assert.equal(outside.code, 0, outside.err);
      });

      it('refuses a skillgate.lock that links to /dev/zero, at once', function () {
        if (process.platform === 'win32') this.skip();
        writePack(f);
        f.symlink('/dev/zero', 'ws/skillgate.lock');
        const r = cliChild(['check', '--lock']);
        assert.equal(r.signal, null, 'the check finished by itself');
        assert.equal(r.code, 2, r.err);
        assert.match(r.err, /skillgate\.lock is a symbolic link/);
      });

      it('refuses a FIFO, default or named, without waiting for a writer', function () {
        if (process.platform === 'win32') this.skip();
        writePack(f);
        execFileSync('mkfifo', [f.path('ws/skillgate.lock')]);
        const r = cliChild(['check', '--lock']);
        assert.equal(r.signal, null, 'the check finished by itself');
        assert.equal(r.code, 2, r.err);
        assert.match(r.err, /skillgate\.lock is not a regular file; a lock is read only from a regular file/);
        const named = cliChild(['check', '--lock', f.path('ws/skillgate.lock')]);
        assert.equal(named.signal, null, 'the check finished by itself');
        assert.equal(named.code, 2, named.err);
        assert.match(named.err, /is not a regular file/);
      });

      it('refuses a lock larger than a lock can be, even a valid one', async () => {
        writePack(f);
        await cli(['lock', '--no-user']);
        const valid = fs.readFileSync(f.path('ws/skillgate.lock'), 'utf8');
        assert.equal((await cli(['check', '--lock', '--no-user'])).code, 0);
        f.write('ws/skillgate.lock', valid + ' '.repeat(MAX_LOCK_BYTES - Buffer.byteLength(valid) + 1));
        const r = await cli(['check', '--lock', '--no-user']);
        assert.equal(r.code, 2);
        assert.match(
          r.err,
          new RegExp(`skillgate\\.lock is larger than a lock can be \\(over ${MAX_LOCK_BYTES} bytes\\)`),
        );
      });
    });

    it('checks each workspace folder against its own lock, and refuses one --lock file for several folders (exit 2)', async () => {
      writePack(f);
      writeW(f, '', 'other/.codewhale/plugins/example-plugin');
      await cli(['lock', '--no-user', '--workspace', '.', '--workspace', '../other']);
      assert.ok(fs.existsSync(f.path('other/skillgate.lock')));
      assert.equal(
        (await cli(['check', '--lock', '--no-user', '--workspace', '.', '--workspace', '../other'])).code,
        0,
      );
      fs.rmSync(f.path('other/skillgate.lock'));
      assert.equal(
        (await cli(['check', '--lock', '--no-user', '--workspace', '.', '--workspace', '../other'])).code,
        1,
      );
      const r = await cli([
        'check',
        '--lock',
        'skillgate.lock',
        '--no-user',
        '--workspace',
        '.',
        '--workspace',
        '../other',
      ]);
      assert.equal(r.code, 2);
      assert.match(r.err, /names one lock file, but 2 workspace folders were given/);
    });

    it('takes --format sarif only with --lock, and --lock only on lock and check (exit 2)', async () => {
      writePack(f);
      assert.match(
        (await cli(['check', '--format', 'sarif'])).err,
        /--format sarif applies only to `validate` and `check --lock`/,
      );
      assert.equal((await cli(['check', '--format', 'sarif'])).code, 2);
      assert.equal((await cli(['list', '--lock'])).code, 2);
      // A bare --lock before another option is the default lock, not a file named "--no-user".
      assert.equal((await cli(['check', '--lock', '--no-user'])).code, 1);
    });

    it('writes SARIF with one error per unpinned bundle at its manifest, and a gone bundle at its line in the lock', async () => {
      writeW(f);
      writePack(f);
      await cli(['lock', '--no-user']);
      fs.appendFileSync(f.path(`ws/.rivumi/plugins/pack.md`), 'more\n');
      fs.rmSync(f.path('ws/.codewhale'), { recursive: true });
      const r = await cli(['check', '--lock', '--format', 'sarif', '--no-user']);
      assert.equal(r.code, 1);
      const sarif = JSON.parse(r.out);
      assert.equal(sarif.version, '2.1.0');
      const run0 = sarif.runs[0];
      assert.deepEqual(
        run0.tool.driver.rules.map((x: { id: string }) => x.id),
        ['skillgate.lock.changed', 'skillgate.lock.gone'],
      );
      const where = run0.results.map(
        (x: {
          ruleId: string;
          level: string;
          locations: {
            physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number } };
          }[];
        }) => [
          x.ruleId,
          x.level,
          x.locations[0]?.physicalLocation.artifactLocation.uri,
          x.locations[0]?.physicalLocation.artifactLocation.uriBaseId,
          x.locations[0]?.physicalLocation.region.startLine,
        ],
      );
      assert.deepEqual(where, [
        ['skillgate.lock.gone', 'error', 'skillgate.lock', '%SRCROOT%', 6],
        ['skillgate.lock.changed', 'error', PACK, '%SRCROOT%', 1],
      ]);
    });

    it("places a second workspace folder's results relative to it (%SRCROOT2%), as validate's SARIF does", async () => {
      writePack(f);
      fs.cpSync(f.path('ws/.rivumi'), f.path('ws2/.rivumi'), { recursive: true });
      const both = ['--workspace', f.path('ws'), '--workspace', f.path('ws2'), '--no-user'];
      const sarif = JSON.parse((await cli(['check', '--lock', '--format', 'sarif', ...both])).out);
      const run0 = sarif.runs[0];
      assert.deepEqual(Object.keys(run0.originalUriBaseIds), ['%SRCROOT%', '%SRCROOT2%']);
      assert.equal(run0.originalUriBaseIds['%SRCROOT2%'].uri, `file://${f.path('ws2')}/`);
      assert.deepEqual(
        run0.results.map(
          (x: { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string } } }[] }) => [
            x.locations[0]?.physicalLocation.artifactLocation.uri,
            x.locations[0]?.physicalLocation.artifactLocation.uriBaseId,
          ],
        ),
        [
          [PACK, '%SRCROOT%'],
          [PACK, '%SRCROOT2%'],
        ],
      );
    });

    it('gives each SARIF result a partial fingerprint that stays the same across commits while the bundle keeps changing', async () => {
      writePack(f);
      await cli(['lock', '--no-user']);
      const fingerprint = async () => {
        const sarif = JSON.parse((await cli(['check', '--lock', '--format', 'sarif', '--no-user'])).out);
        return sarif.runs[0].results.map((x: { partialFingerprints: Record<string, string> }) => x.partialFingerprints);
      };
      fs.appendFileSync(f.path('ws/tools/h.sh'), '# one\n');
      const first = await fingerprint();
      fs.appendFileSync(f.path('ws/tools/h.sh'), '# two\n');
      assert.deepEqual(await fingerprint(), first);
      assert.equal(first.length, 1);
      assert.match(first[0]['skillgate/v1'], /^[0-9a-f]{64}$/);
    });
  });

  it('validate --format sarif gives partial fingerprints that do not move when lines are added above a finding', async () => {
    writeW(f, 'unknown = true\n');
    const fingerprints = async () => {
      const sarif = JSON.parse((await cli(['validate', '--format', 'sarif', '--no-user'])).out);
      return sarif.runs[0].results.map(
        (x: {
          partialFingerprints?: Record<string, string>;
          locations: { physicalLocation: { region: { startLine: number } } }[];
        }) => [x.partialFingerprints, x.locations[0]?.physicalLocation.region.startLine],
      );
    };
    const before = await fingerprints();
    assert.ok(before.length > 0 && before[0][0], 'results carry partialFingerprints');
    const manifest = f.path('ws/.codewhale/plugins/example-plugin/plugin.toml');
    fs.writeFileSync(manifest, `# a comment\n${fs.readFileSync(manifest, 'utf8')}`);
    const after = await fingerprints();
    assert.notEqual(after[0][1], before[0][1], 'the finding moved down a line');
    assert.deepEqual(
      after.map((x: unknown[]) => x[0]),
      before.map((x: unknown[]) => x[0]),
    );
  });
});
