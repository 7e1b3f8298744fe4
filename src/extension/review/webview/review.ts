// The review panel's script. It builds every node with createElement/textContent:
// bundle text never reaches innerHTML, so `<script>` in a description stays text.
// This entry wires the host's messages to the render (render.ts); each section has its own module.
import type { HostMessage } from '../reviewProtocol';
import { openDiffs } from './changes';
import { vscode } from './panel';
import { render } from './render';
import { showAlone, showStatus } from './status';

/** The outcome of an action: the host posts it just before re-rendering, so the next render shows it again (once). */
let pendingStatus: { text: string; error: boolean } | undefined;

/** Whether a review has been rendered: the status line lives in its header. */
let rendered = false;

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const msg = event.data;
  if (msg.type === 'render') {
    render(msg.model, msg.changed);
    rendered = true;
    if (pendingStatus) showStatus(pendingStatus);
    pendingStatus = undefined;
    vscode.setState({ id: msg.model.id, open: [...openDiffs] });
  } else if (msg.type === 'status') {
    const st = { text: msg.text, error: msg.error };
    // Shown alone, it is not an action's outcome for the next render to repeat.
    if (!rendered) showAlone(st);
    else {
      pendingStatus = st;
      showStatus(st);
    }
  }
});

const saved = vscode.getState() as { open?: string[] } | undefined;
// Restored before any render: a render message arrives only after this script has run.
for (const key of saved?.open ?? []) openDiffs.add(key);
vscode.postMessage({ type: 'ready' });
