import { strict as assert } from 'node:assert';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { enable } from '../../src/core/trust/switches';
import { reviewViewModel, type ReviewViewModel } from '../../src/core/review/reviewViewModel';
import { reviewText } from '../../src/core/review/reviewText';
import { byName } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * The review panel states every fact Codewhale's own review (`/plugin show`, codewhale.md
 * §9.1; upstream `render_permissions` and `render_mcp_server` in
 * crates/tui/src/commands/groups/plugins/render.rs) states, in the same words as
 * `skillgate review`: its permissions (filesystem roots, network hosts and what they
 * allow, lifecycle mutation, the stdio runtime's authority), the components it activates
 * and does not, and per MCP server its timeouts (unset ones as `default`), `required`,
 * same-origin redirects and disabled OAuth for a remote one, the host-user authority of a
 * local one and its switch. What the panel says elsewhere (the compatibility pill, the
 * skills list) it does not say twice.
 */
describe("the review panel states Codewhale's own review facts, in the text review's words", () => {
  const w = trustWorkspace();
  const TOML = [
    'schema_version = 1',
    '[plugin]',
    'name = "tools"',
    'version = "1.0.0"',
    '[skills]',
    'path = "skills"',
    '[capabilities]',
    'network_hosts = ["api.example.com"]',
    'filesystem_roots = ["data"]',
    'lifecycle_mutation = true',
    '[mcp_servers.remote]',
    'url = "https://api.example.com/mcp"',
    'bearer_token_env_var = "API_TOKEN"',
    'required = true',
    'connect_timeout = 5',
    '[mcp_servers.local]',
    'command = "node"',
    'args = ["server.js", "--mode=worker"]',
    'env = { KEY = "${SECRET}" }',
    '',
  ].join('\n');

  beforeEach(() => {
    w.f.write('ws/.codewhale/plugins/tools/plugin.toml', TOML);
    w.f.write('ws/.codewhale/plugins/tools/server.js', '// server\n');
    w.f.write('ws/.codewhale/plugins/tools/data/.keep', '');
    w.f.write('ws/.codewhale/plugins/tools/skills/a/SKILL.md', '---\nname: a\ndescription: Does things\n---\nbody\n');
  });

  /** The panel's view model and the text review of the same review, as the index decides the bundle now. */
  const both = (): { m: ReviewViewModel; text: string[] } => {
    const s = w.snapshot();
    const current = byName(s, 'tools');
    const r = review(current, { store: w.store });
    assert.ok(r.ok, r.ok ? '' : r.message);
    return {
      m: reviewViewModel(r.value, s, false),
      text: reviewText(r.value, [w.f.path('ws')], false, false, current)
        .split('\n')
        .map((l) => l.trim()),
    };
  };
  /** The text review's line that starts with `prefix`, asserted to be there once. */
  const line = (text: string[], prefix: string): string => {
    const found = text.filter((l) => l.startsWith(prefix));
    assert.equal(found.length, 1, `one line starting ${JSON.stringify(prefix)} in:\n${text.join('\n')}`);
    return found[0] as string;
  };
  const rows = (m: ReviewViewModel) => (m.contract?.rows ?? []).map((r) => [r.label, r.value.text]);

  it("states the bundle's inventory and every permission field, as `permissions:` words them", () => {
    const { m, text } = both();
    assert.equal(m.contract?.title, 'What Codewhale states');
    const byLabel = new Map(rows(m) as [string, string][]);
    // The spec's words (codewhale.md §9.1 "Permissions line"), for this bundle.
    assert.equal(byLabel.get('filesystem_roots'), '[data]');
    assert.equal(
      byLabel.get('network_hosts'),
      '[api.example.com] (exact allowlist for Codewhale-managed remote requests; redirects stay same-origin)',
    );
    assert.equal(byLabel.get('lifecycle_mutation'), 'true');
    assert.equal(
      byLabel.get('stdio_runtime'),
      '[1 local child process(es) with host-user filesystem/network authority; MCP tool approvals still apply]',
    );
    // The text's own line is those fields, in order, each `field=value`: the same words.
    const permissions = ['filesystem_roots', 'network_hosts', 'lifecycle_mutation', 'stdio_runtime'];
    assert.equal(
      line(text, 'permissions: '),
      `permissions: ${permissions.map((f) => `${f}=${byLabel.get(f)}`).join(' ')}`,
    );
    assert.equal(line(text, 'inventory: '), `inventory: ${byLabel.get('inventory')}`);
    assert.match(byLabel.get('inventory') ?? '', /^skills=1 mcp=2 \(stdio=1 remote=1\) /);
  });

  it('states the active and inactive components as the text does, and the compatibility and skills once', async () => {
    const check = () => {
      const { m, text } = both();
      const stated = rows(m).filter(([l]) => /components$/.test(l as string));
      assert.deepEqual(
        stated.map(([l]) => l),
        ['Active components', 'Inactive components'],
      );
      for (const [label, value] of stated) assert.equal(line(text, `${label}: `), `${label}: ${value}`);
      // Said elsewhere in the panel (the header's pill, the skills list), so not rows of their own.
      assert.ok(!rows(m).some(([l]) => l === 'Compatibility' || l === 'Qualified skills'), JSON.stringify(rows(m)));
      assert.equal(line(text, 'Compatibility: '), `Compatibility: ${m.header.compatibility}`);
      assert.equal(
        line(text, 'Qualified skills: '),
        `Qualified skills: [${m.capabilities.skills.map((s) => s.name.text).join(', ')}]`,
      );
      return new Map(stated as [string, string][]);
    };
    const off = check();
    assert.equal(off.get('Active components'), '[none]');
    assert.equal(off.get('Inactive components'), '[filesystem-roots, lifecycle-mutation]');
    const token = both().m.hashes.token as string;
    assert.ok((await trust(byName(w.snapshot(), 'tools'), token, { store: w.store })).ok);
    assert.ok((await enable(byName(w.snapshot(), 'tools'), w.ctx)).ok);
    assert.equal(check().get('Active components'), '[skills, mcp]');
  });

  it('shows a filesystem root the bundle wrote with its invisible characters made visible and flagged', () => {
    const toml = TOML.replace('filesystem_roots = ["data"]', 'filesystem_roots = ["/srv\\u001b[2J\\u202eatad"]');
    w.f.write('ws/.codewhale/plugins/tools/plugin.toml', toml);
    const { m, text } = both();
    const root = m.contract?.rows.find((r) => r.label === 'filesystem_roots')?.value;
    assert.deepEqual(root, { text: '[/srv\\u{1b}[2J\\u{202e}atad]', hidden: true });
    assert.ok(m.hiddenCount >= 1);
    assert.ok(line(text, 'permissions: ').startsWith(`permissions: filesystem_roots=${root?.text} `));
  });

  it("gives each MCP card the server's timeouts (unset ones `default`), required, redirects, OAuth, authority and switch", () => {
    const { m, text } = both();
    const card = (id: string) => {
      const c = m.capabilities.mcp.find((x) => x.id.text === id);
      assert.ok(c, id);
      return {
        timeouts: c.timeouts,
        authority: c.authority,
        facts: c.facts.map((f) => [f.label, f.value.text]),
      };
    };
    assert.deepEqual(card('local'), {
      timeouts: ['connect=default/execute=default/read=default'],
      authority:
        "Starts a local process with your user's filesystem and network access. (Codewhale: host-user-filesystem/network-authority)",
      facts: [
        ['required', 'false'],
        ['switch', 'configured-on'],
      ],
    });
    assert.deepEqual(card('remote'), {
      timeouts: ['connect=5s/execute=default/read=default'],
      authority: null,
      facts: [
        ['redirects', 'same-origin-only'],
        ['oauth', 'disabled'],
        ['required', 'true'],
        ['switch', 'configured-on'],
      ],
    });
    // Each is a field of the server's line in the text review, in the same words.
    for (const id of ['local', 'remote']) {
      const fields = line(text, `MCP ${id}: `).split(' ');
      const c = card(id);
      assert.ok(fields.includes(`timeouts=${c.timeouts[0]}`), `${id} timeouts in ${fields.join(' ')}`);
      const word = /\(Codewhale: (.*)\)$/.exec(c.authority ?? '')?.[1];
      if (c.authority) assert.ok(word && fields.includes(word), `${id} authority in ${fields.join(' ')}`);
      for (const [label, value] of c.facts)
        assert.ok(
          fields.includes(label === 'switch' ? (value as string) : `${label}=${value}`),
          `${id} ${label} in ${fields.join(' ')}`,
        );
    }
  });
});
