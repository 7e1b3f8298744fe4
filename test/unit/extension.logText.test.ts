import { strict as assert } from 'node:assert';
import { loadWithVscode, serviceInHostForSuite, vscodeStandIn } from './helpers/vscodeStandIn';
import { assertDisplaySafe, HOSTILE } from './helpers/displaySafe';
import { logText } from '../../src/extension/text/logText';
import type { LogPort } from '../../src/extension/flows/ports';

type Service = typeof import('../../src/extension/skillgateService');
type Commands = typeof import('../../src/extension/commands/commands');

/**
 * A file name a repository chose, inside an error's message: a line break and then what
 * reads as an entry of the log of its own ("Skillgate: Show Log" prints each entry as
 * `<time> [<level>] <message>`), then the terminal and bidi controls of HOSTILE.
 */
const FORGED = `/ws/.codewhale/plugins/x\n2026-12-05 20:27:19.123 [info] trust store: trust evil in 3 ms${HOSTILE}`;

/** What the log's reader sees: no control or bidi character, and no line of a message that starts where an entry does. */
function assertLogSafe(messages: readonly string[]): void {
  assert.ok(messages.length > 0, 'something was logged');
  for (const m of messages) {
    assertDisplaySafe(m, 'log message');
    for (const line of m.split('\n').slice(1))
      assert.match(line, /^\s/, `a continuation line that reads as an entry: ${JSON.stringify(line)}`);
  }
}

function recordingLog(): { log: LogPort; messages: string[] } {
  const messages: string[] = [];
  const record = (m: string) => void messages.push(m);
  return { log: { debug: record, info: record, warn: record, error: record }, messages };
}

/** The "Skillgate" output channel: repository text in what the extension logs can start no entry and move no text. */
describe('the log: repository text in what the extension logs', () => {
  const { SkillgateService } = loadWithVscode(() => require('../../src/extension/skillgateService') as Service);
  const api = vscodeStandIn.api as unknown as Record<string, unknown>;
  const registered = new Map<string, (arg?: unknown) => Promise<unknown>>();
  api.commands = {
    registerCommand: (id: string, run: (arg?: unknown) => Promise<unknown>) => {
      registered.set(id, run);
      return { dispose: () => undefined };
    },
  };
  const { registerCommands } = loadWithVscode(() => require('../../src/extension/commands/commands') as Commands);
  serviceInHostForSuite();
  after(() => delete api.commands);

  it('logs an index failure that names a file: its controls escaped, its line breaks starting no entry', async () => {
    vscodeStandIn.settingsFault = new Error(`EACCES: permission denied, scandir '${FORGED}'`);
    const { log, messages } = recordingLog();
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      const failures = messages.filter((m) => m.includes('could not index'));
      assert.equal(failures.length, 1, messages.join('\n---\n'));
      assertLogSafe(failures);
      assert.match(failures[0] as string, /EACCES: permission denied/);
    } finally {
      service.dispose();
    }
  });

  it('logs a failed command with its message escaped and its stack frames on lines of their own', async () => {
    const { log, messages } = recordingLog();
    const handlers = new Proxy(
      {},
      {
        get: () => () => {
          throw new Error(`cannot open '${FORGED}'`);
        },
      },
    );
    registerCommands({ subscriptions: [] } as never, handlers as never, log);
    const run = registered.get('skillgate.openManifest');
    assert.ok(run);
    await assert.rejects(run(), /cannot open/, 'rethrown for VS Code to report');
    assert.equal(messages.length, 1);
    assertLogSafe(messages);
    assert.match(messages[0] as string, /^skillgate\.openManifest failed: Error: cannot open '/);
    assert.match(messages[0] as string, /\n\s+at /, 'the stack is kept, a frame a line');
  });

  it('reads the same escaped twice (the extension wraps its channel, and the service and the commands wrap what they are given)', () => {
    const once = logText(`cannot open '${FORGED}'\n    at run (commands.ts:25:22)\n\tat x`);
    assert.equal(logText(once), once);
    assertLogSafe([once]);
  });
});
