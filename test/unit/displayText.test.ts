import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { displayText, hasUnsafeForDisplay } from '../../src/core/text/displayText';
import { jsonText } from '../../src/core/report/jsonText';
import { artifactUri } from '../../src/core/report/artifactUri';
import { escapeMarkdown } from '../../src/extension/text/markdownEscape';
import { notificationText, quickPickText, safeUi } from '../../src/extension/text/uiText';
import {
  itemDescription,
  itemLabel,
  itemPick,
  itemTooltipMarkdown,
  reviewPanelTitle,
} from '../../src/extension/tree/itemText';
import { trustFlow } from '../../src/extension/flows/trustFlow';
import type { LifecyclePort, UiPort } from '../../src/extension/flows/ports';
import type { Item } from '../../src/core/model';
import { HOSTILE, assertDisplaySafe } from './helpers/displaySafe';
import { itemOf } from './helpers/item';

describe('displayText: what Skillgate shows never acts (issue 10)', () => {
  it("shows a control, a bidi and a lone surrogate character in codewhale.md §9's `\\u{hex}` form, as Codewhale prints them", () => {
    // Rust's char::escape_unicode: lowercase hex, no leading zeros.
    const shown = displayText('a\x1bb\u202ec\udcffd\0e\u{e0041}');
    assert.equal(shown, 'a\\u{1b}b\\u{202e}c\\u{dcff}d\\u{0}e\\u{e0041}');
    assert.equal(displayText(shown), shown);
    assert.equal(displayText(shown, 'multi-line'), shown);
  });

  it('marks every C0 and C1 control character as \\u{hex}', () => {
    for (let cp = 0; cp <= 0x9f; cp++) {
      if (cp >= 0x20 && cp < 0x7f) continue;
      assert.equal(displayText(`a${String.fromCharCode(cp)}b`), `a\\u{${cp.toString(16)}}b`);
    }
  });

  it('marks an escape sequence, an OSC title and a C1 CSI visibly', () => {
    assert.equal(displayText('\x1b[1A\x1b[2K'), '\\u{1b}[1A\\u{1b}[2K');
    assert.equal(displayText('\x1b]0;pwned\x07'), '\\u{1b}]0;pwned\\u{7}');
    assert.equal(displayText('\u009b2J'), '\\u{9b}2J');
  });

  it('marks the bidi and invisible characters the review marks, and line separators', () => {
    assert.equal(displayText('a\u202eb\u200bc\u2066d\u{E0041}'), 'a\\u{202e}b\\u{200b}c\\u{2066}d\\u{e0041}');
    assert.equal(displayText('a\u2028b\u2029c'), 'a\\u{2028}b\\u{2029}c');
  });

  it('marks a lone surrogate by its code unit (U+DCFF is the byte 0xFF under surrogateescape) and keeps pairs', () => {
    assert.equal(displayText('r\udcff.sh'), 'r\\u{dcff}.sh');
    assert.equal(displayText('\ud800x'), '\\u{d800}x');
    assert.equal(displayText('😀 ü ！'), '😀 ü ！');
  });

  it('escapes newline and tab in a one-line field; a multi-line body keeps only its newlines', () => {
    assert.equal(displayText('a\nb\tc\rd'), 'a\\u{a}b\\u{9}c\\u{d}d');
    assert.equal(displayText('a\nb\tc\rd', 'multi-line'), 'a\nb\\u{9}c\\u{d}d');
  });

  it('is idempotent, so a field, its line and the whole output can each be escaped', () => {
    const once = displayText(`x${HOSTILE}\n`);
    assert.equal(displayText(once), once);
    assert.equal(displayText(once, 'multi-line'), once);
    assertDisplaySafe(once, 'escaped', false);
  });

  it('leaves plain text alone and says when it would not', () => {
    // The mark's own characters, written by a repository, are plain text: shown as they are.
    assert.equal(displayText('plain name-1.2 (ok) C:\\dir \\u{202e}'), 'plain name-1.2 (ok) C:\\dir \\u{202e}');
    assert.equal(hasUnsafeForDisplay('plain'), false);
    assert.equal(hasUnsafeForDisplay('a\tb'), true);
    assert.equal(hasUnsafeForDisplay('a\udcffb'), true);
  });
});

describe('JSON output: raw values, safe bytes', () => {
  it('writes C1, bidi, line separators and lone surrogates as \\u escapes that parse back to the same string', () => {
    const value = { name: `n${HOSTILE}\u2028\u{E0041}\t`, list: [HOSTILE] };
    const text = jsonText(value);
    assertDisplaySafe(text, 'json');
    assert.deepEqual(JSON.parse(text), value);
    assert.match(text, /\\u009b/);
    assert.match(text, /\\u202e/);
  });

  it('escapes DEL in text that is ASCII otherwise, and leaves plain ASCII and visible non-ASCII as JSON.stringify writes them', () => {
    const del = { name: 'a\x7fb', list: ['plain'] };
    assert.equal(jsonText(del), JSON.stringify(del, null, 2).replace('\x7f', '\\u007f') + '\n');
    assert.deepEqual(JSON.parse(jsonText(del)), del);
    for (const value of [{ name: 'plain-1.2 (ok)', n: 1, list: [true, null] }, { name: 'café ⟦x⟧ 😀' }])
      assert.equal(jsonText(value), JSON.stringify(value, null, 2) + '\n');
  });
});

