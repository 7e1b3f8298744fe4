import type { IoFault } from './safeFs';

/**
 * Whether a failed call failed for want of permission (EACCES, EPERM): the one failure that
 * depends on who asks. A directory an agent meets this way is out of reach for this user only;
 * the agent run as a user who may read it (root, a container, `sudo`) loads what is there, so
 * Skillgate, which cannot read it either, must say so instead of treating it as absent.
 */
export function deniedByPermissions(fault: IoFault | undefined): boolean {
  return fault?.code === 'EACCES' || fault?.code === 'EPERM';
}
