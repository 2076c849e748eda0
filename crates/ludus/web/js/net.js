// The game WebSocket: JSON messages with a sequence number, a promise per
// request (resolved by the first reply carrying its number), every message
// also handed to `onMessage`. Reconnects after a drop and calls `onOpen`
// again, which resumes the game (see docs/web-protocol.md). When another tab
// opens the same game the server says `taken_over`: this page then covers
// itself, sends nothing, and offers to take the game back.

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
    this.taken = false;
    // While covered, keys reach only the cover's button, not the game.
    window.addEventListener('keydown', (event) => {
      if (!this.taken) return;
      event.stopImmediatePropagation();
      const onButton = event.target && event.target.closest && event.target.closest('#taken-over');
      if (!(onButton && ['Enter', ' ', 'Tab'].includes(event.key))) event.preventDefault();
    }, true);
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
      // A page whose game another tab took resumes only when asked to.
      const resumed = this.taken ? null : this.onOpen && this.onOpen();
      Promise.resolve(resumed).finally(() => {
        for (const text of waiting) ws.send(text);
      });
    });
    ws.addEventListener('message', (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === 'taken_over') this.takenOver(msg.message);
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

  // Another tab plays this page's game now: cover the page until the
  // player takes the game back here (a resume, which tells the other tab).
  takenOver(message) {
    this.taken = true;
    let cover = document.getElementById('taken-over');
    if (!cover) {
      cover = document.createElement('div');
      cover.id = 'taken-over';
      cover.className = 'taken-over';
      cover.setAttribute('role', 'alertdialog');
      cover.setAttribute('aria-modal', 'true');
      const box = document.createElement('div');
      box.className = 'taken-over-box';
      const text = document.createElement('p');
      text.id = 'taken-over-text';
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Play here';
      button.addEventListener('click', () => {
        this.taken = false;
        cover.hidden = true;
        if (this.onOpen) this.onOpen();
      });
      box.append(text, button);
      cover.append(box);
      document.body.append(cover);
    }
    cover.querySelector('#taken-over-text').textContent = message;
    cover.hidden = false;
    cover.querySelector('button').focus();
  }

  // Sends a request; resolves with its first reply (a state, an error, …).
  // While another tab has the game nothing is sent.
  send(request) {
    if (this.taken) {
      return Promise.resolve({ type: 'error', code: 'taken_over', message: 'this game is open in another tab' });
    }
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