describe('SARIF artifact URIs (issue 11)', () => {
  it('percent-encodes everything outside RFC 3986 pchar and /', () => {
    assert.equal(artifactUri('.codewhale/plugins/a#b/plugin.toml', true), '.codewhale/plugins/a%23b/plugin.toml');
    assert.equal(artifactUri('.codewhale/plugins/a?b/plugin.toml', true), '.codewhale/plugins/a%3Fb/plugin.toml');
    assert.equal(artifactUri('.codewhale/plugins/a%20b/plugin.toml', true), '.codewhale/plugins/a%2520b/plugin.toml');
    assert.equal(artifactUri('.codewhale/plugins/ü/plugin.toml', true), '.codewhale/plugins/%C3%BC/plugin.toml');
    assert.equal(artifactUri('a b[c]{d}"e<f>\\g^h`i|j', true), 'a%20b%5Bc%5D%7Bd%7D%22e%3Cf%3E%5Cg%5Eh%60i%7Cj');
    assert.equal(artifactUri("keep-._~!$&'()*+,;=:@/", false), "keep-._~!$&'()*+,;=:@/");
    assert.equal(artifactUri('\x1b\u202e😀', false), '%1B%E2%80%AE%F0%9F%98%80');
  });

  it('names the raw byte of a surrogateescape name and never throws on a lone surrogate', () => {
    assert.equal(artifactUri('.rivumi/plugins/\udcff.json', true), '.rivumi/plugins/%FF.json');
    assert.equal(artifactUri('x\ud800', true), 'x%EF%BF%BD');
  });

  it('keeps a relative reference from reading as a scheme', () => {
    assert.equal(artifactUri('a:b/c:d', true), 'a%3Ab/c:d');
    assert.equal(artifactUri('/a:b/c', false), '/a:b/c');
  });
});

/** The shared fixture item, its name and path carrying hostile text. */
const item = (over: Partial<Item> = {}): Item =>
  itemOf({
    name: `demo${HOSTILE}`,
    qualifiedName: `demo${HOSTILE}`,
    path: `/ws/.codewhale/plugins/d${HOSTILE}`,
    ...over,
  });

