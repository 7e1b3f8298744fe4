import * as fs from 'node:fs';

/** `lstat` that never follows a link, undefined for a path that is missing or cannot be examined. */
export function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}
