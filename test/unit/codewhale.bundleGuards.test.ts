import { strict as assert } from 'node:assert';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import type { CodewhaleBundle } from '../../src/core/systems/codewhale/codewhaleBundle';
import type { ManifestLabel } from '../../src/core/systems/codewhale/manifest';
import type { HostFacts } from '../../src/core/host';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/**
 * Loading one Codewhale bundle, the rules the scenario tests pass through without
 * stating (codewhale.md §2.5, §4.9, §5.1-§5.3): which SKILL.md claims a directory, the
 * dot-directory and size rules at their edges, names that normalise to something else,
 * the skills' order, where the editor opens each part, and what a refused bundle keeps.
 */
describe('Codewhale bundle loading: skill claims, names, anchors and refused bundles', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const TOML = 'schema_version = 1\n[plugin]\nname = "b"\nversion = "1.0.0"\n';
  const load = (label: ManifestLabel = 'plugin.toml', host: HostFacts = LINUX_HOST): CodewhaleBundle =>
    loadCodewhaleBundle(f.path('plugins/b'), label, {
      scope: 'workspace',
      canonicalDiscoveryRoot: f.path('plugins'),
      host,
    });
  const withSkills = () => f.write('plugins/b/plugin.toml', `${TOML}[skills]\npath = "skills"\n`);
  const skill = (rel: string, name: string, extra = '') =>
    f.write(`plugins/b/skills/${rel}`, `---\nname: ${name}\n${extra}---\nbody\n`);

  describe('candidates and claims (§5.1)', () => {
    it('lets a SKILL.md claim its directory before a deeper one that sorts first by path', () => {
      withSkills();
      skill('a/SKILL.md', 'outer');
      skill('a/A/SKILL.md', 'inner');
      assert.deepEqual(
        load().skills.map((s) => [s.name, s.rel]),
        [['outer', 'skills/a/SKILL.md']],
      );
    });
    it('claims only its own directory: siblings below a directory without SKILL.md are both skills', () => {
      withSkills();
      skill('a/b/SKILL.md', 'one');
      skill('a/c/SKILL.md', 'two');
      assert.deepEqual(
        load().skills.map((s) => s.rel),
        ['skills/a/b/SKILL.md', 'skills/a/c/SKILL.md'],
      );
    });
    it('takes no SKILL.md from outside the declared skills root', () => {
      withSkills();
      f.write('plugins/b/other/x/SKILL.md', '---\nname: stray\n---\nbody\n');
      skill('ok/SKILL.md', 'ok');
      assert.deepEqual(
        load().skills.map((s) => s.name),
        ['ok'],
      );
    });
    it('skips a SKILL.md below a dot directory at any depth', () => {
      withSkills();
      skill('a/.hidden/SKILL.md', 'deep');
      skill('.hidden/a/SKILL.md', 'top');
      skill('ok/SKILL.md', 'ok');
      assert.deepEqual(
        load().skills.map((s) => s.name),
        ['ok'],
      );
    });
    it('reads a SKILL.md of exactly one megabyte', () => {
      withSkills();
      const head = '---\nname: big\n---\n';
      f.write('plugins/b/skills/big/SKILL.md', head + 'x'.repeat(1048576 - head.length));
      const b = load();
      assert.deepEqual([b.valid, b.skills.map((s) => s.name), b.diagnostics], [true, ['big'], []]);
    });
  });

  describe('names and order (§5.2, §5.3)', () => {
    it('warns about a safe-looking name that normalises to another one, and uses the normalised name', () => {
      withSkills();
      skill('a/SKILL.md', 'abc-');
      skill('b/SKILL.md', 'x--y');
      const b = load();
      assert.deepEqual(
        b.diagnostics.map((d) => [d.code, d.message]),
        [
          [
            'codewhale.skill-invalid',
            'Skill name `abc-` in skills/a/SKILL.md is not a safe command name; using `abc` instead.',
          ],
          [
            'codewhale.skill-invalid',
            'Skill name `x--y` in skills/b/SKILL.md is not a safe command name; using `x-y` instead.',
          ],
        ],
      );
      assert.deepEqual(
        b.skills.map((s) => s.name),
        ['abc', 'x-y'],
      );
    });
    it('points the name warning at the name line, whatever its indentation and case', () => {
      withSkills();
      f.write('plugins/b/skills/a/SKILL.md', '---\ndescription: d\n  Name: Foo Bar\n---\nbody\n');
      const d = load().diagnostics[0];
      assert.deepEqual([d?.code, d?.range.start.line], ['codewhale.skill-invalid', 2]);
    });
    it('orders the skills by name, not by path', () => {
      withSkills();
      skill('a/SKILL.md', 'zeta');
      skill('b/SKILL.md', 'alpha');
      assert.deepEqual(
        load().skills.map((s) => [s.name, s.rel]),
        [
          ['alpha', 'skills/b/SKILL.md'],
          ['zeta', 'skills/a/SKILL.md'],
        ],
      );
    });
  });

  describe('[when] (§4.9)', () => {
    it('applies with only an os list, whatever binaries the host lacks', () => {
      f.write('plugins/b/plugin.toml', `${TOML}[when]\nos = ["linux"]\n`);
      const host: HostFacts = { os: 'linux', hasBinary: () => false };
      assert.deepEqual(load('plugin.toml', host).when, { applicable: true, reasons: [] });
    });
  });

  describe('where the editor opens each part', () => {
    it('anchors an MCP server at its table and a component at its key', () => {
      f.mkdir('plugins/b/c');
      f.write(
        'plugins/b/plugin.toml',
        `${TOML}[commands]\npath = "c"\n[mcp_servers.srv]\nurl = "https://example.invalid/"\n`,
      );
      const b = load();
      assert.deepEqual(b.anchors['component:commands'], {
        file: f.path('plugins/b/plugin.toml'),
        range: { start: { line: 4, character: 1 }, end: { line: 4, character: 9 } },
      });
      assert.equal(b.anchors['mcp:srv']?.file, f.path('plugins/b/plugin.toml'));
      assert.equal(b.anchors['mcp:srv']?.range.start.line, 6);
    });
    it('points the filesystem-roots part of the inactive warning at the filesystem_roots key', () => {
      f.write('plugins/b/plugin.toml', `${TOML}[capabilities]\nfilesystem_roots = ["/data", "/more"]\n`);
      const d = load().diagnostics[0];
      assert.deepEqual(
        [d?.code, d?.range],
        ['codewhale.component-inactive', { start: { line: 5, character: 0 }, end: { line: 5, character: 16 } }],
      );
    });
  });

  describe('what a refused bundle keeps', () => {
    it('keeps the manifest to watch, and counts as applicable, when the manifest cannot be read', () => {
      f.write('plugins/real.toml', TOML);
      f.symlink('../real.toml', 'plugins/b/plugin.toml');
      const b = load();
      assert.deepEqual(
        [b.valid, b.bundleFiles, b.when, b.name],
        [false, [f.path('plugins/b/plugin.toml')], { applicable: true, reasons: [] }, 'b'],
      );
    });
    it('watches plugin.json and mcp.json of a plugin.json that does not parse', () => {
      f.write('plugins/b/plugin.json', '{');
      const b = load('plugin.json');
      assert.deepEqual(
        [b.valid, b.bundleFiles],
        [false, [f.path('plugins/b/plugin.json'), f.path('plugins/b/mcp.json')]],
      );
    });
  });
});
