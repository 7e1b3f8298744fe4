import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import * as path from 'node:path';
import { itemTooltipMarkdown, TOOLTIP_COMMANDS } from '../../src/extension/tree/itemText';
import type { Diagnostic, Item } from '../../src/core/model';
import { HOSTILE, assertDisplaySafe } from './helpers/displaySafe';
import { itemOf } from './helpers/item';

const item = (over: Partial<Item> = {}): Item =>
  itemOf({
    location: {
      file: '/ws/.codewhale/plugins/demo/plugin.toml',
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    },
    decision: 'rejected',
    reasons: ['manifest_invalid'],
    ...over,
  });

const diagnostic = (message: string, line: number, severity: Diagnostic['severity'] = 'error'): Diagnostic => ({
  file: '/ws/.codewhale/plugins/demo/plugin.toml',
  range: { start: { line, character: 0 }, end: { line, character: 1 } },
  severity,
  code: 'codewhale.manifest.parse',
  message,
  itemId: 'workspace/abc/demo',
});

/** Issue 14 item 5: the tooltip answers "why?" without a trip to the Problems panel. */
describe('the bundle tooltip', () => {
  it('shows a rejected bundle\'s first three diagnostics, errors first, escaped, with "and N more" and a Problems link', () => {
    const diagnostics = [
      diagnostic('a warning', 9, 'warning'),
      diagnostic('first [x](command:skillgate.enable)', 1),
      diagnostic('second', 2),
      diagnostic('third', 3),
      diagnostic('fourth', 4),
    ];
    const md = itemTooltipMarkdown(item(), { diagnostics });
    assert.ok(md.includes('$(warning) 5 diagnostics:'), md);
    assert.ok(
      md.includes(
        '- $(error) first \\[x\\]\\(command\\:skillgate\\.enable\\) (plugin\\.toml:2)\n- $(error) second (plugin\\.toml:3)\n- $(error) third (plugin\\.toml:4)\n- and 2 more\n',
      ),
      md,
    );
    assert.ok(!md.includes('a warning'), md);
    assert.ok(md.endsWith('[Show in Problems](command:workbench.actions.view.problems)'), md);
  });

  it('has no link but the Problems one, even when a message is hostile', () => {
    const md = itemTooltipMarkdown(item(), {
      diagnostics: [diagnostic(`[y](command:skillgate.trust) <a href=x> ${HOSTILE}`, 0)],
    });
    assertDisplaySafe(md, 'tooltip');
    assert.deepEqual(md.match(/\]\(/g), ['](']);
    assert.deepEqual(TOOLTIP_COMMANDS, ['workbench.actions.view.problems']);
  });

  it('says "no diagnostics" and offers no link when there are none', () => {
    const md = itemTooltipMarkdown(item({ decision: 'disabled' }), { diagnostics: [] });
    assert.ok(md.endsWith('$(pass) no diagnostics'), md);
    assert.ok(!md.includes('command:'), md);
  });

  it('names the bundle that wins over a shadowed one, and where it lives', () => {
    const winner = item({
      id: 'user/demo',
      scope: 'user',
      workspace: null,
      path: path.join(os.homedir(), '.codewhale', 'plugins', 'demo'),
    });
    const md = itemTooltipMarkdown(
      item({ decision: 'shadowed', reasons: ['name_conflict'], shadowedBy: 'user/demo' }),
      { diagnostics: [], winner },
    );
    assert.ok(
      md.includes(
        `Codewhale takes the user plugin **demo** from \\~${escapeSep(path.sep)}\\.codewhale${escapeSep(path.sep)}plugins${escapeSep(path.sep)}demo in its place.`,
      ),
      md,
    );
    // The winner's name and path are the repository's: `$(zap)` in them is text, never the icon.
    const hostile = itemTooltipMarkdown(
      item({ decision: 'shadowed', reasons: ['name_conflict'], shadowedBy: 'workspace/zap' }),
      {
        diagnostics: [],
        winner: item({ id: 'workspace/zap', qualifiedName: '$(zap)', path: '/ws/.codewhale/plugins/$(zap)' }),
      },
    );
    assert.ok(
      hostile.includes('**\\\\\\$\\(zap\\)** from \\.codewhale\\/plugins\\/\\\\\\$\\(zap\\) in its place.'),
      hostile,
    );
  });

  it('names the agent of a shadowed Eva item, never Codewhale', () => {
    // Eva's first manifest in path order with an id wins (eva.md §4.3, core/systems/eva/conflicts.ts).
    const binding = (over: Partial<Item>) =>
      item({ system: 'eva', kind: 'skill-binding', trust: null, enabled: null, compatibility: null, ...over });
    const winner = binding({
      id: 'eva/first',
      qualifiedName: 'review',
      decision: 'registered',
      reasons: ['registered'],
      path: '/ws/config/skills/a.yaml',
    });
    const md = itemTooltipMarkdown(
      binding({
        decision: 'shadowed',
        reasons: ['duplicate_id_shadowed'],
        shadowedBy: 'eva/first',
        path: '/ws/config/skills/b.yaml',
      }),
      { diagnostics: [], winner },
    );
    assert.ok(
      md.includes(
        `Eva-CLI takes the workspace skill binding **review** from config${escapeSep(path.sep)}skills${escapeSep(path.sep)}a\\.yaml in its place.`,
      ),
      md,
    );
    assert.ok(!md.includes('Codewhale'), md);
  });

  it('says an agent without an enable switch loads the unit only when its decision says so', () => {
    const rivumi = (over: Partial<Item>) =>
      item({ system: 'rivumi', kind: 'plugin', enabled: null, compatibility: null, ...over });
    const loaded = itemTooltipMarkdown(
      rivumi({ decision: 'registered', reasons: ['loaded_unreviewed', 'not_reviewed'] }),
      {
        diagnostics: [],
      },
    );
    assert.ok(loaded.includes('no enable switch: Rivumi loads it whatever Skillgate says'), loaded);
    // Hooks without the opt-in, a plugin past the cap, a rejected one: Rivumi does not load them.
    for (const [kind, decision, reasons] of [
      ['hooks', 'disabled', ['hooks_not_opted_in', 'not_reviewed']],
      ['plugin', 'display_only', ['plugin_limit_exceeded']],
      ['plugin', 'rejected', ['manifest_invalid']],
    ] as const) {
      const md = itemTooltipMarkdown(rivumi({ kind, decision, reasons: [...reasons] }), { diagnostics: [] });
      assert.ok(!md.includes('loads it whatever Skillgate says'), md);
      assert.ok(md.includes('no enable switch (Rivumi has none)'), md);
    }
  });

  it('shows the path relative to the workspace folder and each hash shortened once', () => {
    const md = itemTooltipMarkdown(item(), { diagnostics: [] });
    assert.ok(md.includes('$(file) \\.codewhale\\/plugins\\/demo\n'), md);
    assert.ok(!md.includes('/ws'), md);
    assert.equal(md.split('aaaaaaaaaaaa…').length, 2, md);
    assert.ok(!md.includes('a'.repeat(13)), md);
  });

  it('reads whole for a trusted bundle: each reason, trust and switch, both hashes, path, diagnostics by severity, no icon from the repository', () => {
    // `$(zap)` in a name, a path, a message and a file name is shown as text, never as the icon.
    const at = (message: string, line: number, severity: Diagnostic['severity']): Diagnostic => ({
      ...diagnostic(message, line, severity),
      file: '/ws/.codewhale/plugins/$(zap)/$(zap).toml',
    });
    const trusted = item({
      qualifiedName: '$(zap)demo',
      decision: 'registered',
      reasons: ['active'],
      trust: 'trusted',
      enabled: true,
      path: '/ws/.codewhale/plugins/$(zap)',
    });
    const zap = '\\\\\\$\\(zap\\)';
    assert.equal(
      itemTooltipMarkdown(trusted, {
        diagnostics: [
          at('$(zap) info', 3, 'information'),
          at('$(zap) warn', 2, 'warning'),
          at('$(zap) err', 1, 'error'),
        ],
      }),
      `**${zap}demo** — Codewhale plugin — registered: the agent loads it\n\n` +
        '- `active`: Valid, trusted at its current hashes and, where its agent has an enable switch (Codewhale), enabled: the agent loads it.\n\n' +
        '$(shield) Trust: `trusted` · enabled: `true`\n\n' +
        'Content `aaaaaaaaaaaa…` · capabilities `bbbbbbbbbbbb…` (Copy Review Token copies them in full)\n\n' +
        `$(file) \\.codewhale\\/plugins\\/${zap}\n\n` +
        '$(warning) 3 diagnostics:\n\n' +
        `- $(error) ${zap} err (${zap}\\.toml:2)\n` +
        `- $(warning) ${zap} warn (${zap}\\.toml:3)\n` +
        `- $(info) ${zap} info (${zap}\\.toml:4)\n\n` +
        '[Show in Problems](command:workbench.actions.view.problems)',
    );
  });

  it('has no trust line for a part, no hash line for a bundle without hashes, and says one diagnostic', () => {
    const part = item({
      kind: 'component',
      name: '$(zap)',
      parent: 'workspace/abc/demo',
      trust: null,
      enabled: null,
      decision: 'registered',
      reasons: ['component_active'],
    });
    const md = itemTooltipMarkdown(part, { diagnostics: [diagnostic('one', 0)] });
    assert.ok(md.startsWith('**demo** — \\\\\\$\\(zap\\) component — '), md);
    assert.ok(!md.includes('Trust:'), md);
    assert.ok(md.includes('$(warning) 1 diagnostic:\n'), md);
    const unhashed = itemTooltipMarkdown(item({ contentHash: null, capabilityHash: null, reviewToken: null }), {
      diagnostics: [],
    });
    assert.ok(unhashed.includes('Trust: `not-reviewed` · enabled: `false`'), unhashed);
    assert.ok(!unhashed.includes('Content'), unhashed);
    const noCapabilities = itemTooltipMarkdown(item({ capabilityHash: null }), { diagnostics: [] });
    assert.ok(noCapabilities.includes('Content `aaaaaaaaaaaa…` · capabilities `…`'), noCapabilities);
    const three = [diagnostic('a', 1), diagnostic('b', 2), diagnostic('c', 3)];
    assert.ok(!itemTooltipMarkdown(item(), { diagnostics: three }).includes('more'), 'three are all shown');
  });

  it('keeps the path apart from the last reason and from the winner, with no trust line between them', () => {
    // In Markdown a line right after a bullet joins it: the path would read as part of the reason.
    const blankBefore = (md: string, prefix: string) => {
      const lines = md.split('\n');
      const at = lines.findIndex((l) => l.startsWith(prefix));
      assert.ok(at > 0 && lines[at - 1] === '', `${prefix} follows a blank line:\n${md}`);
    };
    const part = item({
      kind: 'component',
      trust: null,
      enabled: null,
      decision: 'registered',
      reasons: ['component_active'],
    });
    blankBefore(itemTooltipMarkdown(part, { diagnostics: [] }), '$(file)');
    const shadowed = item({ trust: null, enabled: null, decision: 'shadowed', reasons: ['name_conflict'] });
    const winner = item({ name: 'winner', scope: 'user', workspace: null, path: '/home/u/.codewhale/plugins/demo' });
    const md = itemTooltipMarkdown(shadowed, { diagnostics: [], winner });
    blankBefore(md, '$(arrow-right)');
    blankBefore(md, '$(file)');
  });

  it("shows a user bundle's path under the home as ~, and a path that only begins with the home's name whole", () => {
    const home = os.homedir();
    const shown = (p: string, over: Partial<Item> = { scope: 'user', workspace: null }) =>
      itemTooltipMarkdown(item({ ...over, path: p }), { diagnostics: [] })
        .split('\n')
        .find((l) => l.startsWith('$(file)'));
    assert.equal(shown(home), '$(file) \\~');
    assert.equal(shown(path.join(home, 'u')), `$(file) \\~${escapeSep(path.sep)}u`);
    assert.ok(!shown(`${home}x${path.sep}u`)?.includes('~'));
    assert.equal(shown('/ws', { workspace: '/ws' }), '$(file) \\.', 'the folder itself');
  });
});

function escapeSep(sep: string): string {
  return sep === '/' ? '\\/' : '\\\\';
}
