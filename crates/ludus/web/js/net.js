// The game WebSocket: JSON messages with a sequence number, a promise per
// request (resolved by the first reply carrying its number), every message
// also handed to `onMessage`. Reconnects after a drop and calls `onOpen`
// again, which resumes the game (see docs/web-protocol.md).

export class GameSocket {
  constructor(path, { onMessage, onOpen, onStatus }) {
    this.url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onStatus = onStatus || (() => {});
    this.seq = 0;
    this.pending = new Map();
    this.queue = [];
    this.retry = 0;
    this.connect();
  }

  connect() {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.retry = 0;
      this.onStatus('open');
      const waiting = this.queue;
      this.queue = [];
      Promise.resolve(this.onOpen && this.onOpen()).finally(() => {
        for (const text of waiting) ws.send(text);
      });
    });
    ws.addEventListener('message', (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.seq != null && this.pending.has(msg.seq)) {
        const resolve = this.pending.get(msg.seq);
        this.pending.delete(msg.seq);
        resolve(msg);
      }
      this.onMessage(msg);
    });
    ws.addEventListener('close', () => {
      this.onStatus('closed');
      for (const resolve of this.pending.values()) resolve({ type: 'error', code: 'closed', message: 'connection lost' });
      this.pending.clear();
      const delay = Math.min(5000, 250 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    });
  }

  // Sends a request; resolves with its first reply (a state, an error, …).
  send(request) {
    const seq = ++this.seq;
    const text = JSON.stringify({ ...request, seq });
    return new Promise((resolve) => {
      this.pending.set(seq, resolve);
      if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
      else this.queue.push(text);
    });
  }

  // Sends during (re)connection, ahead of anything queued.
  sendNow(request) {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.pending.set(seq, resolve);
      this.ws.send(JSON.stringify({ ...request, seq }));
    });
  }
}
