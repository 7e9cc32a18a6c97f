// Our own card drawings: a card code (JS, TD, AH …) becomes an SVG face; backs are a lattice.
// Colours come from CSS (classes s-C, s-D, s-H, s-S), so a deck is a stylesheet choice.
import { h } from './dom.js';
import { t } from './i18n.js';

export const SUITS = 'CDHS';
export const RANK_ORDER = 'J9ATKQ87'; // strongest first
const POINTS = { J: 3, 9: 2, A: 1, T: 1 };

export const rankOf = (code) => code[0];
export const suitOf = (code) => code[1];
export const pointsOf = (code) => POINTS[code[0]] || 0;
export const rankLabel = (rank) => (rank === 'T' ? '10' : rank);

export function cardName(code) {
  return t('card_name', { rank: t(`rank_${rankOf(code)}`), suit: t(`suit_${suitOf(code)}`) });
}

export const suitName = (suit) => t(`suit_${suit}`);

// -- the shared drawings (one sprite per page) ---------------------------------------------------
const SUIT_PATHS = {
  D: '<path d="M50 2 L88 50 L50 98 L12 50 Z"/>',
  H: '<path d="M50 94 C22 70 3 52 3 31 C3 14 15 4 29 4 C39 4 46 10 50 20 C54 10 61 4 71 4 '
    + 'C85 4 97 14 97 31 C97 52 78 70 50 94 Z"/>',
  S: '<path d="M50 3 C79 29 97 45 97 63 C97 77 87 87 74 87 C65 87 57 82 54 75 C55 85 59 92 67 97 '
    + 'L33 97 C41 92 45 85 46 75 C43 82 35 87 26 87 C13 87 3 77 3 63 C3 45 21 29 50 3 Z"/>',
  C: '<circle cx="50" cy="27" r="21"/><circle cx="27" cy="59" r="21"/>'
    + '<circle cx="73" cy="59" r="21"/><path d="M45 55 C45 78 40 90 31 97 L69 97 C60 90 55 78 '
    + '55 55 Z"/>',
};

export function ensureSprite() {
  if (document.getElementById('tn-sprite')) return;
  const symbols = Object.entries(SUIT_PATHS)
    .map(([s, body]) => `<symbol id="tn-suit-${s}" viewBox="0 0 100 100">${body}</symbol>`)
    .join('');
  const sprite = h('div', { id: 'tn-sprite', 'aria-hidden': 'true', class: 'sprite' });
  sprite.innerHTML = `<svg width="0" height="0" focusable="false"><defs>${symbols}`
    + '<pattern id="tn-lattice" width="12" height="12" patternUnits="userSpaceOnUse">'
    + '<path d="M0 6 L6 0 L12 6 L6 12 Z" fill="none" stroke="rgba(255,255,255,.38)" '
    + 'stroke-width="1.2"/><circle cx="6" cy="6" r="1.3" fill="rgba(255,255,255,.45)"/>'
    + '</pattern></defs></svg>';
  document.body.prepend(sprite);
}

const pip = (s, x, y, size, flip = false) => {
  const half = size / 2;
  const turn = flip ? ` transform="rotate(180 ${x} ${y})"` : '';
  return `<use href="#tn-suit-${s}" x="${x - half}" y="${y - half}" width="${size}" `
    + `height="${size}" class="s-${s}"${turn}/>`;
};

