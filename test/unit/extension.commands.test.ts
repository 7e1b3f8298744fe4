import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDS } from '../../src/extension/commands/commandTable';

const ROOT = path.resolve(__dirname, '../..');

interface Contributed {
  readonly command: string;
  readonly title: string;
  readonly enablement?: string;
}
interface MenuEntry {
  readonly command?: string;
  readonly when?: string;
}
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    commands: Contributed[];
    menus: Record<string, MenuEntry[]>;
    viewsWelcome: { contents: string }[];
    walkthroughs: { steps: { description: string }[] }[];
  };
};
const contributed = manifest.contributes.commands;
const registered = COMMANDS.map((c) => c.id);

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

/** A failing check names the command, as vscode-pull-request-github's CI script does. */
describe('commands: the table and package.json agree', () => {
  it('registers every contributed command', () => {
    for (const c of contributed)
      assert.ok(
        registered.includes(c.command as never),
        `${c.command} is contributed in package.json but has no row in src/extension/commands/commandTable.ts`,
      );
  });

  it('contributes every registered command, with a title', () => {
    for (const id of registered) {
      const c = contributed.find((x) => x.command === id);
      assert.ok(c, `${id} is registered but not contributed in package.json`);
      assert.ok(c.title.length > 0, `${id} has no title`);
    }
    assert.equal(new Set(registered).size, registered.length, 'a command id is registered twice');
  });

  it('registers commands only through the table', () => {
    for (const file of files(path.join(ROOT, 'src', 'extension'))) {
      if (path.basename(file) === 'commands.ts') continue;
      assert.doesNotMatch(
        fs.readFileSync(file, 'utf8'),
        /registerCommand\(/,
        `${path.relative(ROOT, file)} registers a command outside the table`,
      );
    }
  });

  it('declares the enablement and palette visibility each row states', () => {
    const palette = manifest.contributes.menus.commandPalette ?? [];
    for (const row of COMMANDS) {
      const c = contributed.find((x) => x.command === row.id);
      assert.equal(c?.enablement, 'enablement' in row ? row.enablement : undefined, `enablement of ${row.id}`);
      assert.equal(
        palette.find((m) => m.command === row.id)?.when,
        'palette' in row ? row.palette : undefined,
        `commandPalette when of ${row.id}`,
      );
    }
  });

  it('names only registered commands in menus, welcome views and the walkthrough', () => {
    const named = [
      ...Object.values(manifest.contributes.menus).flatMap((entries) =>
        entries.flatMap((m) => (m.command ? [m.command] : [])),
      ),
      ...[
        ...manifest.contributes.viewsWelcome.map((v) => v.contents),
        ...manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.description)),
      ].flatMap((text) => [...text.matchAll(/command:(skillgate\.[A-Za-z.]+)/g)].map((m) => m[1] as string)),
    ];
    assert.ok(named.length > 0);
    for (const id of named)
      assert.ok(registered.includes(id as never), `${id} is named in package.json but not registered`);
  });
});
