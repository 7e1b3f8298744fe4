import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { RECHECK_WINDOW_MS, STEADY_RECHECK_MIN_SECONDS } from '../../../src/extension/flows/recheckSchedule';
import { skillgate, until } from './api';

/**
 * The re-checks (flows/recheckSchedule.ts): a change no watcher reports still reaches the
 * view. The fixture's settings exclude one plugin directory from VS Code's recursive
 * watchers (`files.watcherExclude`): in the minute after a full index it stands in for a
 * watcher that has not started yet, as right after a window reload; after that minute,
 * for a watcher that stays silent (that very setting, or inotify's watch limit reached).
 */
describe('the re-check after a full index', function () {
  this.timeout(60000);
  let plugins: string;
  let unwatched: string;

  before(() => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suites run in a workspace folder');
    plugins = path.join(folder.uri.fsPath, '.codewhale/plugins');
    unwatched = path.join(plugins, 'unwatched');
  });

  after(async () => {
    fs.rmSync(unwatched, { recursive: true, force: true });
    await vscode.workspace
      .getConfiguration('skillgate')
      .update('recheckIntervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    const api = await skillgate();
    await api.refresh();
  });

  it('shows a bundle that appeared unreported after the index, without a refresh', async () => {
    const api = await skillgate();
    await api.refresh();
    // Built beside the workspace, then moved in at once: one event, on the excluded path.
    const staging = path.join(path.dirname(path.dirname(path.dirname(plugins))), 'unwatched-staging');
    fs.rmSync(staging, { recursive: true, force: true });
    fs.cpSync(path.join(plugins, 'good'), staging, { recursive: true });
    const toml = path.join(staging, 'plugin.toml');
    fs.writeFileSync(toml, fs.readFileSync(toml, 'utf8').replace('name = "good"', 'name = "unwatched"'));
    fs.renameSync(staging, unwatched);
    const isUnwatched = (a: typeof api) => a.snapshot()?.items.find((i) => i.name === 'unwatched');

    // No watcher reports it: a refresh from a watcher batch would have shown it by now.
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(isUnwatched(api), undefined, 'a watcher reported the excluded directory: this suite tests nothing');

    const item = await until('the re-check to show the new bundle', isUnwatched, 15000);
    assert.equal(item.system, 'codewhale');
  });

  it('still shows a change no watcher reports once the first minute is over: the steady re-checks', async function () {
    this.timeout(RECHECK_WINDOW_MS + 90_000);
    await vscode.workspace
      .getConfiguration('skillgate')
      .update('recheckIntervalSeconds', STEADY_RECHECK_MIN_SECONDS, vscode.ConfigurationTarget.Global);
    const api = await skillgate();
    await api.refresh();
    assert.ok(
      api.snapshot()?.items.some((i) => i.name === 'unwatched'),
      'the first test left the bundle in the excluded directory',
    );
    // Past the window of the full index just made: only a steady re-check reads the disk again.
    await new Promise((r) => setTimeout(r, RECHECK_WINDOW_MS + 2_000));
    fs.rmSync(unwatched, { recursive: true, force: true });
    await until(
      'a steady re-check to drop the removed bundle',
      (a) => !a.snapshot()?.items.some((i) => i.name === 'unwatched'),
      // The interval, or a hundred times what the last re-check took (30–130 ms here, more on a busy machine).
      60_000,
    );
  });
});
