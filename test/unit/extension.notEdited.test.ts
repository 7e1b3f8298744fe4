import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture } from './helpers/fixture';
import type { Fix } from '../../src/core/model';
import { notEdited } from '../../src/extension/problems/notEdited';

/**
 * Where a quick fix may write, decided when it is applied (quickfixes.resolve.test.ts shows
 * it through the provider): never through a link, and never out of the workspace folder that
 * holds the file, judged by the innermost folder when folders nest.
 */
describe('a quick fix edits only a file that stays where the index found it', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const fixOf = (...files: string[]): Fix => ({
    title: 'Fix',
    edits: files.map((file) => ({
      file,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
      newText: 'x',
      basis: '',
    })),
  });
  const outOfFolder = (shown: string, real: string) =>
    `${shown} is reached through a symbolic link out of its workspace folder (it is ${real}): Skillgate never edits a file outside the folder it was found in.`;

  it('judges a file by the innermost folder that holds it, whatever order the folders come in', async () => {
    // outer/inner/.rivumi -> ../common: inside `outer`, outside `inner`, the folder the file is in.
    const outer = f.mkdir('outer');
    const inner = f.mkdir('outer/inner');
    const real = f.write('outer/common/skills/x.md', 'x');
    fs.symlinkSync('../common', `${inner}/.rivumi`);
    const file = `${inner}/.rivumi/skills/x.md`;
    for (const workspaces of [
      [inner, outer],
      [outer, inner],
    ])
      assert.equal(
        await notEdited(fixOf(file), workspaces),
        // Named in its folder, after the folder's name when more than one is open, as VS Code names it.
        outOfFolder('inner • .rivumi/skills/x.md', real),
        workspaces.join(' '),
      );
    // Only `outer` open: the common directory is its own.
    assert.equal(await notEdited(fixOf(file), [outer]), undefined);
  });

  it('pays no heed to a folder that does not hold the file', async () => {
    const ws = f.mkdir('ws');
    const file = f.write('ws/.rivumi/skills/x.md', 'x');
    const other = f.mkdir('other');
    for (const workspaces of [
      [ws, other],
      [other, ws],
    ])
      assert.equal(await notEdited(fixOf(file), workspaces), undefined, workspaces.join(' '));
    // In no folder at all (a user bundle): only the file itself is looked at, and named whole.
    assert.equal(await notEdited(fixOf(file), [other]), undefined);
    fs.rmSync(file);
    fs.symlinkSync(f.write('elsewhere/x.md', 'x'), file);
    assert.equal(
      await notEdited(fixOf(file), [other]),
      `${file} is a symbolic link now: Skillgate never edits a file through a link, which would change its target.`,
    );
  });

  it('leaves a file that is gone to the text check (refused there as changed), and looks at each file a fix edits', async () => {
    const ws = f.mkdir('ws');
    const gone = f.path('ws/gone.json');
    assert.equal(await notEdited(fixOf(gone), [ws]), undefined);
    const kept = f.write('ws/plugin.json', '{}');
    f.write('elsewhere/mcp.json', '{}');
    fs.mkdirSync(f.path('ws/linked'));
    fs.symlinkSync(f.path('elsewhere/mcp.json'), f.path('ws/linked/mcp.json'));
    const linked = f.path('ws/linked/mcp.json');
    assert.equal(
      await notEdited(fixOf(kept, gone, linked), [ws]),
      `linked/mcp.json is a symbolic link now: Skillgate never edits a file through a link, which would change its target.`,
    );
  });
});
