// The web table's entry: it wires the screens (sign-in, the lobby, a game) to the router and
// the live updates, then draws what the address names. Each screen is a module of its own:
// signin.js, lobby.js (with quickmatch.js and friends.js), table.js (with scoreboard.js,
// ratings.js and emotes.js), leaderboard.js; header.js, errors.js, nav.js and
// updates.js serve them all, state.js holds what they share.
import { API_BASE, session } from "./api.js";
import { finishSignIn } from "./auth.js";
import { showEmote } from "./emotes.js";
import { clearError } from "./errors.js";
import { language, setLanguage } from "./i18n.js";
import { openLeaderboard } from "./leaderboard.js";
import { openLobby, refreshLobby } from "./lobby.js";
import { currentGameId, currentView } from "./nav.js";
import { finishHostedSignIn, renderSignIn } from "./signin.js";
import { hooks, state } from "./state.js";
import { openGame, refreshGame } from "./table.js";
import { live, stopPolling, watchGame } from "./updates.js";

const emote = (message) => showEmote(message.game, message.seat, message.emote);
Object.assign(hooks, { route, signIn: renderSignIn, refreshGame, refreshLobby, emote });

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
  const view = currentView();
  if (view !== "game") watchGame(null);
  if (view === "game") await openGame(currentGameId());
  else if (view === "leaderboard") await openLeaderboard();
  else await openLobby();
}

// ---------- start ----------

setLanguage(language());
const returning = finishSignIn();
if (returning) finishHostedSignIn(returning);
else route();
document.documentElement.dataset.api = API_BASE === location.origin ? "same-origin" : "remote";
document.documentElement.dataset.ready = "true";
