// The look of the table: card deck and table theme, from the profile (or saved in this browser).

export const DECKS = ['classic', 'four-colour', 'large'];
export const THEMES = ['green', 'blue', 'maroon', 'night'];
export const AVATARS = {
  tiger: '🐯', elephant: '🐘', peacock: '🦚', lotus: '🪷', kite: '🪁', tea: '🍵',
  boat: '⛵', star: '⭐', mango: '🥭', drum: '🥁',
};

export const look = { deck: 'classic', theme: 'green' };

export function applyLook(user) {
  const deck = (user && user.card_deck) || localStorage.getItem('tn_deck') || 'classic';
  const theme = (user && user.table_theme) || localStorage.getItem('tn_theme') || 'green';
  look.deck = DECKS.includes(deck) ? deck : 'classic';
  look.theme = THEMES.includes(theme) ? theme : 'green';
  document.body.dataset.deck = look.deck;
  document.body.dataset.theme = look.theme;
}

export function avatarOf(user) {
  return (user && AVATARS[user.avatar]) || '';
}
