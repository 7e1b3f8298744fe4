import type { HostCondition } from '../../capabilities';
import type { HostFacts } from '../../host';
import type { WhenFacts } from './codewhaleBundle';
import { asciiLower } from '../../text/rustText';

/** Whether a bundle's `[when]` holds on this host, and each reason it does not (codewhale.md §4.9). */
export function applicability(declared: HostCondition | null, host: HostFacts): WhenFacts {
  if (!declared) return { applicable: true, reasons: [] };
  const reasons: string[] = [];
  const { os, binaries } = declared;
  if (os && !os.some((o) => asciiLower(o) === host.os)) {
    reasons.push(
      os.length === 0 ? 'os = [] never applies' : `this host is ${host.os}; the bundle applies to ${os.join(', ')}`,
    );
  }
  for (const b of binaries ?? []) if (!host.hasBinary(b)) reasons.push(`binary \`${b}\` is not on PATH`);
  return { applicable: reasons.length === 0, reasons };
}
