import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillgate, until } from './api';
import { TrustStore } from '../../../src/core/trust/trustStore';
import { review } from '../../../src/core/trust/reviewBundle';
import { trust } from '../../../src/core/trust/grantTrust';
import type { Item } from '../../../src/core/model';

/**
 * Drift in the editor: a unit trusted in the shared store drops trust within a bounded
 * wait after each single change made on disk by another program; the suite trusts it
 * again (as the CLI would) before the next change.
 */
const BOUND_MS = 3000;

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suites run in a workspace folder');
  return folder.uri.fsPath;
}

function store(): TrustStore {
  const stateDir = process.env.SKILLGATE_STATE_DIR;
  assert.ok(stateDir, 'the runner gives the host its own trust store');
  return new TrustStore(stateDir);
}

async function unitAt(file: string): Promise<Item> {
  return until(`an item at ${file}`, (a) => a.snapshot()?.items.find((i) => i.parent === null && i.path === file));
}

/** Trusts the unit at its current bytes (as `skillgate trust` would) and waits for the view to show it. */
async function trustNow(file: string): Promise<Item> {
  const item = await unitAt(file);
  const r = review(item, { store: store() });
  assert.ok(r.ok, r.ok ? '' : r.message);
  if (r.value.status === 'trusted') return item;
  const t = await trust(item, r.value.reviewToken ?? '', { store: store() });
  assert.ok(t.ok, t.ok ? '' : t.message);
  return until(
    `${item.name} to be trusted`,
    (a) => a.snapshot()?.items.find((i) => i.id === item.id && i.trust === 'trusted'),
    BOUND_MS * 2,
  );
}

async function dropsTrust(file: string, what: string, change: () => void): Promise<void> {
  const before = await trustNow(file);
  const started = Date.now();
  change();
  const after = await until(
    `${what} to drop trust within ${BOUND_MS} ms`,
    (a) =>
      a.snapshot()?.items.find((i) => i.id === before.id && i.trust !== 'trusted') ??
      (a.snapshot()?.items.some((i) => i.id === before.id) ? undefined : before),
    BOUND_MS,
  );
  // Codewhale stops loading it; Rivumi loads it anyway, so it must read as loaded and not reviewed, never as active (decisions.md).
  assert.ok(
    after.decision !== 'registered' || after.reasons[0] === 'loaded_unreviewed',
    `${what}: still ${after.decision} · ${after.reasons.join(', ')}`,
  );
  assert.ok(Date.now() - started <= BOUND_MS, `${what}: took ${Date.now() - started} ms`);
}

function flipOneByte(file: string): void {
  const b = fs.readFileSync(file);
  const at = Math.floor(b.length / 2);
  b[at] = (b[at] as number) ^ 0x01;
  fs.writeFileSync(file, b);
}

