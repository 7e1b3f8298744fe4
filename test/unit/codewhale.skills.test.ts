import { strict as assert } from 'node:assert';
import { contractDetail } from '../../src/core/report/contract';
import * as fs from 'node:fs';
import { Fixture, index, writeW, writeD, byName, codes, messages, top } from './helpers/fixture';
import { parseCodewhaleSkill, normalizeSkillName } from '../../src/core/systems/codewhale/skillFile';

describe('Codewhale skills and compatibility (codewhale.md §5, §6, §10.5)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  describe('SKILL.md parsing', () => {
    it('never executes ---js front matter', () => {
      const g = globalThis as { skillgatePwned?: boolean };
      delete g.skillgatePwned;
      const r = parseCodewhaleSkill('---js\n{ name: (globalThis.skillgatePwned = true, "x") }\n---\nbody\n');
      assert.equal(g.skillgatePwned, undefined);
      assert.equal(r.ok, false);
      for (const lang of ['javascript', 'json', 'yaml', 'coffee']) {
        parseCodewhaleSkill(`---${lang}\nname: (globalThis.skillgatePwned = true)\n---\nbody\n`);
        assert.equal(g.skillgatePwned, undefined, lang);
      }
    });
    it('reads name and description, strips one pair of quotes, lowercases keys', () => {
      const r = parseCodewhaleSkill(
        '---\nName: "My Skill"\ndescription: \'quoted\'\n# comment\nnot a pair\n---\n\nbody text\n',
      );
      assert.deepEqual(r.ok && [r.name, r.description, r.body], ['My Skill', 'quoted', 'body text']);
    });
    it('supports folded and literal block scalars', () => {
      const r = parseCodewhaleSkill('---\nname: x\ndescription: >\n  one\n  two\n---\nb\n');
      assert.equal(r.ok && r.description, 'one two');
    });
    it('reports a missing closing delimiter and a missing name', () => {
      assert.deepEqual(parseCodewhaleSkill('---\nname: x\nbody'), {
        ok: false,
        reason: 'missing frontmatter closing delimiter',
      });
      assert.deepEqual(parseCodewhaleSkill('---\ndescription: x\n---\nbody'), {
        ok: false,
        reason: 'missing required frontmatter field: name',
      });
    });
    it('falls back to the first # Heading without front matter', () => {
      const r = parseCodewhaleSkill('\n# Deploy Helper\n\nSteps.');
      assert.equal(r.ok && r.name, 'Deploy Helper');
      assert.deepEqual(parseCodewhaleSkill('no heading'), {
        ok: false,
        reason: 'no frontmatter and no `# Heading` found to use as skill name',
      });
    });
    it('normalizes names to safe command names', () => {
      assert.equal(normalizeSkillName('Deploy Helper!'), 'deploy-helper');
      assert.equal(normalizeSkillName('***'), 'skill');
      assert.equal(normalizeSkillName('x'.repeat(70)).length, 64);
    });
  });

  describe('discovery inside skills roots', () => {
    it('needs a directory between the root and SKILL.md, skips dot directories, and lets the first claim nested ones', () => {
      writeW(f);
      const dir = 'ws/.codewhale/plugins/example-plugin/skills';
      f.write(`${dir}/SKILL.md`, '---\nname: top\n---\nb\n');
      f.write(`${dir}/.hidden/SKILL.md`, '---\nname: hidden\n---\nb\n');
      f.write(`${dir}/example/nested/SKILL.md`, '---\nname: nested\n---\nb\n');
      f.write(`${dir}/broken/SKILL.md`, '---\nname: x\n');
      f.write(`${dir}/broken/inner/SKILL.md`, '---\nname: inner\n---\nb\n');
      const s = index([f.path('ws')]);
      assert.deepEqual(
        s.items.filter((i) => i.kind === 'skill').map((i) => i.qualifiedName),
        ['example-plugin:example'],
      );
      assert.deepEqual(codes(s), ['codewhale.skill-invalid']);
    });
    it('warns and normalizes an unsafe skill name; the bundle can never become active', () => {
      writeW(f);
      f.write('ws/.codewhale/plugins/example-plugin/skills/other/SKILL.md', '---\nname: Other Skill\n---\nb\n');
      const s = index([f.path('ws')]);
      assert.ok(
        messages(s).includes(
          'Skill name `Other Skill` in skills/other/SKILL.md is not a safe command name; using `other-skill` instead.',
        ),
      );
      assert.ok(s.items.some((i) => i.qualifiedName === 'example-plugin:other-skill'));
    });
    it('rejects a bundle that declares two skills with one name', () => {
      writeW(f);
      f.write('ws/.codewhale/plugins/example-plugin/skills/again/SKILL.md', '---\nname: example\n---\nb\n');
      const s = index([f.path('ws')]);
      assert.equal(byName(s, 'example-plugin').decision, 'rejected');
      assert.ok(messages(s).includes('plugin `example-plugin` declares duplicate skill name `example`'));
    });
    it('sorts same-named skills by path in UTF-8 byte order, so the later one in that order is the duplicate', () => {
      writeW(f, '', 'ws/.codewhale/plugins/example-plugin');
      fs.rmSync(f.path('ws/.codewhale/plugins/example-plugin/skills/example'), { recursive: true });
      f.write('ws/.codewhale/plugins/example-plugin/skills/！/SKILL.md', '---\nname: twin\n---\nb\n');
      f.write('ws/.codewhale/plugins/example-plugin/skills/😀/SKILL.md', '---\nname: twin\n---\nb\n');
      const s = index([f.path('ws')]);
      const dup = s.diagnostics.find((d) => d.code === 'codewhale.skill.duplicate-name');
      assert.equal(dup?.file, f.path('ws/.codewhale/plugins/example-plugin/skills/😀/SKILL.md'));
    });
    it('makes a non-UTF-8 SKILL.md fatal for the bundle', () => {
      writeW(f);
      f.write(
        'ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md',
        Buffer.from([0x2d, 0x2d, 0x2d, 0xff, 0xfe]),
      );
      const s = index([f.path('ws')]);
      assert.equal(byName(s, 'example-plugin').decision, 'rejected');
      assert.ok(messages(s).includes('plugin Skill must be valid UTF-8'));
    });
    it('warns on bidirectional and zero-width characters in a skill', () => {
      writeW(f);
      f.write(
        'ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md',
        '---\nname: example\ndescription: safe\u202e\n---\nDo this\u200b and that.\n',
      );
      const s = index([f.path('ws')]);
      const d = s.diagnostics.find((x) => x.code === 'skillgate.hidden-unicode');
      assert.ok(d, codes(s).join());
      assert.match(d.message, /U\+202E, U\+200B/);
      assert.deepEqual(d.range.start, { line: 2, character: 17 });
    });
  });

  describe('compatibility under policy v3', () => {
    it('is partial with hooks, filesystem roots and lifecycle mutation, and lists inactive parts', () => {
      writeW(
        f,
        '[hooks]\npath = "hooks"\n[capabilities]\nfilesystem_roots = ["workspace"]\nlifecycle_mutation = true\n',
      );
      f.mkdir('ws/.codewhale/plugins/example-plugin/hooks');
      const s = index([f.path('ws')]);
      const item = byName(s, 'example-plugin');
      assert.equal(item.compatibility, 'partial');
      const facts = contractDetail(item, []).facts as { supportedComponents: string[]; inactiveComponents: string[] };
      assert.ok(facts.supportedComponents.includes('hooks'));
      assert.deepEqual(facts.inactiveComponents, ['filesystem-roots', 'lifecycle-mutation']);
      // "can activate" (§10.5 case 1): only trust and the enable bit hold it back, not its compatibility.
      assert.deepEqual([item.decision, item.reasons], ['disabled', ['not_reviewed', 'not_enabled']]);
      assert.equal(byName(s, 'example-plugin:filesystem-roots').decision, 'display_only');
      assert.deepEqual(byName(s, 'example-plugin:filesystem-roots').reasons, ['component_inactive']);
    });
    it('is partial with commands and lsp: supported skills and commands, inactive lsp, with a warning', () => {
      writeW(f, '[commands]\npath = "commands"\n[lsp]\npath = "lsp"\n');
      f.mkdir('ws/.codewhale/plugins/example-plugin/commands');
      f.mkdir('ws/.codewhale/plugins/example-plugin/lsp');
      const s = index([f.path('ws')]);
      const facts = contractDetail(byName(s, 'example-plugin'), []).facts as {
        supportedComponents: string[];
        inactiveComponents: string[];
      };
      assert.deepEqual(facts.supportedComponents, ['skills', 'commands']);
      assert.deepEqual(facts.inactiveComponents, ['lsp']);
      assert.deepEqual(messages(s), [
        'compatibility partial; inactive components remain inventoried but are not activated: lsp',
      ]);
    });
    it('is unsupported with only [lsp]: display only', () => {
      writeD(f, '[lsp]\npath = "lsp"\n', 'ws/.codewhale/plugins/demo');
      f.mkdir('ws/.codewhale/plugins/demo/lsp');
      const item = top(index([f.path('ws')]))[0];
      assert.equal(item?.compatibility, 'unsupported');
      assert.equal(item?.decision, 'display_only');
      assert.deepEqual(item?.reasons.slice(0, 1), ['unsupported_components']);
      // §10.5 case 3: unsupported `["lsp"]`, nothing supported.
      assert.deepEqual(item?.detail.activation?.inactiveComponents, ['lsp']);
      assert.deepEqual(item?.detail.activation?.supportedComponents, []);
    });
  });
});

