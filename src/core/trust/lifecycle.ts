import type { TrustStore } from './trustStore';
import type { HostFacts } from '../host';

/**
 * The bundle lifecycle (trust.md "Operations"): review, trust with the exact review
 * token, enable as a separate step, disable, revoke; and the `check` gate. Every
 * operation re-reads the bundle from disk and the store under its lock, so a stale
 * view can never enable what another process revoked.
 *
 * This is the context the operations take, each in its own file: `review` (reviewBundle.ts),
 * `trust` (grantTrust.ts), `enable`, `disable` and `revoke` (switches.ts). The `check` gate
 * (checkGate.ts) and `doctor` (doctor.ts) need no context: they read an index snapshot or the store.
 */
export interface LifecycleContext {
  readonly store: TrustStore;
  readonly host?: HostFacts;
  /** False in VS Code Restricted Mode: trust and enable are refused. */
  readonly workspaceTrusted?: boolean;
  readonly now?: () => Date;
}
