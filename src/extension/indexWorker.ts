import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { CoreCodeCache } from '../core/cache/codeCache';
import type * as Service from './flows/indexWorkerService';
import type { IndexWorkerData } from './flows/indexWorkerProtocol';

/**
 * The index worker (dist/indexWorker.js): the core indexer, off the extension host's
 * thread (flows/indexWorkerService.ts). The host starts it right after activation, so its
 * bootstrap overlaps the window's start; this entry first has the core compiled from the
 * V8 code cache an earlier worker left (docs/code-cache.md), as the CLI does: on an idle
 * machine its first answer came after 128 instead of 167 ms, and while VS Code starts, the
 * worker competes for the same cores.
 */
if (!parentPort) throw new Error('indexWorker.js runs as a worker thread of the Skillgate extension');
const codeCache = new CoreCodeCache(path.join(__dirname, 'core.js'));
codeCache.install((workerData as IndexWorkerData | undefined)?.cacheDir ?? null);
// `require`, not `import`: the service's imports load the core, which must come after the cache is installed.
// eslint-disable-next-line @typescript-eslint/no-require-imports
(require('./flows/indexWorkerService') as typeof Service).serveIndex(parentPort, () => codeCache.save());
