// The table socket (docs/protocol.md): one connection that comes back by itself.
// After a drop it reconnects with exponential backoff and asks for what it missed
// (last_version); the server answers with the missed events or a fresh snapshot.

const FATAL = { 4401: 'signed_out', 4403: 'refused', 4404: 'no_table' };
const PING_MS = 25000;

export class TableSocket {
  constructor(tableId, { code = null, onMessage, onStatus }) {
    this.tableId = tableId;
    this.code = code;
    this.onMessage = onMessage;
    this.onStatus = onStatus; // ('open' | 'reconnecting' | fatal reason, retryInSeconds)
    this.version = null;
    this.attempt = 0;
    this.stopped = false;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const query = new URLSearchParams();
    if (this.version !== null) query.set('last_version', String(this.version));
    if (this.code) query.set('code', this.code);
    const qs = query.toString();
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${qs ? `?${qs}` : ''}`;
  }

  connect() {
    this.stopped = false;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.onStatus('open');
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: 'ping' }), PING_MS);
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'state') this.version = message.version;
      this.onMessage(message);
    };
    ws.onclose = (event) => this.closed(ws, event.code);
    return this;
  }

  closed(ws, code) {
    if (ws !== this.ws) return;
    clearInterval(this.pinger);
    if (this.stopped) return;
    if (code in FATAL) {
      this.onStatus(FATAL[code]);
      return;
    }
    if (code === 4000) this.version = null; // the server asks for a fresh snapshot
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    this.onStatus('reconnecting', Math.round(delay / 1000));
    this.timer = setTimeout(() => this.connect(), delay);
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Connect afresh (say, after taking a seat: the socket's role is fixed when it opens). */
  reconnect() {
    this.close();
    this.version = null;
    this.connect();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}
