// The dashboard (seed 000): Host, Join, View, Friends, History.
import { del, get, post } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { isMember, session } from '../session.js';
import { joinButton, tableItem, watchButton } from '../tables.js';
import { button, confirmDialog, empty, field, loading, pageFrame, selectEl, tabLinks, when }
  from '../ui.js';
import { rulesEditor } from '../rulesform.js';
import { fresh, live, onLive, setBadge, watchHistory } from '../live.js';
import { canHost, tierRequestPanel } from '../tierrequest.js';
import { invitationOffer, invitationsList } from '../invitations.js';
import { tournamentsSection } from '../tournament/list.js';
import { turnSecondsSelect } from '../table/clock.js';

const TABS = ['host', 'join', 'view', 'friends', 'history'];

export function render(root, route) {
  if (!isMember()) {
    root.append(pageFrame(t('nav_dashboard'), h('p', {}, t('members_only')),
      h('a', { class: 'button primary', href: '#/signin' }, t('nav_sign_in'))));
    return undefined;
  }
  const tab = TABS.includes(route.params[0]) ? route.params[0] : 'join';
  const body = h('div', { class: 'tab-body', role: 'region', 'aria-label': t(`tab_${tab}`) },
    loading());
  root.append(pageFrame(t('nav_dashboard'),
    tabLinks('dashboard', TABS.map((id) => [id, t(`tab_${id}`)]), tab), body));
  const renderers = { host, join, view, friends, history };
  const draw = () => renderers[tab](body).catch((e) => replace(body, h('p', { class: 'error',
    role: 'alert' }, e.message)));
  draw();
  return followLive(root, tab, body, draw);
}

// -- live: the tabs follow what the server tells (live.js) -------------------------------------
/** Badges on the Friends and Join tabs; the open tab drawn again when what it shows changed. */
function followLive(root, tab, body, draw) {
  const badges = () => {
    const link = (id) => root.querySelector(`.tabs a[href="#/dashboard/${id}"]`);
    if (link('friends')) setBadge(link('friends'), live.waiting.requests);
    if (link('join')) setBadge(link('join'), live.waiting.join);
  };
  badges();
  const me = () => session.user && session.user.id;
  const concerns = {
    host: (m) => (m.type === 'table_changed' && m.kind === 'hosted' && m.host_id === me())
      || (m.type.startsWith('friend_') && !body.querySelector('form.host-form')),
    join: (m) => m.type === 'table_invite' || m.type === 'table_changed',
    view: (m) => m.type === 'table_changed' || m.type === 'friend_accepted'
      || m.type === 'friend_removed',
    friends: (m) => m.type.startsWith('friend_'),
    history: (m) => m.type === 'deal_recorded'
      || (m.type === 'table_changed' && m.change === 'ended'),
  }[tab];
  const stops = [
    onLive('waiting', badges),
    onLive('*', (m) => {
      if (m.type === 'presence' && tab === 'friends') showPresence(body);
      else if (concerns(m)) {
        showAtOnce(m); // from the message itself, then the lists as the server has them
        redraw();
      }
    }),
    onLive('resync', () => redraw()),
    tab === 'history' ? watchHistory() : () => {}, // a deal of yours recorded: deal_recorded
  ];
  /** What the message says, shown before the lists come back from the server. */
  function showAtOnce(m) {
    if (tab === 'friends' && body.friendsData) {
      body.friendsShow(applyFriendMessage(body.friendsData, m));
    } else if (tab === 'join' && m.type === 'table_invite'
      && !body.querySelector(`[data-table="${CSS.escape(m.table_id)}"]`)) {
      const table = { id: m.table_id, name: m.name, kind: m.kind, rules: m.rules,
        status: 'waiting', seats: [] };
      const item = tableItem(table, [joinButton(table, t('join'))]);
      const list = body.querySelector('ul.table-list');
      if (list) list.prepend(item);
      else {
        const none = body.querySelector('p.empty');
        if (none) none.replaceWith(h('ul', { class: 'table-list' }, item));
      }
    }
  }
  // the friends tab keeps its form (and what is typed there): only its lists are drawn again
  function redraw() {
    if (tab === 'friends' && body.friendsLists) body.friendsLists().catch(() => {});
    else if (!body.querySelector('form.host-form')) draw();
  }
  return () => stops.forEach((stopIt) => stopIt());
}

