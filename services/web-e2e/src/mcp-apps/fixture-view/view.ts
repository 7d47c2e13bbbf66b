/**
 * @module mcp-apps/fixture-view/view
 * The fixture view's script, on the plain ext-apps `App` class: it shows the tool input and result
 * the host sends, calls any tool by name through the host, grows on request (auto-resize reports
 * it), asks for an absurd height, and logs its teardown. Partner: ../fixture-server.ts serves it
 * as `ui://fixture/view`.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { App } from '@modelcontextprotocol/ext-apps';

function output(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`fixture view: no #${id}`);
  return element;
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
}

const app = new App({ name: 'fixture-view', version: '0.1.0' }, {}, { autoResize: true });

// An opaque origin ("null") shows the view runs without allow-same-origin.
output('origin').textContent = `origin: ${window.origin}`;
app.ontoolinput = ({ arguments: args }) => {
  output('input').textContent = `input: ${JSON.stringify(args ?? {})}`;
};
app.ontoolresult = (result) => {
  output('result').textContent = `result: ${textOf(result)}`;
};
app.onteardown = async () => {
  await app.sendLog({ level: 'info', data: 'fixture view: teardown received' });
  return {};
};

output('call').addEventListener('click', () => {
  const name = (document.getElementById('tool-name') as HTMLInputElement).value;
  const target = output('call-result');
  target.textContent = 'calling…';
  app.callServerTool({ name, arguments: name === 'fixture_echo' ? { message: 'ping' } : {} }).then(
    (result) => {
      target.textContent = `called: ${textOf(result)}`;
    },
    (error: unknown) => {
      target.textContent = `refused: ${error instanceof Error ? error.message : String(error)}`;
    },
  );
});
output('grow').addEventListener('click', () => {
  output('tall').style.height = '900px';
});
// What a runaway or hostile view could send: the host must not obey it.
output('huge').addEventListener('click', () => {
  void app.sendSizeChanged({ height: 1_000_000 });
});

await app.connect();
