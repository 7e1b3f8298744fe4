import * as path from 'node:path';
import { displayText } from '../text/displayText';
import { decodeRawName } from '../fs/rawNames';
import type { ReviewReport } from '../trust/reviewBundle';
import { systemOf } from '../systems/registry';
import type { HookView } from './reviewModel';
import { ownWords, type ShowText } from './shown';

/** The unit's hooks, each with the repository files its argv names, covered by the review token or not. */
export function hookViews(r: ReviewReport, S: ShowText): HookView[] {
  const item = r.item;
  const agent = systemOf(item.system);
  const hookCwd = item.workspace ?? path.dirname(item.path);
  return Object.values(r.capabilities?.hooks ?? {}).map((h) => {
    const coverage = agent.hooks?.argvFiles(hookCwd, h.argv) ?? { files: [], problems: [] };
    return {
      event: displayText(h.event),
      argv: h.argv.map(S),
      timeoutSeconds: h.timeoutSeconds,
      tools: h.tools.map(S),
      cwd: agent.hooks?.cwd ?? '',
      files: [
        ...coverage.files.map((f) => ({
          path: S(decodeRawName(f)),
          covered: true,
          note: ownWords('covered: its bytes are part of the review token'),
        })),
        ...coverage.problems.map((p) => ({
          path: S(h.argv[p.argIndex] ?? ''),
          covered: false,
          // The problem quotes the argument (Python's repr, which keeps a Hangul filler as it is).
          note: S(`not covered: ${p.message}`),
        })),
      ],
      afterRun: agent.hooks?.afterRun(h.argv) ?? null,
    };
  });
}
