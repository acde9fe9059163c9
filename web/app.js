// The web table: sign-in, the lobby (new game, my games, open games, inbox) and a game.
import { API_BASE, ApiError, Live, change, request, saveSession, session } from "./api.js";
import { AuthError, authConfig, finishSignIn, signOutUrl, startSignIn } from "./auth.js";
import { boardElement, parseTile, tileElement } from "./board.js";
import { h } from "./dom.js";
import { language, setLanguage, t } from "./i18n.js";

const POLL_MS = 3000;
const LOBBY_POLL_MS = 15000;

const state = {
  presets: [],
  levels: ["random", "greedy", "strategist", "expert"], // GET /rules says which
  defaultLevel: "expert",
  game: null, // the current game view
  etag: null,
  moves: [],
  movesAfter: 0,
  selected: null, // a tile of the hand waiting for its end
  live: "offline",
  busy: false,
  lists: { mine: [], open: [], notes: [], unread: 0 },
};

const main = document.getElementById("main");
const errorBox = document.getElementById("error");
const live = new Live(onLiveMessage, (value) => {
  const reconnected = value === "live" && state.live !== "live";
  state.live = value;
  renderLiveBadge();
  if (reconnected) (currentGameId() ? refreshGame : refreshLobby)(); // what the gap missed
});
let pollTimer = null;

// ---------- routing: ?game=<id> is a game, ?join=<id> the link shared to join one ----------

function currentGameId() {
  const params = new URLSearchParams(location.search);
  return params.get("game") || params.get("join");
}

function urlFor(gameId, key = "game") {
  const params = new URLSearchParams(location.search);
  params.delete("game");
  params.delete("join");
  if (gameId) params.set(key, gameId);
  const search = params.toString();
  return location.pathname + (search ? "?" + search : "");
}

/** The link to share: an https link (on a deployed host) that the apps may also claim. */
function shareLink(gameId) {
  return location.origin + urlFor(gameId, "join");
}

function go(gameId) {
  history.pushState(null, "", urlFor(gameId));
  route();
}

window.addEventListener("popstate", () => route());

async function route() {
  stopPolling();
  clearError();
  state.selected = null;
  const me = session();
  if (!me) {
    live.stop();
    renderSignIn();
    return;
  }
  if (live.stopped) live.start();
  const gameId = currentGameId();
  if (gameId) await openGame(gameId);
  else await openLobby();
}

// ---------- errors ----------

function errorText(err) {
  if (err instanceof AuthError) {
    if (err.code === "network") return t("authNetwork");
    if (err.code === "state") return t("authState");
    return t("authFailed", { error: err.detail ? `${err.detail} (${err.code})` : err.code });
  }
  if (err instanceof ApiError) return err.code === "network" ? t("network") : `${err.message} (${err.code})`;
  return String(err?.message || err);
}

function showError(err) {
  if (err instanceof ApiError && err.status === 401) {
    saveSession(null);
    live.stop();
    renderSignIn();
  }
  errorBox.textContent = errorText(err);
  errorBox.hidden = false;
}

function clearError() {
  errorBox.hidden = true;
  errorBox.textContent = "";
}

async function attempt(action) {
  if (state.busy) return;
  state.busy = true;
  clearError();
  try {
    await action();
  } catch (err) {
    showError(err);
  } finally {
    state.busy = false;
  }
}

// ---------- header ----------

function renderHeader() {
  const me = session();
  const header = document.getElementById("header");
  const parts = [
    h("h1", {}, h("a", { href: urlFor(null), onclick: (e) => { e.preventDefault(); if (me) go(null); } }, t("title"))),
    h("span", { id: "live", class: "badge" }),
    me ? h("span", { class: "who" }, me.name) : null,
    h("button", { id: "lang", class: "ghost", type: "button", onclick: toggleLanguage }, t("language")),
    me ? h("button", { id: "signout", class: "ghost", type: "button", onclick: signOut }, t("signOut")) : null,
  ];
  header.replaceChildren(...parts.filter(Boolean)); // replaceChildren would write null as "null"
  document.title = t("title");
  renderLiveBadge();
}

function renderLiveBadge() {
  const badge = document.getElementById("live");
  if (!badge) return;
  const polling = state.live !== "live" && pollTimer !== null;
  const value = state.live === "live" ? "live" : polling ? "polling" : "offline";
  badge.textContent = session() ? t(value) : "";
  badge.dataset.state = value;
}

