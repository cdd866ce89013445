// The procmux terminal as an MCP App: the host renders this page beside an exec or process
// result; it shows that result's session live and, after "Take control", sends the person's
// keys. Everything goes through the host as calls of the app-only tool procmux_terminal (the
// page has no network of its own). Bundled into dist/app/terminal.html by scripts/build-app.mjs.
import { App } from '@modelcontextprotocol/ext-apps/app-with-deps';
import { Terminal } from '@xterm/xterm';

const TOOL = 'procmux_terminal';
const $ = (id) => document.getElementById(id);
// Who this page is, for the control lease (two pages of one session are two viewers).
const viewer = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) =>
  b.toString(16).padStart(2, '0'),
).join('');
const state = {
  id: null,
  live: false,
  mine: false,
  control: null,
  ready: false,
  offset: 0,
};
const term = new Terminal({ disableStdin: true, scrollback: 5000, fontSize: 14, cursorBlink: false });
term.open($('terminal'));

const app = new App({ name: 'procmux terminal', version: '1.0.0' }, {});

async function call(args) {
  const result = await app.callServerTool({ name: TOOL, arguments: { ...args, viewer } });
  if (result.isError) throw new Error(result.content?.[0]?.text ?? 'the call failed');
  return result.structuredContent;
}

function notice(text) {
  $('notice').textContent = text;
}

function apply(answer) {
  if (answer.columns !== term.cols || answer.rows !== term.rows) term.resize(answer.columns, answer.rows);
  state.live = answer.live;
  state.mine = answer.mine;
  state.control = answer.control;
  $('title').textContent = answer.session_id;
  $('mode').className = state.mine ? 'mine' : '';
  $('mode').textContent = !state.live
    ? `session ${answer.state}`
    : state.mine
      ? 'You have control: the model cannot type'
      : state.control
        ? `read-only: ${state.control} has control`
        : 'read-only';
  $('take').hidden = state.mine;
  $('take').disabled = !state.live || state.control !== null || !state.ready;
  $('release').hidden = !state.mine;
  term.options.disableStdin = !state.mine;
}

/** Shows session `id`: its screen now, then its output as it comes, until it ends or another is shown. */
async function follow(id) {
  if (state.id === id) return;
  state.id = id;
  state.ready = false;
  term.reset();
  notice('');
  try {
    const first = await call({ action: 'attach', session_id: id });
    apply(first);
    term.write(first.data);
    state.offset = first.offset;
    state.ready = true;
    apply(first);
    for (;;) {
      let next;
      try {
        next = await call({ action: 'read', session_id: id, after: state.offset, timeout: 10_000 });
      } catch (error) {
        // A host that dropped one call is asked again; a session gone or a refusal ends it.
        if (
          state.id !== id ||
          /^ERR_(PROCESS_NOT_FOUND|PROCESS_OWNERSHIP|INVALID_OPTION)/.test(error.message)
        )
          throw error;
        notice(`${error.message} (trying again)`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      if (state.id !== id) return;
      if (next.data) term.write(next.data);
      state.offset = next.offset;
      apply(next);
      if (!next.live && !next.more) return;
    }
  } catch (error) {
    if (state.id === id) notice(String(error.message ?? error));
  }
}

// Keys typed while a call is on its way are sent together next, in order.
let pending = '';
let sending = false;
async function send(data) {
  pending += data;
  if (sending) return;
  sending = true;
  try {
    while (pending !== '') {
      const chunk = pending;
      pending = '';
      await call({ action: 'input', session_id: state.id, data: chunk });
    }
  } catch (error) {
    pending = '';
    notice(String(error.message ?? error));
  } finally {
    sending = false;
  }
}

term.attachCustomKeyEventHandler((event) => {
  if (!state.mine && event.type === 'keydown')
    notice('Read-only: press "Take control" to type into this session.');
  return state.mine;
});
term.onData((data) => {
  if (state.mine && state.id) void send(data);
});

async function control(action) {
  try {
    apply(await call({ action, session_id: state.id }));
    if (action === 'take') {
      term.focus();
      notice("You have the keyboard. The model's input to this session is refused until you release it.");
    } else notice('Control released: the model has the keyboard again.');
  } catch (error) {
    notice(String(error.message ?? error));
  }
}
$('take').addEventListener('click', () => void control('take'));
$('release').addEventListener('click', () => void control('release'));

// The session comes from the result (exec mode session, any process action on one), or from
// the call's arguments while the result is still on its way.
app.ontoolinput = (params) => {
  const id = params.arguments?.session_id;
  if (typeof id === 'string') void follow(id);
};
app.ontoolresult = (result) => {
  const id = result.structuredContent?.session?.id;
  if (typeof id === 'string') void follow(id);
  else if (state.id === null)
    notice('No session in this result: the terminal shows exec mode session and process results.');
};
app.onteardown = async () => {
  if (state.mine) await call({ action: 'release', session_id: state.id }).catch(() => {});
  state.id = null;
  return {};
};

// For tests and tools: the terminal's text as procmux's screen() renders it (logical lines,
// right-trimmed, no trailing blank lines), and the page's state.
window.procmuxApp = {
  text() {
    const buffer = term.buffer.active;
    const lines = [];
    for (let i = 0; i < buffer.length; i++) {
      const line = buffer.getLine(i);
      const text = line.translateToString(true);
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    const trimmed = lines.map((l) => l.replace(/\s+$/, ''));
    while (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
    return trimmed.join('\n');
  },
  get state() {
    return { ...state, viewer, size: [term.cols, term.rows] };
  },
};

app.connect().catch((error) => notice(`Could not reach the host: ${error.message ?? error}`));
