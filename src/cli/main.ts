import { Indexer } from '../core/index/indexer';
import { childrenOf } from '../core/index/snapshot';
import { hashTarget } from '../core/index/hashTarget';
import { envelope } from '../core/report/contract';
import { toSarif } from '../core/report/sarif';
import { explainItem, explainText } from '../core/report/explain';
import { parseCommandLine, UsageError, USAGE, type ParsedCommand } from './options';
import { selectItem } from './selector';
import { diagnosticsText, listText, showText } from './render';

declare const SKILLGATE_VERSION: string | undefined;
const VERSION = typeof SKILLGATE_VERSION === 'string' ? SKILLGATE_VERSION : '0.0.0-dev';
const DOCS_URL = 'https://github.com/skillgate/skillgate/blob/main/docs/diagnostics.md';

export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** Runs one CLI invocation; returns the exit code (0 ok, 1 errors or refusal, 2 usage or internal). */
export function run(argv: readonly string[], io: Io): number {
  let cmd: ParsedCommand;
  try {
    cmd = parseCommandLine(argv, io.env, io.cwd);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`skillgate: ${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  try {
    return dispatch(cmd, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`skillgate: ${e.message}\n`);
      return 2;
    }
    io.err(`skillgate: internal error: ${(e as Error).message}\n${io.env.SKILLGATE_DEBUG === '1' ? `${(e as Error).stack}\n` : ''}`);
    return 2;
  }
}

function dispatch(cmd: ParsedCommand, io: Io): number {
  const json = (value: unknown) => io.out(JSON.stringify(value, null, 2) + '\n');
  const index = () =>
    new Indexer({ workspaces: cmd.options.workspaces, codewhaleHome: cmd.options.codewhaleHome, rivumiHooksEnv: io.env.RIVUMI_ENABLE_PROJECT_HOOKS }).indexAll();
  const needArg = (what: string) => {
    const a = cmd.args[0];
    if (a === undefined) throw new UsageError(`\`${cmd.command}\` needs ${what}`);
    return a;
  };
  switch (cmd.command) {
    case undefined:
    case 'help':
      io.out(USAGE);
      return cmd.command === undefined ? 2 : 0;
    case 'version':
      io.out(`${VERSION}\n`);
      return 0;
    case 'list': {
      const snapshot = index();
      if (cmd.options.json) json(envelope(snapshot));
      else io.out(listText(snapshot));
      return 0;
    }
    case 'validate': {
      const snapshot = index();
      if (cmd.options.format === 'sarif') json(toSarif(snapshot, VERSION, DOCS_URL));
      else if (cmd.options.format === 'json') json(envelope(snapshot));
      else io.out(diagnosticsText(snapshot));
      return snapshot.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
    }
    case 'show':
    case 'explain': {
      const selector = needArg('a selector (an item id or a name)');
      const snapshot = index();
      const sel = selectItem(snapshot, selector);
      if (!sel.ok) throw new UsageError(sel.message);
      const item = sel.item;
      if (cmd.command === 'explain') {
        const sections = explainItem(snapshot, item);
        if (cmd.options.json) json({ ok: true, message: sections[0]?.title ?? '', id: item.id, decision: item.decision, reasons: item.reasons, sections });
        else io.out(explainText(sections));
        return 0;
      }
      if (cmd.options.json) {
        const items = [item, ...childrenOf(snapshot, item.id)];
        const ids = new Set(items.map((i) => i.id));
        const env = envelope(snapshot, items, snapshot.diagnostics.filter((d) => d.itemId !== null && ids.has(d.itemId)));
        json({ ...env, detail: { ...item.detail, receipt: null, diff: null } });
      } else io.out(showText(snapshot, item));
      return 0;
    }
    case 'hash': {
      const target = needArg('a bundle directory or manifest file');
      const r = hashTarget(target);
      if (cmd.options.json) {
        json(r.ok ? { ok: true, message: `${r.system} bundle ${r.name}`, system: r.system, name: r.name, contentHash: r.contentHash, capabilityHash: r.capabilityHash, reviewToken: r.reviewToken } : { ok: false, message: r.message });
      } else if (r.ok) io.out(`${r.system} bundle ${r.name}\ncontent hash:    ${r.contentHash}\ncapability hash: ${r.capabilityHash}\nreview token:    ${r.reviewToken}\n`);
      else io.err(`skillgate: ${r.message}\n`);
      return r.ok ? 0 : 1;
    }
    default:
      throw new UsageError(`unknown command \`${cmd.command}\`; run \`skillgate --help\``);
  }
}
