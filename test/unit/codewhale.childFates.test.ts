import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture, index, byName, LINUX_HOST } from './helpers/fixture';
import { FILE_START, type Item } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { BundleStateView, TrustView } from '../../src/core/decisions/trustView';
import { bundleKey } from '../../src/core/hashing/identity';
import { codewhalePluginId } from '../../src/core/systems/codewhale/identity';
import { osBytes } from '../../src/core/fs/rawNames';

/**
 * The fate of each child of a Codewhale bundle (decisions.md: children inherit their
 * bundle's gate; `skill_invalid`, `component_invalid`, `component_inactive` are their
 * own), for each fate of the bundle, and where each item and warning points.
 */
describe('Codewhale children: each fate under a registered, disabled, shadowed and rejected bundle', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const dir = 'ws/.codewhale/plugins/b';
  const head = (name = 'b') => `schema_version = 1\n[plugin]\nname = "${name}"\nversion = "1.0.0"\n`;
  /** Bundle `b`: a skill, one MCP server, commands (supported) and lsp (inactive): `partial`, can activate. */
  const MIXED = `${head()}[skills]\npath = "skills"\n[commands]\npath = "c"\n[lsp]\npath = "l"\n[mcp_servers.srv]\ncommand = "node"\n`;
  const writeMixed = (at = dir, manifest = MIXED) => {
    f.write(`${at}/plugin.toml`, manifest);
    f.write(`${at}/skills/ok/SKILL.md`, '---\nname: ok\ndescription: fine\n---\nbody\n');
    f.mkdir(`${at}/c`);
    f.mkdir(`${at}/l`);
  };
  const withStore = (
    state: (key: string) => BundleStateView | undefined,
    options: { home?: boolean; workspaceTrusted?: boolean } = {},
  ): Snapshot => {
    const trust: TrustView = { available: true, lookup: state };
    return index([f.path('ws')], {
      codewhaleHome: options.home ? f.path('home') : null,
      trust: () => trust,
      workspaceTrusted: options.workspaceTrusted ?? true,
    });
  };
  /** A store that trusts and enables every bundle of `s` at its current hashes. */
  const trustingAll = (s: Snapshot) => {
    const states = new Map<string, BundleStateView>();
    for (const i of s.items.filter((x) => x.parent === null && x.contentHash && x.capabilityHash))
      states.set(i.detail.bundleKey as string, {
        enabled: true,
        trust: { contentHash: i.contentHash as string, capabilityHash: i.capabilityHash as string },
      });
    return (key: string) => states.get(key);
  };
  const fates = (s: Snapshot, parent: Item) =>
    s.items.filter((i) => i.parent === parent.id).map((i) => [i.kind, i.qualifiedName, i.decision, i.reasons]);
  const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));

  it('activates every supported child of a registered bundle and keeps the inactive kind display only', () => {
    writeMixed();
    const s = withStore(trustingAll(index([f.path('ws')])));
    const b = byName(s, 'b');
    // The component-inactive warning is not a skill diagnostic: it does not keep the bundle off.
    assert.deepEqual(
      s.diagnostics.map((d) => [d.code, d.severity]),
      [['codewhale.component-inactive', 'warning']],
    );
    assert.deepEqual(
      [b.decision, b.reasons, b.trust, b.enabled, b.compatibility],
      ['registered', ['active'], 'trusted', true, 'partial'],
    );
    assert.deepEqual(fates(s, b), [
      ['skill', 'b:ok', 'registered', ['component_active']],
      ['mcp-server', 'b:srv', 'registered', ['component_active']],
      ['component', 'b:commands', 'registered', ['component_active']],
      ['component', 'b:lsp', 'display_only', ['component_inactive']],
    ]);
  });

  it('keeps every child of a disabled bundle off with bundle_inactive, whichever gate is closed', () => {
    writeMixed();
    const trusted = trustingAll(index([f.path('ws')]));
    const off = (key: string) => {
      const state = trusted(key);
      return state && { ...state, enabled: false };
    };
    for (const s of [withStore(() => undefined), withStore(off), withStore(trusted, { workspaceTrusted: false })]) {
      const b = byName(s, 'b');
      assert.equal(b.decision, 'disabled');
      assert.deepEqual(fates(s, b), [
        ['skill', 'b:ok', 'disabled', ['bundle_inactive']],
        ['mcp-server', 'b:srv', 'disabled', ['bundle_inactive']],
        ['component', 'b:commands', 'disabled', ['bundle_inactive']],
        ['component', 'b:lsp', 'display_only', ['component_inactive']],
      ]);
    }
  });

  it('gives each child of a child-bearing item its own record: system, scope, workspace, parent, id, no gate of its own', () => {
    writeMixed();
    const s = index([f.path('ws')]);
    const b = byName(s, 'b');
    const children = s.items.filter((i) => i.parent === b.id);
    assert.deepEqual(
      children.map((i) => i.id.slice(b.id.length)),
      ['#skill/ok', '#mcp/srv', '#component/commands', '#component/lsp'],
    );
    for (const c of children)
      assert.deepEqual(
        [c.system, c.scope, c.workspace, c.parent, c.shadowedBy, c.trust, c.enabled, c.compatibility, c.path],
        ['codewhale', 'workspace', f.path('ws'), b.id, null, null, null, null, c.location.file],
      );
    assert.deepEqual(byName(s, 'b:ok').detail, { description: 'fine' });
  });

  it('shadows a workspace bundle by a same-named user bundle: the loser and all its children are off, the winner registers', () => {
    writeMixed();
    writeMixed('home/plugins/b');
    const first = withStore(() => undefined, { home: true });
    const s = withStore(trustingAll(first), { home: true });
    const user = s.items.find((i) => i.name === 'b' && i.scope === 'user') as Item;
    const loser = s.items.find((i) => i.name === 'b' && i.scope === 'workspace') as Item;
    assert.deepEqual(
      [loser.decision, loser.reasons, loser.shadowedBy, loser.trust, loser.enabled],
      ['shadowed', ['name_conflict'], user.id, 'trusted', true],
    );
    assert.deepEqual(fates(s, loser), [
      ['skill', 'b:ok', 'disabled', ['bundle_inactive']],
      ['mcp-server', 'b:srv', 'disabled', ['bundle_inactive']],
      ['component', 'b:commands', 'disabled', ['bundle_inactive']],
      ['component', 'b:lsp', 'display_only', ['component_inactive']],
    ]);
    assert.deepEqual(fates(s, user), [
      ['skill', 'b:ok', 'registered', ['component_active']],
      ['mcp-server', 'b:srv', 'registered', ['component_active']],
      ['component', 'b:commands', 'registered', ['component_active']],
      ['component', 'b:lsp', 'display_only', ['component_inactive']],
    ]);
  });

  it("names the winner in the conflict warning, at the loser's `name`, even when the winner is not the first item", () => {
    writeMixed();
    f.write('home/plugins/a/plugin.toml', head('a'));
    f.write('home/plugins/b/plugin.toml', `\n\n${head()}`);
    const s = withStore(() => undefined, { home: true });
    const winner = s.items.find((i) => i.name === 'b' && i.scope === 'user') as Item;
    const loser = s.items.find((i) => i.name === 'b' && i.scope === 'workspace') as Item;
    const conflicts = s.diagnostics.filter((d) => d.code === 'codewhale.name-conflict');
    assert.equal(conflicts.length, 1);
    const d = conflicts[0];
    assert.deepEqual(
      [d?.message, d?.file, d?.range, d?.itemId, d?.severity],
      [
        `Plugin \`b\` at ${f.path(dir)} is shadowed by the higher-precedence bundle with the same name`,
        f.path(`${dir}/plugin.toml`),
        loser.location.range,
        loser.id,
        'warning',
      ],
    );
    assert.equal(loser.location.range.start.line, lineOf(MIXED, 'name ='));
    assert.deepEqual(
      d?.related?.map((r) => [r.file, r.range.start.line]),
      [[f.path('home/plugins/b/plugin.toml'), winner.location.range.start.line]],
    );
    assert.equal(winner.location.range.start.line, 2 + lineOf(head(), 'name ='));
    assert.match(d?.related?.[0]?.message ?? '', /^The user bundle `b` in .*home\/plugins\/b wins/);
  });

  it('rejects a bundle with an invalid server: that server is component_invalid, every other child is off with the bundle', () => {
    writeMixed(dir, `${MIXED}[mcp_servers.bad]\ncommand = "node"\nconnect_timeout = 0\n`);
    const s = withStore(trustingAll(index([f.path('ws')])));
    const b = byName(s, 'b');
    assert.deepEqual([b.decision, b.reasons], ['rejected', ['manifest_invalid']]);
    // The error is in the manifest: it rejects the server it names, never the skill (another file).
    assert.deepEqual(fates(s, b), [
      ['skill', 'b:ok', 'disabled', ['bundle_inactive']],
      ['mcp-server', 'b:bad', 'rejected', ['component_invalid']],
      ['mcp-server', 'b:srv', 'disabled', ['bundle_inactive']],
      ['component', 'b:commands', 'disabled', ['bundle_inactive']],
      ['component', 'b:lsp', 'display_only', ['component_inactive']],
    ]);
  });

  it('rejects a bundle whose content walk fails (a link in it): its inactive kind stays display only and still says why', () => {
    writeMixed();
    fs.symlinkSync('../c', f.path(`${dir}/l/link`));
    const s = index([f.path('ws')]);
    const b = byName(s, 'b');
    assert.deepEqual([b.decision, b.reasons], ['rejected', ['manifest_invalid', 'not_reviewed', 'not_enabled']]);
    assert.deepEqual(
      fates(s, b).filter(([kind]) => kind === 'component'),
      [
        ['component', 'b:commands', 'disabled', ['bundle_inactive']],
        ['component', 'b:lsp', 'display_only', ['component_inactive']],
      ],
    );
    // The walk's error rejects the bundle; the component is shown for what the manifest declares,
    // so the warning that says why it never activates is there too, on its file, as under any other invalid manifest.
    assert.deepEqual(
      s.diagnostics.map((d) => [d.code, d.severity, d.file, d.itemId]),
      [
        ['codewhale.content.symlink', 'error', f.path(`${dir}/l/link`), b.id],
        ['codewhale.component-inactive', 'warning', byName(s, 'b:lsp').path, b.id],
      ],
    );
  });

  it('rejects a server only for an error in its own file: a skill error naming a same-named server leaves it alone', () => {
    writeMixed(dir, `${head()}[skills]\npath = "skills"\n[mcp_servers.dup]\ncommand = "node"\n`);
    f.write(`${dir}/skills/x/SKILL.md`, '---\nname: dup\n---\nbody\n');
    f.write(`${dir}/skills/y/SKILL.md`, '---\nname: dup\n---\nbody\n');
    const s = index([f.path('ws')]);
    const b = byName(s, 'b');
    const error = s.diagnostics.find((d) => d.code === 'codewhale.skill.duplicate-name');
    assert.deepEqual([error?.severity, error?.file], ['error', f.path(`${dir}/skills/y/SKILL.md`)]);
    assert.match(error?.message ?? '', /`dup`/);
    assert.deepEqual(
      fates(s, b).filter(([kind]) => kind === 'mcp-server'),
      [['mcp-server', 'b:dup', 'disabled', ['bundle_inactive']]],
    );
    // Only the skill whose file holds the error is rejected; the valid one is off with its bundle.
    assert.deepEqual(
      s.items.filter((i) => i.kind === 'skill').map((i) => [i.location.file, i.decision, i.reasons]),
      [
        [f.path(`${dir}/skills/x/SKILL.md`), 'disabled', ['bundle_inactive']],
        [f.path(`${dir}/skills/y/SKILL.md`), 'rejected', ['skill_invalid']],
        [f.path(`${dir}/skills/ok/SKILL.md`), 'disabled', ['bundle_inactive']],
      ],
    );
  });

  it('keeps a skill with only a warning (a renamed name) as its bundle, and the bundle off with staged_skill_invalid', () => {
    writeMixed();
    f.write(`${dir}/skills/w/SKILL.md`, '---\nname: Not_Safe\n---\nbody\n');
    const s = withStore(trustingAll(index([f.path('ws')])));
    const b = byName(s, 'b');
    const warning = s.diagnostics.find((d) => d.code === 'codewhale.skill-invalid');
    assert.deepEqual([warning?.severity, warning?.file], ['warning', f.path(`${dir}/skills/w/SKILL.md`)]);
    assert.deepEqual(
      [b.decision, b.reasons, b.trust, b.enabled],
      ['disabled', ['staged_skill_invalid'], 'trusted', true],
    );
    assert.deepEqual(
      s.items.filter((i) => i.kind === 'skill').map((i) => [i.qualifiedName, i.decision, i.reasons]),
      [
        ['b:not-safe', 'disabled', ['bundle_inactive']],
        ['b:ok', 'disabled', ['bundle_inactive']],
      ],
    );
  });

  it('shows a bundle of only inactive kinds for display only, its components inactive, whatever its trust', () => {
    f.write(`${dir}/plugin.toml`, `${head()}[lsp]\npath = "l"\n`);
    f.mkdir(`${dir}/l`);
    const s = withStore(trustingAll(index([f.path('ws')])));
    const b = byName(s, 'b');
    assert.deepEqual(
      [b.decision, b.reasons, b.trust, b.enabled],
      ['display_only', ['unsupported_components'], 'trusted', true],
    );
    assert.deepEqual(fates(s, b), [['component', 'b:lsp', 'display_only', ['component_inactive']]]);
  });

  it('lists no component for skills, and none for filesystem roots or lifecycle mutation a bundle does not declare', () => {
    writeMixed(
      dir,
      `${head()}[skills]\npath = "skills"\n[capabilities]\nfilesystem_roots = []\nlifecycle_mutation = false\n`,
    );
    const s = index([f.path('ws')]);
    assert.deepEqual(fates(s, byName(s, 'b')), [['skill', 'b:ok', 'disabled', ['bundle_inactive']]]);
  });

  it('anchors each server at its table and each component at its key; filesystem roots and lifecycle mutation at the name', () => {
    const manifest = `${head()}[commands]\npath = "c"\n[mcp_servers.srv]\ncommand = "node"\n[capabilities]\nfilesystem_roots = ["/data"]\nlifecycle_mutation = true\n`;
    writeMixed(dir, manifest);
    const s = index([f.path('ws')]);
    const b = byName(s, 'b');
    const manifestFile = f.path(`${dir}/plugin.toml`);
    const at = (name: string) => {
      const i = byName(s, name);
      return [i.location.file, i.path, i.location.range.start.line];
    };
    assert.deepEqual(at('b'), [manifestFile, f.path(dir), lineOf(manifest, 'name =')]);
    assert.deepEqual(at('b:commands'), [manifestFile, manifestFile, lineOf(manifest, '[commands]')]);
    assert.deepEqual(at('b:srv'), [manifestFile, manifestFile, lineOf(manifest, '[mcp_servers.srv]')]);
    assert.deepEqual(byName(s, 'b:filesystem-roots').location, b.location);
    assert.deepEqual(byName(s, 'b:lifecycle-mutation').location, b.location);
    assert.notDeepEqual(b.location.range, FILE_START);
  });

  it('anchors a server of a plugin.json bundle in mcp.json, and rejects it for an error there', () => {
    const json = 'ws/.codewhale/plugins/j';
    f.write(`${json}/plugin.json`, JSON.stringify({ $schema: 'https://x.example/s.json', name: 'j' }));
    f.write(
      `${json}/mcp.json`,
      JSON.stringify(
        { mcpServers: { ok: { command: 'node' }, bad: { command: 'node', args: ['/etc/passwd'] } } },
        null,
        2,
      ),
    );
    const s = index([f.path('ws')]);
    assert.deepEqual(
      s.diagnostics.map((d) => [d.severity, d.file, d.message]),
      [['error', f.path(`${json}/mcp.json`), 'MCP server `bad` argument #1 must not use an absolute path']],
    );
    const ok = byName(s, 'j:ok');
    assert.equal(ok.location.file, f.path(`${json}/mcp.json`));
    assert.deepEqual([ok.decision, ok.reasons], ['disabled', ['bundle_inactive']]);
    assert.deepEqual([byName(s, 'j:bad').decision, byName(s, 'j:bad').reasons], ['rejected', ['component_invalid']]);
  });

  it('rejects the server whose declaration holds an error that names no server (a command, a URL, a tool filter)', () => {
    const manifest =
      `${head()}[mcp_servers.a]\ncommand = "node"\n[mcp_servers.bad]\ncommand = "../../outside.sh"\n` +
      `[mcp_servers.srv]\ncommand = "node"\n[mcp_servers.tools]\ncommand = "node"\nenabled_tools = ["srv", "SRV"]\n` +
      `[mcp_servers.web]\nurl = "https://exa mple.com"\n[mcp_servers.z]\ncommand = "node"\n`;
    f.write(`${dir}/plugin.toml`, manifest);
    const s = index([f.path('ws')]);
    assert.deepEqual(
      s.diagnostics.map((d) => [d.code, d.range.start.line]),
      [
        ['codewhale.mcp.url-invalid', lineOf(manifest, 'exa mple')],
        ['codewhale.mcp.command', lineOf(manifest, 'outside.sh')],
        ['codewhale.mcp.tool-filter', lineOf(manifest, 'enabled_tools')],
      ],
    );
    // None of the three messages names its server; the duplicate tool names another server's name.
    assert.deepEqual(
      s.diagnostics.map((d) => /server `/.test(d.message)),
      [false, false, false],
    );
    const b = byName(s, 'b');
    assert.deepEqual(
      fates(s, b).map(([, name, decision]) => [name, decision]),
      [
        ['b:a', 'disabled'],
        ['b:bad', 'rejected'],
        ['b:srv', 'disabled'],
        ['b:tools', 'rejected'],
        ['b:web', 'rejected'],
        ['b:z', 'disabled'],
      ],
    );
    assert.deepEqual(byName(s, 'b:bad').reasons, ['component_invalid']);
  });

  it('rejects no server for an error of another rule below the servers, nor for one before the first server', () => {
    const manifest =
      `schema_version = 1\n[plugin]\nname = "b"\nversion = "x"\n[mcp_servers.srv]\ncommand = "node"\n` +
      `[capabilities]\nnetwork_hosts = ["bad host"]\n`;
    f.write(`${dir}/plugin.toml`, manifest);
    const s = index([f.path('ws')]);
    assert.deepEqual(
      s.diagnostics.map((d) => [d.severity, d.code.startsWith('codewhale.mcp.')]),
      [
        ['error', false],
        ['error', false],
      ],
    );
    assert.deepEqual(fates(s, byName(s, 'b')), [['mcp-server', 'b:srv', 'disabled', ['bundle_inactive']]]);
  });

  it('rejects a server for an error at its own key (an invalid server name), not the one before it', () => {
    f.write(
      `${dir}/plugin.toml`,
      `${head()}[mcp_servers.ok]\ncommand = "node"\n[mcp_servers."bad name"]\ncommand = "node"\n[mcp_servers.zz]\ncommand = "node"\n`,
    );
    const s = index([f.path('ws')]);
    const d = s.diagnostics.map((x) => [x.message, x.range]);
    assert.deepEqual(d, [['MCP server name `bad name` is invalid', byName(s, 'b:bad name').location.range]]);
    assert.deepEqual(
      fates(s, byName(s, 'b')).map(([, name, decision]) => [name, decision]),
      [
        ['b:bad name', 'rejected'],
        ['b:ok', 'disabled'],
        ['b:zz', 'disabled'],
      ],
    );
  });

  it('places an error on a later line after a server key whatever its column', () => {
    const manifest = `${head()}[mcp_servers.tools]\ncommand = "node"\nenabled_tools = [\n"x",\n"X",\n]\n`;
    f.write(`${dir}/plugin.toml`, manifest);
    const s = index([f.path('ws')]);
    assert.deepEqual(
      s.diagnostics.map((x) => [x.code, x.range.start]),
      [['codewhale.mcp.tool-filter', { line: lineOf(manifest, '"X"'), character: 0 }]],
    );
    assert.deepEqual(byName(s, 'b:tools').location.range.start, { line: lineOf(manifest, 'tools]'), character: 1 });
    assert.deepEqual(byName(s, 'b:tools').reasons, ['component_invalid']);
  });

  it('tells servers declared on one line apart by column', () => {
    const json = 'ws/.codewhale/plugins/j';
    f.write(`${json}/plugin.json`, JSON.stringify({ $schema: 'https://x.example/s.json', name: 'j' }));
    f.write(
      `${json}/mcp.json`,
      JSON.stringify({
        mcpServers: { a: { command: 'node' }, bad: { command: '../../x.sh' }, z: { command: 'node' } },
      }),
    );
    const s = index([f.path('ws')]);
    assert.deepEqual(
      s.diagnostics.map((x) => [x.code, x.range.start.line]),
      [['codewhale.mcp.command', 0]],
    );
    assert.deepEqual(
      s.items.filter((i) => i.kind === 'mcp-server').map((i) => [i.name, i.decision]),
      [
        ['a', 'disabled'],
        ['bad', 'rejected'],
        ['z', 'disabled'],
      ],
    );
  });

  it('rejects a server only for an error in its own file, and never for a warning, whatever their words name', () => {
    const servers = `[mcp_servers.srv]\ncommand = "node"\n`;
    f.write(`${dir}/plugin.toml`, `${head()}${servers}`);
    // A link inside the bundle: an error in another file, whose message reads like it names the server.
    f.symlink('plugin.toml', `${dir}/server \`srv\``);
    const broken = index([f.path('ws')]);
    assert.deepEqual(
      broken.diagnostics.map((d) => [d.severity, d.message]),
      [['error', 'component trees may not contain symbolic link server `srv`']],
    );
    assert.deepEqual(byName(broken, 'b:srv').reasons, ['bundle_inactive']);
    // A shadowed bundle in a directory named like that: the conflict warning quotes the directory.
    const shadowed = 'ws/.codewhale/plugins/server `srv`';
    f.write(`${shadowed}/plugin.toml`, `${head('s')}${servers}`);
    f.write('home/plugins/s/plugin.toml', head('s'));
    const s = index([f.path('ws')], { codewhaleHome: f.path('home') });
    const conflict = s.diagnostics.find((d) => d.code === 'codewhale.name-conflict');
    assert.match(conflict?.message ?? '', /server `srv` is shadowed/);
    assert.deepEqual(byName(s, 's:srv').reasons, ['bundle_inactive']);
  });

  it('rejects a server named by an error even when it is not the nearest declaration', () => {
    const manifest =
      `${head()}[mcp_servers.early]\ncommand = "node"\n[mcp_servers.late]\ncommand = "node"\n` +
      `[mcp_servers.early.env]\nX = "literal"\n`;
    f.write(`${dir}/plugin.toml`, manifest);
    const s = index([f.path('ws')]);
    assert.deepEqual(
      s.diagnostics.map((d) => d.message),
      ['MCP server `early` environment values must be exact `${SOURCE_ENV}` references'],
    );
    assert.deepEqual(
      fates(s, byName(s, 'b')).map(([, name, decision]) => [name, decision]),
      [
        ['b:early', 'rejected'],
        ['b:late', 'disabled'],
      ],
    );
  });

  it('encodes a control byte of a shared skill id path as two hex digits', () => {
    f.write(`${dir}/plugin.toml`, `${head()}[skills]\npath = "skills"\n`);
    f.write(`${dir}/skills/a\tb/SKILL.md`, '---\nname: same\n---\nbody\n');
    f.write(`${dir}/skills/c/SKILL.md`, '---\nname: same\n---\nbody\n');
    const s = index([f.path('ws')]);
    const b = byName(s, 'b');
    assert.deepEqual(
      s.items.filter((i) => i.kind === 'skill').map((i) => i.id.slice(b.id.length)),
      ['#skill/same@skills/a%09b/SKILL.md', '#skill/same@skills/c/SKILL.md'],
    );
  });

  it('records the review token, and for a bundle that did not load empty activation lists and no children', () => {
    writeMixed();
    const good = byName(index([f.path('ws')]), 'b');
    assert.equal(good.reviewToken, `${good.contentHash}.${good.capabilityHash}`);
    assert.match(good.reviewToken ?? '', /^[0-9a-f]{64}\.[0-9a-f]{64}$/);
    f.write(`${dir}/plugin.toml`, '{ not toml');
    const s = index([f.path('ws')]);
    const bad = byName(s, 'b');
    assert.deepEqual(
      [bad.decision, bad.reviewToken, bad.detail.activation],
      [
        'rejected',
        null,
        { policy: 3, applicable: true, whenReasons: [], supportedComponents: [], inactiveComponents: [] },
      ],
    );
    assert.deepEqual(
      s.items.filter((i) => i.parent === bad.id),
      [],
    );
  });

  it('orders bundles by manifest name, not by directory, and a name before any longer name it begins', () => {
    f.write('ws/.codewhale/plugins/a/plugin.toml', head('z'));
    f.write('ws/.codewhale/plugins/b/plugin.toml', head('m-n'));
    f.write('ws/.codewhale/plugins/c/plugin.toml', head('m'));
    const s = index([f.path('ws')]);
    assert.deepEqual(
      s.items.map((i) => i.name),
      ['m', 'm-n', 'z'],
    );
  });

  it('keeps two workspace folders apart: the same name in each is shadowed in neither', () => {
    f.write('ws/.codewhale/plugins/x/plugin.toml', head('x'));
    f.write('other/.codewhale/plugins/x/plugin.toml', head('x'));
    const s = index([f.path('ws'), f.path('other')]);
    assert.deepEqual(
      s.items.map((i) => [i.workspace, i.decision, i.shadowedBy]),
      [
        [f.path('ws'), 'disabled', null],
        [f.path('other'), 'disabled', null],
      ],
    );
    assert.deepEqual(s.diagnostics, []);
  });

  it('keys and names a bundle reached through a linked workspace folder by its real directory, valid or not', () => {
    writeMixed();
    f.write('ws/.codewhale/plugins/broken/plugin.toml', '{ not toml');
    f.symlink(f.path('ws'), 'link');
    const s = index([f.path('link')]);
    const real = f.path(dir);
    const b = byName(s, 'b');
    assert.equal(b.path, f.path('link/.codewhale/plugins/b'));
    assert.equal(b.detail.bundleKey, bundleKey('codewhale', 'workspace', real, 'b'));
    assert.equal(b.id, codewhalePluginId('workspace', osBytes(real), 'b'));
    const broken = byName(s, 'broken');
    const realBroken = fs.realpathSync(f.path('link/.codewhale/plugins/broken'));
    assert.equal(broken.decision, 'rejected');
    assert.equal(broken.id, codewhalePluginId('workspace', osBytes(realBroken), 'broken'));
    assert.equal(broken.detail.bundleKey, bundleKey('codewhale', 'workspace', realBroken, 'broken'));
  });

  it('warns once for a root discovered twice (a workspace at the home), at the later manifest, naming the holder', () => {
    f.write('h/.codewhale/plugins/d/plugin.toml', head('d'));
    // The home through a link: the workspace's root is another spelling of the user's.
    f.symlink(f.path('h'), 'link');
    const s = index([f.path('link')], { codewhaleHome: f.path('h/.codewhale'), host: LINUX_HOST });
    const holder = byName(s, 'd');
    assert.equal(holder.scope, 'user');
    const dups = s.diagnostics.filter((d) => d.code === 'codewhale.duplicate-root');
    assert.deepEqual(
      dups.map((d) => [d.message, d.file, d.range, d.itemId, d.severity]),
      [
        [
          `Ignoring duplicate plugin discovery at ${f.path('link/.codewhale/plugins/d')}`,
          f.path('link/.codewhale/plugins/d/plugin.toml'),
          FILE_START,
          holder.id,
          'warning',
        ],
      ],
    );
  });
});