// pip centres of the number cards (lower half drawn upside down, as on printed cards)
const L = 31;
const C = 50;
const R = 69;
const PIPS = {
  7: [[L, 30], [R, 30], [C, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  8: [[L, 30], [R, 30], [C, 50], [L, 70], [R, 70], [C, 90], [L, 110], [R, 110]],
  9: [[L, 28], [R, 28], [L, 56], [R, 56], [C, 70], [L, 84], [R, 84], [L, 112], [R, 112]],
  T: [[L, 28], [R, 28], [C, 42], [L, 56], [R, 56], [L, 84], [R, 84], [C, 98], [L, 112],
    [R, 112]],
};

function corner(rank, s) {
  const label = rankLabel(rank);
  const size = label.length > 1 ? 17 : 21;
  return `<g class="index s-${s}"><text x="12" y="23" font-size="${size}" `
    + `text-anchor="middle">${label}</text>${pip(s, 12, 34, 14)}</g>`;
}

const SKIN = '<circle cx="50" cy="66" r="10" class="skin"/>'
  + '<circle cx="46.5" cy="65" r="1.2" class="ink"/><circle cx="53.5" cy="65" r="1.2" class="ink"/>'
  + '<path d="M46.5 70 Q50 72.5 53.5 70" class="line"/>';

const COURTS = {
  K: '<path d="M39 58 L40 46 L45 52 L50 43 L55 52 L60 46 L61 58 Z" class="gold"/>'
    + `${SKIN}<path d="M42 71 Q50 84 58 71 Q50 76 42 71 Z" class="hair"/>`,
  Q: '<path d="M39 67 Q37 51 50 51 Q63 51 61 67 L64 78 Q58 73 57 62 Q50 58 43 62 Q42 73 36 78 Z" '
    + `class="hair"/>${SKIN}<path d="M41 57 Q50 47 59 57 L57 59 Q50 53 43 59 Z" class="gold"/>`
    + '<circle cx="50" cy="51" r="2" class="gem"/>',
  J: `${SKIN}<path d="M39 61 Q40 49 50 49 Q60 49 61 61 Z" class="cap"/>`
    + '<path d="M58 52 Q69 41 73 30 Q68 43 56 51 Z" class="gold"/>',
};

function courtFace(rank, s) {
  const robe = `<path d="M30 114 L34 86 Q50 75 66 86 L70 114 Z" class="s-${s}"/>`
    + '<path d="M47.5 80 L52.5 80 L55 114 L45 114 Z" class="gold"/>';
  const held = rank === 'Q' ? `${pip(s, 62, 97, 9)}` : rank === 'K' ? '<path d="M64 80 L66 112" '
    + 'class="staff"/>' : '<path d="M36 84 L33 112" class="staff"/>';
  const cap = rank === 'J' ? COURTS.J.replace('class="cap"', `class="s-${s}"`) : COURTS[rank];
  return `<rect x="24" y="24" width="52" height="92" rx="3" class="frame s-${s}-stroke"/>`
    + `${robe}${cap}${held}${pip(s, 31, 31, 9)}${pip(s, 69, 109, 9, true)}`;
}

function centre(rank, s) {
  if (rank === 'A') return pip(s, 50, 70, 46);
  if (rank in COURTS) return courtFace(rank, s);
  return PIPS[rank].map(([x, y]) => pip(s, x, y, 18, y > 70)).join('');
}

/** The SVG markup of a card face. */
export function faceSVG(code) {
  const rank = rankOf(code);
  const s = suitOf(code);
  if (!RANK_ORDER.includes(rank) || !SUITS.includes(s)) throw new Error(`no card ${code}`);
  return `<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">`
    + '<rect x="1" y="1" width="98" height="138" rx="7" class="paper"/>'
    + `${centre(rank, s)}${corner(rank, s)}`
    + `<g transform="rotate(180 50 70)">${corner(rank, s)}</g></svg>`;
}

/** The SVG markup of a card back. */
export function backSVG() {
  return '<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">'
    + '<rect x="1" y="1" width="98" height="138" rx="7" class="back"/>'
    + '<rect x="8" y="8" width="84" height="124" rx="4" fill="url(#tn-lattice)" class="back-edge"/>'
    + '<circle cx="50" cy="70" r="17" class="back-seal"/>'
    + '<text x="50" y="77" text-anchor="middle" font-size="19" class="back-text">29</text></svg>';
}

/** A card as an element: a button when it can be chosen, otherwise an image with a name. */
export function cardEl(code, opts = {}) {
  ensureSprite();
  const { onclick, legal = false, small = false, label, key, extraClass } = opts;
  const name = code ? cardName(code) : t('card_back');
  const classes = ['card', small && 'small', code ? 'face' : 'back', legal && 'legal', extraClass];
  const attrs = {
    class: classes,
    html: code ? faceSVG(code) : backSVG(),
    'data-card': code || null,
    'data-key': key || (code ? `card-${code}` : null),
  };
  if (onclick || opts.button) {
    return h('button', {
      ...attrs,
      type: 'button',
      'aria-label': label || name,
      'data-legal': legal ? 'true' : 'false',
      disabled: !legal,
      onclick,
    });
  }
  return h('span', { ...attrs, role: 'img', 'aria-label': label || name });
}

/** A suit symbol as a small inline SVG (for prompts and the trump indicator). */
export function suitIcon(s, size = 18) {
  ensureSprite();
  return h('span', {
    class: 'suit-icon',
    role: 'img',
    'aria-label': suitName(s),
    html: `<svg width="${size}" height="${size}" viewBox="0 0 100 100" aria-hidden="true">`
      + `<use href="#tn-suit-${s}" class="s-${s}"/></svg>`,
  });
}

/** Cards in display order: suit by suit (C D H S), strongest first. */
export function sortHand(codes) {
  return [...codes].sort((a, b) => SUITS.indexOf(suitOf(a)) - SUITS.indexOf(suitOf(b))
    || RANK_ORDER.indexOf(rankOf(a)) - RANK_ORDER.indexOf(rankOf(b)));
}
