// What the page's modules share: the state of the screen shown, its two regions, and the hooks
// app.js wires once, so that the screens reach the router and each other's refreshers without
// importing each other (imports run one way: app.js → screens → header, errors → updates → state).
export const state = {
  presets: [],
  levels: ["random", "greedy", "strategist", "expert"], // GET /rules says which
  defaultLevel: "expert",
  game: null, // the current game view
  etag: null,
  moves: [],
  movesAfter: 0,
  selected: null, // a tile of the hand waiting for its end
  premoveDraft: null, // {game, values}: the pre-move card's fields as the player left them
  review: null, // {game, record, analysis}: the finished match's review, once loaded
  live: "offline",
  busy: false,
  lists: { mine: [], open: [], notes: [], unread: 0, opponents: [], invites: [] },
  ticket: null, // the quick match ticket searching from this page
};

export const main = document.getElementById("main");
export const errorBox = document.getElementById("error");

/** Set by app.js: route() draws what the address names, signIn() the sign-in screen,
 * refreshGame() and refreshLobby() bring the game shown or the lobby up to date, emote(message)
 * shows a socket's emote at the table. */
export const hooks = {
  route: null,
  signIn: null,
  refreshGame: null,
  refreshLobby: null,
  emote: null,
};
