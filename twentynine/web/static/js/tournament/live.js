// Live messages for the tournament pages and notices: the person's /ws/me socket (opened while
// anyone listens, reopened when it drops). Each handler gets every message as an object.
const handlers = new Set();
let socket = null;
let retries = 0;

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/ws/me`);
  socket = ws;
  ws.addEventListener('open', () => { retries = 0; });
  ws.addEventListener('message', (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    for (const handler of [...handlers]) handler(message);
  });
  ws.addEventListener('close', () => {
    if (socket !== ws) return;
    socket = null;
    if (handlers.size) setTimeout(() => { if (!socket && handlers.size) connect(); },
      Math.min(5000, 300 * 2 ** retries++));
  });
}

/** Call ``handler`` with each live message until the returned function is called. */
export function onLive(handler) {
  handlers.add(handler);
  if (!socket) connect();
  return () => {
    handlers.delete(handler);
    if (!handlers.size && socket) {
      const ws = socket;
      socket = null;
      ws.close();
    }
  };
}
