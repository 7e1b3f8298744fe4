import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Snapshot } from '../../src/core/index/snapshot';
import { reportAsWorkbench } from './helpers/vscodeStandIn';
import { watchedWorkspace } from './helpers/watchedWorkspace';

/**
 * A file the service watches by its own name is reported when it is edited, whatever the
 * name: VS Code reads a watcher's pattern as a glob (`[`, `]`, `{`, `}`, `*`, `?` are
 * syntax, and whitespace at either end is trimmed), so a hook script named `a[1].sh`
 * watched by that spelling would match `a1.sh`, never itself, and a repository could keep
 * an edited script shown at its reviewed hash until the next re-check. The workbench is
 * played by `reportAsWorkbench`, which matches as VS Code's glob does (helpers/vscodeGlob.ts).
 */
describe('the watcher of a file named with glob characters', function () {
  this.timeout(20000);
  const env = watchedWorkspace('skillgate-names-');
  const { SkillgateService, log, until } = env;

  const hooksHash = (snapshot: Snapshot | undefined) =>
    snapshot?.items.find((i) => i.system === 'rivumi' && i.parent === null && i.kind === 'hooks')?.contentHash;

  for (const name of ['a[1].sh', 'x{y}.sh', ']*?.sh', '[!a]-{b,c}.sh', ' lead.sh', 'trail.sh ']) {
    it(`reports an edit to the hook script ${JSON.stringify(name)}`, async () => {
      fs.mkdirSync(path.join(env.ws, '.rivumi'));
      fs.mkdirSync(path.join(env.ws, 'scripts'));
      const script = path.join(env.ws, 'scripts', name);
      fs.writeFileSync(script, 'echo one\n');
      fs.writeFileSync(
        path.join(env.ws, '.rivumi/hooks.json'),
        JSON.stringify({ pre_tool_use: [{ command: ['sh', `scripts/${name}`] }] }),
      );
      const service = new SkillgateService(log);
      try {
        await service.refreshAll();
        const shown = hooksHash(service.snapshot);
        assert.ok(shown, 'the hooks file is listed');
        fs.writeFileSync(script, 'echo two\n');
        assert.ok(reportAsWorkbench(env.watchers, script) > 0, 'a watcher covers the edited script');
        await until(() => hooksHash(service.snapshot) !== shown, 'the edit is shown');
      } finally {
        service.dispose();
      }
    });
  }
});
