// A separate process that writes to one trust store, for the concurrency and crash
// tests: `node storeWriter.js <stateDir> <bundleKey> <count|forever>`.
// Each operation is a real store mutation: a trust (a receipt), an enable or a disable.
import { TrustStore, touched } from '../../../src/core/trust/trustStore';

const [dir, key, countArg] = process.argv.slice(2) as [string, string, string];
const store = new TrustStore(dir);
const count = countArg === 'forever' ? Number.POSITIVE_INFINITY : Number(countArg);
const hex = (n: number) => n.toString(16).padStart(64, '0');

async function main(): Promise<void> {
  for (let i = 0; i < count; i++) {
    const op = i % 3;
    const r = await store.mutate((state) => {
      const entry = state.bundles[key] ?? { system: 'codewhale' as const, scope: 'workspace' as const, name: key.slice(0, 8), path: `/bundles/${key}`, generation: 0, enabled: false, trust: null, reviewHistory: [] };
      const receipt = { contentHash: hex(i), capabilityHash: hex(i + 1), capabilities: { op: i }, files: { 'plugin.toml': { sha256: hex(i), size: i, executable: false } }, reviewedAt: new Date().toISOString() };
      state.bundles[key] =
        op === 0 ? touched({ ...entry, trust: receipt, enabled: false, reviewHistory: [...entry.reviewHistory, receipt].slice(-32) }) : touched({ ...entry, enabled: op === 1 });
      return { ok: true, value: null };
    });
    if (!r.ok) {
      process.stderr.write(`${r.message}\n`);
      process.exit(1);
    }
  }
}

void main();
