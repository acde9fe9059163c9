// The player's settings in the lobby (PATCH /me): forced moves made for them at once, and quiet
// hours (pushes held in a daily window of this browser's time zone, one summary at its end).
import { request } from "./api.js";
import { h } from "./dom.js";
import { attempt } from "./errors.js";
import { t } from "./i18n.js";

/** This browser's IANA time zone (UTC when it does not say). */
function browserZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** The card; GET /me fills it once drawn, each change is sent at once. */
export function settingsCard() {
  const autoForced = h("input", { id: "auto-forced", name: "auto_forced", type: "checkbox", disabled: true });
  const quietOn = h("input", { id: "quiet-on", name: "quiet_on", type: "checkbox", disabled: true });
  const quietFrom = h("input", { id: "quiet-from", name: "quiet_from", type: "time", value: "22:00", disabled: true });
  const quietTo = h("input", { id: "quiet-to", name: "quiet_to", type: "time", value: "08:00", disabled: true });
  const zone = h("span", { id: "quiet-tz" }, browserZone());
  const saved = h("p", { class: "note", id: "settings-saved", hidden: true }, t("settingsSaved"));

  function show(me) {
    autoForced.checked = Boolean(me.auto_forced);
    const quiet = me.quiet_hours;
    quietOn.checked = Boolean(quiet);
    if (quiet) {
      quietFrom.value = quiet.from;
      quietTo.value = quiet.to;
      zone.textContent = quiet.tz;
    }
    for (const input of [autoForced, quietOn]) input.disabled = false;
    quietFrom.disabled = quietTo.disabled = !quietOn.checked;
  }

  function save(change) {
    return attempt(async () => {
      saved.hidden = true;
      const { body } = await request("PATCH", "/me", { body: change });
      show(body);
      saved.hidden = false;
    });
  }

  function quietHours() {
    if (!quietOn.checked) return null;
    zone.textContent = browserZone(); // set from here: this browser's zone
    return { from: quietFrom.value, to: quietTo.value, tz: zone.textContent };
  }

  autoForced.addEventListener("change", () => save({ auto_forced: autoForced.checked }));
  for (const input of [quietOn, quietFrom, quietTo]) {
    input.addEventListener("change", () => save({ quiet_hours: quietHours() }));
  }
  request("GET", "/me")
    .then(({ body }) => show(body))
    .catch(() => {}); // the lobby's own loads report a server that is down
  return h(
    "section",
    { class: "card", id: "settings" },
    h("h2", {}, t("settings")),
    h("label", { class: "check" }, autoForced, t("autoForced")),
    h("p", { class: "note" }, t("autoForcedHelp")),
    h("label", { class: "check" }, quietOn, t("quietHours")),
    h("p", { class: "quiet" }, h("label", {}, t("quietFrom"), " ", quietFrom), " ", h("label", {}, t("quietTo"), " ", quietTo), " ", zone),
    h("p", { class: "note" }, t("quietHoursHelp")),
    saved,
  );
}
