// The lobby: a new game, quick match, invitations to me and the people I played (friends.js),
// my games (whose turn), open games to join and the inbox.
import { change, request, session } from "./api.js";
import { h } from "./dom.js";
import { attempt, showError } from "./errors.js";
import { invitesCard, loadFriends, opponentsCard, refreshOpponents } from "./friends.js";
import { renderHeader } from "./header.js";
import { t } from "./i18n.js";
import { currentView, go, urlFor } from "./nav.js";
import { main, state } from "./state.js";
import { quickMatchCard } from "./quickmatch.js";
import { settingsCard } from "./settings.js";
import { openGame } from "./table.js";
import { startPolling } from "./updates.js";

const LOBBY_POLL_MS = 15000;

let opening = 0; // the latest openLobby: an earlier one still loading must not render over it

export async function openLobby() {
  renderHeader();
  const mine = ++opening;
  // a lobby already shown stays (a second route to it must not blank a form being filled in)
  if (!main.querySelector(".lobby")) main.replaceChildren(h("p", { class: "loading" }, "…"));
  try {
    await loadRules();
    await loadLists();
  } catch (err) {
    showError(err);
  }
  if (mine !== opening) return; // a later openLobby renders
  if (currentView() !== "lobby" || !session()) return; // navigated away meanwhile
  renderLobby();
  startPolling(LOBBY_POLL_MS, refreshLobby);
}

/** The presets and bot levels (GET /rules), once per page. */
export async function loadRules() {
  if (state.presets.length) return;
  const rules = (await request("GET", "/rules")).body;
  state.presets = rules.presets;
  state.levels = rules.bot_levels;
  state.defaultLevel = rules.default_bot_level;
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
  await loadFriends(state.lists.mine);
}

export async function refreshLobby() {
  // only a lobby on screen: one still opening (openLobby loading) is drawn by openLobby
  if (currentView() !== "lobby" || !session() || !main.querySelector(".lobby")) return;
  try {
    await loadLists();
    // a game opened while the lists were loading (a socket's message racing a create) stays
    if (currentView() !== "lobby" || !session()) return;
    renderLobby();
  } catch (err) {
    showError(err);
  }
}

/** The lobby; a refresh redraws the lists only, never the form being filled in. */
function renderLobby() {
  const lobby = main.querySelector(".lobby");
  if (lobby) {
    lobby.querySelector("#invites").replaceWith(invitesCard());
    refreshOpponents(lobby.querySelector("#opponents"));
    lobby.querySelector("#my-games").replaceWith(myGamesCard());
    lobby.querySelector("#inbox").replaceWith(inboxCard());
    lobby.querySelector("#open-games").replaceWith(openGamesCard());
    return;
  }
  main.replaceChildren(
    h(
      "div",
      { class: "lobby" },
      invitesCard(),
      newGameForm(),
      quickMatchCard(),
      opponentsCard(),
      myGamesCard(),
      inboxCard(),
      openGamesCard(),
      watchCard(),
      settingsCard(),
    ),
  );
}

/** Watch a public game in play: one of those being played now, or any by its link or id (the
 * table then watches it on the socket). */
function watchCard() {
  const input = h("input", { id: "watch-id", name: "watch", type: "text", placeholder: "https://…/?game=… " });
  const list = h("ul", { class: "games", id: "games-in-play" });
  const form = h(
    "form",
    { class: "card", id: "watch" },
    h("h2", {}, t("watchTitle")),
    list,
    h("p", { class: "note" }, t("watchHelp")),
    input,
    h("button", { type: "submit", id: "watch-go" }, t("watchGo")),
  );
  request("GET", "/games?status=playing&limit=10")
    .then(({ body }) => {
      const others = body.games;
      list.replaceChildren(
        ...others.map((g) =>
          h(
            "li",
            { "data-game": g.id },
            h("span", { class: "what" }, `${g.preset} · ${g.seats.map((s) => s.name || "?").join(", ")}`),
            h("button", { type: "button", class: "ghost", onclick: () => go(g.id) }, t("watchGo")),
          ),
        ),
      );
      if (!others.length) list.append(h("li", { class: "note" }, t("noGamesInPlay")));
    })
    .catch(() => {}); // the lobby's own loads report a server that is down
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    const id = text.match(/[?&](?:game|join)=([A-Za-z0-9_-]+)/)?.[1] || text;
    if (/^[A-Za-z0-9_-]{8,64}$/.test(id)) go(id);
  });
  return form;
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
              n.type === "match_expired" // its game is the ticket's id: there is no game to open
                ? h("strong", {}, n.title)
                : h("a", { href: urlFor(n.game), onclick: (e) => { e.preventDefault(); go(n.game); } }, n.title),
              h("span", {}, n.body),
            ),
          ),
        )
      : h("p", { class: "note" }, t("noNotes")),
    unread ? h("button", { type: "button", id: "mark-read", class: "ghost", onclick: markRead }, t("markRead")) : null,
  );
}
