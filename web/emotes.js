// Emotes at the table: the bar of the six the API knows (POST /games/{id}/emotes) and the
// bubble each one shows beside its seat for a few seconds, whoever sent it (the socket's
// {"type": "emote", "game", "seat", "emote"}). There is no free text.
import { ApiError, request } from "./api.js";
import { h } from "./dom.js";
import { showError } from "./errors.js";
import { t } from "./i18n.js";

export const EMOTES = ["hello", "good_game", "well_played", "thanks", "oops", "thinking"];
const ICONS = { hello: "👋", good_game: "🤝", well_played: "👏", thanks: "🙏", oops: "😅", thinking: "🤔" };
const BUBBLE_MS = 4000;
const NOTE_MS = 2500;

const shown = new Map(); // "<game>:<seat>" -> {emote, timer}: bubbles outlive a redraw
let note = { game: null, timer: null };

function key(game, seat) {
  return `${game}:${seat}`;
}

function bubble(game, seat, emote) {
  return h(
    "span",
    { class: "emote-bubble", role: "status", "data-game": game, "data-seat": seat, "data-emote": emote },
    `${ICONS[emote] || ""} ${t("emote_" + emote)}`,
  );
}

/** The bubble of `seat` in `game` while one shows, else nothing. */
export function emoteBubble(game, seat) {
  const current = shown.get(key(game, seat));
  return current ? bubble(game, seat, current.emote) : null;
}

/** An emote arrived (or was sent): its bubble beside the seat, replacing one shown there. */
export function showEmote(game, seat, emote) {
  if (!EMOTES.includes(emote)) return;
  const id = key(game, seat);
  clearTimeout(shown.get(id)?.timer);
  const timer = setTimeout(() => {
    shown.delete(id);
    document.querySelectorAll(`.emote-bubble[data-game="${CSS.escape(game)}"][data-seat="${seat}"]`).forEach((el) => el.remove());
  }, BUBBLE_MS);
  shown.set(id, { emote, timer });
  const place = document.querySelector(`#game[data-game="${CSS.escape(game)}"] .seat[data-seat="${seat}"]`);
  if (!place) return;
  place.querySelector(".emote-bubble")?.remove();
  place.append(bubble(game, seat, emote));
}

function say(game, text) {
  clearTimeout(note.timer);
  const el = document.getElementById("emote-note");
  if (el) {
    el.textContent = text;
    el.hidden = !text;
  }
  note = { game, text, timer: text ? setTimeout(() => say(game, ""), NOTE_MS) : null };
}

/** The bar of emotes a seated player sends while the game is played. */
export function emoteBar(game, seat) {
  const send = async (emote) => {
    try {
      await request("POST", `/games/${encodeURIComponent(game)}/emotes`, { body: { emote } });
      showEmote(game, seat, emote); // the socket echoes it too: the same bubble, kept longer
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) say(game, t("emoteThrottled"));
      else showError(err);
    }
  };
  const text = note.game === game && note.text ? note.text : "";
  return h(
    "div",
    { id: "emotes", class: "emotes", role: "group", "aria-label": t("emotes") },
    EMOTES.map((emote) =>
      h(
        "button",
        { type: "button", class: "ghost emote", "data-emote": emote, title: t("emote_" + emote), "aria-label": t("emote_" + emote), onclick: () => send(emote) },
        h("span", { "aria-hidden": "true" }, ICONS[emote]),
        h("span", { class: "label" }, t("emote_" + emote)),
      ),
    ),
    h("span", { id: "emote-note", class: "emote-note", role: "status", hidden: !text }, text),
  );
}
