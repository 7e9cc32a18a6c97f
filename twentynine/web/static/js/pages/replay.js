// The replay viewer: a stored deal, card by card, with every hand face up and, where the
// server has the solver, its verdict on each card.
import { get } from '../api.js';
import { h, keepFocus, replace } from '../dom.js';
import { t } from '../i18n.js';
import { eventText, moveText, parseAction } from '../table/describe.js';
import { renderFelt, renderHand, renderInfo, renderResult } from '../table/render.js';
import { loading, pageFrame } from '../ui.js';

export function render(root, route) {
  const dealId = route.params[0];
  const box = h('div', {}, loading());
  root.append(pageFrame(t('replay_title', { id: dealId }), box));
  const viewer = { stop: () => {} };
  const path = `/api/web/replay/${encodeURIComponent(dealId)}`;
  get(path)
    .then((data) => {
      const replay = new Replay(box, data);
      viewer.stop = () => replay.stop();
      viewer.draw = () => replay.draw();
      if (data.analysis_available) {
        get(`${path}/analysis`).then(({ analysis }) => replay.analysed(analysis))
          .catch(() => replay.analysed(null));
      }
    })
    .catch((e) => replace(box, h('p', { class: 'error', role: 'alert' }, e.message)));
  return { cleanup: () => viewer.stop(), relabel: () => viewer.draw && viewer.draw() };
}

/** Match the analyser's verdicts to steps: by action index where given, else card by card. */
function verdicts(data) {
  let list = data.analysis;
  if (list && !Array.isArray(list)) list = list.cards || list.plays || list.verdicts || null;
  const out = new Map();
  if (!Array.isArray(list)) return out;
  const plays = data.steps.map((s, i) => [s, i]).filter(([s]) => s.action && s.action.act === 'play')
    .map(([, i]) => i);
  list.forEach((entry, n) => {
    const index = entry && typeof entry === 'object' && Number.isInteger(entry.index)
      ? entry.index + 1 : plays[n];
    if (index !== undefined) out.set(index, entry);
  });
  return out;
}

