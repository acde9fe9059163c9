// Sign-in: the local runtime's dev tokens (a name), or the hosted sign-in of web/config.js's
// auth (or ?auth_domain=&client_id=) and the return from it.
import { request, saveSession, session } from "./api.js";
import { authConfig, startSignIn } from "./auth.js";
import { h } from "./dom.js";
import { attempt, showError } from "./errors.js";
import { renderHeader } from "./header.js";
import { t } from "./i18n.js";
import { hooks, main } from "./state.js";

// ---------- sign in (the local runtime's dev tokens) ----------

function playerIdFor(name) {
  const id = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_.@:-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return id || "player";
}

export function renderSignIn() {
  const auth = authConfig();
  if (auth) {
    renderHostedSignIn(auth);
    return;
  }
  renderHeader();
  const name = h("input", { id: "name", name: "name", required: true, maxlength: 40, autocomplete: "nickname" });
  const form = h(
    "form",
    { id: "signin", class: "card narrow" },
    h("h2", {}, t("signIn")),
    h("label", {}, t("yourName"), name),
    h("button", { type: "submit" }, t("signIn")),
    h("p", { class: "note" }, t("devNote")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      const display = name.value.trim();
      const player = playerIdFor(display);
      saveSession(null);
      const { body } = await request("POST", "/dev/token", { body: { player, name: display } });
      saveSession({ token: body.token, player, name: display });
    }).then(() => {
      // drawn outside the sign-in's attempt: the lobby's buttons must not find it still busy
      if (session()) hooks.route();
    });
  });
  main.replaceChildren(form);
  name.focus();
}

// ---------- hosted sign-in (web/config.js's auth, or ?auth_domain=&client_id=) ----------

function renderHostedSignIn(auth) {
  renderHeader();
  const button = h("button", { id: "hosted-signin", type: "button" }, t("signIn"));
  button.addEventListener("click", () => {
    button.disabled = true;
    startSignIn(auth).catch((err) => {
      button.disabled = false;
      showError(err);
    });
  });
  main.replaceChildren(h("section", { id: "signin", class: "card narrow" }, h("h2", {}, t("signIn")), button));
  button.focus();
}

/** The return from the authorize endpoint: trade the code for tokens, then the lobby. */
export async function finishHostedSignIn(pending) {
  try {
    saveSession(await pending);
  } catch (err) {
    await hooks.route(); // a refused return (a forged link too) leaves any current session alone
    showError(err);
    return;
  }
  await hooks.route();
}
