import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Item } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';
import { reportAsWorkbench, vscodeStandIn } from './helpers/vscodeStandIn';
import { watchedWorkspace, writeBundle } from './helpers/watchedWorkspace';
import { InHostIndex } from '../../src/extension/flows/indexBackend';

/**
 * The extension's service over the disk and the trust store (skillgateService.ts): what
 * the workbench reports is indexed again, reviewed content that changes loses its trust at
 * once and gets it back with the content, and the window's events read everything again.
 */
describe('the extension service', function () {
  this.timeout(20000);
  const env = watchedWorkspace('skillgate-service-');
  const { SkillgateService, log, lines, until } = env;
  const workspace = vscodeStandIn.api.workspace as unknown as Record<string, unknown>;
  const standIn = {
    onDidChangeWorkspaceFolders: workspace.onDidChangeWorkspaceFolders,
    onDidGrantWorkspaceTrust: workspace.onDidGrantWorkspaceTrust,
    onDidChangeConfiguration: workspace.onDidChangeConfiguration,
  };
  after(() => Object.assign(workspace, standIn));

  const plugin = (snapshot: Snapshot | undefined, name: string): Item | undefined =>
    snapshot?.items.find((i) => i.parent === null && i.name === name);
  const fullIndexes = () => lines.filter((l) => l.startsWith('full index:')).length;

  it('takes the trust of a reviewed bundle away as soon as its content changes, and gives it back with the content', async () => {
    const b = writeBundle(path.join(env.ws, '.codewhale/plugins'), 'b', 'one');
    const skill = path.join(b, 'skills/s/SKILL.md');
    const service = new SkillgateService(log);
    try {
      const first = plugin(await service.refreshAll(), 'b');
      assert.ok(first);
      const reviewed = service.review(first);
      assert.ok(reviewed.ok && reviewed.value.reviewToken);
      assert.ok((await service.trust(first, reviewed.value.reviewToken, async () => true)).ok);
      assert.equal(plugin(service.snapshot, 'b')?.trust, 'trusted', 'shown trusted at once');
      assert.ok(
        lines.some((l) => /^trust store: trust b in \d+ ms$/.test(l)),
        lines.join('\n'),
      );

      const original = fs.readFileSync(skill);
      fs.writeFileSync(skill, '---\nname: s\n---\ntwo\n');
      assert.ok(reportAsWorkbench(env.watchers, skill) > 0, 'a watcher covers the skill');
      await until(() => plugin(service.snapshot, 'b')?.trust === 'content-changed', 'the edit takes the trust away');
      assert.ok(lines.includes('watcher batch: 1 path(s)'), lines.join('\n'));

      assert.ok(
        lines.some((l) => l.startsWith('incremental index:')),
        lines.join('\n'),
      );

      fs.writeFileSync(skill, original);
      assert.ok(reportAsWorkbench(env.watchers, skill) > 0);
      await until(() => plugin(service.snapshot, 'b')?.trust === 'trusted', 'the reviewed content is trusted again');

      // Disable, Enable and Revoke are shown at once, each re-deriving the decisions, and logged by name.
      const trusted = plugin(service.snapshot, 'b') as Item;
      assert.ok((await service.disable(trusted)).ok);
      assert.equal(plugin(service.snapshot, 'b')?.enabled, false);
      assert.ok((await service.enable(trusted)).ok);
      assert.equal(plugin(service.snapshot, 'b')?.enabled, true);
      assert.ok((await service.revoke(trusted)).ok);
      assert.equal(plugin(service.snapshot, 'b')?.trust, 'not-reviewed', 'the trust record is gone');
      for (const operation of ['disable', 'enable', 'revoke'])
        assert.ok(
          lines.some((l) => new RegExp(`^trust store: ${operation} b in \\d+ ms$`).test(l)),
          operation,
        );
      assert.ok(
        lines.some((l) => l.startsWith('decisions re-derived:')),
        lines.join('\n'),
      );
    } finally {
      service.dispose();
    }
  });

  it('shows a change no watcher reported once the re-check in the window after the full index reads it', async () => {
    const b = writeBundle(path.join(env.ws, '.codewhale/plugins'), 'b', 'one');
    const service = new SkillgateService(log);
    try {
      const shown = plugin(await service.refreshAll(), 'b')?.contentHash;
      assert.ok(shown);
      fs.writeFileSync(path.join(b, 'skills/s/SKILL.md'), '---\nname: s\n---\ntwo\n');
      await until(() => plugin(service.snapshot, 'b')?.contentHash !== shown, 'the re-check shows the edit', 8000);
    } finally {
      service.dispose();
    }
  });

  it("shows the index's progress in the view, and reports its figures once its snapshot is shown", async () => {
    writeBundle(path.join(env.ws, '.codewhale/plugins'), 'b', 'one');
    const window = vscodeStandIn.api.window as unknown as Record<string, unknown>;
    const withProgress = window.withProgress;
    const asked: unknown[] = [];
    window.withProgress = (options: unknown, task: () => Promise<unknown>) => (asked.push(options), task());
    const service = new SkillgateService(log);
    const progress: { done: number; total: number }[] = [];
    const runs: { indexMs: number; items: number }[] = [];
    service.onIndexProgress((p) => void progress.push(p));
    service.onFullIndex((run) => void runs.push({ indexMs: run.indexMs, items: run.snapshot.items.length }));
    try {
      const started = performance.now();
      const snapshot = await service.refreshAll();
      const took = performance.now() - started;
      assert.deepEqual(asked, [{ location: { viewId: 'skillgate.items' } }]);
      assert.ok(progress.length > 0, 'progress reported');
      assert.deepEqual(progress.at(-1), { done: 1, total: 1 });
      await until(() => runs.length > 0, 'the figures are reported');
      assert.equal(runs[0]?.items, snapshot.items.length);
      assert.ok((runs[0]?.indexMs ?? -1) >= 0 && (runs[0]?.indexMs ?? Infinity) <= took, JSON.stringify(runs));
    } finally {
      window.withProgress = withProgress;
      service.dispose();
    }
  });

  it('says nothing more of a change reported after the first index failed than the failure', async () => {
    const b = writeBundle(path.join(env.ws, '.codewhale/plugins'), 'b', 'one');
    const indexAll = InHostIndex.prototype.indexAll;
    InHostIndex.prototype.indexAll = async () => {
      throw new Error('EIO: i/o error');
    };
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      assert.equal(vscodeStandIn.shown.length, 1, 'the failure is said');
      const skill = path.join(b, 'skills/s/SKILL.md');
      assert.ok(reportAsWorkbench(env.watchers, skill) > 0);
      await until(() => lines.includes('watcher batch: 1 path(s)'), 'the batch is handed over');
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(vscodeStandIn.shown.length, 1, vscodeStandIn.shown.join('\n'));
    } finally {
      InHostIndex.prototype.indexAll = indexAll;
      service.dispose();
    }
  });

  it('re-derives nothing and says nothing before the first index', async () => {
    const service = new SkillgateService(log);
    try {
      assert.equal(await service.rederive(), undefined);
      assert.deepEqual(vscodeStandIn.shown, []);
    } finally {
      service.dispose();
    }
  });

  it("shows a trust change another window writes to the store, said in the log as the store's", async () => {
    writeBundle(path.join(env.ws, '.codewhale/plugins'), 'b', 'one');
    const service = new SkillgateService(log);
    // Another window: what it logs is its own.
    const other = new SkillgateService({ ...log, info: () => undefined });
    try {
      const first = plugin(await service.refreshAll(), 'b');
      assert.ok(first);
      const reviewed = other.review(first);
      assert.ok(reviewed.ok && reviewed.value.reviewToken);
      assert.ok((await other.trust(first, reviewed.value.reviewToken, async () => true)).ok);
      assert.equal(plugin(service.snapshot, 'b')?.trust, 'not-reviewed', 'not seen before the store watcher says so');
      const state = path.join(env.dir, 'state/state.json');
      assert.ok(reportAsWorkbench(env.watchers, state) > 0, "a watcher covers the store's file");
      await until(() => plugin(service.snapshot, 'b')?.trust === 'trusted', 'the trust is shown');
      assert.ok(lines.includes('watcher batch: 0 path(s), trust store changed'), lines.join('\n'));
      assert.ok(
        lines.some((l) => l.startsWith('decisions re-derived:')),
        lines.join('\n'),
      );
    } finally {
      other.dispose();
      service.dispose();
    }
  });

  it('reads everything again when a folder is added, when the workspace is trusted and when a Skillgate setting changes', async () => {
    const emitter = <T>() => new vscodeStandIn.api.EventEmitter<T>();
    const folders = emitter<unknown>();
    const trusted = emitter<void>();
    const configured = emitter<{ affectsConfiguration: (section: string) => boolean }>();
    Object.assign(workspace, {
      onDidChangeWorkspaceFolders: folders.event,
      onDidGrantWorkspaceTrust: trusted.event,
      onDidChangeConfiguration: configured.event,
    });
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      assert.equal(fullIndexes(), 1);
      const lib = path.join(env.dir, 'lib');
      writeBundle(path.join(lib, '.codewhale/plugins'), 'in-lib', 'one');
      vscodeStandIn.api.workspace.workspaceFolders = [
        { uri: { scheme: 'file', fsPath: env.ws } },
        { uri: { scheme: 'file', fsPath: lib } },
        { uri: { scheme: 'vscode-vfs', fsPath: '/remote' } },
      ];
      folders.fire({});
      await until(() => plugin(service.snapshot, 'in-lib') !== undefined, "the added folder's bundle is listed");
      assert.deepEqual(service.snapshot?.workspaces, [env.ws, lib], 'only the folders on this disk');
      trusted.fire();
      await until(() => fullIndexes() === 3, 'the workspace trusted: read again');

      // Another section's change reads nothing; a Skillgate setting's reads everything with the store it names now.
      configured.fire({ affectsConfiguration: (section) => section === 'editor' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(fullIndexes(), 3, "another section's change reads nothing again");
      const moved = path.join(env.dir, 'state2');
      vscodeStandIn.settings.set('skillgate.stateDirectory', { globalValue: moved });
      assert.equal(service.lifecycle().store.dir, path.join(env.dir, 'state'), 'the store opened stays until then');
      configured.fire({ affectsConfiguration: (section) => section === 'skillgate' });
      await until(() => fullIndexes() === 4, 'a Skillgate setting changed: read again');
      assert.equal(service.lifecycle().store.dir, moved);
    } finally {
      service.dispose();
    }
  });
});