function toggleLanguage() {
  setLanguage(language() === "es" ? "en" : "es");
  route();
}

function signOut() {
  const hosted = session()?.auth;
  saveSession(null);
  live.stop();
  if (hosted) {
    location.assign(signOutUrl(hosted)); // ends the identity provider's session too
    return;
  }
  history.pushState(null, "", urlFor(currentGameId()));
  route();
}

// ---------- sign in (the local runtime's dev tokens) ----------

function playerIdFor(name) {
  const id = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_.@:-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return id || "player";
}

function renderSignIn() {
  const auth = authConfig();
  if (auth) {
    renderHostedSignIn(auth);
    return;
  }
  renderHeader();
  const name = h("input", { id: "name", name: "name", required: true, maxlength: 40, autocomplete: "nickname" });
  const form = h(
    "form",
    { id: "signin", class: "card narrow" },
    h("h2", {}, t("signIn")),
    h("label", {}, t("yourName"), name),
    h("button", { type: "submit" }, t("signIn")),
    h("p", { class: "note" }, t("devNote")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      const display = name.value.trim();
      const player = playerIdFor(display);
      saveSession(null);
      const { body } = await request("POST", "/dev/token", { body: { player, name: display } });
      saveSession({ token: body.token, player, name: display });
      await route();
    });
  });
  main.replaceChildren(form);
  name.focus();
}

// ---------- hosted sign-in (web/config.js's auth, or ?auth_domain=&client_id=) ----------

function renderHostedSignIn(auth) {
  renderHeader();
  const button = h("button", { id: "hosted-signin", type: "button" }, t("signIn"));
  button.addEventListener("click", () => {
    button.disabled = true;
    startSignIn(auth).catch((err) => {
      button.disabled = false;
      showError(err);
    });
  });
  main.replaceChildren(h("section", { id: "signin", class: "card narrow" }, h("h2", {}, t("signIn")), button));
  button.focus();
}

/** The return from the authorize endpoint: trade the code for tokens, then the lobby. */
async function finishHostedSignIn(pending) {
  try {
    saveSession(await pending);
  } catch (err) {
    await route(); // a refused return (a forged link too) leaves any current session alone
    showError(err);
    return;
  }
  await route();
}

// ---------- lobby ----------

async function openLobby() {
  renderHeader();
  main.replaceChildren(h("p", { class: "loading" }, "…"));
  try {
    if (!state.presets.length) {
      const rules = (await request("GET", "/rules")).body;
      state.presets = rules.presets;
      state.levels = rules.bot_levels;
      state.defaultLevel = rules.default_bot_level;
    }
    await loadLists();
  } catch (err) {
    showError(err);
  }
  if (currentGameId() || !session()) return; // navigated away meanwhile
  renderLobby();
  startPolling(LOBBY_POLL_MS, refreshLobby);
}

async function loadLists() {
  const [mine, open, notes] = await Promise.all([
    request("GET", "/me/games?limit=50"),
    request("GET", "/games?status=waiting&limit=20"),
    request("GET", "/me/notifications?limit=20"),
  ]);
  state.lists = {
    mine: mine.body.games,
    open: open.body.games,
    notes: notes.body.notifications,
    unread: notes.body.unread,
  };
}

async function refreshLobby() {
  if (currentGameId() || !session()) return;
  try {
    await loadLists();
    renderLobby();
  } catch (err) {
    showError(err);
  }
}

/** The lobby; a refresh redraws the lists only, never the form being filled in. */
function renderLobby() {
  const lobby = main.querySelector(".lobby");
  if (lobby) {
    lobby.querySelector("#my-games").replaceWith(myGamesCard());
    lobby.querySelector("#inbox").replaceWith(inboxCard());
    lobby.querySelector("#open-games").replaceWith(openGamesCard());
    return;
  }
  main.replaceChildren(
    h("div", { class: "lobby" }, newGameForm(), myGamesCard(), inboxCard(), openGamesCard()),
  );
}

