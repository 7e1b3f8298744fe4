import { joinAsSpelled } from './spelledPath';

/**
 * A leading `~` as Codewhale expands one (codewhale_paths, for `$CODEWHALE_HOME`): `~`, `~/x`
 * or `~\x`, on every platform, with the home in front, appended as upstream pushes it, not
 * normalized (`~/a/../b` keeps its `..`: `a` may be a link); `~user` and any other value are
 * left as they are. Undefined when there is no home to expand it with: the caller decides
 * what that means (Codewhale disables user discovery). Skillgate's own home settings expand
 * the same way, so that a value copied from `$CODEWHALE_HOME` names the same directory.
 */
export function expandLeadingTilde(value: string, home: string | undefined): string | undefined {
  if (value !== '~' && !/^~[/\\]/.test(value)) return value;
  if (home === undefined) return undefined;
  const rest = value.slice(1).replace(/^[/\\]+/, '');
  return rest === '' ? home : joinAsSpelled(home, rest);
}