function verdictText(entry) {
  if (entry === null || entry === undefined) return '';
  if (typeof entry !== 'object') return String(entry);
  if (entry.verdict) return String(entry.verdict);
  if (Number.isInteger(entry.cost)) {
    return entry.cost > 0
      ? t('solver_cost', { cost: entry.cost,
        best: (entry.best || []).map((b) => moveText(parseAction(b))).join(', ') })
      : t('solver_best', { value: entry.value });
  }
  return Object.entries(entry).filter(([k]) => !['index', 'seat', 'card'].includes(k))
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`).join(', ');
}

class Replay {
  constructor(box, data) {
    this.data = data;
    this.index = 0;
    this.verdicts = new Map();
    this.seenTrick = new Set();
    this.felt = h('div', { class: 'felt-wrap' });
    this.hand = h('div', { class: 'hand-wrap' });
    this.overlay = h('div', { class: 'result-wrap' });
    this.info = h('section', { class: 'panel' });
    this.stepList = h('ol', { class: 'steps', 'aria-label': t('replay_steps') });
    this.slider = h('input', { type: 'range', min: 0, max: data.steps.length - 1, value: 0,
      'aria-label': t('replay_position') });
    this.slider.addEventListener('input', () => this.go(Number(this.slider.value)));
    this.status = h('span', { class: 'muted', 'aria-live': 'polite' });
    const btn = (label, key, action) => h('button', { type: 'button', 'data-action': key,
      'aria-label': label, title: label, onclick: action, html: icon(key) });
    this.controls = h('div', { class: 'replay-controls' },
      btn(t('replay_first'), 'first', () => this.go(0)),
      btn(t('replay_prev'), 'prev', () => this.go(this.index - 1)),
      btn(t('replay_play'), 'play', () => this.toggleAutoplay()),
      btn(t('replay_next'), 'next', () => this.go(this.index + 1)),
      btn(t('replay_last'), 'last', () => this.go(data.steps.length - 1)),
      this.slider, this.status,
      h('a', { class: 'button small', href: `/api/history/deals/${data.id}`,
        download: `deal-${data.id}.json` }, t('download')));
    this.note = h('p', { class: 'hint', 'aria-live': 'polite' },
      data.analysis_available ? t('replay_analysing') : t('replay_no_analysis'));
    this.section = h('div', { class: 'replay' },
      this.controls,
      this.note,
      h('div', { class: 'table-body' },
        h('div', { class: 'play-area' }, this.felt, this.overlay, this.hand),
        h('aside', { class: 'table-side' }, this.info,
          h('section', { class: 'panel' }, h('h2', {}, t('replay_steps')), this.stepList))));
    replace(box, this.section);
    this.onKey = (event) => {
      if (['INPUT', 'SELECT', 'TEXTAREA'].includes(event.target.tagName)) return;
      if (event.key === 'ArrowRight') this.go(this.index + 1);
      if (event.key === 'ArrowLeft') this.go(this.index - 1);
      if (event.key === 'Escape') this.closeResult();
    };
    document.addEventListener('keydown', this.onKey);
    this.drawSteps();
    this.draw();
  }

  /** The solver's verdicts arrived (or not): show them beside the moves. */
  analysed(analysis) {
    this.verdicts = verdicts({ ...this.data, analysis });
    this.note.textContent = analysis ? t('replay_analysed') : t('replay_no_analysis');
    this.drawSteps();
    this.draw();
    this.section.dataset.analysed = analysis ? 'true' : 'false';
  }

  stop() {
    clearInterval(this.autoplay);
    document.removeEventListener('keydown', this.onKey);
  }

  names() {
    const known = this.data.names || [];
    return [0, 1, 2, 3].map((s) => {
      const bot = (this.data.bots || [])[s];
      // a deleted account's seat: the server's words, said in the reader's language
      const former = known[s] === 'a former player' ? t('former_player') : known[s];
      const name = former || t(bot ? 'bot_n' : 'seat_n', { n: s + 1 });
      return s === this.data.seat ? t('you_named', { name }) : name;
    });
  }

  go(index) {
    this.index = Math.max(0, Math.min(this.data.steps.length - 1, index));
    this.resultClosed = false; // back at the end, the result shows again
    this.draw();
  }

  closeResult() {
    this.resultClosed = true;
    this.draw();
  }

  toggleAutoplay() {
    const button = this.controls.querySelector('[data-action=play]');
    if (this.autoplay) {
      clearInterval(this.autoplay);
      this.autoplay = null;
    } else {
      if (this.index >= this.data.steps.length - 1) this.go(0); // from the end: again
      this.autoplay = setInterval(() => {
        if (this.index >= this.data.steps.length - 1) this.toggleAutoplay();
        else this.go(this.index + 1);
      }, 900);
    }
    button.innerHTML = icon(this.autoplay ? 'pause' : 'play');
    button.setAttribute('aria-pressed', this.autoplay ? 'true' : 'false');
  }

  drawSteps() {
    const names = this.names();
    replace(this.stepList, this.data.steps.map((step, i) => {
      const verdict = this.verdicts.get(i);
      const text = i === 0 ? t('replay_deal_start')
        : `${names[step.action.seat]}: ${moveText(step.action)}`;
      const before = { target: i ? this.data.steps[i - 1].view.target : null };
      const events = step.events.filter((e) => !['card_played', 'bid', 'pass'].includes(e.type))
        .map((e) => eventText(e, names, before)).filter(Boolean);
      return h('li', {}, h('button', { type: 'button', 'data-step': i, 'data-key': `step-${i}`,
        onclick: () => this.go(i) }, `${i}. ${text}`),
      events.length ? h('div', { class: 'muted verdict' }, events.join(' · ')) : null,
      verdict !== undefined ? h('div', { class: ['verdict', verdict && verdict.cost > 0 && 'bad'] },
        `${t('solver')}: ${verdictText(verdict)}`) : null);
    }));
  }

  draw() {
    const step = this.data.steps[this.index];
    const view = step.view;
    const names = this.names();
    const ctx = {
      view, table: { seats: [0, 1, 2, 3].map((seat) => ({ seat, name: names[seat] })),
        you: { seat: null, spectator: true }, direction: this.data.direction, game: null },
      me: null, bottom: this.data.seat, direction: this.data.direction, names, live: false,
      pending: false, ui: { lastTrick: false, peekPartner: false }, seenTrick: this.seenTrick,
      act: () => {}, toggle: () => {}, peek: () => {}, lastTrick: () => {},
    };
    this.slider.value = String(this.index);
    this.status.textContent = t('replay_step_of', { n: this.index, total: this.data.steps.length - 1 });
    keepFocus(this.section, () => {
      replace(this.felt, renderFelt(ctx));
      replace(this.hand, renderHand(ctx));
      replace(this.info, h('h2', {}, t('this_round')), renderInfo(ctx));
      replace(this.overlay, view.phase === 'over' && !this.resultClosed
        ? renderResult({ view, names }, ctx, () => this.closeResult()) : null);
    });
    for (const b of this.stepList.querySelectorAll('button[data-step]')) {
      if (Number(b.dataset.step) === this.index) {
        b.setAttribute('aria-current', 'step');
        b.scrollIntoView({ block: 'nearest' });
      } else b.removeAttribute('aria-current');
    }
  }
}

/** The controls' icons, drawn here (a font may lack the media symbols). */
const ICON_PATHS = {
  first: 'M2 3h2v10H2z M9 3 4 8l5 5z M15 3l-5 5 5 5z',
  prev: 'M11 3 4 8l7 5z',
  play: 'M4 2l10 6-10 6z',
  pause: 'M4 3h3v10H4z M9 3h3v10H9z',
  next: 'M5 3l7 5-7 5z',
  last: 'M1 3l5 5-5 5z M7 3l5 5-5 5z M12 3h2v10h-2z',
};

function icon(key) {
  return `<svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"
    focusable="false"><path d="${ICON_PATHS[key]}" fill="currentColor"/></svg>`;
}
