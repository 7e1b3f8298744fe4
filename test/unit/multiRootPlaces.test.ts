import { strict as assert } from 'node:assert';
import { review } from '../../src/core/trust/reviewBundle';
import { reviewViewModel } from '../../src/core/review/reviewViewModel';
import { folderName, placedPath } from '../../src/core/report/folderPlace';
import { itemPick, itemTooltipMarkdown, reviewPanelTitle } from '../../src/extension/tree/itemText';
import type { Item } from '../../src/core/model';
import { trustWorkspace } from './helpers/trustWorkspace';
import { writeW } from './helpers/fixture';
import { itemOf } from './helpers/item';
import { assertDisplaySafe } from './helpers/displaySafe';
import { loadWithVscode } from './helpers/vscodeStandIn';

type ReadonlyDocuments = typeof import('../../src/extension/documents/readonlyDocuments');

/**
 * Two workspace folders of a multi-root workspace each hold a bundle of one name at one
 * relative path: what a person reads before trusting one of them (the tree's tooltip, the
 * review's header and tab title, the bundle pick, the Explain tab) names the folder, as
 * VS Code does (`folder • path`); with one folder, nothing changes.
 */
describe('same-named bundles in two workspace folders read apart', () => {
  const both = ['/w/app', '/w/lib'];
  const at = (ws: string, over: Partial<Item> = {}) =>
    itemOf({
      name: 'tools',
      qualifiedName: 'tools',
      workspace: ws,
      path: `${ws}/.codewhale/plugins/tools`,
      ...over,
    });
  const { explainFileName } = loadWithVscode(
    () => require('../../src/extension/documents/readonlyDocuments') as ReadonlyDocuments,
  );

  it('names the folder in the tooltip, the review tab title and the Explain tab, only with several folders', () => {
    const [a, b] = [at('/w/app'), at('/w/lib')];
    const tip = (i: Item, workspaces: readonly string[]) => itemTooltipMarkdown(i, { diagnostics: [], workspaces });
    assert.match(tip(a, both), /app • \\\.codewhale\\\/plugins\\\/tools/);
    assert.match(tip(b, both), /lib • \\\.codewhale\\\/plugins\\\/tools/);
    assert.doesNotMatch(tip(a, ['/w/app']), /•/);
    assert.equal(reviewPanelTitle(a, both), 'Review: tools (app)');
    assert.equal(reviewPanelTitle(b, both), 'Review: tools (lib)');
    assert.equal(reviewPanelTitle(a, ['/w/app']), 'Review: tools');
    assert.equal(reviewPanelTitle(at('/w/app', { scope: 'user', workspace: null }), both), 'Review: tools');
    assert.notEqual(explainFileName(a, both), explainFileName(b, both));
    assert.equal(explainFileName(a, both), 'Explain tools - app.md');
    assert.equal(explainFileName(a, ['/w/app']), 'Explain tools.md');
    // The bundle pick already shows the whole path with several folders.
    assert.notEqual(itemPick(a, both).detail, itemPick(b, both).detail);
  });

  it('names a folder by its whole path when another folder has the same last segment', () => {
    assert.equal(folderName('/a/app', ['/a/app', '/b/app']), '/a/app');
    assert.equal(folderName('/a/app', ['/a/app', '/b/lib']), 'app');
    const item = at('/a/app');
    assert.equal(placedPath(item, item.path, ['/a/app', '/b/app']), '/a/app • .codewhale/plugins/tools');
  });

  it('escapes a hostile folder name on every surface', () => {
    const ws = '/w/x\u202e[y](command:skillgate.enable)$(zap)\u001b';
    const item = at(ws);
    const workspaces = [ws, '/w/lib'];
    assertDisplaySafe(itemTooltipMarkdown(item, { diagnostics: [], workspaces }), 'tooltip');
    assertDisplaySafe(reviewPanelTitle(item, workspaces), 'label', false);
    assert.match(explainFileName(item, workspaces), /^Explain tools - x_y_command_skillgate\.enable_zap_\.md$/);
  });

  describe('the review header', () => {
    const w = trustWorkspace();

    it("names the bundle's folder with several folders, and only its path with one", () => {
      writeW(w.f, '', 'app/.codewhale/plugins/tools');
      writeW(w.f, '', 'lib/.codewhale/plugins/tools');
      const workspaces = [w.f.path('app'), w.f.path('lib')];
      const s = w.snapshot({ workspaces });
      const headers = s.items
        .filter((i) => i.kind === 'plugin' && i.workspace !== null)
        .map((i) => {
          const r = review(i, { store: w.store });
          assert.ok(r.ok);
          return reviewViewModel(r.value, s, false, true).header.path.text;
        })
        .sort();
      assert.deepEqual(headers, ['app • .codewhale/plugins/tools', 'lib • .codewhale/plugins/tools']);
      const one = w.snapshot({ workspaces: [w.f.path('app')] });
      const plugin = one.items.find((i) => i.kind === 'plugin' && i.workspace !== null);
      assert.ok(plugin);
      const r = review(plugin, { store: w.store });
      assert.ok(r.ok);
      assert.equal(reviewViewModel(r.value, one, false, true).header.path.text, '.codewhale/plugins/tools');
    });
  });
});