function newGameForm() {
  const preset = h(
    "select",
    { id: "preset", name: "preset" },
    state.presets.map((p) => h("option", { value: p.id }, `${p.name} (${p.id})`)),
  );
  const players = h("input", { id: "players", name: "players", type: "number", value: 2 });
  const bots = h("input", { id: "bots", name: "bots", type: "number", value: 0, min: 0 });
  const level = h(
    "select",
    { id: "bot-level", name: "bot_level" },
    state.levels.map((l) => h("option", { value: l }, t("level_" + l))),
  );
  level.value = state.defaultLevel;
  const single = h("input", { id: "single", name: "single", type: "checkbox" });
  const hidden = h("input", { id: "private", name: "private", type: "checkbox" });
  const fit = () => {
    const chosen = state.presets.find((p) => p.id === preset.value);
    if (!chosen) return;
    players.min = chosen.players.min;
    players.max = chosen.players.max;
    const count = Math.min(Math.max(Number(players.value) || 0, chosen.players.min), chosen.players.max);
    players.value = count;
    bots.max = count - 1;
    if (Number(bots.value) > count - 1) bots.value = count - 1;
  };
  preset.addEventListener("change", fit);
  players.addEventListener("change", fit);
  fit();
  const form = h(
    "form",
    { id: "new-game", class: "card" },
    h("h2", {}, t("newGame")),
    h("label", {}, t("preset"), preset),
    h("div", { class: "row" }, h("label", {}, t("players"), players), h("label", {}, t("bots"), bots)),
    h("label", {}, t("botLevel"), level),
    h("label", { class: "check" }, single, t("singleHand")),
    h("label", { class: "check" }, hidden, t("private")),
    h("button", { type: "submit", id: "create" }, t("create")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      const body = {
        preset: preset.value,
        players: Number(players.value),
        bots: Number(bots.value),
        private: hidden.checked,
      };
      if (body.bots > 0) body.bot_level = level.value;
      if (single.checked) body.rules = { match: "single" };
      const created = await request("POST", "/games", { body });
      history.pushState(null, "", urlFor(created.body.id));
      await openGame(created.body.id, created);
    });
  });
  return form;
}

function summaryItem(game, action) {
  const names = game.seats.map((s) => s.name || t("open_seat")).join(", ");
  const turn =
    game.status === "waiting"
      ? t("waiting")
      : game.status === "finished"
        ? t("finished")
        : game.your_turn
          ? t("yourTurn")
          : t("turnOf", { name: game.seats.find((s) => s.seat === game.turn)?.name ?? "?" });
  return h(
    "li",
    { class: "game-item" + (game.your_turn ? " mine" : ""), "data-game": game.id },
    h("span", { class: "what" }, h("strong", {}, game.preset), " · ", names),
    h("span", { class: "turn" + (game.your_turn ? " yours" : "") }, turn),
    h("button", { type: "button", onclick: action }, action.label || t("open")),
  );
}

function myGamesCard() {
  const { mine } = state.lists;
  return h(
    "section",
    { id: "my-games", class: "card" },
    h("h2", {}, t("myGames")),
    mine.length
      ? h("ul", { class: "games" }, mine.map((g) => summaryItem(g, () => go(g.id))))
      : h("p", { class: "note" }, t("noGames")),
  );
}

function openGamesCard() {
  const me = session();
  const games = state.lists.open.filter((g) => !state.lists.mine.some((m) => m.id === g.id));
  const join = (g) => {
    const action = () => attempt(async () => {
      await change(`/games/${g.id}/join`, { name: me.name });
      go(g.id);
    });
    action.label = t("join");
    return action;
  };
  return h(
    "section",
    { id: "open-games", class: "card" },
    h("h2", {}, t("openGames")),
    games.length
      ? h("ul", { class: "games" }, games.map((g) => summaryItem(g, join(g))))
      : h("p", { class: "note" }, t("noGames")),
  );
}

function inboxCard() {
  const { notes, unread } = state.lists;
  const markRead = () => attempt(async () => {
    await request("POST", "/me/notifications/read", { body: { until: notes[0].id } });
    await refreshLobby();
  });
  return h(
    "section",
    { id: "inbox", class: "card" },
    h(
      "h2",
      {},
      t("inbox"),
      unread ? h("span", { class: "count" }, t("unread", { n: unread })) : null,
    ),
    notes.length
      ? h(
          "ul",
          { class: "notes" },
          notes.map((n) =>
            h(
              "li",
              { class: n.read ? "read" : "unread" },
              h("a", { href: urlFor(n.game), onclick: (e) => { e.preventDefault(); go(n.game); } }, n.title),
              h("span", {}, n.body),
            ),
          ),
        )
      : h("p", { class: "note" }, t("noNotes")),
    unread ? h("button", { type: "button", id: "mark-read", class: "ghost", onclick: markRead }, t("markRead")) : null,
  );
}

