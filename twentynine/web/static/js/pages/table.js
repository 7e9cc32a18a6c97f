// The table: one socket, one view per message, everything drawn from that view.
import { get, post } from '../api.js';
import { h, keepFocus, replace, toast } from '../dom.js';
import { refusalText, t } from '../i18n.js';
import { go } from '../router.js';
import { session } from '../session.js';
import { TableSocket } from '../socket.js';
import { eventText, LOUD, targetAfter } from '../table/describe.js';
import { KEYS, cardActions, renderActions, renderFelt, renderHand, renderInfo, renderResult,
  renderScore, takeoverText } from '../table/render.js';
import { bottomSeat } from '../table/seats.js';
import { backNotice, clockOffset, tickClocks, turnSecondsLabel } from '../table/clock.js';
import { confirmDialog, pageFrame, signInLink } from '../ui.js';
import { copyText, seatName, tableName } from '../tables.js';
import { rulesData } from '../rulesform.js';
import { loadRatings } from '../ratings.js';
import { chatTools } from '../safety.js';

const RESETS = ['score', 'round', 'deck', 'all'];
const LOG_LINES = 60;

export function render(root, route) {
  const tableId = route.params[0];
  if (!session.user) {
    root.append(pageFrame(t('table'), h('p', {}, t('sign_in_to_play')), signInLink()));
    return undefined;
  }
  const page = new TablePage(root, tableId, route.query.get('code'));
  page.start();
  return { cleanup: () => page.stop(), relabel: () => page.relabel() };
}

class TablePage {
  constructor(root, tableId, code) {
    this.root = root;
    this.tableId = tableId;
    this.code = code;
    this.msg = null; // the latest state message
    this.chat = [];
    this.log = [];
    this.ui = { lastTrick: false, peekPartner: false };
    this.pending = false;
    this.result = null; // {view, names, at, deals}
    this.seenTrick = new Set();
    this.inviteCode = null;
    this.rules = null;
    this.build();
  }

  /** Show or hide the last trick; shown, the table comes into view when it is not (on a phone
   * the button is a scroll below it). */
  toggleLastTrick() {
    this.ui.lastTrick = !this.ui.lastTrick;
    this.draw();
    const box = this.felt.getBoundingClientRect();
    if (this.ui.lastTrick && (box.top < 0 || box.bottom > window.innerHeight)) {
      this.felt.scrollIntoView({ block: 'start' });
    }
  }