/** The friends lists as a friends message changes them (``user_id``, ``name``: the other). */
function applyFriendMessage(data, m) {
  const other = { id: m.user_id, first_name: m.name };
  if (m.type === 'friend_renamed') { // the same lists, with the new name wherever it shows
    const renamed = (rows) => rows.map((f) => (f.id === m.user_id ? { ...f, first_name: m.name }
      : f));
    return { ...data, incoming: renamed(data.incoming), outgoing: renamed(data.outgoing),
      friends: renamed(data.friends) };
  }
  const without = (rows) => rows.filter((f) => f.id !== m.user_id);
  const next = { ...data, incoming: without(data.incoming), outgoing: without(data.outgoing),
    friends: data.friends };
  if (m.type === 'friend_request') next.incoming = [...next.incoming, other];
  else if (m.type === 'friend_requested') next.outgoing = [...next.outgoing, other];
  else if (m.type === 'friend_accepted') {
    next.friends = [...without(data.friends), other];
    next.count = next.friends.length;
  } else if (m.type === 'friend_removed') {
    next.friends = without(data.friends);
    next.count = next.friends.length;
  }
  return next;
}

function showPresence(body) {
  for (const el of body.querySelectorAll('[data-presence-of]')) {
    const state = live.presence.get(Number(el.dataset.presenceOf)) || 'offline';
    el.dataset.presence = state;
    el.textContent = t(`presence_${state}`);
  }
}

// -- Host ------------------------------------------------------------------------------------
async function host(body) {
  const [mine, friendsList] = await Promise.all([get('/api/tables/mine'),
    get('/api/friends')]);
  const hosted = mine.host[0];
  if (hosted) {
    replace(body, h('h2', {}, t('your_hosted_game')), h('ul', { class: 'table-list' },
      tableItem(hosted, [
        joinButton(hosted, t('open_table')),
        button(t('close_game'), async () => {
          if (!await confirmDialog(t('close_game_confirm'), t('close_game'))) return;
          await post(`/api/tables/${hosted.id}/close`);
          host(body);
        }, { class: 'danger' }),
      ])));
    return;
  }
  if (!canHost(session.user) && await tierRequestPanel(body)) return;
  if (friendsList.friends.length < 3) {
    replace(body, h('p', {}, t('host_needs_friends')),
      h('a', { class: 'button', href: '#/dashboard/friends' }, t('tab_friends')));
    return;
  }
  replace(body, await hostForm(body, friendsList.friends));
}