// ---------- a game ----------

async function openGame(gameId, created) {
  renderHeader();
  if (!state.game || state.game.id !== gameId) {
    state.game = null;
    state.etag = null;
    state.moves = [];
    state.movesAfter = 0;
    main.replaceChildren(h("p", { class: "loading" }, "…"));
  }
  try {
    if (created) accept(created);
    else await fetchGame();
    await fetchMoves();
  } catch (err) {
    showError(err);
    if (!state.game) {
      main.replaceChildren(h("p", {}, h("button", { type: "button", id: "back", onclick: () => go(null) }, "← " + t("back"))));
      return;
    }
  }
  renderGame();
  startPolling(POLL_MS, refreshGame);
}

/** Take a view answered by the API unless an older one arrives after a newer one. */
function accept(answer) {
  const view = answer.body;
  if (!view || (state.game && state.game.id === view.id && view.version < state.game.version)) return false;
  state.game = view;
  state.etag = answer.etag;
  return true;
}

async function fetchGame() {
  const id = currentGameId();
  const answer = await request("GET", `/games/${encodeURIComponent(id)}`, {
    etag: state.game?.id === id ? state.etag : null,
  });
  if (answer.status === 304) return false;
  return accept(answer);
}

async function fetchMoves() {
  const game = state.game;
  if (!game) return;
  for (let page = 0; page < 20; page++) {
    let answer;
    try {
      answer = await request("GET", `/games/${game.id}/moves?after=${state.movesAfter}&limit=200`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 503) return; // archiving a hand: next time
      throw err;
    }
    for (const move of answer.body.moves) {
      state.moves.push(move);
      state.movesAfter = Math.max(state.movesAfter, move.n);
    }
    if (!answer.body.next) return;
  }
}

async function refreshGame() {
  if (!currentGameId()) return;
  try {
    const changed = await fetchGame();
    if (changed) {
      await fetchMoves();
      renderGame();
    }
  } catch (err) {
    showError(err);
  }
}

function onLiveMessage(message) {
  if (message.type !== "game_changed") return;
  const id = currentGameId();
  if (id && message.game === id) {
    if (!state.game || message.version > state.game.version) refreshGame();
  } else if (!id) {
    refreshLobby();
  }
}

/** Poll while no socket is open (a socket's game_changed messages make polling needless). */
function startPolling(ms, fn) {
  stopPolling();
  pollTimer = setInterval(() => {
    if (state.live !== "live" && !state.busy) fn();
  }, ms);
  renderLiveBadge();
}

function stopPolling() {
  clearInterval(pollTimer);
  pollTimer = null;
}

function seatName(game, seat) {
  const found = game.seats.find((s) => s.seat === seat);
  return found?.name || found?.player || `#${seat}`;
}

async function act(path, body = {}) {
  await attempt(async () => {
    state.selected = null;
    const answer = await change(`/games/${state.game.id}/${path}`, body);
    accept(answer);
    await fetchMoves();
    renderGame();
  });
  if (!errorBox.hidden) {
    // refused (a stale view, a move no longer legal): show the game as it is now
    state.selected = null;
    await refreshGame();
    renderGame();
  }
}

function play(tile, end) {
  return act("play", end ? { tile, end } : { tile });
}

function chooseTile(tile) {
  const legal = state.game.you.legal.filter((p) => p.tile === tile);
  if (!legal.length) return;
  if (legal.length === 1) {
    play(tile, legal[0].end);
    return;
  }
  state.selected = tile;
  renderGame();
}

