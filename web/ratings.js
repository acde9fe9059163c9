// Ratings beside the seats: each person's public profile (GET /players/{id}) fetched once per
// page and kept, and the rating of a game's pool (<preset>:<players>) drawn from it.
import { request } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** A newcomer's rating in a pool they never played (docs/api.md: a newcomer shows 1000). */
const NEWCOMER = 1000;
const profiles = new Map(); // player id -> Promise of the profile, null when none is known

function profileOf(player) {
  if (!profiles.has(player)) {
    profiles.set(
      player,
      request("GET", `/players/${encodeURIComponent(player)}`).then(
        (answer) => answer.body,
        () => null, // unknown or deleted (404), or a moment without the API: shown without one
      ),
    );
  }
  return profiles.get(player);
}

export function poolOf(game) {
  return `${game.preset}:${game.seats.length}`;
}

function fill(el, profile, pool) {
  if (!profile) return;
  const found = profile.ratings.find((r) => r.pool === pool);
  const rating = found ? found.rating : NEWCOMER;
  const provisional = found ? found.provisional : true;
  el.textContent = provisional ? `★ ${rating}?` : `★ ${rating}`;
  el.dataset.rating = String(rating);
  el.dataset.provisional = provisional ? "true" : "false";
  el.title = provisional ? t("provisionalTitle") : t("ratingTitle", { pool });
  el.hidden = false;
}

/** The rating of `player` in `pool` as a seat shows it, filled in once the profile is known. */
export function ratingBadge(player, pool) {
  const el = h("span", { class: "rating", "data-player": player, hidden: true });
  profileOf(player).then((profile) => fill(el, profile, pool));
  return el;
}
