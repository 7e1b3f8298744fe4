import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Setting {
  readonly order?: number;
}
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  publisher: string;
  name: string;
  capabilities: { virtualWorkspaces?: boolean | { supported: boolean | 'limited'; description?: string } };
  contributes: {
    configuration: { properties: Record<string, Setting> };
    viewsWelcome: { view: string; contents: string; when?: string }[];
    walkthroughs: { id: string }[];
    menus: Record<string, { command?: string; submenu?: string; when?: string }[]>;
  };
};

/**
 * What the manifest tells VS Code beyond the commands (extension.commands.test.ts), checked
 * against VS Code's extension guides: code.visualstudio.com/api/extension-guides/virtual-workspaces,
 * /api/references/contribution-points (`order`), /api/ux-guidelines/views (welcome views),
 * /api/extension-guides/command ("Controlling when a command shows up in the Command Palette").
 */
describe('manifest: what VS Code shows of Skillgate besides its commands', () => {
  it('declares that it cannot read a virtual workspace, and says why', () => {
    // Skillgate reads the agents' folders with Node's fs (the core never imports vscode) and indexes
    // only `file:` folders (skillgateService.ts): a virtual workspace's agent folders would read as
    // absent. Left undeclared, VS Code assumes `true` and the empty view claims there is nothing to load.
    const declared = manifest.capabilities.virtualWorkspaces;
    assert.equal(typeof declared, 'object', 'capabilities.virtualWorkspaces is not declared with a description');
    assert.equal(typeof declared === 'object' && declared.supported, false);
    assert.ok(typeof declared === 'object' && (declared.description ?? '').length > 0, 'no description');
  });

  it('shows the settings in the order package.json lists them, not alphabetically', () => {
    // "properties without an explicit order field appear in alphabetical order (not the order in
    // which they're listed in the manifest)" (contribution-points, contributes.configuration).
    const settings = Object.entries(manifest.contributes.configuration.properties);
    assert.ok(settings.length > 0);
    settings.forEach(([id, s], i) => assert.equal(s.order, i + 1, `order of ${id}`));
  });

  it('links the view that found nothing to the walkthrough, which says what Skillgate looks for', () => {
    const empty = manifest.contributes.viewsWelcome.find((w) => / skillgate\.indexed /.test(w.when ?? ''));
    assert.ok(empty, 'no welcome content for an indexed workspace without items');
    const link = /\]\(command:workbench\.action\.openWalkthrough\?([^)\s]+)\)/.exec(empty.contents);
    assert.ok(link, `no walkthrough link in: ${empty.contents}`);
    // A walkthrough is named `<publisher>.<name>#<id>`; a wrong name opens nothing.
    const [named] = JSON.parse(decodeURIComponent(link[1] as string)) as [string];
    const ids = manifest.contributes.walkthroughs.map((w) => `${manifest.publisher}.${manifest.name}#${w.id}`);
    assert.ok(ids.includes(named), `${named} is none of ${ids.join(', ')}`);
  });

  it("offers the Filter and Group commands in the palette only where the view's menu does", () => {
    // "many commands are only relevant in certain circumstances", and `menus.commandPalette` "lets you
    // restrict when a command should show" (extension-guides/command). Unrestricted, the palette
    // offered Show All Bundles while all were shown, and Group by Folder while grouped by folder: no effect.
    const submenu = manifest.contributes.menus['skillgate.treeMode'] ?? [];
    const palette = manifest.contributes.menus.commandPalette ?? [];
    assert.ok(submenu.length > 0, 'no Filter and Group menu');
    for (const entry of submenu) {
      assert.ok(entry.command && entry.when, `an entry of the Filter and Group menu without a command or a when`);
      assert.equal(
        palette.find((p) => p.command === entry.command)?.when,
        entry.when,
        `palette when of ${entry.command}`,
      );
    }
  });
});
