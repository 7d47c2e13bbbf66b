/**
 * The `ui://tasks/board` view: draws a `list_tasks` result as a board whose buttons call
 * `complete_task` and `delete_task` through the host (which relays delete's confirmation to the
 * user), then redraws from the app-only `task_board_refresh`. Logic: `model.ts`. Built by `views/build.mjs`.
 */
import { createApp, h, resultText, showStatus, type ToolResultLike } from '../../shared/app.js';
import { type Board, type Filter, headline, parseBoard } from './model.js';

const app = createApp('mcp-workshop-task-board');
let board: Board | undefined;
/** One action at a time: a second click while the host asks the user to confirm does nothing. */
let busy = false;

function render(): void {
  const root = document.getElementById('board');
  if (!root || !board) return;
  const items = board.items.map((task) => {
    const complete = h('button', { type: 'button', 'data-testid': `complete-${task.id}` }, 'Complete');
    if (task.done || busy) complete.setAttribute('disabled', '');
    complete.addEventListener('click', () => void act('complete_task', task.id));
    const remove = h('button', { type: 'button', 'data-testid': `delete-${task.id}` }, 'Delete');
    if (busy) remove.setAttribute('disabled', '');
    remove.addEventListener('click', () => void act('delete_task', task.id));
    return h(
      'li',
      { class: task.done ? 'done' : 'open', 'data-testid': 'task', 'data-task-id': String(task.id) },
      h('span', { class: 'title' }, `#${task.id} ${task.title}`),
      complete,
      remove,
    );
  });
  root.replaceChildren(
    h('h2', {}, 'Tasks'),
    h('p', { class: 'muted', 'data-testid': 'headline' }, headline(board)),
    items.length > 0 ? h('ul', { class: 'tasks' }, ...items) : h('p', { class: 'muted' }, 'No tasks.'),
  );
}

/** Draws a board result; returns false (and says why) when the result is not one. */
function show(result: ToolResultLike): boolean {
  const parsed = result.isError ? undefined : parseBoard(result.structuredContent);
  if (!parsed) {
    showStatus(resultText(result) || 'The task list could not be read.');
    return false;
  }
  board = parsed;
  render();
  return true;
}

async function refresh(filter: Filter): Promise<void> {
  show(await app.callServerTool({ name: 'task_board_refresh', arguments: { status: filter } }));
}

async function act(tool: 'complete_task' | 'delete_task', id: number): Promise<void> {
  if (!board || busy) return;
  busy = true;
  render();
  showStatus(tool === 'delete_task' ? `Deleting #${id}…` : `Completing #${id}…`);
  try {
    const result = await app.callServerTool({ name: tool, arguments: { id } });
    // A declined confirmation or a vanished task comes back as an isError result: say so, then redraw.
    showStatus(result.isError ? resultText(result) : '');
    await refresh(board.filter);
  } catch (error) {
    showStatus(`The host could not call ${tool}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    busy = false;
    render();
  }
}

app.ontoolresult = (result) => {
  if (show(result)) showStatus('');
};
app.connect().catch((error: unknown) => {
  showStatus(`Could not connect to the host: ${error instanceof Error ? error.message : String(error)}`);
});
