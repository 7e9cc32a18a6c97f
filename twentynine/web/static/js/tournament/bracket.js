// The knockout bracket, drawn as SVG: a column a round, each match a box with its two teams
// (the winner in bold, the score beside), lines from each pair of boxes to the match their
// winners meet in. Names are text nodes (never markup).
import { t } from '../i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const BOX_W = 210;
const BOX_H = 48;
const GAP_X = 46;
const PITCH = 64; // height a first-round slot takes
const TOP = 34;

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

function short(name, max = 24) {
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}

/** What each slot of each round holds: {match} or {bye: entry} or {} (not paired yet). */
function slotsOf(doc) {
  const rounds = [];
  for (let r = 1; r <= doc.round_count; r += 1) {
    const count = 2 ** (doc.round_count - r);
    const slots = Array.from({ length: count }, () => ({}));
    const rnd = doc.rounds[r - 1];
    if (rnd) {
      for (const m of rnd.matches) {
        if (m.kind !== 'third_place' && m.slot < count) slots[m.slot] = { match: m };
      }
      for (const [slot, entry] of rnd.bye_slots || []) {
        if (slot < count) slots[slot] = { bye: entry };
      }
    }
    rounds.push(slots);
  }
  return rounds;
}

/** The bracket of a knockout ``doc`` (GET /api/tournaments/{id}); ``names`` by entry id. */
export function bracketSvg(doc, names) {
  const rounds = slotsOf(doc);
  const first = rounds.length ? rounds[0].length : 1;
  const last = doc.rounds[doc.round_count - 1];
  const third = last ? last.matches.find((m) => m.kind === 'third_place') : null;
  const width = rounds.length * (BOX_W + GAP_X) - GAP_X + 20;
  const height = TOP + first * PITCH + (third ? PITCH + 30 : 0) + 10;
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, width, height, class: 'bracket',
    role: 'img', 'aria-label': t('tour_bracket') });
  const centre = [];
  rounds.forEach((slots, r) => {
    const x = 10 + r * (BOX_W + GAP_X);
    const label = r === rounds.length - 1 ? t('tour_final') : t('tour_round_n', { n: r + 1 });
    svg.append(el('text', { x: x + BOX_W / 2, y: 18, class: 'bracket-round',
      'text-anchor': 'middle' }, label));
    centre.push(slots.map((slot, i) => {
      const y = r === 0 ? TOP + i * PITCH + PITCH / 2
        : (centre[r - 1][2 * i] + centre[r - 1][2 * i + 1]) / 2;
      if (r > 0) { // lines from the two boxes whose winners meet here
        const px = x - GAP_X;
        for (const from of [centre[r - 1][2 * i], centre[r - 1][2 * i + 1]]) {
          svg.append(el('path', { d: `M${px} ${from} H${px + GAP_X / 2} V${y} H${x}`,
            class: 'bracket-line', fill: 'none' }));
        }
      }
      svg.append(box(x, y, slot, names));
      return y;
    }));
  });
  if (third) {
    const x = 10 + (rounds.length - 1) * (BOX_W + GAP_X);
    const y = TOP + first * PITCH + 30 + PITCH / 2;
    svg.append(el('text', { x: x + BOX_W / 2, y: y - BOX_H / 2 - 8, class: 'bracket-round',
      'text-anchor': 'middle' }, t('tour_third')));
    svg.append(box(x, y, { match: third }, names));
  }
  return svg;
}

function box(x, y, slot, names) {
  const g = el('g', { class: 'bracket-match' });
  const top = y - BOX_H / 2;
  g.append(el('rect', { x, y: top, width: BOX_W, height: BOX_H, rx: 6, class: 'bracket-box' }));
  g.append(el('line', { x1: x, x2: x + BOX_W, y1: y, y2: y, class: 'bracket-split' }));
  let lines;
  if (slot.match) {
    const m = slot.match;
    g.setAttribute('data-match', m.id);
    g.setAttribute('data-status', m.status);
    if (m.winner) g.setAttribute('data-winner', m.winner);
    const score = (m.result && m.result.score) || (m.live && m.live.score) || null;
    lines = [[m.a, score ? score[0] : ''], [m.b, score ? score[1] : '']].map(([entry, s]) => ({
      name: names[entry] || '?', score: s, won: m.winner === entry,
      lost: m.winner && m.winner !== entry,
    }));
    if (m.status === 'playing') g.classList.add('live');
  } else if (slot.bye) {
    g.setAttribute('data-bye', slot.bye);
    lines = [{ name: names[slot.bye] || '?', score: '', won: true }, { name: t('tour_bye'),
      score: '', lost: true }];
  } else {
    lines = [{ name: '—', score: '' }, { name: '—', score: '' }];
  }
  lines.forEach((line, i) => {
    const ty = top + (i ? BOX_H * 0.75 : BOX_H * 0.25) + 5;
    const cls = ['bracket-team', line.won ? 'won' : '', line.lost ? 'lost' : ''].join(' ').trim();
    g.append(el('text', { x: x + 8, y: ty, class: cls }, short(line.name)));
    if (line.score !== '' && line.score !== undefined) {
      g.append(el('text', { x: x + BOX_W - 8, y: ty, class: cls, 'text-anchor': 'end' },
        String(line.score)));
    }
  });
  return g;
}
