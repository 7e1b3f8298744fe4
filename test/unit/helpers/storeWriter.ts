// A separate process that writes to one trust store, for the concurrency and crash
// tests: `node storeWriter.js <stateDir> <bundleKey> <count|forever>`.
// Each operation is a real store mutation: a trust (a receipt), an enable or a disable.
//
// `node storeWriter.js <stateDir> <bundleKey> stop-in-enable` makes one enable of an
// existing entry and stops itself (SIGSTOP) inside the critical section, after the new
// state is written to its temporary file and before it is renamed into place, with a
// lock stale time of 2 s: the lock-takeover test resumes it with SIGCONT. It prints
// `stopping` on stderr just before it stops, and its outcome (`ok` or the refusal) after.
import * as fs from 'node:fs';
import { TrustStore, touched } from '../../../src/core/trust/trustStore';

const [dir, key, countArg] = process.argv.slice(2) as [string, string, string];
const hex = (n: number) => n.toString(16).padStart(64, '0');

async function stopInEnable(): Promise<void> {
  const stopHere = () => {
    fs.writeSync(2, 'stopping\n');
    process.kill(process.pid, 'SIGSTOP');
  };
  const store = new TrustStore(dir, { lockStaleMs: 2000, beforeCommit: stopHere });
  const r = await store.mutate((state) => {
    const entry = state.bundles[key];
    if (!entry) return { ok: false, message: `no entry ${key}` };
    state.bundles[key] = touched({ ...entry, enabled: true });
    return { ok: true, value: null };
  });
  fs.writeSync(2, r.ok ? 'ok\n' : `${r.message}\n`);
  process.exit(r.ok ? 0 : 1);
}

async function main(): Promise<void> {
  const store = new TrustStore(dir);
  const count = countArg === 'forever' ? Number.POSITIVE_INFINITY : Number(countArg);
  for (let i = 0; i < count; i++) {
    const op = i % 3;
    const r = await store.mutate((state) => {
      const entry = state.bundles[key] ?? {
        system: 'codewhale' as const,
        scope: 'workspace' as const,
        name: key.slice(0, 8),
        path: `/bundles/${key}`,
        generation: 0,
        enabled: false,
        trust: null,
        reviewHistory: [],
      };
      const receipt = {
        contentHash: hex(i),
        capabilityHash: hex(i + 1),
        capabilities: { op: i },
        files: { 'plugin.toml': { sha256: hex(i), size: i, executable: false } },
        reviewedAt: new Date().toISOString(),
      };
      state.bundles[key] =
        op === 0
          ? touched({
              ...entry,
              trust: receipt,
              enabled: false,
              reviewHistory: [...entry.reviewHistory, receipt].slice(-32),
            })
          : touched({ ...entry, enabled: op === 1 });
      return { ok: true, value: null };
    });
    if (!r.ok) {
      process.stderr.write(`${r.message}\n`);
      process.exit(1);
    }
  }
}

void (countArg === 'stop-in-enable' ? stopInEnable() : main());
