// The page's address: ?game=<id> is a game, ?join=<id> the link shared to join one, and
// ?leaderboard=<pool> the leaderboard of a pool (empty: the first pool).
import { hooks } from "./state.js";

const PAGE_KEYS = ["game", "join", "leaderboard"];

export function currentGameId() {
  const params = new URLSearchParams(location.search);
  return params.get("game") || params.get("join");
}

/** What the address shows: "game", "leaderboard" or "lobby". */
export function currentView() {
  if (currentGameId()) return "game";
  return new URLSearchParams(location.search).has("leaderboard") ? "leaderboard" : "lobby";
}

/** The pool the leaderboard's address names ("" for none). */
export function currentPool() {
  return new URLSearchParams(location.search).get("leaderboard") || "";
}

export function urlFor(gameId, key = "game") {
  const params = new URLSearchParams(location.search);
  for (const name of PAGE_KEYS) params.delete(name);
  // a leaderboard's pool may be empty (the first pool); a game's id never is
  if (gameId || (key === "leaderboard" && typeof gameId === "string")) params.set(key, gameId);
  const search = params.toString();
  return location.pathname + (search ? "?" + search : "");
}

/** The link to share: an https link (on a deployed host) that the apps may also claim. */
export function shareLink(gameId) {
  return location.origin + urlFor(gameId, "join");
}

export function go(gameId) {
  history.pushState(null, "", urlFor(gameId));
  hooks.route();
}

/** The leaderboard of `pool` ("" : the first pool). */
export function goLeaderboard(pool = "") {
  history.pushState(null, "", urlFor(pool, "leaderboard"));
  hooks.route();
}
