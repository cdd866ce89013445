// The procmux view page: a live list of sessions, and one session's terminal (read-only until
// "Take control"). The terminal's size follows the session; the browser never resizes it.
(() => {
  const token = new URLSearchParams(location.search).get('token') || '';
  const wsUrl = (path, params) => {
    const q = new URLSearchParams({ ...params, token });
    return `ws://${location.host}${path}?${q}`;
  };
  const $ = (id) => document.getElementById(id);
  const state = {
    sessions: [],
    selected: null,
    socket: null,
    term: null,
    mine: false,
    control: null,
    ended: false,
    ready: false,
    lastOutputAt: 0,
  };

  const age = (row) => {
    const ms = (row.endedAt ?? Date.now()) - row.startedAt;
    const s = Math.max(0, Math.floor(ms / 1000));
    if (s < 60) return `${s}s`;
    if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
    return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  };

  function renderList() {
    const rows = $('rows');
    rows.textContent = '';
    for (const row of state.sessions) {
      const tr = document.createElement('tr');
      tr.className = `row${row.id === state.selected ? ' selected' : ''}`;
      tr.dataset.id = row.id;
      const cells = [
        ['id', row.id],
        ['command', row.command],
        [`state-${row.state}`, row.state === 'exited' ? `exited ${row.exitCode}` : row.state],
        ['age', age(row)],
      ];
      for (const [cls, text] of cells) {
        const td = document.createElement('td');
        td.className = cls;
        td.textContent = text;
        td.title = text;
        tr.appendChild(td);
      }
      const stateCell = tr.children[2];
      if (row.input) {
        const span = document.createElement('span');
        span.className = 'waiting';
        span.textContent = ` · waiting for input${row.input.prompt ? `: ${row.input.prompt}` : ''}${row.input.echo === false ? ' (hidden)' : ''}`;
        stateCell.appendChild(span);
      }
      if (row.control) {
        const span = document.createElement('span');
        span.className = 'control';
        span.textContent = ` · ${row.control} has control`;
        stateCell.appendChild(span);
      }
      tr.addEventListener('click', () => select(row.id));
      rows.appendChild(tr);
    }
  }

  function setMode() {
    const mode = $('mode');
    const live = !state.ended && state.selected !== null;
    mode.className = state.mine ? 'mine' : '';
    mode.textContent =
      state.selected === null
        ? ''
        : state.ended
          ? 'session ended'
          : state.mine
            ? 'You have control: the model cannot type'
            : state.control
              ? `read-only: ${state.control} has control`
              : 'read-only';
    $('take').disabled = !live || state.mine || state.control !== null || !state.ready;
    $('take').hidden = state.mine;
    $('release').hidden = !state.mine;
    if (state.term) state.term.options.disableStdin = !state.mine;
  }

  function notice(text) {
    $('notice').textContent = text;
  }

  function connectList() {
    const socket = new WebSocket(wsUrl('/ws/sessions', {}));
    socket.onopen = () => {
      $('status').textContent = 'live';
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type !== 'sessions') return;
      state.sessions = message.sessions;
      if (state.selected === null) {
        const wanted = new URLSearchParams(location.search).get('session');
        const first =
          state.sessions.find((s) => s.id === wanted) || state.sessions.find((s) => s.state === 'running');
        if (first) select(first.id);
      }
      renderList();
    };
    socket.onclose = () => {
      $('status').textContent = 'disconnected (is procmux still running?)';
      setTimeout(connectList, 2000);
    };
  }

  function select(id) {
    if (state.socket) {
      state.socket.onclose = null;
      state.socket.close();
    }
    if (state.term) state.term.dispose();
    Object.assign(state, { selected: id, mine: false, control: null, ended: false, ready: false });
    $('title').textContent = id;
    notice('');
    const term = new Terminal({
      disableStdin: true,
      scrollback: 5000,
      convertEol: false,
      fontSize: 14,
      cursorBlink: false,
    });
    state.term = term;
    term.open($('terminal'));
    term.attachCustomKeyEventHandler((event) => {
      if (!state.mine && event.type === 'keydown')
        notice('Read-only: press "Take control" to type into this session.');
      return state.mine;
    });
    term.onData((data) => {
      if (state.mine && state.socket) state.socket.send(JSON.stringify({ type: 'input', data }));
    });
    const socket = new WebSocket(wsUrl('/ws/session', { id }));
    state.socket = socket;
    socket.onmessage = (event) => {
      const m = JSON.parse(event.data);
      if (m.type === 'hello') {
        term.resize(m.columns, m.rows);
        state.control = m.control;
        state.ended = !['starting', 'running'].includes(m.state);
      } else if (m.type === 'output') {
        term.write(m.data, () => {
          state.lastOutputAt = Date.now();
        });
      } else if (m.type === 'ready') {
        state.ready = true;
      } else if (m.type === 'resize') {
        term.resize(m.columns, m.rows);
      } else if (m.type === 'state') {
        state.ended = !['starting', 'running'].includes(m.state);
        if (state.ended) {
          state.mine = false;
          notice(`The session is ${m.state}.`);
        }
      } else if (m.type === 'control') {
        state.mine = m.mine === true;
        state.control = m.holder;
        if (state.mine) {
          term.focus();
          notice("You have the keyboard. The model's input to this session is refused until you release it.");
        } else notice(m.holder ? '' : 'Control released: the model has the keyboard again.');
      } else if (m.type === 'error') {
        notice(m.message);
      }
      setMode();
    };
    socket.onclose = (event) => {
      if (state.socket === socket) notice(`Disconnected${event.reason ? `: ${event.reason}` : ''}.`);
    };
    renderList();
    setMode();
  }

  $('take').addEventListener('click', () => state.socket?.send(JSON.stringify({ type: 'take' })));
  $('release').addEventListener('click', () => state.socket?.send(JSON.stringify({ type: 'release' })));
  setInterval(renderList, 1000);
  connectList();

  // For tests and tools: the terminal's text as procmux's screen() renders it (logical lines,
  // right-trimmed, no trailing blank lines), and the page's state.
  window.procmuxView = {
    text() {
      const term = state.term;
      if (!term) return '';
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
      return {
        selected: state.selected,
        mine: state.mine,
        control: state.control,
        ended: state.ended,
        ready: state.ready,
        lastOutputAt: state.lastOutputAt,
        size: state.term ? [state.term.cols, state.term.rows] : null,
      };
    },
  };
})();
