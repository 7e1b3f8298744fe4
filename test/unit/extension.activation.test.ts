import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  activationEvents: string[];
};
const contains = manifest.activationEvents
  .filter((e) => e.startsWith('workspaceContains:'))
  .map((e) => e.slice('workspaceContains:'.length));

/**
 * Skillgate must wake up in a repository that holds agent files, whatever that repository
 * says. VS Code checks a `workspaceContains:` event that has `*` or `?` with a file search,
 * which applies the folder's own `files.exclude` and `search.exclude` (its
 * `.vscode/settings.json`) and its ignore files (`.gitignore`, `.ignore`): a repository
 * could exclude its `.rivumi` and keep Skillgate asleep, with no status bar and no
 * Problems. A plain path is checked with a stat that no setting changes.
 */
describe('activation: on the agents’ files, by paths no repository setting hides', () => {
  it('names plain paths only (no glob, so no search)', () => {
    for (const p of contains)
      assert.doesNotMatch(p, /[*?]/, `workspaceContains:${p} is a glob: VS Code searches for it`);
  });

  it("covers every agent's workspace files", () => {
    for (const p of ['.rivumi', '.codewhale/plugins', 'config/eva.yaml'])
      assert.ok(contains.includes(p), `no workspaceContains:${p}`);
  });
});
