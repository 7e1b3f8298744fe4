import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import { Fixture } from './helpers/fixture';

/** The shared bundle corpus, copied into the repository unchanged with its README (provenance). */
const CORPUS = path.resolve(__dirname, '../fixtures/corpus/codewhale');

/**
 * What the corpus README predicts for each real bundle (test/fixtures/corpus/README.md),
 * read through `skillgate validate --json` as a CI job would.
 */
const EXPECTED: Record<
  string,
  {
    decision: string;
    reasons?: string[];
    errors?: RegExp[];
    compatibility?: string;
    inventory?: Record<string, number>;
  }
> = {
  chromewhale: {
    decision: 'disabled',
    compatibility: 'full',
    inventory: { skills: 1, stdio_mcp_servers: 1, commands: 1 },
  },
  'claude-sample': { decision: 'disabled', compatibility: 'full' },
  cloudflare: { decision: 'disabled', inventory: { skills: 1, commands: 1, mcp_servers: 0 } },
  'cloudflare-docs': { decision: 'disabled', inventory: { remote_mcp_servers: 1 } },
  'computer-use': {
    decision: 'disabled',
    reasons: ['not_reviewed', 'not_enabled', 'not_applicable'],
    inventory: { stdio_mcp_servers: 1 },
  },
  'computer-use-builtin': {
    decision: 'rejected',
    reasons: ['manifest_invalid', 'not_reviewed', 'not_enabled'],
    errors: [/^failed to inspect skills path skills: No such file or directory \(os error 2\)$/],
  },
  'design-review': { decision: 'disabled' },
  github: { decision: 'disabled', inventory: { remote_mcp_servers: 1 } },
  'github-workflow': { decision: 'disabled', inventory: { remote_mcp_servers: 1 } },
  'hello-extension': {
    decision: 'display_only',
    reasons: ['unsupported_components', 'not_reviewed', 'not_enabled'],
    compatibility: 'unsupported',
    inventory: { native: 1 },
  },
  linear: { decision: 'disabled' },
  'linear-workflow': { decision: 'disabled' },
  loop: { decision: 'disabled', inventory: { hooks: 1, commands: 1, skills: 1 } },
  resend: { decision: 'disabled' },
  'review-toolkit': { decision: 'disabled', inventory: { agents: 1, commands: 1 } },
  skills: { decision: 'disabled', inventory: { skills: 1 } },
  'skills-dev-process': { decision: 'rejected', errors: [/^failed to inspect skills path/] },
  'skills-docs': { decision: 'rejected', errors: [/^failed to inspect skills path/] },
  'skills-google': { decision: 'rejected', errors: [/^failed to inspect skills path/] },
  'skills-personal': { decision: 'rejected', errors: [/^failed to inspect skills path/] },
  stripe: { decision: 'disabled' },
  supabase: { decision: 'disabled' },
  vercel: { decision: 'disabled' },
  'vercel-workflow': { decision: 'disabled' },
  'web-artifacts-builder': { decision: 'disabled' },
  whalesong: { decision: 'disabled', inventory: { stdio_mcp_servers: 1 } },
  whalewiki: { decision: 'disabled', inventory: { stdio_mcp_servers: 1, agents: 1 } },
};

describe('the bundle corpus (test/fixtures/corpus)', function () {
  let f: Fixture;
  before(function () {
    f = new Fixture();
    fs.cpSync(CORPUS, f.path('ws/.codewhale/plugins'), { recursive: true });
  });
  after(() => f.remove());

  it('has an expectation for every bundle directory that holds a manifest, and the DSH sample is skipped', async () => {
    const dirs = fs.readdirSync(CORPUS).sort();
    assert.deepEqual(
      dirs.filter((d) => d !== 'dsh-sample'),
      Object.keys(EXPECTED).sort(),
    );
  });

  for (const [dir, want] of Object.entries(EXPECTED)) {
    it(`predicts ${dir}: ${want.decision}${want.errors ? ' with its error' : ''}`, async () => {
      let out = '';
      await run(['validate', '--json', '--no-user', '--workspace', f.path('ws')], {
        out: (t) => (out += t),
        err: () => undefined,
        env: { SKILLGATE_STATE_DIR: f.path('state') },
        cwd: f.root,
      });
      const doc = JSON.parse(out) as {
        items: {
          id: string;
          path: string;
          decision: string;
          reasons: string[];
          compatibility: string;
          parent: string | null;
        }[];
        diagnostics: { file: string; severity: string; message: string; itemId: string }[];
      };
      const item = doc.items.find((i) => i.parent === null && i.path === `.codewhale/plugins/${dir}`);
      assert.ok(item, `no item for ${dir}`);
      assert.equal(item.decision, want.decision);
      if (want.reasons) assert.deepEqual(item.reasons, want.reasons);
      if (want.compatibility) assert.equal(item.compatibility, want.compatibility);
      const errors = doc.diagnostics
        .filter((d) => d.itemId === item.id && d.severity === 'error')
        .map((d) => d.message);
      if (want.errors) {
        assert.equal(errors.length, want.errors.length, errors.join('\n'));
        want.errors.forEach((re, i) => assert.match(errors[i] ?? '', re));
      } else assert.deepEqual(errors, []);
    });
  }

  it("rejects chromewhale's kimi.plugin.json read on its own (startupTimeoutMs is not a Kimi MCP field)", async () => {
    const g = new Fixture();
    try {
      fs.cpSync(path.join(CORPUS, 'chromewhale'), g.path('ws/.codewhale/plugins/chromewhale'), { recursive: true });
      fs.rmSync(g.path('ws/.codewhale/plugins/chromewhale/plugin.json'));
      let out = '';
      const code = await run(['validate', '--json', '--no-user', '--workspace', g.path('ws')], {
        out: (t) => (out += t),
        err: () => undefined,
        env: { SKILLGATE_STATE_DIR: g.path('state') },
        cwd: g.root,
      });
      assert.equal(code, 1);
      const doc = JSON.parse(out);
      assert.equal(doc.items[0].decision, 'rejected');
      assert.ok(
        doc.diagnostics.some(
          (d: { message: string }) =>
            d.message === 'failed to parse kimi.plugin.json: unknown field `startupTimeoutMs`',
        ),
      );
    } finally {
      g.remove();
    }
  });

  it('reads the inventories the corpus README describes', async () => {
    let out = '';
    await run(['show', 'chromewhale', '--json', '--no-user', '--workspace', f.path('ws')], {
      out: (t) => (out += t),
      err: () => undefined,
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.root,
    });
    const detail = JSON.parse(out).detail;
    assert.equal(detail.manifest, 'plugin.json');
    for (const [dir, want] of Object.entries(EXPECTED)) {
      if (!want.inventory) continue;
      let o = '';
      await run(['list', '--json', '--no-user', '--workspace', f.path('ws')], {
        out: (t) => (o += t),
        err: () => undefined,
        env: { SKILLGATE_STATE_DIR: f.path('state') },
        cwd: f.root,
      });
      const id = JSON.parse(o).items.find(
        (i: { path: string; parent: string | null }) => i.parent === null && i.path === `.codewhale/plugins/${dir}`,
      ).id;
      let s = '';
      await run(['show', id, '--json', '--no-user', '--workspace', f.path('ws')], {
        out: (t) => (s += t),
        err: () => undefined,
        env: { SKILLGATE_STATE_DIR: f.path('state') },
        cwd: f.root,
      });
      const inv = JSON.parse(s).detail.inventory;
      for (const [k, v] of Object.entries(want.inventory)) assert.equal(inv[k], v, `${dir} ${k}`);
    }
  });
});
