// The player's settings in the lobby (PATCH /me): forced moves made for them at once, quiet
// hours (pushes held in a daily window of this browser's time zone, one summary at its end),
// and a vacation (PUT/DELETE /me/vacation: their turns of a day or more wait).
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
  const vacation = vacationPart(saved);
  return h(
    "section",
    { class: "card", id: "settings" },
    h("h2", {}, t("settings")),
    h("label", { class: "check" }, autoForced, t("autoForced")),
    h("p", { class: "note" }, t("autoForcedHelp")),
    h("label", { class: "check" }, quietOn, t("quietHours")),
    h("p", { class: "quiet" }, h("label", {}, t("quietFrom"), " ", quietFrom), " ", h("label", {}, t("quietTo"), " ", quietTo), " ", zone),
    h("p", { class: "note" }, t("quietHoursHelp")),
    vacation,
    saved,
  );
}

/** The vacation: how many days away, or back now; what is left of the 30 a year. */
function vacationPart(saved) {
  const days = h("input", { id: "vacation-days", name: "vacation_days", type: "number", min: 1, max: 30, value: 7 });
  const go = h("button", { id: "vacation-start", type: "button", disabled: true }, t("vacationStart"));
  const back = h("button", { id: "vacation-end", type: "button", hidden: true }, t("vacationEnd"));
  const state = h("p", { class: "note", id: "vacation-state" });

  function show(vacation) {
    const until = vacation.until ? new Date(vacation.until).toLocaleString() : null;
    state.textContent = until
      ? t("vacationUntil", { until, left: vacation.days_left })
      : t("vacationNone", { left: vacation.days_left });
    back.hidden = !vacation.until;
    go.disabled = false;
  }

  function send(method, body) {
    return attempt(async () => {
      saved.hidden = true;
      const { body: answer } = await request(method, "/me/vacation", body ? { body } : {});
      show(answer);
      saved.hidden = false;
    });
  }

  go.addEventListener("click", () => {
    // five minutes short of the days asked: the server counts 24-hour periods from its own
    // clock, a started one counted, and a phone or laptop a few seconds ahead of it would
    // otherwise be charged a day more (as the terminal client does, cli/domino_cli/comfort.py)
    const span = Number(days.value) * 24 * 3600 * 1000;
    const until = new Date(Date.now() + span - Math.min(5 * 60 * 1000, span / 2));
    send("PUT", { until: until.toISOString().replace(/\.\d+Z$/, "Z") });
  });
  back.addEventListener("click", () => send("DELETE"));
  request("GET", "/me/vacation")
    .then(({ body }) => show(body))
    .catch(() => {});
  return h(
    "div",
    { id: "vacation" },
    h("h3", {}, t("vacation")),
    h("p", { class: "quiet" }, h("label", {}, t("vacationDays"), " ", days), " ", go, " ", back),
    state,
    h("p", { class: "note" }, t("vacationHelp")),
  );
}
