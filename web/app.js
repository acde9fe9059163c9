// The web table's entry: it wires the screens (sign-in, the lobby, a game) to the router and
// the live updates, then draws what the address names. Each screen is a module of its own:
// signin.js, lobby.js, table.js (with scoreboard.js); header.js, errors.js, nav.js and
// updates.js serve them all, state.js holds what they share.
import { API_BASE, session } from "./api.js";
import { finishSignIn } from "./auth.js";
import { clearError } from "./errors.js";
import { language, setLanguage } from "./i18n.js";
import { openLobby, refreshLobby } from "./lobby.js";
import { currentGameId } from "./nav.js";
import { finishHostedSignIn, renderSignIn } from "./signin.js";
import { hooks, state } from "./state.js";
import { openGame, refreshGame } from "./table.js";
import { live, stopPolling } from "./updates.js";

Object.assign(hooks, { route, signIn: renderSignIn, refreshGame, refreshLobby });

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
  const gameId = currentGameId();
  if (gameId) await openGame(gameId);
  else await openLobby();
}

// ---------- start ----------

setLanguage(language());
const returning = finishSignIn();
if (returning) finishHostedSignIn(returning);
else route();
document.documentElement.dataset.api = API_BASE === location.origin ? "same-origin" : "remote";
document.documentElement.dataset.ready = "true";
