import type { CST } from 'yaml';

/** Where libyaml refuses a text (its problem_mark, as an offset into the text) and its words for it. */
export interface LibyamlRefusal {
  readonly offset: number;
  readonly message: string;
  /**
   * Where libyaml meets it, when later than where it reports it: its parser sees a token only
   * once its scanner has read on past every place a simple key pending before it could end.
   */
  readonly at?: number;
}

/**
 * Collects refusals found in any order and keeps the first in the text: libyaml scans in
 * text order, so that is the one it reports.
 */
export class FirstRefusal {
  private found: LibyamlRefusal | undefined;

  refuse(offset: number, message: string, at = offset): void {
    if (!this.found || at < (this.found.at ?? this.found.offset))
      this.found = at === offset ? { offset, message } : { offset, message, at };
  }

  get first(): LibyamlRefusal | undefined {
    return this.found;
  }
}

/** libyaml's words where a node should start and none does (a `,` or an indicator stands there). */
export const NODE_EXPECTED = 'did not find expected node content';

/** libyaml's words inside a flow collection where an entry ended and neither `,` nor its close follows. */
export function entryEndExpected(close: ']' | '}'): string {
  return `did not find expected ',' or '${close}'`;
}

/** The indicator that closes a flow collection. */
export function closeOf(flow: CST.FlowCollection): ']' | '}' {
  return flow.start.source === '{' ? '}' : ']';
}

/**
 * libyaml's words where a block collection expected its next entry and found another token:
 * a key in a mapping, a `-` in a sequence, except a sequence written at its mapping's own
 * indentation (`k:` then `- a`), which ends there and leaves the mapping to expect a key.
 */
export function blockEntryExpected(collection: 'mapping' | 'sequence', atItsMappingsIndentation: boolean): string {
  return collection === 'mapping' || atItsMappingsIndentation
    ? 'did not find expected key'
    : "did not find expected '-' indicator";
}

/** The column of `offset` in `text` (0-based: characters since the line began). */
export function columnOf(text: string, offset: number): number {
  return offset - text.lastIndexOf('\n', offset - 1) - 1;
}

/** A document the parser accepted but serde_yaml refuses: a limit, an unknown anchor, a key given twice through an alias. */
export class YamlRefusal extends Error {
  constructor(
    message: string,
    readonly offset: number,
    /** How many characters the error's range covers from its offset. */
    readonly length = 0,
    /** Where serde_yaml's words place the error, when elsewhere than the range. */
    readonly mark?: number,
  ) {
    super(message);
  }
}
