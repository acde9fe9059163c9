// Pre-moves at the table (PUT /games/{id}/premoves): while the other player is on turn in a
// two-player game, "if they play this, I play that" is stored and played by the server when
// it comes true. The lines are the caller's only; the page keeps what it last stored.
import { request } from "./api.js";
import { h } from "./dom.js";
import { attempt } from "./errors.js";
import { t } from "./i18n.js";
import { endName, seatName } from "./scoreboard.js";
import { state } from "./state.js";

/** The ends a tile may be named on: the board's open ends, and a line's two from the start. */
function endOptions(game) {
  const names = new Set((game.board?.ends || []).map((e) => e.end));
  if ((game.rules?.layout || "line") === "line") ["left", "right"].forEach((n) => names.add(n));
  return [...names];
}

function endSelect(game, id) {
  return h(
    "select",
    { id },
    h("option", { value: "" }, t("anyEnd")),
    endOptions(game).map((end) => h("option", { value: end }, endName(game, end))),
  );
}

function describe(game, line) {
  const [move] = line.if;
  const theirs = move ? `${seatName(game, move.seat)}: ${move.tile}${move.end ? " · " + endName(game, move.end) : ""}` : "";
  const mine = `${line.then.tile}${line.then.end ? " · " + endName(game, line.then.end) : ""}`;
  return t("premoveSaved", { theirs, mine });
}

/** What the player has typed and chosen, kept across the table's redraws (a change of the game
 * while they type redraws the card): restored where the option still exists. */
function keepDraft(gameId, fields) {
  const draft = state.premoveDraft?.game === gameId ? state.premoveDraft.values : {};
  for (const field of fields) {
    const value = draft[field.id];
    if (value !== undefined && (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === value))) {
      field.value = value;
    }
    const remember = () => {
      const values = state.premoveDraft?.game === gameId ? state.premoveDraft.values : {};
      state.premoveDraft = { game: gameId, values: { ...values, [field.id]: field.value } };
    };
    field.addEventListener("input", remember);
    field.addEventListener("change", remember);
  }
}

/** The card, for a seated player waiting on the other seat of a two-player game. */
export function premoveCard(game) {
  const other = 1 - game.you.seat;
  const theirTile = h("input", { id: "pm-their-tile", placeholder: "6-4", size: 6, maxlength: 7 });
  const theirEnd = endSelect(game, "pm-their-end");
  const myTile = h(
    "select",
    { id: "pm-my-tile" },
    game.you.hand.map((tile) => h("option", { value: tile }, tile)),
  );
  const myEnd = endSelect(game, "pm-my-end");
  keepDraft(game.id, [theirTile, theirEnd, myTile, myEnd]);
  const saved = h("p", { class: "note", id: "pm-saved" });
  // the card on the page when the answer comes: a redraw meanwhile has replaced this one
  const show = (where = document.getElementById("pm-saved") || saved) => {
    const line = state.premoves?.[game.id];
    where.textContent = line ? describe(game, line) : t("premoveNone");
  };
  show(saved);
  const store = (lines) =>
    attempt(async () => {
      const { body } = await request("PUT", `/games/${game.id}/premoves`, { body: { lines } });
      state.premoves = { ...(state.premoves || {}), [game.id]: body.lines[0] || null };
      show();
    });
  const form = h(
    "form",
    { class: "card", id: "premove" },
    h("h3", {}, t("premove")),
    h("label", {}, t("premoveIf", { name: seatName(game, other) }), theirTile, theirEnd),
    h("label", {}, t("premoveThen"), myTile, myEnd),
    h("button", { type: "submit", id: "pm-save" }, t("premoveSave")),
    h("button", { type: "button", id: "pm-clear", class: "ghost", onclick: () => store([]) }, t("premoveClear")),
    saved,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const played = { seat: other, action: "play", tile: theirTile.value.trim() };
    if (theirEnd.value) played.end = theirEnd.value;
    const then = { tile: myTile.value };
    if (myEnd.value) then.end = myEnd.value;
    store([{ if: [played], then }]);
  });
  return form;
}
