import { strict as assert } from 'node:assert';
import {
  capabilityPairs,
  compatibilityOf,
  declaredCapabilities,
  inventoryOf,
  inventorySummary,
  type Inventory,
} from '../../src/core/systems/codewhale/inventory';
import { POLICY_V3, POLICY_V5 } from '../../src/core/systems/codewhale/activationPolicy';
import { located, type Manifest, type McpServerDecl } from '../../src/core/systems/codewhale/manifest';

/** Inventory, declared capabilities, compatibility and the capability-hash pairs (codewhale.md §6, §7.5). */
describe('Codewhale inventory and compatibility (codewhale.md §6, §7.5)', () => {
  const EMPTY: Inventory = {
    skills: 0,
    mcp_servers: 0,
    stdio_mcp_servers: 0,
    remote_mcp_servers: 0,
    commands: 0,
    agents: 0,
    hooks: 0,
    lsp: 0,
    native: 0,
    filesystem_roots: [],
    network_hosts: [],
    lifecycle_mutation: false,
  };
  const inv = (over: Partial<Inventory>): Inventory => ({ ...EMPTY, ...over });

  describe('inventoryOf', () => {
    const F = '/b/plugin.toml';
    const paths = (n: number) => ({
      at: { file: F, path: [] },
      paths: Array.from({ length: n }, (_, i) => located(`p${i}`, F, [i])),
    });
    const srv = (id: string, fields: Partial<McpServerDecl>): McpServerDecl => ({
      id,
      at: { file: F, path: [] },
      args: [],
      env: [],
      timeouts: [],
      enabled: true,
      disabled: false,
      enabledTools: [],
      disabledTools: [],
      headers: [],
      envHeaders: [],
      ...fields,
    });
    it('counts declared paths (not skills found), servers by kind, and keeps roots, hosts and lifecycle', () => {
      const m: Manifest = {
        label: 'plugin.toml',
        file: F,
        schemaVersion: located(1, F, []),
        nameRule: 'toml',
        name: located('p', F, []),
        version: located('1.0.0', F, []),
        keywords: [],
        components: {
          skills: paths(1),
          commands: paths(2),
          agents: paths(3),
          hooks: paths(4),
          lsp: paths(5),
          native: paths(6),
        },
        mcpServers: [
          srv('a', { command: located('x', F, []) }),
          srv('b', { url: located('https://x/', F, []) }),
          srv('c', { url: located('https://y/', F, []) }),
          srv('d', { command: located('x', F, []), url: located('https://z/', F, []) }),
          srv('e', {}),
        ],
        filesystemRoots: [located('/r', F, [])],
        networkHosts: [],
        networkHostsDerived: false,
        lifecycleMutation: true,
      };
      assert.deepEqual(inventoryOf(m, ['h.example']), {
        skills: 1,
        mcp_servers: 5,
        stdio_mcp_servers: 1,
        remote_mcp_servers: 2,
        commands: 2,
        agents: 3,
        hooks: 4,
        lsp: 5,
        native: 6,
        filesystem_roots: ['/r'],
        network_hosts: ['h.example'],
        lifecycle_mutation: true,
      });
      const stdioOnly = inventoryOf({ ...m, mcpServers: [srv('a', { command: located('x', F, []) })] }, []);
      assert.deepEqual([stdioOnly.stdio_mcp_servers, stdioOnly.remote_mcp_servers], [1, 0]);
      const remoteOnly = inventoryOf({ ...m, mcpServers: [srv('b', { url: located('https://x/', F, []) })] }, []);
      assert.deepEqual([remoteOnly.stdio_mcp_servers, remoteOnly.remote_mcp_servers], [0, 1]);
      assert.deepEqual(
        inventoryOf({ ...m, components: {}, mcpServers: [], filesystemRoots: [], lifecycleMutation: false }, []),
        EMPTY,
      );
    });
  });

  describe('declared capabilities and compatibility', () => {
    it('declares each capability only when present, in policy order; network hosts are never a capability', () => {
      assert.deepEqual(declaredCapabilities(inv({ network_hosts: ['h'] })), []);
      assert.deepEqual(
        declaredCapabilities(
          inv({
            skills: 1,
            stdio_mcp_servers: 1,
            remote_mcp_servers: 1,
            commands: 1,
            agents: 1,
            hooks: 1,
            lsp: 1,
            native: 1,
            filesystem_roots: ['/'],
            lifecycle_mutation: true,
          }),
        ),
        [
          'skills',
          'mcp-stdio',
          'mcp-remote',
          'commands',
          'agents',
          'hooks',
          'lsp',
          'native',
          'filesystem-roots',
          'lifecycle-mutation',
        ],
      );
      for (const [field, label] of [
        ['skills', 'skills'],
        ['stdio_mcp_servers', 'mcp-stdio'],
        ['remote_mcp_servers', 'mcp-remote'],
        ['commands', 'commands'],
        ['agents', 'agents'],
        ['hooks', 'hooks'],
        ['lsp', 'lsp'],
        ['native', 'native'],
      ] as const)
        assert.deepEqual(declaredCapabilities(inv({ [field]: 1 })), [label], field);
      assert.deepEqual(declaredCapabilities(inv({ mcp_servers: 3 })), [], 'the total alone declares nothing');
    });

    it('is full with nothing declared or only supported kinds, collapsing both MCP kinds to one `mcp` label', () => {
      assert.deepEqual(compatibilityOf(EMPTY, POLICY_V3), {
        compatibility: 'full',
        supportedLabels: [],
        unsupportedLabels: [],
      });
      assert.deepEqual(
        compatibilityOf(inv({ skills: 1, stdio_mcp_servers: 1, remote_mcp_servers: 1, hooks: 2 }), POLICY_V3),
        {
          compatibility: 'full',
          supportedLabels: ['skills', 'mcp', 'hooks'],
          unsupportedLabels: [],
        },
      );
      assert.deepEqual(compatibilityOf(inv({ remote_mcp_servers: 1 }), POLICY_V3).supportedLabels, ['mcp']);
    });

    it('is partial with supported and unsupported kinds, and unsupported with only unsupported ones', () => {
      assert.deepEqual(compatibilityOf(inv({ commands: 1, lsp: 1, lifecycle_mutation: true }), POLICY_V3), {
        compatibility: 'partial',
        supportedLabels: ['commands'],
        unsupportedLabels: ['lsp', 'lifecycle-mutation'],
      });
      assert.deepEqual(compatibilityOf(inv({ native: 1, filesystem_roots: ['/x'] }), POLICY_V3), {
        compatibility: 'unsupported',
        supportedLabels: [],
        unsupportedLabels: ['native', 'filesystem-roots'],
      });
      assert.equal(compatibilityOf(inv({ skills: 1 }), { ...POLICY_V5, supported: [] }).compatibility, 'unsupported');
    });
  });

  describe('capability pairs (§7.5)', () => {
    it('has all 12 keys in byte order, even when empty', () => {
      assert.deepEqual(
        [...capabilityPairs(EMPTY)],
        [
          ['agents', '0'],
          ['commands', '0'],
          ['filesystem', ''],
          ['hooks', '0'],
          ['lifecycle', 'false'],
          ['lsp', '0'],
          ['mcp', '0'],
          ['mcp-remote', '0'],
          ['mcp-stdio', '0'],
          ['native', '0'],
          ['network', ''],
          ['skills', '0'],
        ],
      );
    });
    it('writes each count to its own key; roots byte-sorted and deduplicated as written, hosts lowercased too', () => {
      const pairs = capabilityPairs({
        skills: 1,
        mcp_servers: 2,
        stdio_mcp_servers: 3,
        remote_mcp_servers: 4,
        commands: 5,
        agents: 6,
        hooks: 7,
        lsp: 8,
        native: 9,
        filesystem_roots: ['/b', '/B', '/a', '/b', '/é', '/z'],
        network_hosts: ['B.example', 'a.example', 'b.example'],
        lifecycle_mutation: true,
      });
      assert.deepEqual(Object.fromEntries(pairs), {
        agents: '6',
        commands: '5',
        filesystem: '/B\n/a\n/b\n/z\n/é',
        hooks: '7',
        lifecycle: 'true',
        lsp: '8',
        mcp: '2',
        'mcp-remote': '4',
        'mcp-stdio': '3',
        native: '9',
        network: 'a.example\nb.example',
        skills: '1',
      });
    });
  });

  it('summarizes the counts in upstream form', () => {
    assert.equal(
      inventorySummary(
        inv({
          skills: 1,
          mcp_servers: 5,
          stdio_mcp_servers: 2,
          remote_mcp_servers: 3,
          commands: 4,
          agents: 6,
          hooks: 7,
          lsp: 8,
          native: 9,
        }),
      ),
      'skills=1 mcp=5 (stdio=2 remote=3) commands=4 agents=6 hooks=7 lsp=8 native=9',
    );
  });
});
