import type { NestingExcess } from '../../documents/nesting';

/**
 * Python's json decoder recurses once per array or object and raises RecursionError
 * past the interpreter's limit: measured at 994 levels on Python 3.11 (and older, whose
 * limit is 1000 frames less what the caller holds), 1497 on 3.12, 9998 on 3.13.
 * RecursionError is not a ValueError, so it is not one of the decode or parse failures
 * Rivumi's loaders turn into their own messages (rivumi.md §4.4, §5.4): it propagates,
 * and the load that read the file ends with it and yields nothing, like any failed load
 * (§6). Skillgate cannot know which Python runs Rivumi, so it refuses more than 512
 * levels, below every version's limit with room for Rivumi's own frames, as that
 * RecursionError. No valid file comes near it (the schemas read 5 levels at most); a
 * file nested between 512 levels and the real limit is reported as failing although a
 * newer Python might parse it, an error that fails `check`: closed, never open.
 */
export const PYTHON_JSON_MAX_DEPTH = 512;

/** Python's own words for the refusal, with the kind of value it was decoding. */
export function pythonRecursionError(deep: NestingExcess): string {
  return `RecursionError: maximum recursion depth exceeded while decoding a JSON ${deep.container} from a unicode string`;
}
