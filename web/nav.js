// The page's address: ?game=<id> is a game, ?join=<id> the link shared to join one.
import { hooks } from "./state.js";

export function currentGameId() {
  const params = new URLSearchParams(location.search);
  return params.get("game") || params.get("join");
}

export function urlFor(gameId, key = "game") {
  const params = new URLSearchParams(location.search);
  params.delete("game");
  params.delete("join");
  if (gameId) params.set(key, gameId);
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