async function hostForm(body, friends) {
  const choices = [['', t('choose_friend')], ...friends.map((f) => [f.id, f.first_name])];
  const picks = [0, 1, 2].map((i) => selectEl(`player${i}`, choices, '', { required: true }));
  const labels = [0, 1, 2].map(() => h('span'));
  const mode = h('fieldset', { class: 'radios' }, h('legend', {}, t('teams')),
    ['random', 'seats'].map((m) => h('label', {},
      h('input', { type: 'radio', name: 'mode', value: m, checked: m === 'random' }),
      ` ${t(`teams_${m}`)}`)));
  const relabelPicks = () => {
    const seats = mode.querySelector('input:checked').value === 'seats';
    const keys = seats ? ['seat_after_you', 'seat_partner', 'seat_before_you']
      : ['player_n', 'player_n', 'player_n'];
    labels.forEach((el, i) => { el.textContent = t(keys[i], { n: i + 2 }); });
  };
  mode.addEventListener('change', relabelPicks);
  relabelPicks();
  const editor = await rulesEditor();
  const conference = h('input', { name: 'conference_url', type: 'url', placeholder: 'https://…',
    pattern: 'https://.+' });
  const spectators = selectEl('spectators_see', [['host_hand', t('spectators_host_hand')],
    ['none', t('spectators_none')]], 'host_hand');
  const takeover = h('input', { name: 'takeover_seconds', type: 'number', min: 1, max: 600,
    value: 60, required: true });
  const name = h('input', { name: 'name', maxlength: 80 });
  const clock = turnSecondsSelect(0);
  const form = h('form', { class: 'stack host-form', 'aria-label': t('host_a_game') },
    h('h2', {}, t('host_a_game')),
    mode,
    h('div', { class: 'pick-grid' }, picks.map((p, i) => h('div', { class: 'field' },
      h('label', { for: `pick${i}` }, labels[i]), Object.assign(p, { id: `pick${i}` })))),
    editor.el,
    field(t('conference_link'), conference, t('conference_hint')),
    field(t('spectators_see'), spectators),
    field(t('takeover_seconds'), takeover, t('takeover_hint')),
    field(t('turn_seconds'), clock, t('turn_clock_hint')),
    field(t('game_name'), name),
    h('button', { type: 'submit', class: 'primary' }, t('host_submit')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const ids = picks.map((p) => Number(p.value));
    if (new Set(ids).size !== 3 || ids.some((v) => !v)) {
      toast(t('pick_three_friends'), 'error');
      return;
    }
    const seats = mode.querySelector('input:checked').value === 'seats';
    const me = session.user.id;
    const payload = {
      ...(seats ? { seats: [me, ids[0], ids[1], ids[2]] } : { players: ids }),
      rules: editor.value(),
      conference_url: conference.value.trim(),
      spectators_see: spectators.value,
      takeover_seconds: Number(takeover.value),
      turn_seconds: Number(clock.value),
      name: name.value.trim(),
    };
    const submit = form.querySelector('button[type=submit]');
    submit.disabled = true;
    post('/api/tables/hosted', payload)
      .then(() => { toast(t('game_hosted')); host(body); })
      .catch((e) => toast(e.message, 'error'))
      .finally(() => { submit.disabled = false; });
  });
  return form;
}

// -- Join and View -----------------------------------------------------------------------------
async function join(body) {
  const mine = await fresh('/api/tables/mine');
  const rows = mine.join;
  replace(body, h('h2', {}, t('games_to_join')), rows.length
    ? h('ul', { class: 'table-list' }, rows.map((table) => tableItem(table, [
      joinButton(table, table.status === 'waiting' ? t('join') : t('open_table')),
    ])))
    : empty(t('no_games_to_join')));
  body.append(tournamentsSection(t('tour_title'), (d) => d.status !== 'finished'));
}

async function view(body) {
  const mine = await fresh('/api/tables/mine');
  replace(body, h('h2', {}, t('games_to_watch')), mine.view.length
    ? h('ul', { class: 'table-list' }, mine.view.map((table) => tableItem(table,
      [watchButton(table)])))
    : empty(t('no_games_to_watch')));
}

// -- Friends ---------------------------------------------------------------------------------
function person(f) {
  return h('span', {}, h('strong', {}, f.first_name), f.email ? h('span', { class: 'muted' },
    ` ${f.email}`) : null);
}

async function friends(body) {
  const email = h('input', { name: 'email', type: 'email', required: true, autocomplete: 'off' });
  const form = h('form', { class: 'row add-friend', 'aria-label': t('add_friend') },
    field(t('friend_email'), email), h('button', { type: 'submit', class: 'primary' },
      t('add_friend')));
  const offer = h('div', { class: 'invitation-offer' });
  const heading = h('h2');
  const lists = h('div', { class: 'friends-lists' });
  // drawn again on each change (live.js): the form, the offer and what is typed stay
  let invitations = null;
  const show = (data) => {
    body.friendsData = data;
    replace(heading, t('friends_count', { count: data.count, limit: data.limit }));
    replace(lists, friendLists(data, again), invitations);
    showPresence(lists);
  };
  const again = async () => {
    const [data, shown] = await Promise.all([fresh('/api/friends'), invitationsList(again)]);
    invitations = shown;
    show(data);
  };
  body.friendsShow = show;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const address = email.value.trim();
    post('/api/friends/requests', { email: address })
      .then((r) => {
        toast(t(`friend_${r.status}`, { name: r.user.first_name }));
        email.value = '';
        again();
      })
      .catch((e) => {
        if (e.status === 404) invitationOffer(offer, address, again);
        else toast(e.message, 'error');
      });
  });
  await again();
  body.friendsLists = again;
  replace(body, heading, form, offer, lists, button(t('refresh'), again, { class: 'link' }));
}

