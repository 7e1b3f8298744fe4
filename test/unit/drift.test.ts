import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import { Fixture } from './helpers/fixture';

/**
 * Drift (trust.md "Status, derived at every index"): after any single change to what a
 * trust unit covers, the unit is no longer trusted and `skillgate check` fails. Each
 * case trusts (and, for Codewhale, enables) a unit through the CLI, sees `check` pass,
 * makes exactly one change on disk, and sees `check` exit 1.
 */

interface Result {
  code: number;
  out: string;
  err: string;
}

interface ListedItem {
  id: string;
  path: string;
  parent: string | null;
  trust: string | null;
  decision: string;
  reasons: string[];
}

const LOOP = path.resolve(__dirname, '../fixtures/corpus/codewhale/loop');

class Workspace {
  readonly f = new Fixture();
  readonly ws = this.f.path('ws');

  constructor(private readonly env: NodeJS.ProcessEnv = {}) {
    fs.mkdirSync(this.ws, { recursive: true });
  }

  async cli(...args: string[]): Promise<Result> {
    let out = '';
    let err = '';
    const code = await run([...args, '--no-user', '--workspace', this.ws, '--state-dir', this.f.path('state')], {
      out: (t) => (out += t),
      err: (t) => (err += t),
      env: { PATH: process.env.PATH, ...this.env },
      cwd: this.ws,
    });
    return { code, out, err };
  }

  async items(): Promise<ListedItem[]> {
    const r = await this.cli('list', '--json');
    assert.equal(r.code, 0, r.err);
    return (JSON.parse(r.out) as { items: ListedItem[] }).items.filter((i) => i.parent === null);
  }

  /** Reviews, trusts with the review token, enables if asked, and sees `check` pass. */
  async trust(unitPath: string, enable: boolean): Promise<string> {
    const unit = (await this.items()).find((i) => i.path === unitPath);
    assert.ok(unit, `no unit at ${unitPath}`);
    const review = await this.cli('review', unit.id, '--json');
    assert.equal(review.code, 0, review.err);
    const token = (JSON.parse(review.out) as { reviewToken: string }).reviewToken;
    const trusted = await this.cli('trust', unit.id, token);
    assert.equal(trusted.code, 0, trusted.err);
    if (enable) assert.equal((await this.cli('enable', unit.id)).code, 0);
    const check = await this.cli('check');
    assert.equal(check.code, 0, `check before the change: ${check.err}`);
    return unit.id;
  }

  /** After the change: no unit is trusted any more, and `check` fails naming it. */
  async assertDrifted(unitPath: string): Promise<void> {
    const items = await this.items();
    const trusted = items.filter((i) => i.trust === 'trusted');
    assert.deepEqual(
      trusted.map((i) => i.path),
      [],
      'still trusted after the change',
    );
    const unit = items.find((i) => i.path === unitPath);
    // Codewhale stops loading it; Rivumi loads it anyway, so it must read as a loaded, unreviewed risk (decisions.md).
    if (unit)
      assert.ok(
        unit.decision !== 'registered' || unit.reasons[0] === 'loaded_unreviewed',
        `${unit.decision} ${unit.reasons.join(', ')}`,
      );
    const check = await this.cli('check');
    assert.equal(check.code, 1, `check after the change exited ${check.code}: ${check.out}${check.err}`);
  }

  path(rel: string): string {
    return path.join(this.ws, rel);
  }

  write(rel: string, content: string, mode?: number): void {
    fs.mkdirSync(path.dirname(this.path(rel)), { recursive: true });
    fs.writeFileSync(this.path(rel), content);
    if (mode !== undefined) fs.chmodSync(this.path(rel), mode);
  }

  remove(): void {
    this.f.remove();
  }
}

function flipOneByte(file: string): void {
  const b = fs.readFileSync(file);
  const at = Math.floor(b.length / 2);
  b[at] = (b[at] as number) ^ 0x01;
  fs.writeFileSync(file, b);
}

function flipExecutable(file: string): void {
  fs.chmodSync(file, fs.statSync(file).mode ^ 0o111);
}

/** A covered file replaced by a symbolic link to a file with exactly its bytes. */
function swapForLink(file: string, copyAt: string): void {
  fs.mkdirSync(path.dirname(copyAt), { recursive: true });
  fs.copyFileSync(file, copyAt);
  fs.rmSync(file);
  fs.symlinkSync(copyAt, file);
}

type Drift = (w: Workspace) => void;