describe('Claude-format bundles (codewhale.md §3.6)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const claude = (manifest: object, mcp?: object) => {
    f.write('ws/.codewhale/plugins/c/.claude-plugin/plugin.json', JSON.stringify(manifest));
    if (mcp) f.write('ws/.codewhale/plugins/c/.mcp.json', JSON.stringify(mcp, null, 2));
    return index([f.path('ws')]);
  };

  it('reads inline servers and a wrapped .mcp.json, translating Bearer and ${VAR} headers', () => {
    const s = claude(
      { name: 'c', version: '1.0.0', mcpServers: { local: { command: 'node', args: ['server.js'] } } },
      {
        mcpServers: {
          remote: {
            type: 'http',
            url: 'https://api.example.com/mcp',
            headers: { Authorization: 'Bearer ${API_TOKEN}', 'X-Team': '${TEAM_ID}' },
          },
        },
      },
    );
    assert.deepEqual(messages(s), []);
    const facts = contractDetail(byName(s, 'c'), []).facts as {
      mcpServers: {
        id: string;
        transport: string;
        bearerTokenEnvVar: string | null;
        envHeaders: { header: string; source: string }[];
      }[];
    };
    assert.deepEqual(
      facts.mcpServers.map((m) => [m.id, m.transport]),
      [
        ['local', 'stdio'],
        ['remote', 'streamable-http'],
      ],
    );
    assert.equal(facts.mcpServers[1]?.bearerTokenEnvVar, 'API_TOKEN');
    assert.deepEqual(facts.mcpServers[1]?.envHeaders, [{ header: 'X-Team', source: 'TEAM_ID' }]);
    assert.deepEqual((byName(s, 'c').detail.inventory as { network_hosts: string[] }).network_hosts, [
      'api.example.com',
    ]);
  });

  it('refuses ${CLAUDE_PLUGIN_ROOT}, a literal header and a duplicate id', () => {
    assert.equal(
      byName(claude({ name: 'c', version: '1.0.0' }, { s: { command: '${CLAUDE_PLUGIN_ROOT}/run.sh' } }), 'c').decision,
      'rejected',
    );
    assert.ok(
      messages(
        claude(
          { name: 'c', version: '1.0.0' },
          { s: { url: 'https://a.example/mcp', headers: { Authorization: 'Bearer abc' } } },
        ),
      ).some((m) => m.includes('must be `Bearer ${VAR}`')),
    );
    assert.ok(
      messages(
        claude({ name: 'c', version: '1.0.0', mcpServers: { s: { command: 'node' } } }, { s: { command: 'node' } }),
      ).some((m) => m.includes('more than once')),
    );
  });

  it('refuses Claude hooks and an .lsp.json', () => {
    f.write('ws/.codewhale/plugins/c/hooks/hooks.json', '{}');
    assert.deepEqual(messages(claude({ name: 'c', version: '1.0.0' })), [
      'Claude component hooks/hooks.json is not supported by this importer; no partial plugin will be installed',
    ]);
  });
});
