// Errors as the page shows them: the API's and the identity provider's, in the alert box; a
// 401 forgets the session and asks to sign in again.
import { ApiError, saveSession } from "./api.js";
import { AuthError } from "./auth.js";
import { t } from "./i18n.js";
import { errorBox, hooks, state } from "./state.js";
import { live } from "./updates.js";

function errorText(err) {
  if (err instanceof AuthError) {
    if (err.code === "network") return t("authNetwork");
    if (err.code === "state") return t("authState");
    return t("authFailed", { error: err.detail ? `${err.detail} (${err.code})` : err.code });
  }
  if (err instanceof ApiError) return err.code === "network" ? t("network") : `${err.message} (${err.code})`;
  return String(err?.message || err);
}

export function showError(err) {
  if (err instanceof ApiError && err.status === 401) {
    saveSession(null);
    live.stop();
    hooks.signIn();
  }
  errorBox.textContent = errorText(err);
  errorBox.hidden = false;
}

export function clearError() {
  errorBox.hidden = true;
  errorBox.textContent = "";
}

/** Run one user action at a time; what it throws is shown. */
export async function attempt(action) {
  if (state.busy) return;
  state.busy = true;
  clearError();
  try {
    await action();
  } catch (err) {
    showError(err);
  } finally {
    state.busy = false;
  }
}
