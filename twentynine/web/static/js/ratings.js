// Ratings in the browser: the figures beside names at a rated table, and the rating history
// chart on the profile (our own SVG).
import { get } from './api.js';
import { h, replace } from './dom.js';
import { t } from './i18n.js';

/** Ratings of these players, by user id (one request). */
export async function loadRatings(userIds) {
  const ids = [...new Set(userIds.filter(Boolean))].slice(0, 16);
  if (!ids.length) return {};
  return get(`/api/ratings?user_ids=${ids.join(',')}`);
}

/** "1012", with a mark while the rating is provisional (fewer than ten games). */
export function ratingText(r) {
  return r.provisional ? t('rating_provisional', { rating: r.rating }) : String(r.rating);
}

/** The rating beside a seat's name at a rated table, or nothing. */
export function ratingBadge(ctx, seat) {
  const info = ctx.table.seats[seat] || {};
  const r = ctx.ratings && info.user_id && !info.bot ? ctx.ratings[info.user_id] : null;
  if (!r) return null;
  return h('span', { class: 'rating', 'data-rating': r.rating,
    title: t(r.provisional ? 'rating_provisional_about' : 'rating_about', { games: r.games }) },
  ratingText(r));
}

const W = 420;
const H = 190;
const PAD = { left: 46, right: 12, top: 14, bottom: 26 };

/** The history of a rating as a line chart: one point a rated game (and the start). */
export function ratingChart(history) {
  if (!history.length) return h('p', { class: 'empty' }, t('rating_no_games'));
  const points = [history[0].rating_before, ...history.map((c) => c.rating)];
  let lo = Math.min(...points);
  let hi = Math.max(...points);
  if (hi - lo < 40) { lo -= 20; hi += 20; }
  const x = (i) => PAD.left + (i * (W - PAD.left - PAD.right)) / Math.max(1, points.length - 1);
  const y = (v) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const path = points.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`)
    .join(' ');
  const ticks = [hi, Math.round((hi + lo) / 2), lo].map((v) => Math.round(v));
  const grid = ticks.map((v) => `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" `
    + `y2="${y(v)}" class="grid"/><text x="${PAD.left - 6}" y="${y(v) + 4}" `
    + `text-anchor="end">${v}</text>`).join('');
  const dots = history.map((c, i) => `<circle cx="${x(i + 1)}" cy="${y(c.rating)}" r="4.5" `
    + `class="${c.result}"><title>${escapeXml(`${resultLabel(c)} · ${c.rating}`)}</title></circle>`)
    .join('');
  const svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeXml(t('rating_chart_label',
    { games: history.length, rating: points[points.length - 1] }))}">${grid}`
    + `<path d="${path}" class="line"/>${dots}`
    + `<text x="${PAD.left}" y="${H - 6}">1</text>`
    + `<text x="${W - PAD.right}" y="${H - 6}" text-anchor="end">${history.length}</text></svg>`;
  return h('div', { class: 'rating-chart', html: svg });
}

function resultLabel(change) {
  const result = t(`rating_result_${change.result}`);
  return change.reason === 'finished' ? result : `${result} (${t(`rating_reason_${change.reason}`)})`;
}

function escapeXml(text) {
  return String(text).replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;',
    '"': '&quot;' })[c]);
}

/** The profile's rating section: the figure, games, provisional or not, and the chart. */
export function ratingSection(userId) {
  const box = h('div', { class: 'rating-box', 'aria-live': 'polite' }, t('loading'));
  box.redraw = () => get(`/api/ratings/${userId}`).then((r) => {
    replace(box,
      h('p', { class: 'rating-now' }, h('strong', { 'data-rating': r.rating }, ratingText(r)),
        ' ', h('span', { class: 'muted' }, t('rating_games', { games: r.games }))),
      r.provisional ? h('p', { class: 'hint' }, t('rating_provisional_note')) : null,
      ratingChart(r.history),
      h('p', {}, h('a', { href: '#/leaderboard' }, t('leaderboard'))));
  }).catch((e) => replace(box, h('p', { class: 'error' }, e.message)));
  box.redraw();
  return box;
}