function renderGame() {
  const game = state.game;
  if (!game) return;
  const you = game.you;
  const myTurn = game.status === "playing" && you && game.turn === you.seat;
  const layout = game.rules?.layout || "line";
  const legalEnds = new Set((you?.legal || []).map((p) => p.end).filter(Boolean));
  const targets = state.selected
    ? new Set(you.legal.filter((p) => p.tile === state.selected).map((p) => p.end))
    : null;

  const status =
    game.status === "waiting"
      ? t("waiting")
      : game.status === "finished"
        ? t("finished")
        : myTurn
          ? t("yourTurn")
          : t("turnOf", { name: seatName(game, game.turn) });

  const root = h("div", {
    id: "game",
    class: "table",
    "data-game": game.id,
    "data-status": game.status,
    "data-version": game.version,
    "data-my-turn": myTurn ? "true" : "false",
    "data-hand": game.hand_number,
  });

  root.append(
    h(
      "div",
      { class: "game-head" },
      h("button", { type: "button", class: "ghost", id: "back", onclick: () => go(null) }, "← " + t("back")),
      h("h2", {}, game.rules?.name || game.preset, h("small", {}, ` · ${game.preset}`)),
      h("p", { id: "status", class: "status" + (myTurn ? " yours" : "") }, status),
      game.hand_number ? h("span", { class: "badge" }, t("hand", { n: game.hand_number })) : null,
      game.status === "playing" ? h("span", { class: "badge" }, t("boneyard", { n: game.boneyard })) : null,
    ),
  );

  if (game.status === "waiting") root.append(shareBox(game));
  root.append(seatsElement(game));
  if (!you && game.status === "waiting") {
    root.append(
      h("button", { type: "button", id: "join", onclick: () => attempt(async () => {
        accept(await change(`/games/${game.id}/join`, { name: session().name }));
        renderGame();
      }) }, t("joinThis")),
    );
  } else if (!you) {
    root.append(h("p", { class: "note" }, t("spectator")));
  }

  if (game.status !== "waiting") {
    root.append(
      h(
        "section",
        { class: "card board-card", "aria-label": t("board") },
        boardElement(game.board, layout, { targets, legalEnds: myTurn ? legalEnds : null, onEnd: (end) => play(state.selected, end) }),
      ),
    );
  }

  if (you && game.status === "playing") root.append(handElement(game, myTurn));
  if (game.result) root.append(resultElement(game));
  if (game.last_hand) root.append(lastHandElement(game));
  root.append(movesElement(game));
  main.replaceChildren(root);
  fitBoard(root);
}

/** A cross or star wider than the screen is shrunk to fit (down to 40 %), then scrolls. */
function fitBoard(root) {
  const field = root.querySelector(".board .field");
  const card = root.querySelector(".board-card");
  if (!field || !card) return;
  const style = getComputedStyle(card);
  const room = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const width = field.offsetWidth;
  if (width > room) field.style.zoom = String(Math.max(0.4, room / width));
  card.scrollLeft = (card.scrollWidth - card.clientWidth) / 2;
}

function shareBox(game) {
  const link = shareLink(game.id);
  const input = h("input", { id: "share-link", readonly: true, value: link });
  const copy = h("button", { type: "button", class: "ghost", onclick: async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(link);
      copy.textContent = t("copied");
    } catch {
      /* selected: the user copies it */
    }
  } }, t("copy"));
  return h("div", { class: "card share" }, h("label", {}, t("share"), h("div", { class: "row" }, input, copy)));
}

function seatsElement(game) {
  const you = game.you;
  return h(
    "ul",
    { class: "seats", "aria-label": t("seats") },
    game.seats.map((s) =>
      h(
        "li",
        {
          class: "seat" + (game.turn === s.seat && game.status === "playing" ? " turn" : "") + (you?.seat === s.seat ? " me" : ""),
          "data-seat": s.seat,
        },
        h("strong", {}, s.name || s.player || t("open_seat")),
        you?.seat === s.seat ? h("em", {}, ` (${t("you")})`) : null,
        s.bot ? h("em", {}, ` · ${t("bot")}`) : null,
        h("span", { class: "count" }, `${s.tiles} ${t("tiles")}`),
        h("span", { class: "score" }, `${s.score} ${t("score")}`),
        s.chips !== null && s.chips !== undefined ? h("span", { class: "chips" }, `◎ ${s.chips}`) : null,
      ),
    ),
  );
}