  // -- the page's regions ----------------------------------------------------------------------
  build() {
    this.head = h('div', { class: 'table-head' });
    this.felt = h('div', { class: 'felt-wrap' });
    this.actions = h('div', { class: 'action-bar', 'aria-live': 'polite' });
    // drawn again only when it comes or goes, so that its button stays put while bots play
    this.keptBox = h('div', { class: 'kept-wrap' });
    this.keptShown = null;
    this.hand = h('div', { class: 'hand-wrap' });
    this.overlay = h('div', { class: 'result-wrap' });
    this.info = h('section', { class: 'panel', 'aria-label': t('this_round') });
    this.controls = h('section', { class: 'panel controls' });
    this.logList = h('ol', { class: 'log', 'aria-label': t('log') });
    this.chatList = h('ol', { class: 'chat-lines', 'aria-label': t('chat'), 'aria-live': 'polite' });
    this.polite = h('div', { class: 'sr-only', 'aria-live': 'polite' });
    this.loud = h('div', { class: 'sr-only', 'aria-live': 'assertive' });
    this.banner = document.getElementById('banner');
    const chatInput = h('input', { name: 'text', maxlength: 300, autocomplete: 'off',
      'aria-label': t('chat_message'), placeholder: t('chat_placeholder') });
    const chatForm = h('form', { class: 'chat-form' }, chatInput,
      h('button', { type: 'submit' }, t('send')));
    chatForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = chatInput.value.trim();
      if (text && this.socket.send({ type: 'chat', text })) chatInput.value = '';
    });
    this.chatForm = chatForm;
    this.section = h('section', { class: 'table-page', 'aria-busy': 'true' },
      h('h1', { class: 'sr-only' }, t('table')),
      this.head,
      h('div', { class: 'table-body' },
        h('div', { class: 'play-area' }, this.felt, this.overlay, this.keptBox, this.actions,
          this.hand),
        h('aside', { class: 'table-side' }, this.info, this.controls,
          h('section', { class: 'panel' }, h('h2', {}, t('chat')), this.chatList, chatForm),
          h('details', { class: 'panel' }, h('summary', {}, t('log')), this.logList),
          keysHelp())),
      this.polite, this.loud);
    this.root.append(this.section);
  }

  /** The language changed: build the page again in it, keeping the socket and what we know. */
  relabel() {
    this.section.remove();
    this.build();
    this.chat.forEach((line) => this.appendChat(line));
    this.log.forEach((text) => this.logList.append(h('li', {}, text)));
    if (this.isGone) this.gone();
    else this.draw();
  }

  start() {
    this.socket = new TableSocket(this.tableId, {
      code: this.code,
      onMessage: (m) => this.receive(m),
      onStatus: (status, seconds) => this.status(status, seconds),
    }).connect();
    this.onKey = (event) => this.key(event);
    document.addEventListener('keydown', this.onKey);
    this.ticker = setInterval(() => this.tick(), 1000);
    this.clockTicker = setInterval(() => tickClocks(this.section, this.clockOffset || 0), 250);
    rulesData().then((data) => { this.rulesCatalog = data; });
  }

  stop() {
    this.socket.close();
    document.removeEventListener('keydown', this.onKey);
    clearInterval(this.ticker);
    clearInterval(this.clockTicker);
    this.showBanner(null);
  }

  // -- messages ----------------------------------------------------------------------------------
  receive(message) {
    if (message.type === 'state') this.onState(message);
    else if (message.type === 'chat') {
      this.addChat(message.line);
      this.mentionChat(message.line);
    }
    else if (message.type === 'error') {
      this.pending = false;
      if (message.reason !== 'stale') toast(refusalText(message.reason, message.message), 'error');
      this.draw();
    }
  }

  onState(message) {
    const first = this.msg === null;
    let target = this.msg && this.msg.view ? this.msg.view.target : null;
    this.msg = message;
    this.clockOffset = clockOffset(message.table, Date.now());
    this.pending = false;
    if (message.chat) {
      this.chat = [];
      replace(this.chatList);
      message.chat.forEach((line) => this.addChat(line));
    }
    if (message.table.rated) this.refreshRatings(message, first);
    const names = this.names();
    if (message.history) this.retell(message.history, names);
    for (const event of first ? [] : message.events) {
      this.announce(event, names, target);
      target = targetAfter(event, target);
    }
    const view = message.view;
    if (view && view.phase === 'over' && (!this.result || this.result.key !== resultKey(message))) {
      this.result = { view, names, at: Date.now(), key: resultKey(message), dismissed: false };
    }
    if (message.events.some((e) => e.type === 'new_deal' || e.type === 'reset')) {
      this.ui.peekPartner = false;
      if (this.result) this.result.newDealAt = Date.now();
    }
    if (message.events.some((e) => e.type === 'game_started') && this.result) {
      this.result.dismissed = true; // a new game (Play again): the old result goes
    }
    if (message.table.kind === 'private' && message.table.you.host && this.inviteCode === null) {
      this.inviteCode = '';
      get(`/api/tables/${encodeURIComponent(this.tableId)}`)
        .then((info) => { this.inviteCode = info.invite_code || ''; this.draw(); })
        .catch(() => {});
    }
    this.draw();
    if (view && view.legal_json.length && !this.interactiveMarked) {
      this.interactiveMarked = true;
      performance.mark('tn-interactive');
    }
  }

  announce(event, names, target) {
    const text = eventText(event, names, { target });
    if (!text) return;
    this.addLog(text);
    (LOUD.has(event.type) ? this.loud : this.polite).textContent = text;
    if (LOUD.has(event.type) && event.type !== 'stake_raised') toast(text);
  }

  addLog(text) {
    this.log.push(text);
    if (this.log.length > LOG_LINES) this.log.shift();
    this.logList.append(h('li', {}, text));
    while (this.logList.children.length > LOG_LINES) this.logList.firstChild.remove();
  }

  /** A snapshot brings the deal's events so far (after a reload, say): the log tells them
   * again, quietly. */
  retell(history, names) {
    this.log = [];
    replace(this.logList);
    let target = null;
    for (const event of history) {
      const text = eventText(event, names, { target });
      target = targetAfter(event, target);
      if (text) this.addLog(text);
    }
  }

  addChat(line) {
    this.chat.push(line);
    this.appendChat(line);
  }

  /** Someone else's new line, as a message too when the chat is out of sight (on a phone it is
   * a long scroll below the table). */
  mentionChat(line) {
    if (line.user_id && session.user && line.user_id === session.user.id) return;
    const box = this.chatForm.getBoundingClientRect(); // new lines come in just above it
    if (box.top > window.innerHeight || box.bottom < 0) {
      toast(`${line.name}: ${line.text}`);
    }
  }

  appendChat(line) {
    this.chatList.append(h('li', { class: line.spectator ? 'spectator' : null },
      h('strong', {}, line.name), line.spectator ? h('span', { class: 'muted' },
        ` (${t('spectator')})`) : null, `: ${line.text}`,
      chatTools(line, { hide: (userId) => this.hideChat(userId), code: this.code })));
    this.chatList.scrollTop = this.chatList.scrollHeight;
  }

  /** Someone muted or blocked: their lines go from this page (the server sends no more). */
  hideChat(userId) {
    this.chat = this.chat.filter((line) => line.user_id !== userId);
    replace(this.chatList);
    this.chat.forEach((line) => this.appendChat(line));
  }

  /** A rated table: its players' ratings, fetched again when the players change or a game
   * was rated. */
  refreshRatings(message, first) {
    const ids = message.table.seats.map((s) => (s.bot ? 0 : s.user_id || 0));
    const key = ids.join(',');
    if (!first && key === this.ratingsKey && !message.events.some((e) => e.type === 'rated')) {
      return;
    }
    this.ratingsKey = key;
    loadRatings(ids).then((ratings) => { this.ratings = ratings; this.draw(); })
      .catch(() => {});
  }

  status(status, seconds) {
    if (status === 'open') {
      if (this.bannerShown) toast(t('reconnected'));
      this.showBanner(null);
    } else if (status === 'reconnecting') {
      this.showBanner(t('reconnecting', { seconds }));
    } else if (status === 'no_table') {
      this.gone();
    } else {
      this.showBanner(t(`socket_${status}`), true);
    }
  }

  /** No such table (a wrong invite code, a closed table): say so, and offer ways back. */
  gone() {
    this.isGone = true;
    this.showBanner(null);
    const member = session.user && !session.user.is_guest;
    replace(this.section, h('div', { class: 'page narrow table-gone', role: 'alert' },
      h('h1', {}, t('table_gone_title')),
      h('p', {}, t(this.code ? 'table_gone_code' : 'socket_no_table')),
      h('div', { class: 'row' },
        member ? h('a', { class: 'button primary', href: '#/lobby' }, t('nav_lobby')) : null,
        member ? h('a', { class: 'button', href: '#/dashboard' }, t('nav_dashboard')) : null,
        h('a', { class: member ? 'button' : 'button primary', href: '#/' }, t('nav_home')))));
    this.section.setAttribute('aria-busy', 'false');
    this.section.dataset.status = 'gone';
  }

  showBanner(text, fatal = false) {
    this.bannerShown = Boolean(text);
    if (!this.banner) return;
    this.banner.hidden = !text;
    this.banner.className = fatal ? 'banner fatal' : 'banner';
    this.banner.textContent = text || '';
  }

  // -- acting ------------------------------------------------------------------------------------
  act(action) {
    if (this.pending || !this.msg) return;
    const sent = this.socket.send({ type: 'act', ...action, version: this.msg.version });
    if (!sent) {
      toast(t('not_connected'), 'error');
      return;
    }
    this.pending = true;
    this.draw();
  }

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
    const view = this.msg && this.msg.view;
    const k = latinDigits(event.key.toLowerCase());
    if (k === 'l') { this.toggleLastTrick(); return; }
    if (k === 'escape') { this.ui.lastTrick = false; this.closeResult(); return; }
    if (!view || this.pending) return;
    const me = this.msg.table.you.seat;
    if (me === null || !view.to_act.includes(me)) return;
    if (/^[1-9]$/.test(k)) {
      const code = (view.hands[me] || [])[Number(k) - 1];
      const action = code && cardActions(view).get(code);
      if (action) { event.preventDefault(); this.act(action); }
      return;
    }
    const act = Object.entries(KEYS).find(([, key]) => key === k);
    const action = act && view.legal_json.find((a) => a.act === act[0]);
    if (action) { event.preventDefault(); this.act(action); }
  }

  closeResult() {
    if (this.result) this.result.dismissed = true;
    this.draw();
  }

  tick() {
    for (const el of this.section.querySelectorAll('[data-takeover-at]')) {
      el.textContent = takeoverText(Number(el.dataset.takeoverAt));
    }
    const r = this.result;
    if (r && !r.dismissed && r.newDealAt && Date.now() - r.at > 10000) this.closeResult();
  }

  // -- drawing -----------------------------------------------------------------------------------
  names() {
    const seats = this.msg ? this.msg.table.seats : [];
    const me = this.msg ? this.msg.table.you.seat : null;
    const plain = [0, 1, 2, 3].map((i) => seatName(seats[i] || { seat: i }, i));
    return plain.map((name, i) => {
      // two players of one name (bots of one level, say) are told apart by their seat
      const told = plain.filter((n) => n === name).length > 1 ? `${name} ${i + 1}` : name;
      return i === me ? t('you_named', { name: told }) : told;
    });
  }

  context() {
    const { table, view } = this.msg;
    const rulesCatalog = this.rulesCatalog;
    const preset = rulesCatalog && rulesCatalog.presets.find((p) => p.name === table.rules.preset);
    return {
      view, table,
      me: table.you.seat,
      bottom: bottomSeat(table),
      direction: table.direction,
      names: this.names(),
      ratings: this.ratings || null,
      rules: preset ? { ...preset.options, ...table.rules.options } : null,
      live: table.status !== 'closed', // a closed table takes no more moves
      clockOffset: this.clockOffset || 0,
      pending: this.pending,
      ui: this.ui,
      seenTrick: this.seenTrick,
      act: (a) => this.act(a),
      toggle: (seat) => this.socket.send({ type: 'toggle', seat }),
      peek: () => { this.ui.peekPartner = true; this.draw(); },
      lastTrick: (open) => { this.ui.lastTrick = open; this.draw(); },
    };
  }

  draw() {
    if (!this.msg) return;
    const ctx = this.context();
    const { view, table } = ctx;
    const mine = Boolean(ctx.live && view && ctx.me !== null && view.to_act.includes(ctx.me)
      && view.legal_json.length);
    Object.assign(this.section.dataset, {
      phase: view ? view.phase : 'none', version: String(this.msg.version),
      bid: String(view ? view.bid : 0),
      status: table.status, myTurn: String(mine), spectator: String(table.you.spectator),
    });
    this.section.setAttribute('aria-busy', 'false');
    document.title = `${mine ? '● ' : ''}${tableName(table)} · TwentyNine`;
    replace(this.head, this.heading(ctx));
    keepFocus(this.section, () => {
      replace(this.felt, renderFelt(ctx));
      // (closed mid-deal, a tournament's match decided by its organiser say: no move is taken)
      const closed = table.status === 'closed' ? h('div', { class: 'actions' },
        h('p', { class: 'prompt', 'data-closed': 'true' }, t('ev_closed'))) : null;
      replace(this.actions, table.status === 'waiting' ? this.waiting(ctx)
        : closed || renderActions(ctx));
      replace(this.hand, renderHand(ctx));
      const kept = backNotice(ctx, () => this.socket.send({ type: 'back' }));
      if (Boolean(kept) !== this.keptShown) {
        replace(this.keptBox, kept);
        this.keptShown = Boolean(kept);
      }
      replace(this.info, h('h2', {}, t('this_round')), renderInfo(ctx));
      replace(this.controls, this.controlPanel(ctx));
      const r = this.result;
      replace(this.overlay, r && !r.dismissed ? renderResult(r, ctx, () => this.closeResult(),
        this.playAgainButton(ctx)) : null);
    });
  }

  heading(ctx) {
    const { table } = ctx;
    const link = (table.you && table.you.conference_url) || table.conference_url; // (a match's:
    // its players' and organiser's own)
    const conference = link
      ? h('a', { class: 'button conference', href: link, target: '_blank',
        rel: 'noopener noreferrer' }, t('conference_join')) : null;
    return [
      h('div', { class: 'table-title' },
        h('strong', {}, !table.name && table.rated ? t('rated_table') : tableName(table)),
        h('span', { class: 'muted' }, ` · ${t(`status_${table.status}`)}`),
        table.turn_seconds ? h('span', { class: 'muted', 'data-turn-seconds': table.turn_seconds },
          ` · ${turnSecondsLabel(table)}`) : null,
        table.you.spectator ? h('span', { class: 'badge' }, t('watching')) : null,
        conference),
      renderScore(ctx),
    ];
  }

  waiting(ctx) {
    const { table } = ctx;
    const you = table.you;
    const rows = table.seats.map((s) => {
      let action = null;
      if (s.user_id === session.user.id && !s.joined) {
        action = this.joinButton(t('join'), {});
      } else if (!s.user_id && !s.bot && you.spectator && ['public', 'private'].includes(table.kind)) {
        action = this.joinButton(t('sit_here'), { seat: s.seat, code: this.code || undefined });
      }
      const who = s.user_id || s.bot ? ctx.names[s.seat] : t('seat_n', { n: s.seat + 1 });
      return h('li', {}, `${who} — `,
        s.bot || s.joined ? t('ready') : s.user_id ? t('not_joined') : t('open_seat'), ' ', action);
    });
    const canFill = you.host && ['public', 'private'].includes(table.kind);
    return h('div', { class: 'actions waiting' },
      h('p', { class: 'prompt' }, t('waiting_for_players')),
      h('ul', { class: 'plain' }, rows),
      canFill ? this.postButton(t('fill_bots'), 'fill-bots') : null,
      this.inviteLink() ? h('p', { class: 'invite' }, t('invite_link'), ': ',
        h('code', {}, this.inviteLink()), ' ', this.copyInviteButton()) : null);
  }

  /** The address that brings a friend to this table: a private table's with its code (the
   * host has it, and whoever came by it), a hosted game's plain (its players are seated). */
  inviteLink() {
    const { table } = this.msg;
    const base = `${location.origin}/#/table/${encodeURIComponent(this.tableId)}`;
    if (table.kind === 'private') {
      const code = this.inviteCode || this.code;
      return code ? `${base}?code=${encodeURIComponent(code)}` : null;
    }
    return table.kind === 'hosted' ? base : null;
  }

  copyInviteButton() {
    const link = this.inviteLink();
    if (!link) return null;
    return h('button', { type: 'button', class: 'small', 'data-action': 'copy-invite',
      'data-key': 'copy-invite', onclick: () => copyText(link)
        .then(() => toast(t('invite_copied')))
        .catch(() => toast(t('invite_copy_failed'), 'error')) }, t('copy_invite'));
  }

  /** A new game at this table, same seats and rules: once a game is over, for its host or
   * its players. */
  playAgainButton(ctx) {
    const { table } = ctx;
    if (!table.game || !table.game.over || table.status !== 'playing') return null;
    if (table.kind === 'tournament') return null;
    if (!table.you.host && table.you.seat === null) return null;
    const button = this.postButton(t('play_again'), 'play-again');
    button.classList.add('primary');
    return button;
  }

  joinButton(label, body) {
    return h('button', { type: 'button', class: 'primary', 'data-action': 'join',
      onclick: (event) => {
        event.target.disabled = true;
        post(`/api/tables/${encodeURIComponent(this.tableId)}/join`, body)
          .then(() => {
            if (body.seat !== undefined) this.socket.reconnect(); // now as the seat's player
          })
          .catch((e) => { toast(e.message, 'error'); event.target.disabled = false; });
      } }, label);
  }

  /** A button that posts to the table's ``path``; with ``question``, only once confirmed. */
  postButton(label, path, after, question) {
    return h('button', { type: 'button', 'data-action': path, onclick: async (event) => {
      const button = event.currentTarget;
      if (question && !await confirmDialog(question, label)) return;
      button.disabled = true;
      post(`/api/tables/${encodeURIComponent(this.tableId)}/${path}`)
        .then(() => after && after())
        .catch((e) => { toast(e.message, 'error'); button.disabled = false; });
    } }, label);
  }

  controlPanel(ctx) {
    const { table, view } = ctx;
    const you = table.you;
    const humans = table.seats.filter((s) => s.user_id && !s.bot);
    const alone = humans.length === 1 && humans[0].user_id === session.user.id;
    const resets = RESETS.map((what) => h('button', { type: 'button', class: 'small',
      'data-reset': what, 'data-key': `reset-${what}`, disabled: !you.host || !view,
      title: you.host ? t(`reset_${what}_about`) : t('host_only'),
      onclick: () => this.socket.send({ type: 'reset', what }) }, t(`reset_${what}`)));
    return [
      h('h2', {}, t('table_controls')),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'small', 'data-key': 'last-trick',
          'aria-pressed': String(this.ui.lastTrick), 'aria-keyshortcuts': 'L',
          disabled: !view || !view.tricks.length,
          onclick: () => this.toggleLastTrick() },
        t('last_trick'), h('kbd', { 'aria-hidden': 'true' }, 'L')),
        alone && table.status === 'playing' ? h('button', { type: 'button', class: 'small',
          onclick: () => this.socket.send({ type: 'pause' }) }, t('pause')) : null,
        alone && table.status === 'paused' ? h('button', { type: 'button', class: 'small primary',
          onclick: () => this.socket.send({ type: 'resume' }) }, t('resume')) : null,
        this.playAgainButton(ctx),
        table.status !== 'waiting' ? this.copyInviteButton() : null),
      table.rated || table.kind === 'tournament' ? null : [ // (never a rated game or a match)
        h('h3', {}, t('resets')),
        h('div', { class: 'row resets', role: 'group', 'aria-label': t('resets'),
          'aria-describedby': 'reset-note' }, resets),
        h('p', { class: 'hint', id: 'reset-note' },
          you.host ? t('resets_yours') : t('host_only'))],
      h('div', { class: 'row' },
        !you.spectator && ['public', 'private'].includes(table.kind)
          ? this.postButton(t('leave_table'), 'leave', () => go('lobby'),
            table.rated && table.status === 'playing' ? t('leave_rated_confirm') : null) : null,
        you.host && !['solo', 'tournament'].includes(table.kind) // (a match closes by itself)
          ? this.postButton(t('close_table'), 'close', () => go('dashboard'),
            t('close_table_confirm')) : null,
        table.kind === 'solo' ? h('a', { class: 'button small', href: '#/' }, t('leave_table'))
          : null),
    ];
  }
}

