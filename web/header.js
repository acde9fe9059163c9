// The header: the title (back to the lobby), the leaderboard's link, the live badge, who is signed in, the language
// toggle and sign-out.
import { saveSession, session } from "./api.js";
import { signOutUrl } from "./auth.js";
import { h } from "./dom.js";
import { language, setLanguage, t } from "./i18n.js";
import { currentGameId, go, goLeaderboard, urlFor } from "./nav.js";
import { hooks } from "./state.js";
import { live, renderLiveBadge } from "./updates.js";

export function renderHeader() {
  const me = session();
  const header = document.getElementById("header");
  const parts = [
    h("h1", {}, h("a", { href: urlFor(null), onclick: (e) => { e.preventDefault(); if (me) go(null); } }, t("title"))),
    me ? h("a", { id: "nav-leaderboard", href: urlFor("", "leaderboard"), onclick: (e) => { e.preventDefault(); goLeaderboard(); } }, t("leaderboard")) : null,
    h("span", { id: "live", class: "badge" }),
    me ? h("span", { class: "who" }, me.name) : null,
    h("button", { id: "lang", class: "ghost", type: "button", onclick: toggleLanguage }, t("language")),
    me ? h("button", { id: "signout", class: "ghost", type: "button", onclick: signOut }, t("signOut")) : null,
  ];
  header.replaceChildren(...parts.filter(Boolean)); // replaceChildren would write null as "null"
  document.title = t("title");
  renderLiveBadge();
}

function toggleLanguage() {
  setLanguage(language() === "es" ? "en" : "es");
  hooks.route();
}

function signOut() {
  const hosted = session()?.auth;
  saveSession(null);
  live.stop();
  if (hosted) {
    location.assign(signOutUrl(hosted)); // ends the identity provider's session too
    return;
  }
  history.pushState(null, "", urlFor(currentGameId()));
  hooks.route();
}