function handElement(game, myTurn) {
  const you = game.you;
  const legalTiles = new Set(you.legal.map((p) => p.tile));
  const hand = h("div", { class: "hand", id: "hand" });
  for (const tile of you.hand) {
    const [a, b] = parseTile(tile);
    const legal = myTurn && legalTiles.has(tile);
    const el = tileElement(a, b, { vertical: true, tag: "button" });
    el.type = "button";
    if (legal) el.classList.add("legal");
    if (state.selected === tile) el.classList.add("selected");
    el.disabled = !legal;
    el.addEventListener("click", () => chooseTile(tile));
    hand.append(el);
  }
  const controls = h(
    "div",
    { class: "controls" },
    h("button", { type: "button", id: "draw", disabled: !(myTurn && you.can_draw), onclick: () => act("draw") }, t("draw")),
    h("button", { type: "button", id: "pass", disabled: !(myTurn && you.can_pass), onclick: () => act("pass") }, t("pass")),
    h("button", { type: "button", id: "leave", class: "ghost", onclick: () => confirm(t("leaveConfirm")) && act("leave") }, t("leave")),
  );
  const section = h("section", { class: "card", "aria-label": t("yourHand") }, h("h3", {}, t("yourHand")), hand);
  if (state.selected) {
    const ends = you.legal.filter((p) => p.tile === state.selected).map((p) => p.end);
    section.append(
      h(
        "div",
        { class: "chooser", id: "chooser" },
        h("span", {}, t("chooseEnd", { tile: state.selected })),
        ends.map((end) => h("button", { type: "button", "data-end": end, onclick: () => play(state.selected, end) }, t("end_" + end))),
        h("button", { type: "button", class: "ghost", onclick: () => { state.selected = null; renderGame(); } }, t("cancel")),
      ),
    );
  }
  section.append(controls);
  return section;
}

function handTiles(tiles) {
  return h("span", { class: "mini" }, tiles.map((tile) => {
    const [a, b] = parseTile(tile);
    return tileElement(a, b, { vertical: true });
  }));
}

function lastHandElement(game) {
  const last = game.last_hand;
  const seats = game.seats.map((s) => s.seat);
  return h(
    "section",
    { class: "card", id: "last-hand" },
    h("h3", {}, t("handOver", { n: last.hand_number }), " · ", t("reason_" + last.reason)),
    h("p", {}, `${t("winners")}: `, (last.winners || []).map((s) => seatName(game, s)).join(", ") || "—"),
    h("h4", {}, t("revealed")),
    h(
      "ul",
      { class: "revealed" },
      seats.map((seat) =>
        h(
          "li",
          {},
          h("strong", {}, seatName(game, seat)),
          ` ${last.points?.[seat] >= 0 ? "+" : ""}${last.points?.[seat] ?? 0} ${t("points")} `,
          handTiles(last.hands?.[seat] || []),
        ),
      ),
    ),
  );
}

function resultElement(game) {
  const result = game.result;
  const mine = game.you?.seat;
  const winners = result.match_winners || [];
  let verdict = null;
  if (mine !== undefined && mine !== null) verdict = winners.includes(mine) ? t("youWon") : result.draw ? t("matchDraw") : t("youLost");
  return h(
    "section",
    { class: "card result", id: "result" },
    h("h3", {}, t("matchOver")),
    verdict ? h("p", { class: "verdict" }, verdict) : null,
    h("p", {}, result.draw ? t("matchDraw") : t("matchWinners", { names: winners.map((s) => seatName(game, s)).join(", ") || "—" })),
    h(
      "ul",
      {},
      game.seats.map((s) => h("li", {}, `${s.name || s.player}: ${s.score} ${t("score")}`)),
    ),
  );
}

function moveText(game, move) {
  const who = seatName(game, move.seat);
  const end = move.end ? t("end_" + move.end) : null;
  switch (move.action) {
    case "play":
      return `${who} ${end ? t("act_play_end", { tile: move.tile, end }) : t("act_play", { tile: move.tile })}`;
    case "draw":
      return `${who} ${move.tile ? t("act_draw_tile", { tile: move.tile }) : t("act_draw")}`;
    case "hand_over":
      return t("act_hand_over");
    default:
      return `${who} ${t("act_" + move.action)}`;
  }
}

function movesElement(game) {
  const recent = state.moves.slice(-200).reverse();
  return h(
    "section",
    { class: "card moves", id: "moves" },
    h("h3", {}, t("moves")),
    h("ol", { reversed: true }, recent.map((m) => h("li", { "data-n": m.n }, h("small", {}, `${m.hand_number} · `), moveText(game, m)))),
  );
}

// ---------- start ----------

setLanguage(language());
const returning = finishSignIn();
if (returning) finishHostedSignIn(returning);
else route();
document.documentElement.dataset.api = API_BASE === location.origin ? "same-origin" : "remote";
document.documentElement.dataset.ready = "true";
