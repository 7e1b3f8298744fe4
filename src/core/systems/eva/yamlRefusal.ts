/** Where libyaml refuses a text (its problem_mark, as an offset into the text) and its words for it. */
export interface LibyamlRefusal {
  readonly offset: number;
  readonly message: string;
}

/**
 * Collects refusals found in any order and keeps the first in the text: libyaml scans in
 * text order, so that is the one it reports.
 */
export class FirstRefusal {
  private found: LibyamlRefusal | undefined;

  refuse(offset: number, message: string): void {
    if (!this.found || offset < this.found.offset) this.found = { offset, message };
  }

  get first(): LibyamlRefusal | undefined {
    return this.found;
  }
}