/** Bengali and Devanagari keyboards type their own digits: read them as 0–9. */
function latinDigits(key) {
  return key.replace(/[০-৯]/g, (d) => String(d.charCodeAt(0) - 0x09e6))
    .replace(/[०-९]/g, (d) => String(d.charCodeAt(0) - 0x0966));
}

function resultKey(message) {
  const game = message.table.game;
  return game ? `${game.game_no}:${game.deals}` : String(message.version);
}

function keysHelp() {
  return h('details', { class: 'panel keys' }, h('summary', {}, t('keyboard')),
    h('dl', {},
      h('dt', {}, h('kbd', {}, '1'), '–', h('kbd', {}, '8')), h('dd', {}, t('key_cards')),
      h('dt', {}, h('kbd', {}, 'P')), h('dd', {}, t('act_pass')),
      h('dt', {}, h('kbd', {}, 'D'), ' ', h('kbd', {}, 'R'), ' ', h('kbd', {}, 'S')),
      h('dd', {}, t('key_doubles')),
      h('dt', {}, h('kbd', {}, 'T')), h('dd', {}, t('act_reveal')),
      h('dt', {}, h('kbd', {}, 'M')), h('dd', {}, t('act_pair')),
      h('dt', {}, h('kbd', {}, 'H')), h('dd', {}, t('act_single_hand')),
      h('dt', {}, h('kbd', {}, 'L')), h('dd', {}, t('last_trick')),
      h('dt', {}, h('kbd', {}, 'Tab')), h('dd', {}, t('key_tab')),
      h('dt', {}, h('kbd', {}, 'Esc')), h('dd', {}, t('key_escape'))));
}