describe('drift in the editor: each change on disk drops trust within a bounded wait', () => {
  const ws = () => workspaceFolder();
  const bundle = () => path.join(ws(), '.codewhale/plugins/drift');
  const at = (rel: string) => path.join(bundle(), rel);

  before(async () => {
    await skillgate();
    fs.mkdirSync(at('skills/drift'), { recursive: true });
    fs.mkdirSync(at('commands'), { recursive: true });
    fs.writeFileSync(
      at('plugin.toml'),
      'schema_version = 1\n[plugin]\nname = "drift"\nversion = "1.0.0"\n[skills]\npath = "skills"\n',
    );
    fs.writeFileSync(at('skills/drift/SKILL.md'), '---\nname: drift\ndescription: drift\n---\nBody.\n');
    fs.writeFileSync(at('notes.md'), 'Notes.\n');
    fs.writeFileSync(at('extra.md'), 'Extra.\n');
    fs.mkdirSync(path.join(ws(), '.rivumi'), { recursive: true });
    fs.mkdirSync(path.join(ws(), 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(ws(), 'scripts/run.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    fs.writeFileSync(
      path.join(ws(), '.rivumi/hooks.json'),
      JSON.stringify({ pre_tool_use: [{ command: ['bash', 'scripts/run.sh'] }] }),
    );
    fs.mkdirSync(path.join(ws(), '.rivumi/plugins'), { recursive: true });
    fs.writeFileSync(
      path.join(ws(), '.rivumi/plugins/pack.md'),
      '---\nname: pack-skill\ndescription: A skill.\n---\nDo the thing.\n',
    );
    fs.writeFileSync(
      path.join(ws(), '.rivumi/plugins/pack.json'),
      JSON.stringify({ name: 'pack', skills: [{ path: 'pack.md' }] }),
    );
    const first = await trustNow(bundle());
    await vscode.commands.executeCommand('skillgate.enable', first.id);
    await until(
      'the drift bundle to be active',
      (a) => a.snapshot()?.items.find((i) => i.id === first.id && i.decision === 'registered'),
      BOUND_MS * 2,
    );
  });

  after(() => {
    fs.rmSync(bundle(), { recursive: true, force: true });
    fs.rmSync(path.join(ws(), '.rivumi/hooks.json'), { force: true });
    fs.rmSync(path.join(ws(), 'scripts'), { recursive: true, force: true });
    fs.rmSync(path.join(ws(), '.rivumi/plugins'), { recursive: true, force: true });
  });

  // The bundle and its skills/drift/ directory are created after the window opened.
  it('Codewhale: one byte of a skill changed (in a directory created after the window opened)', () =>
    dropsTrust(bundle(), 'one byte', () => flipOneByte(at('skills/drift/SKILL.md'))));
  it('Codewhale: a file renamed', () =>
    dropsTrust(bundle(), 'a rename', () => fs.renameSync(at('notes.md'), at('notes2.md'))));
  it('Codewhale: an empty file added', () =>
    dropsTrust(bundle(), 'an added empty file', () => fs.writeFileSync(at('empty.txt'), '')));
  it('Codewhale: an empty directory added', () =>
    dropsTrust(bundle(), 'an added empty directory', () => fs.mkdirSync(at('emptydir'))));
  it('Codewhale: a file deleted', () => dropsTrust(bundle(), 'a deletion', () => fs.rmSync(at('extra.md'))));
  it('Codewhale: the executable bit of a file flipped', () =>
    dropsTrust(bundle(), 'a mode bit', () => fs.chmodSync(at('plugin.toml'), 0o755)));
  it('Codewhale: a file swapped for a symbolic link to identical bytes', () =>
    dropsTrust(bundle(), 'a symlink swap', () => {
      const copy = path.join(ws(), 'linked-notes.md');
      fs.copyFileSync(at('notes2.md'), copy);
      fs.rmSync(at('notes2.md'));
      fs.symlinkSync(copy, at('notes2.md'));
    }));
  it('Rivumi project hooks: hooks.json changed', () =>
    dropsTrust(path.join(ws(), '.rivumi/hooks.json'), 'a hooks.json change', () =>
      flipOneByte(path.join(ws(), '.rivumi/hooks.json')),
    ));
  it('Rivumi plugin: one byte of its skill changed', () =>
    dropsTrust(path.join(ws(), '.rivumi/plugins/pack.json'), 'a plugin skill change', () =>
      flipOneByte(path.join(ws(), '.rivumi/plugins/pack.md')),
    ));
  it('Rivumi plugin: its manifest renamed', () =>
    dropsTrust(path.join(ws(), '.rivumi/plugins/pack.json'), 'a manifest rename', () =>
      fs.renameSync(path.join(ws(), '.rivumi/plugins/pack.json'), path.join(ws(), '.rivumi/plugins/pack2.json')),
    ));
  // hooks.json and scripts/run.sh are created after the window opened.
  it('Rivumi project hooks: the script a hook runs changed (named by a hooks.json written after the window opened)', async () => {
    // The byte flip above may have left hooks.json invalid (Rivumi would not load it, so it cannot be trusted): write it again.
    fs.writeFileSync(
      path.join(ws(), '.rivumi/hooks.json'),
      JSON.stringify({ pre_tool_use: [{ command: ['bash', 'scripts/run.sh'] }] }),
    );
    await dropsTrust(path.join(ws(), '.rivumi/hooks.json'), 'a hook script change', () =>
      flipOneByte(path.join(ws(), 'scripts/run.sh')),
    );
  });
});
