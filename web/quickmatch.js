// Quick match in the lobby: a ticket to be seated with strangers, its search shown (and
// cancelled) until the matcher makes a game, which then opens.
import { request } from "./api.js";
import { h } from "./dom.js";
import { attempt } from "./errors.js";
import { t } from "./i18n.js";
import { currentGameId, go } from "./nav.js";
import { state } from "./state.js";

const TICKET_POLL_MS = 1500;
let pollTimer = null;

/** The card; it keeps its own state across the lobby's refreshes (they redraw the lists). */
export function quickMatchCard() {
  const preset = h(
    "select",
    { id: "qm-preset", name: "preset" },
    state.presets.map((p) => h("option", { value: p.id }, `${p.name} (${p.id})`)),
  );
  const players = h("input", { id: "qm-players", name: "players", type: "number", value: 2 });
  const ranked = h("input", { id: "qm-ranked", name: "ranked", type: "checkbox", checked: true });
  const fit = () => {
    const chosen = state.presets.find((p) => p.id === preset.value);
    if (!chosen) return;
    players.min = chosen.players.min;
    players.max = chosen.players.max;
    players.value = Math.min(Math.max(Number(players.value) || 0, chosen.players.min), chosen.players.max);
  };
  preset.addEventListener("change", fit);
  players.addEventListener("change", fit);
  fit();
  const status = h("p", { id: "qm-status", class: "note", hidden: true });
  const cancel = h("button", { type: "button", id: "qm-cancel", class: "ghost", hidden: true }, t("cancelSearch"));
  const form = h(
    "form",
    { id: "quick-match", class: "card" },
    h("h2", {}, t("quickMatch")),
    h("label", {}, t("preset"), preset),
    h("label", {}, t("players"), players),
    h("label", { class: "check" }, ranked, t("ranked")),
    h("button", { type: "submit", id: "qm-search" }, t("findMatch")),
    status,
    cancel,
  );
  const searching = (ticket) => {
    state.ticket = ticket;
    form.dataset.ticket = ticket ? ticket.status : "";
    status.hidden = !ticket;
    cancel.hidden = !ticket || ticket.status !== "searching";
    form.querySelector("#qm-search").disabled = Boolean(ticket && ticket.status === "searching");
    if (!ticket) return;
    status.textContent =
      ticket.status === "searching"
        ? t("searching", { rating: ticket.rating, window: ticket.window ?? "-" })
        : t("search_" + ticket.status);
    if (ticket.status === "matched") {
      stopQuickMatch();
      state.ticket = null;
      go(ticket.game);
    }
  };
  const poll = () => {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(async () => {
      const ticket = state.ticket;
      if (!ticket || currentGameId()) return;
      try {
        searching((await request("GET", `/match/tickets/${encodeURIComponent(ticket.id)}`)).body);
      } catch {
        // a moment without the API: ask again
      }
      if (state.ticket && state.ticket.status === "searching") poll();
    }, TICKET_POLL_MS);
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      const body = { preset: preset.value, players: Number(players.value), ranked: ranked.checked };
      searching((await request("POST", "/match/tickets", { body })).body);
      if (state.ticket?.status === "searching") poll();
    });
  });
  cancel.addEventListener("click", () =>
    attempt(async () => {
      const ticket = state.ticket;
      if (!ticket) return;
      try {
        await request("DELETE", `/match/tickets/${encodeURIComponent(ticket.id)}`);
      } finally {
        // matched at the last moment (409 already_matched): the ticket says where to go
        searching((await request("GET", `/match/tickets/${encodeURIComponent(ticket.id)}`)).body);
      }
    }),
  );
  if (state.ticket?.status === "searching") {
    searching(state.ticket); // back in the lobby: the search goes on
    poll();
  }
  return form;
}

export function stopQuickMatch() {
  clearTimeout(pollTimer);
  pollTimer = null;
}
