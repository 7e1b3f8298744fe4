import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { z } from 'zod';
import { POLICY_V3, POLICY_V5, policyDigest, policyMaterial } from '../../src/core/systems/codewhale/activationPolicy';
import { bundleRelative, resolveContainedPath } from '../../src/core/systems/codewhale/containedPath';
import type { BundleTree } from '../../src/core/systems/codewhale/bundleTree';
import { schemaProblems } from '../../src/core/systems/codewhale/formats/zodIssues';
import { MAX_DIAGNOSTICS_PER_FILE } from '../../src/core/diagnostics/fileCap';
import { semverError } from '../../src/core/systems/codewhale/semver';
import { normalizeDeclaredHost } from '../../src/core/systems/codewhale/networkHosts';
import { iconProblem, looksAbsolute } from '../../src/core/systems/codewhale/textRules';
import { Fixture, index } from './helpers/fixture';

/**
 * The shared rules under every Codewhale format, beyond codewhale.textRules.test.ts:
 * the activation-policy material (codewhale.md §7.4), SemVer's own error texts (§4.4
 * step 3), contained paths through the walked tree (§4.6), schema problems, hosts and icons.
 */
describe('Codewhale shared rules (codewhale.md §4.4, §4.6, §7.4)', () => {
  describe('activation policy material (§7.4)', () => {
    it('writes policy v3 exactly as the spec lists it, and hashes to the pinned digest', () => {
      assert.equal(
        policyMaterial(POLICY_V3).toString('utf8'),
        'codewhale-plugin-capabilities-v3\0policy-version\x003\0' +
          'supported\0skills\0supported\0mcp-stdio\0supported\0mcp-remote\0' +
          'supported\0commands\0supported\0agents\0supported\0hooks\0' +
          'inactive\0lsp\0inactive\0native\0inactive\0filesystem-roots\0inactive\0lifecycle-mutation\0',
      );
      assert.equal(policyDigest(POLICY_V3), '1d8de17f08b1ef6246454881bfc38b7cd2855d56c9c6e3fdb11c54e4f756df85');
    });
    it('hashes policy v5 to its pinned digest', () => {
      assert.equal(policyDigest(POLICY_V5), 'f0584fdb007b7987b0934517c8723b96190137771795ed33b38499b9353aa7cf');
    });
    it('puts every capability label in exactly one list', () => {
      for (const p of [POLICY_V3, POLICY_V5]) {
        const all = [...p.supported, ...p.inactive];
        assert.equal(new Set(all).size, all.length);
      }
    });
  });

  describe('SemVer error texts (the semver crate)', () => {
    const cases: [string, string][] = [
      ['', 'empty string, expected a semver version'],
      ['x', "unexpected character 'x' while parsing major version number"],
      ['1x', "unexpected character 'x' after major version number"],
      ['1.', 'unexpected end of input while parsing minor version number'],
      ['1.x', "unexpected character 'x' while parsing minor version number"],
      ['1.2x', "unexpected character 'x' after minor version number"],
      ['1.2.', 'unexpected end of input while parsing patch version number'],
      ['1.2.3x', "unexpected character 'x' after patch version number"],
      ['01.2.3', 'invalid leading zero in major version number'],
      ['1.02.3', 'invalid leading zero in minor version number'],
      ['1.2.03', 'invalid leading zero in patch version number'],
      ['18446744073709551616.0.0', 'value of major version number exceeds u64::MAX'],
      ['0.0.18446744073709551616', 'value of patch version number exceeds u64::MAX'],
      ['1.2.3-', 'empty identifier segment in pre-release identifier'],
      ['1.2.3-a.', 'empty identifier segment in pre-release identifier'],
      ['1.2.3-a..b', 'empty identifier segment in pre-release identifier'],
      ['1.2.3-.a', 'empty identifier segment in pre-release identifier'],
      ['1.2.3+', 'empty identifier segment in build metadata'],
      ['1.2.3+a..b', 'empty identifier segment in build metadata'],
      ['1.2.3-01', 'invalid leading zero in pre-release identifier'],
      ['1.2.3-a.01', 'invalid leading zero in pre-release identifier'],
      ['1.2.3-a b', "unexpected character ' ' after pre-release identifier"],
      ['1.2.3+b c', "unexpected character ' ' after build metadata"],
      ['1.2.3-a+b_c', "unexpected character '_' after build metadata"],
      ['1.2.3_', "unexpected character '_' after patch version number"],
      // A Grapheme_Extend character is escaped by the crate's `{:?}`, though it is printable.
      ['1.2\uff9e.3', "unexpected character '\\u{ff9e}' after minor version number"],
    ];
    for (const [input, message] of cases)
      it(`refuses ${JSON.stringify(input)}: ${message}`, () => assert.equal(semverError(input), message));

    for (const ok of [
      '0.0.0',
      '9.9.9',
      '10.20.30',
      '18446744073709551615.0.0',
      '1.2.3-0',
      '1.2.3-0a',
      '1.2.3-10',
      '1.2.3-a.20',
      '1.2.3-a.0.b',
      '1.2.3-x-y.1-2',
      '1.2.3+01',
      '1.2.3+build.007',
      '1.2.3-rc.1+build.5',
    ])
      it(`accepts ${ok}`, () => assert.equal(semverError(ok), undefined));

    it("quotes the unexpected character as Rust's {:?} of a char does", () => {
      const after = (ch: string) => semverError(`1.2.3${ch}`);
      assert.equal(after('\t'), "unexpected character '\\t' after patch version number");
      assert.equal(after('\0'), "unexpected character '\\0' after patch version number");
      assert.equal(after('\r'), "unexpected character '\\r' after patch version number");
      assert.equal(after('\n'), "unexpected character '\\n' after patch version number");
      assert.equal(after('\\'), "unexpected character '\\\\' after patch version number");
      assert.equal(after("'"), "unexpected character '\\'' after patch version number");
      assert.equal(after('"'), "unexpected character '\"' after patch version number");
      assert.equal(after('\u200b'), "unexpected character '\\u{200b}' after patch version number");
      assert.equal(after('\u00a0'), "unexpected character '\\u{a0}' after patch version number");
      assert.equal(after('\u0301'), "unexpected character '\\u{301}' after patch version number");
      assert.equal(after('é'), "unexpected character 'é' after patch version number");
      assert.equal(after('😀'), "unexpected character '😀' after patch version number");
      assert.equal(semverError('😀'), "unexpected character '😀' while parsing major version number");
    });
  });

  describe('contained paths through the walked tree (§4.6)', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());
    /** A tree that knows only these entries: the disk under `root` is never read for them. */
    const tree = (entries: Record<string, 'file' | 'directory'>): BundleTree & { beyondWalk: boolean } => ({
      typeOf: (rel) => entries[rel],
      read: () => undefined,
      beyondWalk: false,
      foundBeyondWalk() {
        this.beyondWalk = true;
      },
    });

    it('answers a path the walk saw without the disk, with `.` and empty components dropped', () => {
      const root = f.path('not-on-disk');
      const t = tree({ '': 'directory', skills: 'directory', 'skills/x.md': 'file' });
      assert.deepEqual(resolveContainedPath(root, './skills//x.md', 'skills', t), {
        ok: true,
        absolute: path.join(root, 'skills', 'x.md'),
        type: 'file',
      });
      assert.deepEqual(resolveContainedPath(root, '.', 'skills', t), { ok: true, absolute: root, type: 'directory' });
      assert.deepEqual(resolveContainedPath(root, 'skills/', 'skills', t), {
        ok: true,
        absolute: path.join(root, 'skills'),
        type: 'directory',
      });
    });

    it('asks the disk when the walk did not see the path, and applies the text and `..` rules first', () => {
      f.write('b/real.md', 'x');
      const t = tree({});
      assert.deepEqual(resolveContainedPath(f.path('b'), 'real.md', 'commands', t), {
        ok: true,
        absolute: f.path('b/real.md'),
        type: 'file',
      });
      // Found on the disk but not in the walk: not the content hash's, so not for the parse cache.
      assert.equal(t.beyondWalk, true);
      const other = tree({});
      const missing = resolveContainedPath(f.path('b'), 'gone/x.md', 'commands', other);
      assert.ok(
        !missing.ok && missing.message.startsWith('failed to inspect commands path gone: '),
        JSON.stringify(missing),
      );
      assert.equal(other.beyondWalk, false);
      const known = tree({ 'a/../b': 'file', '/abs': 'file' });
      assert.deepEqual(resolveContainedPath(f.path('b'), 'a/../b', 'agents', known), {
        ok: false,
        message: 'agents path escapes the plugin root: `a/../b`',
      });
      assert.deepEqual(resolveContainedPath(f.path('b'), '/abs', 'agents', known), {
        ok: false,
        message: 'agents path must be relative: `/abs`',
      });
    });

    it('walks empty and `.` components on disk too, and keeps a backslash as part of a name off Windows', () => {
      f.write('b/d/x.md', 'x');
      f.write('b/a\\b', 'x');
      assert.deepEqual(resolveContainedPath(f.path('b'), 'd//./x.md', 'hooks'), {
        ok: true,
        absolute: f.path('b/d/x.md'),
        type: 'file',
      });
      assert.deepEqual(resolveContainedPath(f.path('b'), 'a\\b', 'hooks'), {
        ok: true,
        absolute: f.path('b/a\\b'),
        type: 'file',
      });
    });

    it('refuses a file spelled as a directory (`x.md/`, `x.md/.`), as realpath of root.join(raw) does, tree or not', () => {
      // Upstream canonicalizes `root.join(raw)`, trailing separator and all: realpath then
      // wants a directory there and fails with ENOTDIR (Rust: `Not a directory (os error 20)`).
      f.write('b/d/x.md', 'x');
      const t = tree({ '': 'directory', d: 'directory', 'd/x.md': 'file' });
      for (const raw of ['d/x.md/', 'd/x.md/.', './d/x.md//', 'd/x.md/./']) {
        for (const walked of [undefined, t]) {
          const r = resolveContainedPath(f.path('b'), raw, 'MCP command', walked);
          assert.deepEqual(
            r,
            { ok: false, message: `MCP command path \`${raw}\` cannot be resolved: Not a directory (os error 20)` },
            `${raw} ${walked ? 'tree' : 'disk'}`,
          );
        }
      }
      // A directory so spelled is the directory, and the file spelled plainly is the file.
      assert.deepEqual(resolveContainedPath(f.path('b'), 'd/./', 'skills', t), {
        ok: true,
        absolute: f.path('b/d'),
        type: 'directory',
      });
      assert.deepEqual(resolveContainedPath(f.path('b'), './d/x.md', 'hooks'), {
        ok: true,
        absolute: f.path('b/d/x.md'),
        type: 'file',
      });
    });

    it('keeps the absolute path out of an io error whose path holds a line separator', () => {
      // Node's text ends in `, lstat '<absolute path>'`; U+2028 is no control character, so
      // validate_text lets it through, and `.` in a regular expression does not match it.
      f.mkdir('b');
      for (const raw of ['gone\u2028', 'gone\u2029/x', 'd\u2028/']) {
        const r = resolveContainedPath(f.path('b'), raw, 'skills');
        assert.deepEqual(
          r,
          {
            ok: false,
            message: `failed to inspect skills path ${raw.split('/')[0]}: No such file or directory (os error 2)`,
          },
          JSON.stringify(raw),
        );
      }
    });

    it('calls a FIFO neither file nor directory', function () {
      f.mkdir('b');
      try {
        execFileSync('mkfifo', [f.path('b/pipe')]);
      } catch {
        this.skip();
      }
      assert.deepEqual(resolveContainedPath(f.path('b'), 'pipe', 'native'), {
        ok: true,
        absolute: f.path('b/pipe'),
        type: 'other',
      });
    });

    it('refuses a path whose canonical form leaves a root given through a link', () => {
      f.write('real/x.md', 'x');
      f.symlink(f.path('real'), 'alias');
      assert.deepEqual(resolveContainedPath(f.path('alias'), 'x.md', 'skills'), {
        ok: false,
        message: 'skills path escapes the plugin root: `x.md`',
      });
    });

    it('shows the bundle root itself as `.`', () => {
      assert.equal(bundleRelative('/b', '/b'), '.');
      assert.equal(bundleRelative('/b', '/b/c/d'), 'c/d');
    });
  });

  describe('schema problems (never the offending value)', () => {
    const schema = z.strictObject({
      a: z.number().int().min(0),
      b: z.string(),
      c: z.array(z.string()),
      d: z.string().optional(),
    });
    const problems = (value: unknown) => {
      const r = schema.safeParse(value, { reportInput: true });
      assert.ok(!r.success);
      return schemaProblems(r.error);
    };

    it('names a missing field at its key, a wrong type at its path, other issues by their kind, unknown keys one by one', () => {
      assert.deepEqual(problems({ a: -1, c: ['s', 1], x: 'secret', y: 'secret' }), [
        { path: ['a'], key: false, detail: 'Too small at `a`' },
        { path: ['b'], key: true, detail: 'missing field `b`' },
        { path: ['c', 1], key: false, detail: 'expected string at `c.1`' },
        { path: ['x'], key: true, detail: 'unknown field `x`' },
        { path: ['y'], key: true, detail: 'unknown field `y`' },
      ]);
    });

    it('leaves out the place at the root', () => {
      assert.deepEqual(problems(5), [{ path: [], key: false, detail: 'expected object' }]);
      const r = z.string().min(2).safeParse('x');
      assert.ok(!r.success);
      assert.deepEqual(schemaProblems(r.error), [{ path: [], key: false, detail: 'Too small' }]);
    });

    it('reports every problem, unknown keys each; the per-file cap lists the first 100 and counts the rest', () => {
      const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
      const keys = problems({ a: 0, b: 's', c: [], ...many });
      assert.equal(keys.length, 150);
      assert.deepEqual(keys[149], { path: ['k149'], key: true, detail: 'unknown field `k149`' });
      const list = z.strictObject({ l: z.array(z.string()) });
      const r = list.safeParse({ l: Array.from({ length: 120 }, () => 1), x: 1 }, { reportInput: true });
      assert.ok(!r.success);
      assert.deepEqual(
        schemaProblems(r.error)
          .slice(119)
          .map((p) => p.detail),
        ['expected string at `l.119`', 'unknown field `x`'],
      );
    });

    it('counts every schema problem of a manifest past the cap: none is left out in silence', () => {
      const f = new Fixture();
      try {
        const text = JSON.stringify({ name: 'wide', version: '1.0.0', keywords: Array(20_000).fill(1) });
        const file = f.write('ws/.codewhale/plugins/wide/plugin.json', text);
        const own = index([f.path('ws')]).diagnostics.filter((d) => d.file === file);
        assert.equal(own.length, MAX_DIAGNOSTICS_PER_FILE + 1);
        assert.match(
          own.at(-1)?.message ?? '',
          /^19,901 more problems in this file not listed .*: failed to parse plugin\.json: expected string at `keywords\.99`$/,
        );
        // Another problem comes first: the 100th value is the first left out, and the count is at it.
        assert.equal(own.at(-1)?.range.start.character, text.indexOf('[') + 1 + 2 * 99);
      } finally {
        f.remove();
      }
    });
  });

  describe('hosts and icons', () => {
    it('refuses a declared host with a password and no user name', () => {
      assert.deepEqual(normalizeDeclaredHost(':p@x.example'), {
        ok: false,
        message: 'network host `:p@x.example` must contain only a normalized host name',
      });
    });

    it('counts an icon of 32768 bytes as within the size limit', () => {
      const prefix = 'data:image/png;base64,';
      const exact = `${prefix}${'A'.repeat(32768 - prefix.length)}`;
      assert.notEqual(iconProblem(exact), 'plugin icon exceeds 32 KiB');
      assert.equal(iconProblem(`${exact}A`), 'plugin icon exceeds 32 KiB');
    });

    it('takes standard base64 padding only in its two forms', () => {
      const prefix = 'data:image/png;base64,';
      assert.equal(iconProblem(`${prefix}AA==`), 'plugin icon has an invalid PNG header');
      assert.equal(iconProblem(`${prefix}AAA=`), 'plugin icon has an invalid PNG header');
      for (const bad of ['A==', 'A===', '!!==', 'AAAAA', 'AA=A'])
        assert.equal(iconProblem(`${prefix}${bad}`), 'plugin icon has invalid base64', bad);
    });

    it('calls a drive letter absolute only at the start', () => {
      assert.equal(looksAbsolute('xC:\\a'), false);
      assert.equal(looksAbsolute('a/C:/b'), false);
    });
  });
});
