import * as fs from 'node:fs';
import * as path from 'node:path';
import { CoreCodeCache } from '../core/cache/codeCache';
import { BlockingOutput } from './blockingOutput';
import { lostArgumentProblem } from './argumentBytes';
import { currentDirectory } from './currentDirectory';
import { run } from './main';
import { applyCliV8Flags } from './v8Flags';

// The `skillgate` binary: a thin face over the core (see main.ts), which it compiles
// from the V8 code cache a previous run left (codeCache.ts).
// V8's options first: the core's code cache is keyed by them, and every function compiles under them.
const v8Flags = applyCliV8Flags();
const codeCache = new CoreCodeCache(path.join(__dirname, 'core.js'), { v8Flags });
// Standard output written as it goes, a full pipe waited for (blockingOutput.ts).
const stdout = new BlockingOutput();
// Standard error likewise: through `process.stderr`, a reader gone (`2>&1 | head -1`) threw an
// unhandled EPIPE, and a usage error exited 1 instead of 2.
const stderr = new BlockingOutput((bytes, offset, length) => fs.writeSync(2, bytes, offset, length));
// The default workspace and the base of every relative path: one that cannot be named is a usage error.
const here = currentDirectory();
const args = process.argv.slice(2);
// A path argument Node decoded with U+FFFD would name another file, or none: a usage error too.
const problem = here.ok ? lostArgumentProblem(args) : here.problem;
void (
  here.ok && problem === undefined
    ? run(
        args,
        {
          out: (t) => stdout.write(t),
          err: (t) => stderr.write(t),
          env: process.env,
          cwd: here.cwd,
        },
        (options) => codeCache.install(options.cacheDir),
      )
    : Promise.resolve().then(() => {
        stderr.write(`skillgate: ${problem ?? ''}\n`);
        return 2;
      })
).then(
  (code) => {
    process.exitCode = code;
    codeCache.save();
  },
  // Only a failure to write the report itself gets here (run() returns every other error as exit 2).
  (e: unknown) => {
    process.exitCode = 2;
    try {
      stderr.write(`skillgate: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    } catch {
      // Standard error itself fails (`2>/dev/full`): the exit code is all that is left to say it.
    }
  },
);
