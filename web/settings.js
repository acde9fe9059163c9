// The player's settings in the lobby (PATCH /me): forced moves made for them at once.
import { request } from "./api.js";
import { h } from "./dom.js";
import { attempt } from "./errors.js";
import { t } from "./i18n.js";

/** The card; GET /me fills it once drawn, each change is sent at once. */
export function settingsCard() {
  const autoForced = h("input", { id: "auto-forced", name: "auto_forced", type: "checkbox", disabled: true });
  const saved = h("p", { class: "note", id: "settings-saved", hidden: true }, t("settingsSaved"));
  autoForced.addEventListener("change", () =>
    attempt(async () => {
      const { body } = await request("PATCH", "/me", { body: { auto_forced: autoForced.checked } });
      autoForced.checked = body.auto_forced;
      saved.hidden = false;
    }),
  );
  request("GET", "/me")
    .then(({ body }) => {
      autoForced.checked = Boolean(body.auto_forced);
      autoForced.disabled = false;
    })
    .catch(() => {}); // the lobby's own loads report a server that is down
  return h(
    "section",
    { class: "card", id: "settings" },
    h("h2", {}, t("settings")),
    h("label", { class: "check" }, autoForced, t("autoForced")),
    h("p", { class: "note" }, t("autoForcedHelp")),
    saved,
  );
}
