import { strict as assert } from 'node:assert';
import { Fixture, index, byName, writeD, LINUX_HOST } from './helpers/fixture';
import { FILE_START } from '../../src/core/model';

/**
 * The items of a Codewhale bundle and the fate of each (codewhale.md §2.6, §5.3, §6;
 * decisions.md): the bundle's record and what it declares, each child's decision from
 * its own errors or its bundle's, and the words of a name conflict.
 */
describe('Codewhale items: the bundle record, each child fate and the shadowing warning', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const TOML = 'schema_version = 1\n[plugin]\nname = "b"\nversion = "1.2.3"\ndescription = "does b"\n';
  const dir = 'ws/.codewhale/plugins/b';
  const fate = (name: string) => {
    const i = byName(index([f.path('ws')]), name);
    return [i.decision, i.reasons];
  };

  it('records what a bundle of only a language server declares: version, description, manifest, files, activation, identity', () => {
    const manifest = `${TOML}[lsp_servers]\npath = "l"\n`;
    f.write(`${dir}/plugin.toml`, manifest);
    f.write(`${dir}/l/x.json`, '{}');
    const b = byName(index([f.path('ws')]), 'b');
    const d = b.detail;
    assert.deepEqual(
      [d.description, d.version, d.manifest, b.compatibility, b.trust, b.enabled, b.parent, b.shadowedBy],
      ['does b', '1.2.3', 'plugin.toml', 'unsupported', 'not-reviewed', false, null, null],
    );
    assert.deepEqual(
      d.files?.map((x) => [x.path, x.size, x.executable]),
      [
        ['l/x.json', 2, false],
        ['plugin.toml', Buffer.byteLength(manifest), false],
      ],
    );
    assert.match(d.files?.[0]?.sha256 ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(d.activation, {
      policy: 3,
      applicable: true,
      whenReasons: [],
      supportedComponents: [],
      inactiveComponents: ['lsp'],
    });
    assert.deepEqual(d.agentIdentity, { pluginId: b.id, canonicalRoot: f.path(dir) });
    assert.deepEqual(
      [b.kind, b.system, b.path, b.location.file],
      ['plugin', 'codewhale', f.path(dir), f.path(`${dir}/plugin.toml`)],
    );
    assert.equal(d.inventory?.summary !== undefined, true);
  });

  it('shows an inactive component for display only, and a supported one as its bundle', () => {
    f.write(`${dir}/plugin.toml`, `${TOML}[commands]\npath = "c"\n[lsp_servers]\npath = "l"\n`);
    f.mkdir(`${dir}/c`);
    f.mkdir(`${dir}/l`);
    const s = index([f.path('ws')]);
    const lsp = byName(s, 'b:lsp');
    const commands = byName(s, 'b:commands');
    assert.deepEqual(
      [lsp.kind, lsp.decision, lsp.reasons, lsp.parent, lsp.id],
      ['component', 'display_only', ['component_inactive'], byName(s, 'b').id, `${byName(s, 'b').id}#component/lsp`],
    );
    assert.deepEqual([commands.decision, commands.reasons], ['disabled', ['bundle_inactive']]);
    assert.deepEqual(
      [commands.trust, commands.enabled, commands.contentHash, commands.reviewToken, commands.shadowedBy],
      [null, null, null, null, null],
    );
  });

  it('lists filesystem roots and lifecycle mutation as components of their own', () => {
    f.write(`${dir}/plugin.toml`, `${TOML}[capabilities]\nfilesystem_roots = ["/data"]\nlifecycle_mutation = true\n`);
    const s = index([f.path('ws')]);
    assert.deepEqual(
      s.items.filter((i) => i.kind === 'component').map((i) => [i.name, i.qualifiedName, i.decision]),
      [
        ['filesystem-roots', 'b:filesystem-roots', 'display_only'],
        ['lifecycle-mutation', 'b:lifecycle-mutation', 'display_only'],
      ],
    );
  });

  it('rejects the later of two same-named skills, keeping the first as its bundle, each with its own id', () => {
    f.write(`${dir}/plugin.toml`, `${TOML}[skills]\npath = "skills"\n`);
    f.write(`${dir}/skills/a/SKILL.md`, '---\nname: same\n---\nbody\n');
    f.write(`${dir}/skills/b/SKILL.md`, '---\nname: same\n---\nbody\n');
    const s = index([f.path('ws')]);
    const bundle = byName(s, 'b');
    assert.deepEqual(
      [bundle.decision, bundle.reasons],
      ['rejected', ['manifest_invalid', 'not_reviewed', 'not_enabled']],
    );
    assert.deepEqual(
      s.items
        .filter((i) => i.kind === 'skill')
        .map((i) => [i.id.slice(bundle.id.length), i.qualifiedName, i.decision, i.reasons, i.detail.description]),
      [
        ['#skill/same@skills/a/SKILL.md', 'b:same', 'disabled', ['bundle_inactive'], ''],
        ['#skill/same@skills/b/SKILL.md', 'b:same', 'rejected', ['skill_invalid'], ''],
      ],
    );
  });

  it('percent-encodes the bytes of a shared skill id path outside [A-Za-z0-9._~/-]', () => {
    f.write(`${dir}/plugin.toml`, `${TOML}[skills]\npath = "skills"\n`);
    f.write(`${dir}/skills/a b/SKILL.md`, '---\nname: same\n---\nbody\n');
    f.write(`${dir}/skills/é/SKILL.md`, '---\nname: same\n---\nbody\n');
    const s = index([f.path('ws')]);
    const bundle = byName(s, 'b');
    assert.deepEqual(
      s.items.filter((i) => i.kind === 'skill').map((i) => i.id.slice(bundle.id.length)),
      ['#skill/same@skills/a%20b/SKILL.md', '#skill/same@skills/%C3%A9/SKILL.md'],
    );
  });

  it('rejects only the MCP server an error names; the others share their bundle fate', () => {
    f.write(
      `${dir}/plugin.toml`,
      `${TOML}[mcp_servers.bad]\ncommand = "node"\nconnect_timeout = 0\n[mcp_servers.good]\ncommand = "node"\n`,
    );
    assert.deepEqual(fate('b:bad'), ['rejected', ['component_invalid']]);
    assert.deepEqual(fate('b:good'), ['disabled', ['bundle_inactive']]);
    const s = index([f.path('ws')]);
    const good = byName(s, 'b:good');
    assert.deepEqual(
      [good.kind, good.id, good.location.file],
      ['mcp-server', `${byName(s, 'b').id}#mcp/good`, f.path(`${dir}/plugin.toml`)],
    );
  });

  it('places a bundle whose manifest cannot be read at the manifest start', () => {
    f.write('real.toml', TOML);
    f.symlink('../../../../real.toml', `${dir}/plugin.toml`);
    const b = byName(index([f.path('ws')]), 'b');
    assert.deepEqual(
      [b.decision, b.location, b.compatibility, b.contentHash, b.detail.manifest, b.detail.files],
      ['rejected', { file: f.path(`${dir}/plugin.toml`), range: FILE_START }, null, null, 'plugin.toml', []],
    );
  });

  it('explains a name conflict: the user bundle wins, where it lives, and how to load both', () => {
    writeD(f);
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    const s = index([f.path('ws')], { codewhaleHome: f.path('home'), host: LINUX_HOST });
    const user = s.items.find((i) => i.name === 'demo' && i.scope === 'user');
    const d = s.diagnostics.find((x) => x.code === 'codewhale.name-conflict');
    assert.equal(
      d?.related?.[0]?.message,
      `The user bundle \`demo\` in ${user?.path} wins: Codewhale loads it instead of this one. Rename this bundle to load both.`,
    );
    assert.deepEqual(d?.related?.[0]?.range, user?.location.range);
    assert.equal(d?.severity, 'warning');
  });
});