function friendLists(data, again) {
  const list = (title, rows, actions, none, presence = false) => h('section', {},
    h('h3', {}, title),
    rows.length ? h('ul', { class: 'people' }, rows.map((f) => h('li', { 'data-user': f.id },
      person(f), presence ? h('span', { class: 'presence', 'data-presence-of': f.id }) : null,
      h('div', { class: 'row' }, actions(f))))) : empty(none));
  return [
    list(t('requests_to_you'), data.incoming, (f) => [
      button(t('accept'), async () => { await post(`/api/friends/requests/${f.id}/accept`); again(); },
        { class: 'primary', 'aria-label': t('accept_named', { name: f.first_name }) }),
      button(t('decline'), async () => { await post(`/api/friends/requests/${f.id}/decline`); again(); },
        { 'aria-label': t('decline_named', { name: f.first_name }) }),
    ], t('no_requests')),
    list(t('your_friends'), data.friends, (f) => [
      button(t('remove'), async () => { await del(`/api/friends/${f.id}`); again(); },
        { class: 'danger', 'aria-label': t('remove_named', { name: f.first_name }) }),
    ], t('no_friends'), true),
    list(t('your_requests'), data.outgoing, (f) => [
      button(t('cancel'), async () => { await del(`/api/friends/requests/${f.id}`); again(); },
        { 'aria-label': t('cancel_named', { name: f.first_name }) }),
    ], t('no_requests')),
  ];
}

// -- History ---------------------------------------------------------------------------------
/** "Bid 20", "Single Hand", or a dash for a deal that ended before any bid. */
function contractText(deal) {
  if (deal.contract === 'single_hand') return t('badge_single_hand');
  return deal.bid ? `${t('bid')} ${deal.bid}` : '—';
}

async function history(body) {
  const [games, deals] = await Promise.all([get('/api/history/games'),
    get('/api/history/deals?limit=100')]);
  const gameRows = games.map((g) => h('tr', {},
    h('td', {}, when(g.started_at)), h('td', {}, String(g.deals)),
    h('td', {}, `${g.sets_won} / ${g.sets_lost}`),
    h('td', {}, g.result ? t(`result_${g.result}`) : t('in_progress'))));
  const dealRows = deals.map((d) => h('tr', { 'data-deal': d.id },
    h('td', {}, when(d.finished_at)),
    h('td', {}, contractText(d)),
    h('td', {}, t(`outcome_${d.outcome}`)),
    h('td', {}, d.your_team_bid ? t('yes') : t('no')),
    h('td', {}, d.score_delta.join(' : ')),
    h('td', { class: 'row' },
      h('a', { href: `#/replay/${d.id}`, class: 'button small' }, t('replay')),
      h('a', { href: `/api/history/deals/${d.id}`, download: `deal-${d.id}.json`,
        class: 'button small' }, t('download')))));
  replace(body,
    h('h2', {}, t('your_games')),
    games.length ? table([t('started'), t('deals'), t('sets_won_lost'), t('result')], gameRows)
      : empty(t('no_games_yet')),
    h('h2', {}, t('your_deals')),
    deals.length ? table([t('finished'), t('contract'), t('outcome'), t('your_team_bid'),
      t('score_change'), ''], dealRows) : empty(t('no_deals_yet')));
}

function table(headers, rows) {
  return h('div', { class: 'scroll-x' }, h('table', { class: 'data' },
    h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, rows)));
}
