import * as path from 'node:path';
import * as vm from 'node:vm';
import { buildSync } from 'esbuild';
import type { ReviewViewModel } from '../../../src/core/review/reviewModel';

/**
 * The review panel's script as esbuild.mjs bundles it into media/review.js, run in a context
 * of its own over a stand-in DOM: the few calls it makes (createElement, textContent, append,
 * attributes), recorded as a tree a test can read. The page itself, in Chromium, is an e2e
 * suite's (test/e2e/reviewScript.e2e.ts); this one reaches every field of a view model in a unit test.
 */
export class StandInElement {
  readonly children: StandInElement[] = [];
  className = '';
  id = '';
  title = '';
  private ownText = '';
  private readonly attributes = new Map<string, string>();
  readonly classList = { add: (c: string) => void (this.className = `${this.className} ${c}`.trim()) };

  constructor(readonly tagName: string) {}

  /** The text set on this element itself, not its children's. */
  get text(): string {
    return this.ownText;
  }

  get textContent(): string {
    return this.ownText + this.children.map((c) => c.textContent).join('');
  }

  set textContent(text: string) {
    this.ownText = text;
    this.children.length = 0;
  }

  get childElementCount(): number {
    return this.children.length;
  }

  append(...nodes: (StandInElement | string)[]): void {
    for (const n of nodes)
      this.children.push(typeof n === 'string' ? Object.assign(new StandInElement('#text'), { textContent: n }) : n);
  }

  replaceChildren(...nodes: StandInElement[]): void {
    this.children.length = 0;
    this.append(...nodes);
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  addEventListener(): void {}

  querySelector(tag: string): StandInElement | null {
    for (const c of this.children) {
      if (c.tagName === tag) return c;
      const inner = c.querySelector(tag);
      if (inner) return inner;
    }
    return null;
  }

  /** This element and every one under it, depth first. */
  *all(): Generator<StandInElement> {
    yield this;
    for (const c of this.children) yield* c.all();
  }
}

let script: string | undefined;

/** The panel as its script renders this model: the root element, with everything under it. */
export function renderReview(model: ReviewViewModel): StandInElement {
  script ??= buildSync({
    entryPoints: [path.resolve(__dirname, '../../../src/extension/review/webview/review.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  }).outputFiles[0]?.text;
  const root = new StandInElement('main');
  let onMessage: ((e: { data: unknown }) => void) | undefined;
  const page = {
    document: {
      createElement: (tag: string) => new StandInElement(tag),
      getElementById: (id: string) => [...root.all()].find((e) => e.id === id) ?? (id === 'root' ? root : null),
    },
    window: { addEventListener: (_type: string, listener: (e: { data: unknown }) => void) => (onMessage = listener) },
    acquireVsCodeApi: () => ({ postMessage: () => undefined, setState: () => undefined, getState: () => undefined }),
  };
  vm.runInNewContext(script ?? '', page);
  // As the host posts it: JSON, so nothing but the model's data reaches the page.
  onMessage?.({ data: { type: 'render', model: JSON.parse(JSON.stringify(model)) as unknown, changed: false } });
  return root;
}