describe('drift: every single change drops trust and fails `check`', function () {
  this.timeout(30000);

  describe('a Codewhale bundle (the corpus `loop` bundle: hooks, a hook script, commands, a skill)', () => {
    const BUNDLE = '.codewhale/plugins/loop';
    const at = (rel: string) => `${BUNDLE}/${rel}`;
    const cases: [string, Drift][] = [
      ['one byte of a skill changed', (w) => flipOneByte(w.path(at('skills/iterate-until-done/SKILL.md')))],
      ['the executable bit of a command file flipped', (w) => flipExecutable(w.path(at('commands/loop.md')))],
      [
        'a file renamed',
        (w) => fs.renameSync(w.path(at('commands/loop-status.md')), w.path(at('commands/loop-state.md'))),
      ],
      ['an empty file added', (w) => w.write(at('notes.txt'), '')],
      ['an empty directory added (Codewhale hashes directories)', (w) => fs.mkdirSync(w.path(at('empty')))],
      [
        'a file swapped for a symbolic link to identical bytes',
        (w) => swapForLink(w.path(at('commands/loop.md')), w.f.path('elsewhere/loop.md')),
      ],
      ['a file deleted', (w) => fs.rmSync(w.path(at('tests/e2e.test.mjs')))],
      [
        'the script its hooks run changed',
        (w) => fs.appendFileSync(w.path(at('scripts/loop.mjs')), 'process.exit(0);\n'),
      ],
      ['its hook definition changed', (w) => flipOneByte(w.path(at('hooks/loop.toml')))],
    ];
    for (const [name, drift] of cases) {
      it(`${name}: trusted and enabled before, not trusted and check exits 1 after`, async () => {
        const w = new Workspace();
        try {
          fs.cpSync(LOOP, w.path(BUNDLE), { recursive: true });
          await w.trust(BUNDLE, true);
          drift(w);
          await w.assertDrifted(BUNDLE);
        } finally {
          w.remove();
        }
      });
    }
  });

  describe('Rivumi project hooks (RIVUMI_ENABLE_PROJECT_HOOKS=1)', () => {
    const HOOKS = '.rivumi/hooks.json';
    const setup = (w: Workspace) => {
      // `guard.py` does not exist yet: an empty file appearing there is the file a hook would run.
      w.write(
        HOOKS,
        JSON.stringify({
          pre_tool_use: [{ command: ['bash', 'scripts/run.sh'] }, { command: ['python3', 'scripts/guard.py'] }],
        }),
      );
      w.write('scripts/run.sh', '#!/bin/sh\necho ok\n', 0o755);
    };
    const cases: [string, Drift][] = [
      ['one byte of hooks.json changed', (w) => flipOneByte(w.path(HOOKS))],
      ['the hook script changed', (w) => flipOneByte(w.path('scripts/run.sh'))],
      ['the executable bit of the hook script flipped', (w) => flipExecutable(w.path('scripts/run.sh'))],
      ['the hook script renamed', (w) => fs.renameSync(w.path('scripts/run.sh'), w.path('scripts/run2.sh'))],
      ['an empty file added where a hook names a file', (w) => w.write('scripts/guard.py', '')],
      [
        'the hook script swapped for a symbolic link to identical bytes',
        (w) => swapForLink(w.path('scripts/run.sh'), w.path('scripts/real/run.sh')),
      ],
      ['the hook script deleted', (w) => fs.rmSync(w.path('scripts/run.sh'))],
    ];
    for (const [name, drift] of cases) {
      it(`${name}: not trusted and check exits 1 after`, async () => {
        const w = new Workspace({ RIVUMI_ENABLE_PROJECT_HOOKS: '1' });
        try {
          setup(w);
          await w.trust(HOOKS, false);
          drift(w);
          await w.assertDrifted(HOOKS);
        } finally {
          w.remove();
        }
      });
    }

    it('an added empty directory or unreferenced file changes nothing Rivumi runs, so trust stays (Rivumi hashes named files, not directories)', async () => {
      const w = new Workspace({ RIVUMI_ENABLE_PROJECT_HOOKS: '1' });
      try {
        setup(w);
        await w.trust(HOOKS, false);
        fs.mkdirSync(w.path('scripts/empty'));
        w.write('scripts/unused.sh', '');
        assert.equal((await w.cli('check')).code, 0);
      } finally {
        w.remove();
      }
    });
  });

  describe('a Rivumi plugin (manifest, skill file, and the script its hook runs)', () => {
    const MANIFEST = '.rivumi/plugins/pack.json';
    const setup = (w: Workspace) => {
      w.write(
        MANIFEST,
        JSON.stringify(
          {
            name: 'pack',
            description: 'A pack.',
            skills: [{ path: 'pack.md' }],
            hooks: { pre_tool_use: [{ command: ['bash', 'tools/h.sh'] }] },
          },
          null,
          2,
        ),
      );
      w.write('.rivumi/plugins/pack.md', '---\nname: pack-skill\ndescription: A skill.\n---\nDo the thing.\n');
      w.write('tools/h.sh', '#!/bin/sh\nexit 0\n', 0o755);
    };
    const cases: [string, Drift][] = [
      ['one byte of the manifest changed', (w) => flipOneByte(w.path(MANIFEST))],
      ['one byte of its skill changed', (w) => flipOneByte(w.path('.rivumi/plugins/pack.md'))],
      ['the executable bit of its skill flipped', (w) => flipExecutable(w.path('.rivumi/plugins/pack.md'))],
      [
        'the manifest renamed (a new identity)',
        (w) => fs.renameSync(w.path(MANIFEST), w.path('.rivumi/plugins/pack2.json')),
      ],
      [
        'its skill swapped for a symbolic link to identical bytes',
        (w) => swapForLink(w.path('.rivumi/plugins/pack.md'), w.path('docs/pack.md')),
      ],
      ['its skill deleted', (w) => fs.rmSync(w.path('.rivumi/plugins/pack.md'))],
      [
        'the script its hook runs changed (trust.md: plugin hooks follow the project hook rule)',
        (w) => flipOneByte(w.path('tools/h.sh')),
      ],
    ];
    for (const [name, drift] of cases) {
      it(`${name}: not trusted and check exits 1 after`, async () => {
        const w = new Workspace();
        try {
          setup(w);
          await w.trust(MANIFEST, false);
          drift(w);
          await w.assertDrifted(MANIFEST);
        } finally {
          w.remove();
        }
      });
    }
  });
});
