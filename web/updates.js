// How the page keeps up: the WebSocket's game_changed messages (and the emotes it carries),
// polling while no socket is open, and the badge that says which.
import { Live, session } from "./api.js";
import { t } from "./i18n.js";
import { currentGameId } from "./nav.js";
import { hooks, state } from "./state.js";

export const live = new Live(onLiveMessage, (value) => {
  const reconnected = value === "live" && state.live !== "live";
  state.live = value;
  if (reconnected && watched) live.send({ action: "watch", game: watched }); // a new socket
  renderLiveBadge();
  if (reconnected) (currentGameId() ? hooks.refreshGame : hooks.refreshLobby)(); // what the gap missed
});
let pollTimer = null;
let watched = null; // the game this page watches as a spectator (no seat in it)

/** Watch a public game's changes on the socket (null: none): a spectator's table. */
export function watchGame(id) {
  if (watched === id) return;
  if (watched) live.send({ action: "unwatch", game: watched });
  watched = id;
  if (id) live.send({ action: "watch", game: id });
}

function onLiveMessage(message) {
  const id = currentGameId();
  if (message.type === "emote") {
    if (id && message.game === id) hooks.emote(message);
    return;
  }
  if (message.type !== "game_changed") return;
  if (id && message.game === id) {
    if (!state.game || message.version > state.game.version) hooks.refreshGame();
  } else if (id && message.notification?.type === "rematch" && state.game?.id === id && state.game.status === "finished") {
    // the finished game shown now names its rematch ("Join rematch"); its own game_changed
    // (it is marked one version on) says so too, whichever of the two arrives first
    hooks.refreshGame();
  } else if (!id) {
    hooks.refreshLobby();
  }
}

/** Poll while no socket is open (a socket's game_changed messages make polling needless). */
export function startPolling(ms, fn) {
  stopPolling();
  pollTimer = setInterval(() => {
    if (state.live !== "live" && !state.busy) fn();
  }, ms);
  renderLiveBadge();
}

export function stopPolling() {
  clearInterval(pollTimer);
  pollTimer = null;
}

export function renderLiveBadge() {
  const badge = document.getElementById("live");
  if (!badge) return;
  const polling = state.live !== "live" && pollTimer !== null;
  const value = state.live === "live" ? "live" : polling ? "polling" : "offline";
  badge.textContent = session() ? t(value) : "";
  badge.dataset.state = value;
}
