import { MAX_HOOK_LABEL_CHARS } from './limits';
import { pythonLen } from './pythonText';

/**
 * A hook's label: its argv joined by single spaces, the name Rivumi's runner gives the hook
 * (rivumi.md §4.6). One longer than 512 characters makes the runner raise after the hook ran,
 * even after a timeout or a non-zero exit, and Rivumi's fail-closed wrapper makes every
 * exception a deny (§4.7). Its schema never checks the label, so the hook loads, runs on
 * every event it matches, and denies each one.
 */

/** The label's length in Python characters when it is past the limit; undefined when it fits. */
function overlongLabel(argv: readonly string[]): number | undefined {
  const length = pythonLen(argv.join(' '));
  return length > MAX_HOOK_LABEL_CHARS ? length : undefined;
}

/** The warning at the hook's argv, or undefined when its label fits. */
export function overlongLabelMessage(argv: readonly string[]): string | undefined {
  const length = overlongLabel(argv);
  return length === undefined
    ? undefined
    : `hook label is ${length} characters, longer than ${MAX_HOOK_LABEL_CHARS}: Rivumi runs this hook, then fails closed (deny) on every event it matches`;
}

/** What Rivumi does after running the hook, for the review's line about it; null when its label fits. */
export function afterOverlongLabel(argv: readonly string[]): string | null {
  return overlongLabel(argv) === undefined
    ? null
    : `then fails closed (deny) on every event it matches: its label is longer than ${MAX_HOOK_LABEL_CHARS} characters`;
}