describe('the editor shows repository text escaped (issue 10)', () => {
  it('labels, descriptions and the review panel title', () => {
    for (const text of [
      itemLabel(item()),
      itemLabel(item({ parent: 'p', name: `s\n${HOSTILE}` })),
      reviewPanelTitle(item()),
    ]) {
      assertDisplaySafe(text, 'label', false);
      assert.match(
        text,
        /\\u\{1b\}\[1A\\u\{1b\}\[2K\\u\{1b\}\]0;pwned\\u\{7\}\\u\{9b\}\\u\{202e\}\\u\{200b\}\\u\{3164\}\\u\{dcff\}$/,
      );
    }
    assert.equal(itemDescription(item()), 'needs review');
    assert.equal(itemLabel(item({ qualifiedName: 'a\nb' })), 'a\\u{a}b');
    assert.equal(reviewPanelTitle(item({ name: 'x\u202ey' })), 'Review: x\\u{202e}y');
  });

  it('tooltips: no raw control, no markup, no link, no entity and no theme icon from a name or path', () => {
    const md = itemTooltipMarkdown(
      item({
        qualifiedName: `[x](command:skillgate.enable) $(zap) &#x202E; <b>*${HOSTILE}`,
        path: '/ws/https://evil.example/`code`\n# h',
      }),
      { diagnostics: [] },
    );
    assertDisplaySafe(md, 'tooltip');
    // `$(zap)` is written `\\\$\(zap\)`: Markdown yields `\$(zap)`, which the icon pass shows as the text `$(zap)`.
    assert.ok(
      md.includes('\\[x\\]\\(command\\:skillgate\\.enable\\) \\\\\\$\\(zap\\) \\&\\#x202E\\; \\<b\\>\\*\\\\u\\{1b\\}'),
      md,
    );
    assert.ok(md.includes('https\\:\\/evil\\.example\\/\\`code\\`\\\\u\\{a\\}\\# h'), md);
    assert.equal(escapeMarkdown('a\u202eb'), 'a\\\\u\\{202e\\}b');
    assert.equal(escapeMarkdown('$(zap)'), '\\$\\(zap\\)');
    assert.equal(escapeMarkdown('$(zap) $(not an icon)', true), '\\\\\\$\\(zap\\) \\$\\(not an icon\\)');
  });

  it('tooltips: every ASCII punctuation character is backslash-escaped, and only those', () => {
    // CommonMark lets a backslash escape any of them; one left out (`!`, `_`, `|`, `~`…) is markup again.
    for (let cp = 0x20; cp < 0x7f; cp++) {
      const ch = String.fromCharCode(cp);
      const punctuation = /[^A-Za-z0-9 ]/.test(ch);
      assert.equal(escapeMarkdown(ch), punctuation ? `\\${ch}` : ch, JSON.stringify(ch));
    }
  });

  it('QuickPick items: escaped, and `$(icon)` shown as text', () => {
    const pick = itemPick(item({ qualifiedName: `$(zap) x${HOSTILE}` }));
    for (const text of Object.values(pick)) assertDisplaySafe(text, 'quick pick', false);
    assert.ok(pick.label.startsWith('\\$(zap) x\\u{1b}'), pick.label);
    assert.equal(quickPickText('a\tb'), 'a\\u{9}b');
    assert.equal(quickPickText('$(spin~spin) $(not icon)'), '\\$(spin~spin) $(not icon)');
  });

  it('QuickPick items: an icon name of capitals, digits and hyphens is shown as text too', () => {
    // `$(pass-filled)` or `$(Verified2)` beside a name would read as the editor's own badge.
    assert.equal(quickPickText('$(pass-filled) $(Verified2)'), '\\$(pass-filled) \\$(Verified2)');
  });

  it("QuickPick items: the folder a shadowed bundle's winner lives in, named in the description, is escaped too", () => {
    const winner = item({ id: 'w', workspace: `/w/$(zap)x${HOSTILE}`, path: '/w/a/.codewhale/plugins/demo' });
    const shadowed = item({ id: 's', decision: 'shadowed', reasons: ['name_conflict'], shadowedBy: 'w' });
    const snapshot = {
      generation: 1,
      workspaces: ['/w/a', '/w/b'],
      items: [winner, shadowed],
      diagnostics: [],
      trustProblem: null,
    };
    const { description } = itemPick(shadowed, snapshot.workspaces, snapshot);
    assertDisplaySafe(description, 'quick pick', false);
    assert.ok(description.startsWith('Codewhale plugin · shadowed by \\$(zap)x\\u{1b}'), description);
  });

  it('QuickPick items: a bundle of one of several workspace folders shows its whole path, so two worktrees differ', () => {
    const a = item({ workspace: '/w/a', path: '/w/a/.codewhale/plugins/demo' });
    const b = item({ workspace: '/w/b', path: '/w/b/.codewhale/plugins/demo' });
    assert.equal(itemPick(a, ['/w/a']).detail, '.codewhale/plugins/demo');
    assert.deepEqual(
      [itemPick(a, ['/w/a', '/w/b']).detail, itemPick(b, ['/w/a', '/w/b']).detail],
      ['/w/a/.codewhale/plugins/demo', '/w/b/.codewhale/plugins/demo'],
    );
  });

  it('notifications: one line, escaped, and a link-shaped name never becomes a link', () => {
    assert.equal(
      notificationText('Trusted [ok](command:skillgate.enable?x).'),
      'Trusted [ok]\\u{28}command:skillgate.enable?x).',
    );
    assert.equal(notificationText('[a](HTTPS://evil.example)'), '[a]\\u{28}HTTPS://evil.example)');
    assert.equal(notificationText('a (b) [c]'), 'a (b) [c]');
    assertDisplaySafe(notificationText(`x\n${HOSTILE}`), 'notification', false);
  });

  it("a modal's detail keeps its lines, each escaped as a notification is", async () => {
    const calls: unknown[][] = [];
    const raw: UiPort = {
      confirm: async (...args) => (calls.push(args), true),
      offer: async () => false,
      info: () => undefined,
      error: () => undefined,
    };
    const answer = await safeUi(raw).confirm('Trust x?', `args:\n  [a](command:y)\x1b\n  b`, 'Trust', {
      safeDefault: true,
    });
    assert.equal(answer, true);
    assert.deepEqual(calls, [
      ['Trust x?', 'args:\n  [a]\\u{28}command:y)\\u{1b}\n  b', 'Trust', { safeDefault: true }],
    ]);
  });

  it('an offer and an error: the message escaped, the action and the answer passed through', async () => {
    const calls: string[] = [];
    const raw: UiPort = {
      confirm: async () => false,
      offer: async (m, a) => (calls.push(m, a), true),
      info: () => undefined,
      error: (m) => calls.push(m),
    };
    const ui = safeUi(raw);
    assert.equal(await ui.offer(`Enable [x](command:y)${HOSTILE}?`, 'Enable'), true);
    ui.error(`Cannot enable [x](command:y)${HOSTILE}`);
    assert.equal(calls.length, 3);
    for (const c of calls) assertDisplaySafe(c, 'offer or error', false);
    assert.ok(calls[0]?.startsWith('Enable [x]\\u{28}command:y)\\u{1b}'), calls[0]);
    assert.equal(calls[1], 'Enable');
    assert.ok(calls[2]?.startsWith('Cannot enable [x]\\u{28}command:y)\\u{1b}'), calls[2]);
  });

  it("notifications: escape the links VS Code's own pattern finds, and only those", () => {
    // vs/base/common/linkedText.ts, matched as before from each `[`.
    const pattern = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)/gi;
    const expected = (t: string) => t.replace(pattern, (_m, label: string, href: string) => `[${label}]\\u{28}${href}`);
    const parts = ['[', ']', '(', ')', ' ', 'a', '[a](', 'command:x', 'HTTP://', 'https:/', 'file:', '](', '[]'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let n = 0; n < 20_000; n++) {
      let t = '';
      for (let k = next() % 12; k > 0; k--) t += parts[next() % parts.length];
      assert.equal(notificationText(t), expected(t), JSON.stringify(t));
    }
  });

  it('notifications: a modal line of 64 MCP arguments of 4,096 `[` is escaped within the default timeout', () => {
    // Tried from each `[`, the pattern scanned to the end of the line every time: a minute.
    const line = `  • node ${Array.from({ length: 64 }, () => `'${'['.repeat(4096)}'`).join(' ')}  (MCP server s)`;
    assert.equal(notificationText(line), line);
    const linked = `${'['.repeat(200_000)}a](command:x) [b](file:y)`;
    assert.equal(notificationText(linked), `${'['.repeat(200_000)}a]\\u{28}command:x) [b]\\u{28}file:y)`);
  });

  it('every message a flow gives the UI port is escaped (trust flow through the safe port)', async () => {
    const calls: string[] = [];
    const raw: UiPort = {
      confirm: async (m, d) => (calls.push(m, d), true),
      offer: async (m) => (calls.push(m), false),
      info: (m) => calls.push(m),
      error: (m) => calls.push(m),
    };
    const TOKEN = `${'a'.repeat(64)}.${'b'.repeat(64)}`;
    const lifecycle: LifecyclePort = {
      trust: async (i, _t, confirm) => {
        const preview = {
          item: i,
          capabilities: { system: 'codewhale' as const },
          enabled: false,
          reviewedBefore: false,
        };
        return (await confirm(preview))
          ? { ok: true, value: { item: item(), reviewedCopy: '/s', preview } }
          : { ok: false, reason: 'cancelled', message: '' };
      },
      enable: async () => ({ ok: true as const, value: { item: item(), note: null } }),
    };
    const outcome = await trustFlow(item({ name: `[x](command:workbench.action.terminal.new)${HOSTILE}` }), TOKEN, {
      ui: safeUi(raw),
      gate: { workspaceTrusted: () => true, shownToken: () => TOKEN, hooksOptIn: () => null },
      lifecycle,
    });
    assert.equal(outcome, 'trusted');
    assert.equal(calls.length, 3);
    for (const c of calls) assertDisplaySafe(c, 'flow message');
    assert.ok(calls[0]?.startsWith('Trust [x]\\u{28}command:workbench.action.terminal.new)\\u{1b}[1A'), calls[0]);
    assert.ok(calls[2]?.includes('\\u{202e}\\u{200b}\\u{3164}\\u{dcff}'), calls[2]);
  });

  it("names the mark in codewhale.md §9's `\\u{hex}` form wherever it says how hidden characters are shown", () => {
    // The review webview's flag and banner, the note for an unopenable file, the CLI's words, the GitHub Action.
    const root = path.resolve(__dirname, '../..');
    const files = (dir: string): string[] =>
      fs
        .readdirSync(path.join(root, dir), { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]))
        .filter((f) => /\.(ts|mjs)$/.test(f));
    for (const file of [...files('src'), ...files('scripts')])
      assert.doesNotMatch(fs.readFileSync(path.join(root, file), 'utf8'), /⟦/, file);
  });

  it('the review webview builds its DOM with textContent only', () => {
    // Every module of the webview's script (review.ts is its entry; esbuild bundles the rest into media/review.js).
    const dir = path.resolve(__dirname, '../../src/extension/review/webview');
    const modules = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));
    assert.ok(modules.includes('review.ts'), modules.join(', '));
    const sources = modules.map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/^\s*\/\/.*$/gm, ''));
    modules.forEach((f, i) =>
      assert.doesNotMatch(
        sources[i] ?? '',
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser/,
        f,
      ),
    );
    assert.match(sources.join('\n'), /textContent = /);
  });
});
