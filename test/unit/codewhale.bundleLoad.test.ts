import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import { resolveManifest } from '../../src/core/systems/codewhale/bundleManifest';
import type { CodewhaleBundle } from '../../src/core/systems/codewhale/codewhaleBundle';
import { faultedBundle, runBundleJob } from '../../src/core/systems/codewhale/bundleJob';
import type { ManifestLabel } from '../../src/core/systems/codewhale/manifest';
import { readPluginJson } from '../../src/core/systems/codewhale/formats/pluginJson';
import { Findings } from '../../src/core/diagnostics/findings';
import { currentHost, type HostFacts } from '../../src/core/host';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/**
 * Loading one bundle (codewhale.md §2.4, §2.5, §4.1, §4.8, §4.9, §5): each refusal of the
 * manifest file and root, each content-walk failure, each skill rule, `[when]` and the
 * inactive-component warning, asserted by code, message and `valid`.
 */
describe('Codewhale bundle loading (codewhale.md §2.5, §4.1, §5)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const TOML = 'schema_version = 1\n[plugin]\nname = "b"\nversion = "1.0.0"\n';
  const load = (
    label: ManifestLabel = 'plugin.toml',
    host: HostFacts = LINUX_HOST,
    dir = 'plugins/b',
  ): CodewhaleBundle =>
    loadCodewhaleBundle(f.path(dir), label, { scope: 'workspace', canonicalDiscoveryRoot: f.path('plugins'), host });
  const found = (b: CodewhaleBundle) => b.diagnostics.map((d) => [d.code, d.severity, d.message]);
  const withSkills = (extra = '') => f.write('plugins/b/plugin.toml', `${TOML}[skills]\npath = "skills"\n${extra}`);

  describe('which manifest (§2.4)', () => {
    it('takes plugin.json, then kimi.plugin.json, then plugin.toml, then .claude-plugin/plugin.json; only files count', () => {
      f.mkdir('d');
      assert.equal(resolveManifest(f.path('d')), undefined);
      f.write('d/.claude-plugin/plugin.json', '{}');
      assert.equal(resolveManifest(f.path('d')), '.claude-plugin/plugin.json');
      f.write('d/plugin.toml', '');
      assert.equal(resolveManifest(f.path('d')), 'plugin.toml');
      f.write('d/kimi.plugin.json', '{}');
      assert.equal(resolveManifest(f.path('d')), 'kimi.plugin.json');
      f.mkdir('d/plugin.json');
      assert.equal(resolveManifest(f.path('d')), 'kimi.plugin.json', 'a directory named plugin.json is no manifest');
      fs.rmdirSync(f.path('d/plugin.json'));
      f.write('d/plugin.json', '{}');
      assert.equal(resolveManifest(f.path('d')), 'plugin.json');
    });
  });

  describe('the manifest file and the root (§4.1, §2.5 step 2)', () => {
    it('loads a valid bundle: valid, hashed, with its id, token, files and anchors', () => {
      f.write('plugins/b/plugin.toml', TOML);
      const b = load();
      assert.deepEqual(found(b), []);
      assert.equal(b.valid, true);
      assert.equal(b.name, 'b');
      assert.equal(b.version, '1.0.0');
      assert.equal(b.canonicalRoot, f.path('plugins/b'));
      assert.match(b.contentHash ?? '', /^[0-9a-f]{64}$/);
      assert.equal(b.reviewToken, `${b.contentHash}.${b.capabilityHash}`);
      assert.match(b.pluginId ?? '', /^workspace\/[0-9a-f]{12}\/b$/);
      assert.deepEqual(
        b.files.map((x) => x.path),
        ['plugin.toml'],
      );
      assert.deepEqual(b.bundleFiles, [f.path('plugins/b/plugin.toml')]);
      assert.deepEqual(Object.keys(b.anchors), ['name']);
      assert.deepEqual(b.when, { applicable: true, reasons: [] });
    });

    it('watches mcp.json beside a plugin.json', () => {
      f.write('plugins/b/plugin.json', JSON.stringify({ $schema: 's', name: 'b', version: '1.0.0' }));
      const b = load('plugin.json');
      assert.equal(b.valid, true, JSON.stringify(found(b)));
      assert.deepEqual(b.bundleFiles, [f.path('plugins/b/plugin.json'), f.path('plugins/b/mcp.json')]);
    });

    it('refuses a linked manifest, a manifest over 1048576 bytes and one that is not UTF-8', () => {
      f.write('elsewhere.toml', TOML);
      f.symlink(f.path('elsewhere.toml'), 'plugins/b/plugin.toml');
      const linked = load();
      assert.equal(linked.valid, false);
      assert.deepEqual(found(linked), [
        ['codewhale.manifest.file', 'error', 'plugin.toml must be a regular file, not a symbolic link'],
      ]);
      assert.equal(linked.name, 'b', 'named by its directory');
      fs.rmSync(f.path('plugins/b/plugin.toml'));
      f.write('plugins/b/plugin.toml', `${TOML}#${'x'.repeat(1048576 - TOML.length - 1)}`);
      assert.equal(load().valid, true, 'exactly 1048576 bytes is within the limit');
      f.write('plugins/b/plugin.toml', `${TOML}#${'x'.repeat(1048576 - TOML.length)}`);
      assert.deepEqual(found(load()), [
        ['codewhale.manifest.file', 'error', 'plugin.toml exceeds the 1048576-byte review limit'],
      ]);
      f.write('plugins/b/plugin.toml', Buffer.from([0x5b, 0xff, 0x5d]));
      assert.deepEqual(found(load()), [['codewhale.manifest.file', 'error', 'plugin.toml must be valid UTF-8']]);
    });

    it('refuses a Claude bundle whose .claude-plugin is a link', () => {
      f.write('real/plugin.json', '{"name": "b"}');
      f.symlink(f.path('real'), 'plugins/b/.claude-plugin');
      const b = load('.claude-plugin/plugin.json');
      assert.deepEqual(found(b), [
        ['codewhale.manifest.file', 'error', '.claude-plugin/plugin.json must be a regular file, not a symbolic link'],
      ]);
    });

    it('refuses a bundle directory reached through a link as a root that is no directory', () => {
      f.write('real/plugin.toml', TOML);
      f.symlink(f.path('real'), 'plugins/b');
      const b = load();
      assert.equal(b.valid, false);
      assert.deepEqual(found(b), [
        ['codewhale.manifest.root', 'error', 'plugin root must be a directory, not a symbolic link'],
      ]);
    });

    it('refuses a bundle whose canonical root is not a child of its discovery root', () => {
      f.write('other/b/plugin.toml', TOML);
      const b = load('plugin.toml', LINUX_HOST, 'other/b');
      assert.equal(b.valid, false);
      assert.deepEqual(found(b), [
        [
          'codewhale.manifest.root',
          'error',
          `plugin bundle resolved outside its Codewhale-owned discovery root: ${f.path('other/b')}`,
        ],
      ]);
    });

    it('checks the root after the manifest validated (§2.5 steps 1, 2): an invalid manifest outside is refused for its manifest alone', () => {
      f.write('other/b/plugin.toml', 'schema_version = 1\n[plugin]\nname = "B"\nversion = "1.0.0"\n');
      const invalid = load('plugin.toml', LINUX_HOST, 'other/b');
      assert.equal(invalid.valid, false);
      // Codewhale's load fails at step 1 and never reaches step 2: the refusal names the manifest's error.
      assert.deepEqual(found(invalid), [
        [
          'codewhale.manifest.name',
          'error',
          'plugin name `B` must be 1-64 lowercase ASCII letters, digits, or internal hyphens',
        ],
      ]);
      // So does a content walk that stops (§4.8 step 2 is within step 1's validation).
      f.write('other/b/plugin.toml', TOML);
      f.write('target', 'x');
      const link = f.symlink(f.path('target'), 'other/b/link');
      assert.deepEqual(
        load('plugin.toml', LINUX_HOST, 'other/b').diagnostics.map((d) => [d.code, d.file]),
        [['codewhale.content.symlink', link]],
      );
    });

    it('keeps what the manifest declares and its name anchor when validation fails after parsing', () => {
      f.write('plugins/b/plugin.toml', 'schema_version = 1\n[plugin]\nname = "b"\nversion = "latest"\n');
      const b = load();
      assert.equal(b.valid, false);
      assert.equal(b.name, 'b');
      assert.ok(b.capabilities);
      assert.deepEqual(b.anchors.name?.range.start, { line: 2, character: 7 });
      const unparsed = (() => {
        f.write('plugins/b/plugin.toml', '[plugin\n');
        return load();
      })();
      assert.equal(unparsed.capabilities, undefined);
      assert.deepEqual(unparsed.anchors, {});
    });
  });

  describe('the content walk (§4.8 step 2)', () => {
    it('refuses a symbolic link inside the bundle, at that link', () => {
      f.write('plugins/b/plugin.toml', TOML);
      f.write('target', 'x');
      const link = f.symlink(f.path('target'), 'plugins/b/link');
      const b = load();
      assert.equal(b.valid, false);
      assert.deepEqual(
        b.diagnostics.map((d) => [d.code, d.file]),
        [['codewhale.content.symlink', link]],
      );
      assert.ok(b.pluginId && b.inventory && b.compatibility, 'what is known stays known');
    });

    it('refuses a FIFO inside the bundle', function () {
      f.write('plugins/b/plugin.toml', TOML);
      try {
        execFileSync('mkfifo', [f.path('plugins/b/pipe')]);
      } catch {
        this.skip();
      }
      assert.deepEqual(
        load().diagnostics.map((d) => d.code),
        ['codewhale.content.special-file'],
      );
    });

    it('refuses more than 4096 files', () => {
      f.write('plugins/b/plugin.toml', TOML);
      for (let i = 0; i < 4096; i++) f.write(`plugins/b/f/${i}`, '');
      const b = load();
      assert.deepEqual(found(b), [
        [
          'codewhale.content.limit',
          'error',
          'plugin bundle content exceeds the plugin review limit (4096 files / 67108864 bytes)',
        ],
      ]);
      assert.equal(b.diagnostics[0]?.file, f.path('plugins/b/plugin.toml'));
    });
  });

  describe('skills (§5)', () => {
    it('finds SKILL.md one to nine directories deep, not in the root itself nor under a dot directory', () => {
      withSkills();
      const deep = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`).join('/');
      f.write('plugins/b/skills/SKILL.md', '---\nname: at-root\n---\n');
      f.write(`plugins/b/skills/${deep(9)}/SKILL.md`, '---\nname: nine\n---\n');
      f.write(`plugins/b/skills/x${deep(10)}/SKILL.md`, '---\nname: ten\n---\n');
      f.write('plugins/b/skills/.hidden/SKILL.md', '---\nname: hidden\n---\n');
      f.write('plugins/b/skills/one/.dot/SKILL.md', '---\nname: dot\n---\n');
      f.write('plugins/b/skills/one/SKILL.md', '---\nname: one\n---\n');
      f.write('plugins/b/skills/one/nested/SKILL.md', '---\nname: nested\n---\n');
      f.write('plugins/b/skills/two/readme.md', '# not a skill');
      const b = load();
      assert.deepEqual(found(b), []);
      assert.deepEqual(
        b.skills.map((s) => [s.name, s.rel]),
        [
          ['nine', `skills/${deep(9)}/SKILL.md`],
          ['one', 'skills/one/SKILL.md'],
        ],
      );
      assert.equal(b.skills[1]?.file, f.path('plugins/b/skills/one/SKILL.md'));
    });

    it('lets the shallower SKILL.md claim its directory first, and a broken one claim it too', () => {
      withSkills();
      f.write('plugins/b/skills/a/b/SKILL.md', '---\nname: deeper\n---\n');
      f.write('plugins/b/skills/a/SKILL.md', 'no name here');
      f.write('plugins/b/skills/ab/SKILL.md', '---\nname: sibling\n---\n');
      const b = load();
      assert.deepEqual(
        b.skills.map((s) => s.name),
        ['sibling'],
      );
      assert.deepEqual(found(b), [
        [
          'codewhale.skill-invalid',
          'warning',
          'no frontmatter and no `# Heading` found to use as skill name (skills/a/SKILL.md)',
        ],
      ]);
      assert.equal(b.valid, true, 'a skill warning does not invalidate the bundle');
    });

    it('lets a directory named SKILL.md claim its directory with a read warning, as upstream does', () => {
      // Upstream reads `<dir>/SKILL.md` as a string: a directory there fails to read, still
      // exists, so `<dir>` is claimed (nothing below it is a skill) with a warning.
      withSkills();
      f.write('plugins/b/skills/a/SKILL.md/keep', 'x');
      f.write('plugins/b/skills/a/b/SKILL.md', '---\nname: under-dir\n---\n');
      f.write('plugins/b/skills/c/SKILL.md', '---\nname: c\n---\n');
      const b = load();
      assert.deepEqual(
        b.skills.map((s) => s.name),
        ['c'],
      );
      assert.deepEqual(found(b), [
        ['codewhale.skill-invalid', 'warning', 'Failed to read skills/a/SKILL.md: Is a directory (os error 21)'],
      ]);
      assert.equal(b.valid, true);
    });
    it('hides a directory as upstream does: a UTF-8 name starting with `.`, not `.` then bytes that are not UTF-8', () => {
      // Upstream skips `name.to_str()` starting with `.`; a name that is not UTF-8 has no str, so
      // its skill loads, and Skillgate may not drop it from what the review shows.
      withSkills();
      f.write('plugins/b/skills/.hidden/SKILL.md', '---\nname: hidden\n---\n');
      const raw = Buffer.concat([Buffer.from(`${f.path('plugins/b/skills')}/`), Buffer.from([0x2e, 0xff])]);
      fs.mkdirSync(raw);
      fs.writeFileSync(Buffer.concat([raw, Buffer.from('/SKILL.md')]), '---\nname: dotbyte\n---\n');
      assert.deepEqual(
        load().skills.map((s) => s.name),
        ['dotbyte'],
      );
    });
    it('reads a skills root declared twice (`skills`, `./skills`) twice: each skill is a fatal duplicate (§4.5, §5.1, §5.3)', () => {
      f.write('plugins/b/plugin.toml', `${TOML}[skills]\npaths = ["skills", "./skills"]\n`);
      f.write('plugins/b/skills/one/SKILL.md', '---\nname: one\n---\n');
      const b = load();
      assert.deepEqual(found(b), [
        ['codewhale.skill.duplicate-name', 'error', 'plugin `b` declares duplicate skill name `one`'],
      ]);
      assert.equal(b.valid, false);
    });

    it('reads the bundle root as a skills root (`.`)', () => {
      f.write('plugins/b/plugin.toml', `${TOML}[skills]\npath = "."\n`);
      f.write('plugins/b/one/SKILL.md', '---\nname: one\n---\n');
      assert.deepEqual(
        load().skills.map((s) => s.rel),
        ['one/SKILL.md'],
      );
    });

    it('fails the bundle on a SKILL.md over one megabyte or not UTF-8', () => {
      withSkills();
      f.write('plugins/b/skills/big/SKILL.md', `---\nname: big\n---\n${'x'.repeat(1048576)}`);
      f.write('plugins/b/skills/bytes/SKILL.md', Buffer.from([0x2d, 0xff]));
      f.write('plugins/b/skills/ok/SKILL.md', `---\nname: ok\n---\n${'x'.repeat(1048576 - 19)}`);
      const b = load();
      assert.equal(b.valid, false);
      assert.deepEqual(
        b.diagnostics.map((d) => [d.code, d.message, d.file]),
        [
          [
            'codewhale.skill.fatal',
            'plugin Skill exceeds the one-megabyte parse limit',
            f.path('plugins/b/skills/big/SKILL.md'),
          ],
          ['codewhale.skill.fatal', 'plugin Skill must be valid UTF-8', f.path('plugins/b/skills/bytes/SKILL.md')],
        ],
      );
      assert.deepEqual(
        b.skills.map((s) => s.name),
        ['ok'],
      );
    });

    it('fails the bundle on a SKILL.md whose block scalar upstream panics on (a byte cut inside U+3000)', () => {
      withSkills();
      f.write('plugins/b/skills/cut/SKILL.md', '---\nname: cut\ndescription: |\n a\n\u3000b\n---\nbody\n');
      f.write('plugins/b/skills/ok/SKILL.md', '---\nname: ok\n---\nbody\n');
      const b = load();
      assert.equal(b.valid, false);
      assert.deepEqual(
        found(b).map(([code, severity]) => [code, severity]),
        [['codewhale.skill.fatal', 'error']],
      );
      assert.deepEqual(
        b.skills.map((s) => s.name),
        ['ok'],
      );
    });

    it('warns about an unsafe name at its line and uses the normalized one; refuses two skills of one name', () => {
      withSkills();
      f.write('plugins/b/skills/a/SKILL.md', '---\ndescription: d\nName: My Skill\n---\nbody\n');
      f.write('plugins/b/skills/b/SKILL.md', '---\nname: my-skill\n---\n');
      const b = load();
      assert.deepEqual(found(b), [
        [
          'codewhale.skill-invalid',
          'warning',
          'Skill name `My Skill` in skills/a/SKILL.md is not a safe command name; using `my-skill` instead.',
        ],
        ['codewhale.skill.duplicate-name', 'error', 'plugin `b` declares duplicate skill name `my-skill`'],
      ]);
      assert.equal(b.diagnostics[0]?.range.start.line, 2);
      assert.equal(b.diagnostics[1]?.file, f.path('plugins/b/skills/b/SKILL.md'));
      assert.equal(b.valid, false);
    });

    it('places the unsafe-name warning at the key the parser read: `\\uFEFFname:` is another key (Rust trim, §5.2)', () => {
      withSkills();
      f.write('plugins/b/skills/a/SKILL.md', '---\n\uFEFFname: other\nname: My Skill\n---\nbody\n');
      const b = load();
      assert.equal(b.skills[0]?.name, 'my-skill');
      assert.equal(b.diagnostics[0]?.code, 'codewhale.skill-invalid');
      assert.equal(b.diagnostics[0]?.range.start.line, 2);
    });

    it('keeps a skill description, not its body', () => {
      withSkills();
      f.write('plugins/b/skills/a/SKILL.md', `---\nname: a\ndescription: what it does\n---\n${'y'.repeat(2500)}\n`);
      const [s] = load().skills;
      assert.equal(s?.description, 'what it does');
      assert.deepEqual(Object.keys(s ?? {}).sort(), ['description', 'file', 'name', 'rel']);
    });
  });

  describe('[when] (§4.9)', () => {
    const host = (os: string, binaries: string[] = []): HostFacts =>
      ({ os, hasBinary: (b) => binaries.includes(b) }) as HostFacts;
    it('applies on a listed OS in any ASCII case, with every binary present', () => {
      f.write('plugins/b/plugin.toml', `${TOML}[when]\nos = ["MacOS", "Linux"]\nbinaries = ["git", "node"]\n`);
      assert.deepEqual(load('plugin.toml', host('linux', ['git', 'node'])).when, { applicable: true, reasons: [] });
    });
    it('gives each reason it does not apply', () => {
      f.write('plugins/b/plugin.toml', `${TOML}[when]\nos = ["macos", "windows"]\nbinaries = ["git", "node"]\n`);
      const b = load('plugin.toml', host('linux', ['node']));
      assert.equal(b.valid, true, 'applicability does not invalidate');
      assert.deepEqual(b.when, {
        applicable: false,
        reasons: ['this host is linux; the bundle applies to macos, windows', 'binary `git` is not on PATH'],
      });
    });
    it('never applies with os = []', () => {
      f.write('plugins/b/plugin.toml', `${TOML}[when]\nos = []\n`);
      assert.deepEqual(load().when, { applicable: false, reasons: ['os = [] never applies'] });
    });
    it('looks in the working directory for an empty PATH entry, as Rust splits PATH (codewhale.md §4.9)', () => {
      // `split_paths` gives '' for an empty entry, and `Path::new("").join(name)` is the relative `name`.
      f.write('plugins/b/plugin.toml', `${TOML}[when]\nbinaries = ["here-tool"]\n`);
      f.write('cwd/here-tool', '');
      const cwd = process.cwd();
      process.chdir(f.path('cwd'));
      try {
        for (const PATH of ['', `${f.mkdir('bin')}${path.delimiter}`])
          assert.equal(load('plugin.toml', currentHost({ PATH })).when.applicable, true, JSON.stringify(PATH));
      } finally {
        process.chdir(cwd);
      }
    });
    it('follows a binary that appears on or leaves PATH, as every discovery of the agent does', () => {
      // One host serves an editor session's every re-read (Refresh included): it may not keep an old answer.
      f.write('plugins/b/plugin.toml', `${TOML}[when]\nbinaries = ["late-tool"]\n`);
      const real = currentHost({ PATH: f.mkdir('bin') });
      assert.equal(load('plugin.toml', real).when.applicable, false);
      f.write('bin/late-tool', '');
      // Within one reading the answer stands (every bundle naming the tool asks PATH once).
      assert.equal(load('plugin.toml', real).when.applicable, false, 'the same reading');
      real.newReading?.();
      assert.equal(load('plugin.toml', real).when.applicable, true, 'installed since the last read');
      fs.rmSync(f.path('bin/late-tool'));
      real.newReading?.();
      assert.equal(load('plugin.toml', real).when.applicable, false, 'removed since the last read');
    });
  });

  describe('inactive components (§2.5 step 6)', () => {
    it('warns once, at the first inactive declaration, explaining each one', () => {
      f.mkdir('plugins/b/c');
      f.mkdir('plugins/b/l');
      f.mkdir('plugins/b/n');
      f.write(
        'plugins/b/plugin.toml',
        `${TOML}[commands]\npath = "c"\n[lsp]\npath = "l"\n[native]\npath = "n"\n[capabilities]\nfilesystem_roots = ["/data"]\nlifecycle_mutation = true\n`,
      );
      const b = load();
      assert.deepEqual(found(b), [
        [
          'codewhale.component-inactive',
          'warning',
          'compatibility partial; inactive components remain inventoried but are not activated: lsp, native, filesystem-roots, lifecycle-mutation',
        ],
      ]);
      const d = b.diagnostics[0];
      assert.deepEqual(d?.range.start, { line: 6, character: 1 }, 'at the [lsp] key');
      assert.deepEqual(
        d?.related?.map((r) => [r.message, r.range.start.line]),
        [
          [
            'Codewhale lists these language servers but never starts them under policy v3; remove the table if the bundle does not need them.',
            6,
          ],
          [
            'Codewhale lists this native extension but never loads it under policy v3; remove the table if the bundle does not need it.',
            8,
          ],
          [
            'Codewhale grants no extra filesystem roots under policy v3; remove filesystem_roots if the bundle does not need them.',
            11,
          ],
          [
            'Codewhale never lets a bundle change its own lifecycle under policy v3; remove lifecycle_mutation if the bundle does not need it.',
            0,
          ],
        ],
      );
      assert.equal(b.valid, true);
      assert.deepEqual(Object.keys(b.anchors).sort(), [
        'component:commands',
        'component:lsp',
        'component:native',
        'name',
      ]);
    });
  });

  describe('the fault boundary of one bundle job', () => {
    const job = () => ({
      dir: f.path('plugins/b'),
      scope: 'workspace' as const,
      canonicalDiscoveryRoot: f.path('plugins'),
    });
    it('gives null for a directory without a manifest, and the loaded bundle otherwise', () => {
      f.mkdir('plugins/b');
      assert.equal(runBundleJob(job(), LINUX_HOST), null);
      f.write('plugins/b/plugin.toml', TOML);
      assert.equal(runBundleJob(job(), LINUX_HOST)?.valid, true);
    });
    it('turns a load that throws into a rejected bundle with an internal error, never a thrown index', () => {
      f.write('plugins/b/plugin.toml', TOML);
      const b = runBundleJob(job(), LINUX_HOST, () => {
        throw new Error('boom');
      });
      assert.ok(b);
      assert.equal(b.valid, false);
      assert.equal(b.name, 'b');
      assert.equal(b.label, 'plugin.toml');
      assert.equal(b.manifestFile, f.path('plugins/b/plugin.toml'));
      assert.equal(b.canonicalRoot, f.path('plugins/b'));
      assert.deepEqual(b.bundleFiles, [f.path('plugins/b/plugin.toml')]);
      assert.deepEqual(
        b.diagnostics.map((d) => [d.code, d.severity, d.file]),
        [['skillgate.internal', 'error', f.path('plugins/b/plugin.toml')]],
      );
      assert.ok(b.diagnostics[0]?.message.includes('boom'));
      assert.deepEqual(b.when, { applicable: true, reasons: [] });
    });
    it('names the directory when no manifest was resolved', () => {
      const b = faultedBundle(job(), undefined, new Error('x'));
      assert.equal(b.manifestFile, undefined);
      assert.equal(b.diagnostics[0]?.file, f.path('plugins/b'));
      assert.deepEqual(b.bundleFiles, [f.path('plugins/b')]);
    });
  });

  describe('what the index keeps of a bundle (docs/memory.md)', () => {
    /** A plugin.json with keywords and two component kinds, and an mcp.json with one local server. */
    const writeDeclaring = () => {
      f.write(
        'plugins/b/plugin.json',
        JSON.stringify({
          $schema: 'https://agent-plugins.org/schemas/plugin.json',
          name: 'b',
          version: '1.0.0',
          keywords: ['x', 'y'],
          extensions: { 'net.codewhale': { skills: { path: 'skills' }, commands: { paths: ['c1', 'c2'] } } },
        }),
      );
      f.write(
        'plugins/b/mcp.json',
        JSON.stringify({
          mcpServers: { local: { command: 'node', args: ['a.js', '--w'], env: { API_KEY: '${K}' }, cwd: '.' } },
        }),
      );
    };

    it('keeps what the manifest declares as values, no place of it, and the paths of its files, as read', () => {
      writeDeclaring();
      f.write('plugins/b/skills/s/SKILL.md', '---\nname: s\ndescription: d\n---\nbody\n');
      f.mkdir('plugins/b/c1');
      f.mkdir('plugins/b/c2');
      const b = load('plugin.json');
      const manifest = f.path('plugins/b/plugin.json');
      const mcp = f.path('plugins/b/mcp.json');
      assert.deepEqual(found(b), []);
      assert.deepEqual({ ...b.capabilities?.components }, { skills: ['skills'], commands: ['c1', 'c2'] });
      assert.deepEqual(b.mcpServerIds, ['local']);
      const server = b.capabilities?.mcpServers?.local;
      assert.deepEqual(
        [server?.command, server?.args, server?.cwd, { ...server?.env }],
        ['node', ['a.js', '--w'], '.', { API_KEY: 'K' }],
      );
      // The places are the loader's (the test below): the bundle keeps none, nor a manifest.
      assert.ok(!('manifest' in b));
      assert.doesNotMatch(JSON.stringify(b), /"at":|"path":\[/);
      assert.deepEqual(
        b.skills.map((s) => s.file),
        [f.path('plugins/b/skills/s/SKILL.md')],
      );
      assert.deepEqual(b.bundleFiles, [manifest, mcp]);
      assert.equal(b.manifestFile, manifest);
      assert.deepEqual(b.directories, ['', 'c1', 'c2', 'skills', 'skills/s']);
      assert.deepEqual(
        b.files.map((x) => x.path),
        ['mcp.json', 'plugin.json', 'skills/s/SKILL.md'],
      );
    });

    it('reads every place in the manifest at its path, for the rules that report at one', () => {
      writeDeclaring();
      const manifest = f.path('plugins/b/plugin.json');
      const mcp = f.path('plugins/b/mcp.json');
      const findings = new Findings();
      const m = readPluginJson(manifest, fs.readFileSync(manifest, 'utf8'), f.path('plugins/b'), findings);
      assert.deepEqual(findings.diagnostics, []);
      assert.ok(m);
      assert.deepEqual(
        m.keywords.map((k) => [k.value, k.at]),
        [
          ['x', { file: manifest, path: ['keywords', 0] }],
          ['y', { file: manifest, path: ['keywords', 1] }],
        ],
      );
      assert.deepEqual(m.components.skills?.at, { file: manifest, path: ['extensions', 'net.codewhale', 'skills'] });
      assert.deepEqual(
        m.components.skills?.paths.map((p) => p.at.path),
        [['extensions', 'net.codewhale', 'skills', 'path']],
      );
      assert.deepEqual(
        m.components.commands?.paths.map((p) => p.at.path),
        [
          ['extensions', 'net.codewhale', 'commands', 'paths', 0],
          ['extensions', 'net.codewhale', 'commands', 'paths', 1],
        ],
      );
      const [server] = m.mcpServers;
      assert.deepEqual(server?.command?.at, { file: mcp, path: ['mcpServers', 'local', 'command'] });
      assert.deepEqual(
        server?.args.map((a) => a.at),
        [
          { file: mcp, path: ['mcpServers', 'local', 'args', 0] },
          { file: mcp, path: ['mcpServers', 'local', 'args', 1] },
        ],
      );
      assert.deepEqual(
        server?.env.map((e) => [e.name, e.at]),
        [['API_KEY', { file: mcp, path: ['mcpServers', 'local', 'env', 'API_KEY'] }]],
      );
    });
  });
});
