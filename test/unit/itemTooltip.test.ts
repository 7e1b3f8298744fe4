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
});

function escapeSep(sep: string): string {
  return sep === '/' ? '\\/' : '\\\\';
}
