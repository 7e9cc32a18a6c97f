// The leaderboard: the top 100 rated players (ten games or more, one in the last 90 days) and
// your own place; drawn again whenever a rated game anywhere is rated, or a rated player's line
// changes otherwise (a new name, an account disabled, enabled or deleted).
import { get } from '../api.js';
import { onLive, watchLeaderboard } from '../live.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { isMember, session } from '../session.js';
import { ratingText } from '../ratings.js';
import { empty, loading, pageFrame } from '../ui.js';

export function render(root) {
  if (!session.user) {
    root.append(pageFrame(t('leaderboard'), h('p', {}, t('sign_in_for_leaderboard')),
      h('a', { class: 'button primary', href: '#/signin' }, t('nav_sign_in'))));
    return;
  }
  const box = h('div', { 'aria-live': 'polite' }, loading());
  root.append(pageFrame(t('leaderboard'), box));
  let asked = 0; // the latest request's number: an older answer that comes later is dropped
  const draw = () => {
    const mine = ++asked;
    return get('/api/leaderboard').then((board) => mine === asked && replace(box,
      h('p', {}, t('leaderboard_intro', { games: board.min_games, days: board.days })),
      yourPlace(board.you),
      board.players.length ? table(board.players) : empty(t('leaderboard_empty')),
      isMember() ? h('p', {}, h('a', { class: 'button primary', href: '#/lobby' },
        t('play_rated'))) : null))
      .catch((e) => mine === asked && replace(box, h('p', { class: 'error' }, e.message)));
  };
  let soon = null; // a tournament round's games end together: one request for them all
  const drawSoon = () => {
    clearTimeout(soon);
    soon = setTimeout(draw, 150);
  };
  draw();
  const stops = [watchLeaderboard(), onLive('ratings_changed', drawSoon),
    onLive('leaderboard_changed', drawSoon), // a rated player renamed, disabled, deleted …
    onLive('resync', drawSoon)]; // (the channel came back: a rating may have changed meanwhile)
  return () => {
    clearTimeout(soon);
    stops.forEach((stop) => stop());
  };
}

function yourPlace(you) {
  if (!you) return null;
  const text = you.rank ? t('leaderboard_your_rank', { rank: you.rank, rating: you.rating })
    : t('leaderboard_not_ranked', { rating: ratingText(you), games: you.games });
  return h('p', { class: 'your-rank', 'data-rank': you.rank || '' }, text);
}

function table(players) {
  const me = session.user && session.user.id;
  return h('table', { class: 'leaderboard' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('rank')),
      h('th', { scope: 'col' }, t('player')), h('th', { scope: 'col' }, t('rating')),
      h('th', { scope: 'col' }, t('rated_games')))),
    h('tbody', {}, players.map((p) => h('tr', { class: p.user_id === me ? 'me' : null,
      'data-user': p.user_id },
    h('td', {}, String(p.rank)), h('td', {}, p.name), h('td', {}, String(p.rating)),
    h('td', {}, String(p.games))))));
}
