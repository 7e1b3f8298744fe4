import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { enable } from '../../src/core/trust/switches';
import {
  CAPABILITIES_UNKNOWN,
  RESTRICTED_NOTICE,
  RESTRICTED_NOTICE_NOTHING_TO_REDUCE,
  RESTRICTED_NOTICE_TRUST_ONLY,
  RESTRICTED_NOTICE_TRUST_ONLY_NOTHING_TO_REDUCE,
  reviewViewModel,
  shown,
  type ReviewViewModel,
  type Shown,
} from '../../src/core/review/reviewViewModel';
import { relativeTime } from '../../src/core/review/relativeTime';
import { reviewText } from '../../src/core/review/reviewText';
import { hookLoadFails } from '../../src/core/review/hookLoad';
import { trustEssentials } from '../../src/core/review/trustEssentials';
import { byName } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';
import { assertDisplaySafe } from './helpers/displaySafe';
import { renderReview } from './helpers/reviewWebview';

describe('the review panel view model', () => {
  const w = trustWorkspace();
  const model = (workspaceTrusted = true) => {
    const s = w.snapshot();
    const r = review(byName(s, 'tools'), { store: w.store });
    assert.ok(r.ok, r.ok ? '' : r.message);
    return reviewViewModel(r.value, s, false, workspaceTrusted);
  };
  const trustAndEnable = async () => {
    assert.ok((await trust(byName(w.snapshot(), 'tools'), model().hashes.token as string, { store: w.store })).ok);
    assert.ok((await enable(byName(w.snapshot(), 'tools'), w.ctx)).ok);
  };

  beforeEach(() => {
    w.f.write(
      'ws/.codewhale/plugins/tools/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "tools"\nversion = "1.0.0"\ndescription = "Safe\u200btools <script>alert(1)</script>"\n[skills]\npath = "skills"\n[capabilities]\nnetwork_hosts = ["api.example.com"]\n[mcp_servers.remote]\nurl = "https://api.example.com/mcp"\nbearer_token_env_var = "API_TOKEN"\n[mcp_servers.local]\ncommand = "node"\nargs = ["server.js", "--mode=worker"]\nenv = { KEY = "${SECRET}" }\n',
    );
    w.f.write('ws/.codewhale/plugins/tools/server.js', '// server\n');
    w.f.write(
      'ws/.codewhale/plugins/tools/skills/a/SKILL.md',
      '---\nname: a\ndescription: Does\u200b things\n---\nbody\n',
    );
  });

  it('shows the header, every capability, files, and hashes for a first review', () => {
    const m = model();
    assert.equal(m.header.name.text, 'tools');
    assert.deepEqual(
      m.header.reasons.map((r) => r.code),
      ['not_reviewed', 'not_enabled'],
    );
    assert.equal(m.changes, null);
    const [local, remote] = m.capabilities.mcp;
    assert.equal(local?.transport.text, 'stdio');
    assert.deepEqual(
      local?.argv.map((a) => [a.index, a.kind, a.value.text]),
      [
        [1, 'plugin-path', 'server.js'],
        [2, 'value', '--mode=worker'],
      ],
    );
    assert.deepEqual(
      local?.env.map((e) => [e.destination.text, e.source.text]),
      [['KEY', 'SECRET']],
    );
    assert.equal(remote?.host?.text, 'api.example.com');
    assert.deepEqual(
      remote?.authEnv.map((a) => a.text),
      ['Authorization: Bearer ${API_TOKEN}'],
    );
    assert.deepEqual(
      m.capabilities.networkHosts.map((h) => h.text),
      ['api.example.com'],
    );
    assert.deepEqual(
      m.capabilities.skills.map((s) => s.name.text),
      ['tools:a'],
    );
    assert.deepEqual(
      m.files.map((x) => x.path.text),
      ['plugin.toml', 'server.js', 'skills/a/SKILL.md'],
    );
    assert.equal(m.hashes.token, `${m.hashes.content}.${m.hashes.capability}`);
    assert.equal(m.hashes.codewhaleCommand?.text, `/plugin trust tools ${m.hashes.token}`);
  });

  it('makes hidden characters visible and flags them; markup stays text', () => {
    const m = model();
    assert.equal(m.header.description?.text, 'Safe\\u{200b}tools <script>alert(1)</script>');
    assert.equal(m.header.description?.hidden, true);
    assert.equal(m.capabilities.skills[0]?.description.text, 'Does\\u{200b} things');
    assert.ok(m.hiddenCount >= 2);
    assert.deepEqual(shown('plain'), { text: 'plain', hidden: false });
    assert.equal(shown('tag\u{E0041}').text, 'tag\\u{e0041}');
    assert.deepEqual(shown('\tindented'), { text: '\\u{9}indented', hidden: false });
    assert.deepEqual(shown('a\x1bb'), { text: 'a\\u{1b}b', hidden: true });
  });

  it('shows capability changes first, then file diffs, after a change', async () => {
    const first = model();
    assert.ok((await trust(byName(w.snapshot(), 'tools'), first.hashes.token as string, { store: w.store })).ok);
    fs.appendFileSync(w.f.path('ws/.codewhale/plugins/tools/server.js'), 'process.exit(1);\n');
    fs.writeFileSync(
      w.f.path('ws/.codewhale/plugins/tools/plugin.toml'),
      fs
        .readFileSync(w.f.path('ws/.codewhale/plugins/tools/plugin.toml'), 'utf8')
        .replace('env = { KEY = "${SECRET}" }', 'env = { KEY = "${SECRET}", HOME_DIR = "${HOME}" }'),
    );
    const m = model();
    assert.equal(m.header.trust, 'content-changed');
    assert.deepEqual(
      m.changes?.capabilities.map((c) => c.summary.text),
      ['new environment mapping for MCP server `local`: HOME_DIR ← ${HOME}'],
    );
    const server = m.changes?.files.find((x) => x.path.text === 'server.js');
    assert.equal(server?.change, 'modified');
    assert.deepEqual(
      server?.diff.map((l) => `${l.kind} ${l.text.text}`),
      ['hunk @@ -1,1 +1,2 @@', 'ctx  // server', 'add +process.exit(1);'],
    );
  });

  it('shows every repository string escaped: names, paths, tools, hook events, env names, diff lines (issue 10)', async () => {
    const NAME = '\x1b[2K\u009b\u202e\t\n';
    const J = [...NAME].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    w.f.write(`ws/.codewhale/plugins/tools/f${NAME}.txt`, 'a\n');
    w.f.write('ws/.rivumi/hooks.json', `{"pre_tool_use":[{"command":["bash","h${J}\\udcff.sh"],"tools":["t${J}"]}]}`);
    const walk = (value: unknown, where: string): void => {
      // A skill's or command's body keeps its lines (shown in a <pre>); everything else is one line.
      if (typeof value === 'string') assertDisplaySafe(value, where, /\.body\.text$/.test(where));
      else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}[${i}]`));
      // `file` is the absolute path the host opens, never shown.
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) if (k !== 'file') walk(v, `${where}.${k}`);
    };
    const first = model();
    walk(first, 'model');
    assert.ok(first.files.some((x) => x.path.text === 'f\\u{1b}[2K\\u{9b}\\u{202e}\\u{9}\\u{a}.txt' && x.path.hidden));
    assert.ok((await trust(byName(w.snapshot(), 'tools'), first.hashes.token ?? '', { store: w.store })).ok);
    fs.writeFileSync(w.f.path(`ws/.codewhale/plugins/tools/f${NAME}.txt`), `a\n\x1b[1Aok\r\u202eb\n`);
    const changed = model();
    walk(changed, 'changed model');
    // The diff headers name the file; a newline in its name started a line the panel showed as context.
    assert.deepEqual(
      changed.changes?.files[0]?.diff.map((l) => `${l.kind} ${l.text.text}`),
      ['hunk @@ -1,1 +1,2 @@', 'ctx  a', 'add +\\u{1b}[1Aok\\u{d}\\u{202e}b'],
    );
    // The text review shows the same diff, each line its own (`review`, the editor's plain-text review).
    const text = review(byName(w.snapshot(), 'tools'), { store: w.store });
    assert.ok(text.ok);
    const diffLines = reviewText(text.value, [w.f.path('ws')], false)
      .split('\n')
      .filter((l) => l.startsWith('      '));
    assert.deepEqual(diffLines, [
      '      --- a/f\\u{1b}[2K\\u{9b}\\u{202e}\\u{9}\\u{a}.txt',
      '      +++ b/f\\u{1b}[2K\\u{9b}\\u{202e}\\u{9}\\u{a}.txt',
      '      @@ -1,1 +1,2 @@',
      '       a',
      '      +\\u{1b}[1Aok\\u{d}\\u{202e}b',
    ]);
    const s = w.snapshot();
    const hooks = review(byName(s, 'hooks.json'), { store: w.store });
    assert.ok(hooks.ok);
    const rivumi = reviewViewModel(hooks.value, s, true);
    walk(rivumi, 'hooks model');
    // Rivumi strips the tool filter's surrounding whitespace.
    assert.deepEqual(rivumi.capabilities.hooks[0]?.tools, [{ text: 't\\u{1b}[2K\\u{9b}\\u{202e}', hidden: true }]);
    assert.equal(rivumi.capabilities.hooks[0]?.argv[1]?.text, 'h\\u{1b}[2K\\u{9b}\\u{202e}\\u{9}\\u{a}\\u{dcff}.sh');
  });

  describe('every string the repository writes, flagged and counted when it holds invisible characters', () => {
    const RLO = '\u202e';
    const ZWSP = '\u200b';
    // A Hangul filler: printable to Python, so a Rivumi message quoting it (pythonRepr) keeps it raw.
    const FILLER = '\u3164';
    /** The marks of those three, and the raw characters: no string of the model may show one unflagged. */
    const HIDDEN = /\\u\{(202e|200b|3164)\}|[\u202e\u200b\u3164]/;
    const isShown = (v: unknown): v is Shown =>
      typeof v === 'object' &&
      v !== null &&
      typeof (v as Shown).text === 'string' &&
      typeof (v as Shown).hidden === 'boolean';

    /** A Codewhale plugin in a folder whose name holds RLO, a Rivumi hooks file and an invalid Rivumi plugin, each field written with one. */
    const writeHostile = () => {
      const whale = `ws/.codewhale/plugins/wh${RLO}ale`;
      w.f.write(
        `${whale}/plugin.toml`,
        [
          'schema_version = 1',
          '[plugin]',
          'name = "whale"',
          'version = "1.0.0"',
          'description = "d"',
          '[commands]',
          `path = "com${ZWSP}mands"`,
          '[capabilities]',
          `network_hosts = ["api${RLO}.example.com"]`,
          '[mcp_servers.remote]',
          'url = "https://api.example.com/mcp"',
          `transport = "s${ZWSP}se"`,
          `bearer_token_env_var = "API${ZWSP}TOKEN"`,
          `env_headers = { "X-K${ZWSP}ey" = "K${RLO}EY" }`,
          `enabled_tools = ["t${ZWSP}1"]`,
          '[mcp_servers.local]',
          'command = "node"',
          `env = { "K${ZWSP}EY" = "\${SEC${RLO}RET}" }`,
          '',
        ].join('\n'),
      );
      w.f.write(`${whale}/com${ZWSP}mands/c.md`, 'c\n');
      w.f.write('ws/a.sh', 'echo\n');
      // An absolute path that may lead into the workspace: not covered, and its note quotes it.
      const viaLink = `/tmp/x${FILLER}y/../..${w.f.path('ws/a.sh')}`;
      w.f.write(
        'ws/.rivumi/hooks.json',
        JSON.stringify({ pre_tool_use: [{ command: ['bash', viaLink], tools: [`t${RLO}x`] }] }),
      );
      w.f.write(`ws/.rivumi/plugins/p${RLO}.json`, '{"skills": 5');
    };
    const models = () => {
      writeHostile();
      const s = w.snapshot();
      return Object.fromEntries(
        ['whale', 'hooks.json', `p${RLO}`].map((name) => {
          const r = review(byName(s, name), { store: w.store });
          assert.ok(r.ok, r.ok ? '' : r.message);
          return [name, reviewViewModel(r.value, s, true)];
        }),
      );
    };

    it('makes each a Shown, flagged, and counts each once: paths, hosts, env names, auth lines, transports, hook tools and notes, refusals', () => {
      const all = models();
      const whale = all.whale as ReviewViewModel;
      const hooks = all['hooks.json'] as ReviewViewModel;
      const plugin = all[`p${RLO}`] as ReviewViewModel;
      assert.deepEqual(whale.header.path, { text: '.codewhale/plugins/wh\\u{202e}ale', hidden: true });
      assert.deepEqual(whale.capabilities.networkHosts[1], { text: 'api\\u{202e}.example.com', hidden: true });
      const [local, remote] = whale.capabilities.mcp;
      assert.deepEqual(local?.env, [
        { destination: { text: 'K\\u{200b}EY', hidden: true }, source: { text: 'SEC\\u{202e}RET', hidden: true } },
      ]);
      assert.deepEqual(remote?.transport, { text: 's\\u{200b}se', hidden: true });
      assert.deepEqual(remote?.host, { text: 'api.example.com', hidden: false });
      assert.deepEqual(remote?.authEnv, [
        { text: 'X-K\\u{200b}ey ← ${K\\u{202e}EY}', hidden: true },
        { text: 'Authorization: Bearer ${API\\u{200b}TOKEN}', hidden: true },
      ]);
      assert.ok(whale.diagnostics.length > 0);
      for (const d of whale.diagnostics)
        assert.match(d.where.text, /^\.codewhale\/plugins\/wh\\u\{202e\}ale\/plugin\.toml:\d+$/);
      assert.ok(whale.diagnostics.every((d) => d.where.hidden));
      assert.deepEqual(hooks.capabilities.hooks[0]?.tools, [{ text: 't\\u{202e}x', hidden: true }]);
      const note = hooks.capabilities.hooks[0]?.files[0]?.note;
      assert.match(note?.text ?? '', /^not covered: hook argument '\/tmp\/x\\u\{3164\}y\//);
      assert.equal(note?.hidden, true);
      // The refusal names the plugin: one string, under the buttons and in their tooltips, counted once.
      assert.match(plugin.actions.notices[0]?.text ?? '', /^Rivumi plugin `p\\u\{202e\}` is invalid/);
      assert.equal(plugin.actions.notices[0]?.hidden, true);
      assert.deepEqual(plugin.actions.trust.why, plugin.actions.notices[0]);
      for (const [name, m] of Object.entries(all)) {
        const unflagged: string[] = [];
        const flagged = new Set<Shown>();
        const walk = (v: unknown, where: string): void => {
          if (typeof v === 'string') {
            if (HIDDEN.test(v)) unflagged.push(`${where} = ${JSON.stringify(v)}`);
          } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${where}[${i}]`));
          else if (isShown(v)) {
            if (v.hidden) flagged.add(v);
            else if (HIDDEN.test(v.text)) unflagged.push(`${where}.text = ${JSON.stringify(v.text)}`);
          } else if (v && typeof v === 'object')
            // `file` is the path the host opens and `id` the unit's: never shown, compared as they are.
            for (const [k, x] of Object.entries(v))
              if (k !== 'file' && `${where}.${k}` !== 'model.id') walk(x, `${where}.${k}`);
        };
        walk(m, 'model');
        assert.deepEqual(unflagged, [], name);
        assert.equal(m.hiddenCount, flagged.size, `${name}: the banner counts every flagged string, each once`);
      }
    });

    it('the panel flags each where it shows it, and its banner counts them', () => {
      for (const [name, m] of Object.entries(models())) {
        const panel = renderReview(m);
        const unflagged = [...panel.all()]
          .filter(
            (e) =>
              (HIDDEN.test(e.text) && !/\bhidden-chars\b/.test(e.className)) ||
              (HIDDEN.test(e.title) && !/invisible or bidirectional/.test(e.title)),
          )
          .map((e) => `<${e.tagName} class="${e.className}"> ${JSON.stringify(e.text || e.title)}`);
        assert.deepEqual(unflagged, [], name);
        assert.match(
          panel.textContent,
          new RegExp(`${m.hiddenCount} string\\(s\\) in this bundle contain invisible`),
          name,
        );
      }
    });
  });

  it('shows a removed `-- x` and an added `++ y` line, which read like the diff header (`--- `, `+++ `)', async () => {
    fs.writeFileSync(w.f.path('ws/.codewhale/plugins/tools/init.lua'), 'local a = 1\n-- x\n');
    await trustAndEnable();
    fs.writeFileSync(w.f.path('ws/.codewhale/plugins/tools/init.lua'), 'local a = 1\n++ y\n');
    const rows = model().changes?.files.find((x) => x.path.text === 'init.lua')?.diff;
    assert.deepEqual(
      rows?.map((l) => `${l.kind} ${l.text.text}`),
      ['hunk @@ -1,2 +1,2 @@', 'ctx  local a = 1', 'del --- x', 'add +++ y'],
    );
  });

  it('enables Trust for a first review and nothing that needs a receipt', () => {
    const a = model().actions;
    assert.deepEqual(
      [a.trust.enabled, a.enable?.enabled, a.disable?.enabled, a.revoke.enabled, a.notices],
      [true, false, false, false, []],
    );
  });

  it('after the bundle becomes invalid: Trust and Enable disabled with the reason shown, no token, the error with file:line, the file diff (issue 10 #19)', async () => {
    await trustAndEnable();
    const toml = w.f.path('ws/.codewhale/plugins/tools/plugin.toml');
    fs.writeFileSync(
      toml,
      `${fs.readFileSync(toml, 'utf8')}[mcp_servers.evil]\nurl = "https://evil.example/mcp?x=1"\n`,
    );
    const m = model();
    assert.equal(m.header.decision, 'rejected');
    assert.deepEqual(
      m.header.reasons.map((r) => r.code),
      ['manifest_invalid', 'capabilities_changed'],
    );
    assert.deepEqual([m.header.trust, m.header.enabled], ['capabilities-changed', true]);
    const refusal =
      /^Plugin bundle `tools` is invalid: .+ \(plugin\.toml:\d+\)\. Codewhale does not load it, so it cannot be trusted or enabled/;
    assert.deepEqual([m.actions.trust.enabled, m.actions.enable?.enabled], [false, false]);
    assert.match(m.actions.trust.why?.text ?? '', refusal);
    assert.match(m.actions.enable?.why?.text ?? '', refusal);
    assert.equal(m.actions.notices.length, 1);
    assert.match(m.actions.notices[0]?.text ?? '', refusal);
    assert.deepEqual(
      [m.actions.disable?.enabled, m.actions.revoke.enabled],
      [true, true],
      'reducing what runs stays possible',
    );
    assert.equal(m.hashes.codewhaleCommand, null);
    assert.ok(
      m.diagnostics.some(
        (d) => d.severity === 'error' && d.code === 'codewhale.mcp.url-query' && /plugin\.toml:\d+$/.test(d.where.text),
      ),
    );
    assert.deepEqual(
      m.changes?.files.map((x) => [x.path.text, x.change]),
      [['plugin.toml', 'modified']],
    );
    assert.ok(m.changes?.files[0]?.diff.some((l) => l.kind === 'add' && l.text.text === '+[mcp_servers.evil]'));
  });

  it('when the manifest no longer loads: capabilities unknown, no capability hash or token, files still hashed', async () => {
    await trustAndEnable();
    fs.writeFileSync(
      w.f.path('ws/.codewhale/plugins/tools/plugin.toml'),
      'schema_version = 1\n[plugin\nname = "tools"\n',
    );
    const m = model();
    assert.equal(m.capabilitiesUnknown?.text, CAPABILITIES_UNKNOWN);
    assert.deepEqual([m.hashes.capability, m.hashes.token], [null, null]);
    assert.match(m.hashes.content ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(
      m.files.map((x) => x.path.text),
      ['plugin.toml', 'server.js', 'skills/a/SKILL.md'],
    );
    assert.deepEqual(
      [m.actions.trust.enabled, m.actions.enable?.enabled, m.actions.disable?.enabled, m.actions.revoke.enabled],
      [false, false, true, true],
    );
    assert.ok(m.diagnostics.some((d) => d.severity === 'error' && d.where.text.endsWith('plugin.toml:2')));
  });

  it('in Restricted Mode: Disable and Revoke available, Trust and Enable disabled with a visible notice (issue 10 #20)', async () => {
    await trustAndEnable();
    const m = model(false);
    assert.deepEqual([m.actions.disable?.enabled, m.actions.revoke.enabled], [true, true]);
    assert.deepEqual([m.actions.trust.enabled, m.actions.enable?.enabled], [false, false]);
    assert.deepEqual(
      m.actions.notices.map((n) => n.text),
      [RESTRICTED_NOTICE],
    );
    assert.match(m.actions.enable?.why?.text ?? '', /Restricted Mode/);
    assert.deepEqual(model(true).actions.notices, [], 'no notice once the workspace is trusted');
  });

  it('offers Trust only for a Rivumi plugin, shows it as loaded and not reviewed, and says how Rivumi is switched off', () => {
    w.f.write('ws/.rivumi/plugins/a.md', 'Check the risks.');
    w.f.write('ws/.rivumi/plugins/pk.json', '{"skills":[{"path":"a.md"}]}');
    const s = w.snapshot();
    const r = review(byName(s, 'pk'), { store: w.store });
    assert.ok(r.ok);
    const m = reviewViewModel(r.value, s, false);
    assert.deepEqual(
      [m.header.decision, m.header.reasons.map((x) => x.code), m.header.enabled, m.header.loadedUnreviewed],
      ['registered', ['loaded_unreviewed', 'not_reviewed'], null, true],
    );
    assert.deepEqual([m.actions.trust.enabled, m.actions.enable, m.actions.disable], [true, null, null]);
    assert.deepEqual(
      m.actions.notices.map((n) => n.text),
      [
        'Rivumi has no enable switch: it loads this plugin whether or not you trust it. Trust records that you reviewed exactly these bytes; to switch it off, remove or rename its manifest in .rivumi/plugins/.',
      ],
    );
  });

  it('in Restricted Mode, a Rivumi plugin: the notice speaks of Trust and Revoke only, the buttons it has (no enable switch)', async () => {
    w.f.write('ws/.rivumi/plugins/a.md', 'Check the risks.');
    w.f.write('ws/.rivumi/plugins/pk.json', '{"skills":[{"path":"a.md"}]}');
    const restricted = () => {
      const s = w.snapshot();
      const r = review(byName(s, 'pk'), { store: w.store });
      assert.ok(r.ok, r.ok ? '' : r.message);
      return reviewViewModel(r.value, s, false, false).actions;
    };
    const before = restricted();
    assert.deepEqual(
      [before.enable, before.disable, before.notices[0]?.text],
      [null, null, RESTRICTED_NOTICE_TRUST_ONLY_NOTHING_TO_REDUCE],
    );
    await w.trustNow('pk');
    const after = restricted();
    assert.deepEqual([after.revoke.enabled, after.notices[0]?.text], [true, RESTRICTED_NOTICE_TRUST_ONLY]);
    for (const notice of [...before.notices, ...after.notices])
      assert.doesNotMatch(notice.text, /\b(Enable|Disable)\b/);
  });

  it('in Restricted Mode with nothing to disable or revoke, the notice does not offer them', () => {
    const m = model(false);
    assert.deepEqual(
      [m.actions.trust.enabled, m.actions.enable?.enabled, m.actions.disable?.enabled, m.actions.revoke.enabled],
      [false, false, false, false],
    );
    assert.deepEqual(
      m.actions.notices.map((n) => n.text),
      [RESTRICTED_NOTICE_NOTHING_TO_REDUCE],
    );
  });

  describe('words, not codes (issue 14 #9-#13)', () => {
    it('shows an argv change as before → after lists, and when the review was, as a person says it', async () => {
      const first = model();
      assert.ok((await trust(byName(w.snapshot(), 'tools'), first.hashes.token as string, { store: w.store })).ok);
      const toml = w.f.path('ws/.codewhale/plugins/tools/plugin.toml');
      fs.writeFileSync(
        toml,
        fs
          .readFileSync(toml, 'utf8')
          .replace('args = ["server.js", "--mode=worker"]', 'args = ["server.js", "--mode=write", "--all"]'),
      );
      const s = w.snapshot();
      const r = review(byName(s, 'tools'), { store: w.store });
      assert.ok(r.ok);
      const at = Date.parse(r.value.receipt?.reviewedAt ?? '');
      const m = reviewViewModel(r.value, s, false, true, new Date(at + 3 * 3600 * 1000 + 5000));
      assert.deepEqual(
        m.changes?.capabilities.map((c) => c.summary.text),
        [
          'changed arguments of MCP server `local`: ["server.js", "--mode=worker"] → ["server.js", "--mode=write", "--all"]',
        ],
      );
      assert.deepEqual(
        [
          m.changes?.capabilities[0]?.argv?.before.map((a) => a.text),
          m.changes?.capabilities[0]?.argv?.after.map((a) => a.text),
        ],
        [
          ['server.js', '--mode=worker'],
          ['server.js', '--mode=write', '--all'],
        ],
      );
      assert.equal(m.changes?.reviewedAgo, 'reviewed 3 hours ago');
      assert.equal(m.changes?.reviewedAt, r.value.receipt?.reviewedAt, 'the exact time, for the tooltip');
    });

    it('says how long ago in whole units', () => {
      const now = new Date('2026-12-01T12:00:00Z');
      assert.deepEqual(
        [
          '2026-12-01T11:59:30Z',
          '2026-12-01T11:59:00Z',
          '2026-12-01T09:00:00Z',
          '2026-11-30T12:00:00Z',
          '2026-11-17T12:00:00Z',
          '2026-12-01T13:00:00Z',
          'nonsense',
        ].map((t) => relativeTime(t, now)),
        [
          'just now',
          '1 minute ago',
          '3 hours ago',
          '1 day ago',
          '2 weeks ago',
          'in the future (check the clock)',
          'at an unknown time',
        ],
      );
    });

    it('lists each hook with where it runs, the files it runs and whether trust covers them, and when Rivumi runs them', () => {
      w.f.write('ws/scripts/guard.py', 'print(1)\n');
      w.f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["python3","scripts/guard.py"],"timeout":5}]}');
      const s = w.snapshot();
      const r = review(byName(s, 'hooks.json'), { store: w.store });
      assert.ok(r.ok);
      const m = reviewViewModel(r.value, s, false);
      const [h] = m.capabilities.hooks;
      assert.equal(h?.cwd, 'workspace folder');
      assert.deepEqual(
        h?.files.map((x) => [x.path.text, x.covered]),
        [['scripts/guard.py', true]],
      );
      assert.match(h?.files[0]?.note.text ?? '', /^covered/);
      assert.equal(
        m.capabilities.hooksWhen,
        'Rivumi runs these whenever RIVUMI_ENABLE_PROJECT_HOOKS=1 is set in its environment, whether or not you trust them.',
      );
    });

    it("never says Rivumi runs a unit's hooks now when its hook load fails (fail-fast: it runs none)", () => {
      w.f.write('ws/scripts/guard.py', 'print(1)\n');
      w.f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["python3","scripts/guard.py"]}]}');
      w.f.write('ws/.rivumi/plugins/bad.json', '{"name":"bad","hooks":{"pre_tool_use":[{"command":[]}]}}');
      const s = w.snapshot({ rivumiHooksEnv: '1' });
      const hooks = byName(s, 'hooks.json');
      assert.deepEqual([hooks.decision, hooks.reasons], ['rejected', ['load_aborted', 'not_reviewed']]);
      const r = review(hooks, { store: w.store });
      assert.ok(r.ok);
      const m = reviewViewModel(r.value, s, true);
      assert.doesNotMatch(m.capabilities.hooksOptInText ?? '', /runs these hooks now/);
      assert.match(m.capabilities.hooksOptInText ?? '', /hook load fails.*runs none of these hooks now/);
      const text = reviewText(r.value, s.workspaces, true, hookLoadFails(s, hooks.id));
      assert.doesNotMatch(text, /runs these hooks now/);
      assert.match(
        text,
        /RIVUMI_ENABLE_PROJECT_HOOKS=1: yes — but the hook load fails: Rivumi runs none of these hooks now/,
      );
      // The load succeeds without the bad plugin: then they do run.
      fs.rmSync(w.f.path('ws/.rivumi/plugins/bad.json'));
      const ok = w.snapshot({ rivumiHooksEnv: '1' });
      const r2 = review(byName(ok, 'hooks.json'), { store: w.store });
      assert.ok(r2.ok);
      assert.match(
        reviewViewModel(r2.value, ok, true).capabilities.hooksOptInText ?? '',
        /Rivumi runs these hooks now/,
      );
      assert.match(
        reviewText(r2.value, ok.workspaces, true, hookLoadFails(ok, byName(ok, 'hooks.json').id)),
        /yes — Rivumi runs these hooks now/,
      );
    });

    it('marks a hook file that trust cannot cover as not covered', () => {
      w.f.write('ws/real.sh', 'echo hi\n');
      fs.symlinkSync(w.f.path('ws/real.sh'), w.f.path('ws/link.sh'));
      w.f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["bash","link.sh"]}]}');
      const s = w.snapshot();
      const r = review(byName(s, 'hooks.json'), { store: w.store });
      assert.ok(r.ok);
      const [h] = reviewViewModel(r.value, s, false).capabilities.hooks;
      assert.deepEqual(
        h?.files.map((x) => [x.path.text, x.covered]),
        [['link.sh', false]],
      );
      assert.match(h?.files[0]?.note.text ?? '', /^not covered: /);
    });

    it("carries each skill's and command's body, lines kept and hidden characters marked", () => {
      w.f.write(
        'ws/.codewhale/plugins/tools/skills/a/SKILL.md',
        '---\nname: a\ndescription: Does things\n---\nRun <b>this</b>\u202e now.\n',
      );
      w.f.write('ws/.codewhale/plugins/tools/commands/fix.md', 'Fix it.\n');
      const toml = w.f.path('ws/.codewhale/plugins/tools/plugin.toml');
      fs.writeFileSync(
        toml,
        fs
          .readFileSync(toml, 'utf8')
          .replace('[skills]\npath = "skills"\n', '[skills]\npath = "skills"\n[commands]\npath = "commands"\n'),
      );
      const m = model();
      const body = m.capabilities.skills[0]?.body;
      assert.equal(body?.text, '---\nname: a\ndescription: Does things\n---\nRun <b>this</b>\\u{202e} now.\n');
      assert.equal(body?.hidden, true);
      assert.deepEqual(
        m.capabilities.commands.map((c) => [c.name.text, c.body?.text]),
        [['fix', 'Fix it.\n']],
      );
    });

    it('says per component and MCP server whether it will be active; no "configured on" while the bundle is not active', async () => {
      const off = model();
      assert.deepEqual(
        off.capabilities.components.map((c) => [c.kind, c.active, c.activity]),
        [['skills', false, 'not active: the bundle is not trusted and enabled']],
      );
      assert.deepEqual(
        off.capabilities.mcp.map((x) => [x.state.tone, x.state.text]),
        [
          ['muted', 'not started: the bundle is not trusted and enabled'],
          ['muted', 'not started: the bundle is not trusted and enabled'],
        ],
      );
      await trustAndEnable();
      const on = model();
      assert.deepEqual(
        on.capabilities.components.map((c) => [c.active, c.activity]),
        [[true, 'active: the agent loads it']],
      );
      assert.deepEqual(
        on.capabilities.mcp.map((x) => x.state.text),
        ['configured on', 'configured on'],
      );
      fs.appendFileSync(w.f.path('ws/.codewhale/plugins/tools/server.js'), '// changed\n');
      const changed = model();
      assert.deepEqual(
        [changed.header.enabled, changed.capabilities.mcp[0]?.state.text, changed.capabilities.components[0]?.activity],
        [true, 'not started: the bundle changed since your review', 'not active: the bundle changed since your review'],
      );
      const toml = w.f.path('ws/.codewhale/plugins/tools/plugin.toml');
      fs.writeFileSync(
        toml,
        `${fs.readFileSync(toml, 'utf8')}[mcp_servers.evil]\nurl = "https://evil.example/mcp?x=1"\n`,
      );
      const rejected = model();
      assert.equal(rejected.header.decision, 'rejected');
      assert.ok(
        rejected.capabilities.mcp.every((x) => x.state.tone !== 'on'),
        'no green pill on a rejected bundle',
      );
    });

    it('says why a trusted, enabled bundle is not active as its reasons do, never "not enabled" (Restricted Mode, [when], a bad skill)', async () => {
      await trustAndEnable();
      const restricted = w.snapshot({ workspaceTrusted: false });
      const r = review(byName(restricted, 'tools'), { store: w.store });
      assert.ok(r.ok);
      const m = reviewViewModel(r.value, restricted, false, false);
      assert.deepEqual([m.header.enabled, m.header.reasons.map((x) => x.code)], [true, ['workspace_untrusted']]);
      assert.deepEqual(
        [m.capabilities.mcp[0]?.state.text, m.capabilities.components[0]?.activity],
        ['not started: VS Code Restricted Mode keeps it off', 'not active: VS Code Restricted Mode keeps it off'],
      );
      // The host loses a binary the bundle's [when] needs: trusted and enabled, not applicable.
      const toml = w.f.path('ws/.codewhale/plugins/tools/plugin.toml');
      fs.appendFileSync(toml, '[when]\nbinaries = ["needed-tool"]\n');
      const r2 = review(byName(w.snapshot(), 'tools'), { store: w.store });
      assert.ok(r2.ok);
      assert.ok((await trust(byName(w.snapshot(), 'tools'), r2.value.reviewToken as string, { store: w.store })).ok);
      assert.ok((await enable(byName(w.snapshot(), 'tools'), w.ctx)).ok);
      const lacking = w.snapshot({ host: { os: 'linux', hasBinary: (b) => b !== 'needed-tool' } });
      const r3 = review(byName(lacking, 'tools'), { store: w.store });
      assert.ok(r3.ok);
      const m3 = reviewViewModel(r3.value, lacking, false);
      assert.deepEqual([m3.header.enabled, m3.header.reasons.map((x) => x.code)], [true, ['not_applicable']]);
      assert.equal(m3.capabilities.mcp[0]?.state.text, 'not started: its [when] conditions do not match this host');
    });

    it('offers no Enable that enable would refuse, and says why: a trusted bundle whose [when] does not match this host', async () => {
      const toml = w.f.path('ws/.codewhale/plugins/tools/plugin.toml');
      fs.appendFileSync(toml, '[when]\nbinaries = ["needed-tool"]\n');
      const host = { os: 'linux', hasBinary: (b: string) => b !== 'needed-tool' } as const;
      const r = review(byName(w.snapshot({ host }), 'tools'), { store: w.store });
      assert.ok(r.ok);
      assert.ok((await trust(byName(w.snapshot({ host }), 'tools'), r.value.reviewToken as string, w.ctx)).ok);
      const s = w.snapshot({ host });
      const r2 = review(byName(s, 'tools'), { store: w.store });
      assert.ok(r2.ok);
      const actions = reviewViewModel(r2.value, s, false).actions;
      assert.deepEqual(actions.enable, {
        enabled: false,
        why: { text: 'Its [when] conditions do not match this host', hidden: false },
      });
      // In words beside the buttons too: a disabled button's tooltip is out of reach of the keyboard.
      assert.deepEqual(
        actions.notices.map((n) => n.text),
        ['Trusted, but it cannot be enabled. Its [when] conditions do not match this host.'],
      );
    });

    it('never lists a server the manifest configures off among the commands trust lets run', () => {
      const toml = w.f.path('ws/.codewhale/plugins/tools/plugin.toml');
      fs.appendFileSync(toml, '[mcp_servers.off]\ncommand = "rm"\nargs = ["-rf", "build"]\nenabled = false\n');
      const s = w.snapshot();
      const r = review(byName(s, 'tools'), { store: w.store });
      assert.ok(r.ok);
      const m = reviewViewModel(r.value, s, false);
      assert.equal(m.capabilities.mcp.find((x) => x.id.text === 'off')?.enabled, false);
      const lines = trustEssentials(r.value);
      const commands = lines.slice(lines.indexOf('Commands it will run:') + 1);
      assert.ok(
        !commands
          .slice(
            0,
            commands.findIndex((l) => !l.startsWith('  • ')),
          )
          .some((l) => l.includes('rm -rf')),
        lines.join('\n'),
      );
      assert.ok(lines.includes('MCP servers configured off (never started):'), lines.join('\n'));
      assert.ok(lines.includes('  • rm -rf build  (MCP server off)'), lines.join('\n'));
    });

    it('lists what trust lets run for the confirmation: commands, remote servers, hosts', () => {
      const s = w.snapshot();
      const r = review(byName(s, 'tools'), { store: w.store });
      assert.ok(r.ok);
      assert.deepEqual(trustEssentials(r.value), [
        'Commands it will run:',
        '  • node server.js --mode=worker  (MCP server local)',
        'Remote MCP servers:',
        '  • remote → https://api.example.com/mcp',
        'Network hosts:',
        '  • api.example.com',
      ]);
      // Hooks their agent runs only under an opt-in not set here are not "commands it will run".
      const hooked = {
        capabilities: { hooks: { h: { event: 'pre_tool_use', argv: ['python3', 'check.py'] } } },
      } as unknown as Parameters<typeof trustEssentials>[0];
      const optIn = 'RIVUMI_ENABLE_PROJECT_HOOKS=1';
      assert.deepEqual(trustEssentials(hooked, { optIn, set: false }), [
        'Hooks it runs once RIVUMI_ENABLE_PROJECT_HOOKS=1 is set (not set here):',
        '  • python3 check.py  (hook pre_tool_use)',
      ]);
      assert.deepEqual(trustEssentials(hooked, { optIn, set: true }), [
        'Commands it will run:',
        '  • python3 check.py  (hook pre_tool_use)',
      ]);
      assert.deepEqual(trustEssentials({ capabilities: {} }), [
        'It runs no commands and declares no MCP servers, hooks or network hosts.',
      ]);
    });
  });
});
