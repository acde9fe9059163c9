// People you played, in the lobby: invite some of them to a new game (POST /games with
// "invite"), and the invitations waiting for you, to accept (join) or decline.
import { change, request, session } from "./api.js";
import { h } from "./dom.js";
import { attempt } from "./errors.js";
import { t } from "./i18n.js";
import { go } from "./nav.js";
import { hooks, state } from "./state.js";

const MAX_INVITE_VIEWS = 10;
const chosen = new Set(); // the opponents ticked, kept across the lobby's refreshes
const views = new Map(); // game id -> its view at a version, to tell whose seat is reserved

/** The opponents (GET /me/opponents) and the invitations to me among my waiting games. */
export async function loadFriends(mine) {
  const me = session();
  const reserved = mine
    .filter((g) => g.status === "waiting" && g.seats.some((s) => s.invited))
    .slice(0, MAX_INVITE_VIEWS);
  const [opponents] = await Promise.all([
    request("GET", "/me/opponents?limit=50"),
    ...reserved.map(async (g) => {
      // a summary names no player: the view says whom each seat is kept for
      if (views.get(g.id)?.version === g.version) return;
      const view = (await request("GET", `/games/${encodeURIComponent(g.id)}`)).body;
      views.set(g.id, view);
    }),
  ]);
  state.lists.opponents = opponents.body.opponents;
  state.lists.invites = reserved
    .map((g) => views.get(g.id))
    .filter((v) => v && v.status === "waiting" && v.seats.some((s) => s.invited && s.player === me.player));
}

/** The invitations to me: who asks, the game, Accept and Decline. */
export function invitesCard() {
  const me = session();
  const invites = state.lists.invites || [];
  const item = (game) => {
    const host = game.seats.find((s) => s.player && !s.invited && !s.bot && s.player !== me.player);
    return h(
      "li",
      { class: "game-item invite", "data-game": game.id },
      h("span", { class: "what" }, t("invitedBy", { name: host?.name || host?.player || "?", preset: game.rules?.name || game.preset })),
      h("button", { type: "button", class: "accept", onclick: () => attempt(async () => {
        await change(`/games/${game.id}/join`, { name: me.name });
        go(game.id);
      }) }, t("accept")),
      h("button", { type: "button", class: "decline ghost", onclick: () => attempt(async () => {
        await change(`/games/${game.id}/decline`);
        views.delete(game.id);
        await hooks.refreshLobby();
      }) }, t("decline")),
    );
  };
  return h(
    "section",
    { id: "invites", class: "card", hidden: !invites.length },
    h("h2", {}, t("invitations")),
    h("ul", { class: "games" }, invites.map(item)),
  );
}

function opponentsList() {
  const opponents = state.lists.opponents || [];
  if (!opponents.length) return h("p", { id: "opponents-list", class: "note" }, t("noOpponents"));
  return h(
    "ul",
    { id: "opponents-list", class: "opponents" },
    opponents.map((o) => {
      const box = h("input", { type: "checkbox", name: "invitee", value: o.player, checked: chosen.has(o.player) });
      box.addEventListener("change", () => {
        if (box.checked) chosen.add(o.player);
        else chosen.delete(o.player);
        box.dispatchEvent(new Event("fit", { bubbles: true }));
      });
      return h(
        "li",
        { "data-player": o.player },
        h("label", { class: "check" }, box, h("strong", {}, o.name || o.player), h("small", {}, t(o.matches === 1 ? "matchesPlayedOne" : "matchesPlayed", { n: o.matches }))),
      );
    }),
  );
}

/** The people I met in finished matches, to invite to a new game; built once, its list
 * redrawn by refreshOpponents (the preset and ticks stay). */
export function opponentsCard() {
  const preset = h(
    "select",
    { id: "inv-preset", name: "preset" },
    state.presets.map((p) => h("option", { value: p.id }, `${p.name} (${p.id})`)),
  );
  const players = h("input", { id: "inv-players", name: "players", type: "number", value: 2 });
  const submit = h("button", { type: "submit", id: "invite-create" }, t("invite"));
  const known = () => new Set((state.lists.opponents || []).map((o) => o.player));
  const picked = () => [...chosen].filter((id) => known().has(id));
  const fit = () => {
    const rules = state.presets.find((p) => p.id === preset.value);
    if (!rules) return;
    const least = Math.min(Math.max(rules.players.min, picked().length + 1), rules.players.max);
    players.min = least;
    players.max = rules.players.max;
    players.value = Math.min(Math.max(Number(players.value) || 0, least), rules.players.max);
    submit.disabled = !picked().length || picked().length + 1 > rules.players.max;
  };
  preset.addEventListener("change", fit);
  players.addEventListener("change", fit);
  const form = h(
    "form",
    { id: "opponents", class: "card" },
    h("h2", {}, t("peopleYouPlayed")),
    opponentsList(),
    h("label", {}, t("preset"), preset),
    h("label", {}, t("players"), players),
    submit,
  );
  form.addEventListener("fit", fit);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      const body = { preset: preset.value, players: Number(players.value), invite: picked() };
      const created = await request("POST", "/games", { body });
      chosen.clear();
      go(created.body.id);
    });
  });
  fit();
  return form;
}

/** The lobby's refresh: the list of opponents again, the ticks kept. */
export function refreshOpponents(form) {
  form.querySelector("#opponents-list").replaceWith(opponentsList());
  form.dispatchEvent(new Event("fit"));
}
