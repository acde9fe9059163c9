// Hosted sign-in (Cognito's hosted UI, or any OAuth 2.0 server with the same endpoints): the
// authorization code flow with PKCE for a public client. Configured by web/config.js's
// auth: {domain, clientId}, or for one visit by ?auth_domain=<url>&client_id=<id>.
// Without either, the page keeps the local runtime's dev-token sign-in.
//
// This module runs before api.js reads the query string: on the return from the authorize
// endpoint it takes ?code=&state= (or ?error=) out of the address at once and puts back the
// query the page had when the sign-in started (?api=, ?auth_domain=, ?join=…), which the
// redirect URI (the page's origin and path only, as CallbackUrls lists it) cannot carry.
import config from "./config.js";

const PENDING_KEY = "domino.oauth.pending"; // sessionStorage: verifier, state, where to return
const RENEW_BEFORE_S = 120; // renew the ID token this long before its exp

/** A failed sign-in: `code` is the OAuth error (or "state", "network"), `detail` its text. */
export class AuthError extends Error {
  constructor(code, detail = "") {
    super(detail ? `${code}: ${detail}` : code);
    this.code = code;
    this.detail = detail;
  }
}

function takeCallback() {
  const params = new URLSearchParams(location.search);
  if (!params.has("code") && !params.has("error")) return null;
  const callback = {
    code: params.get("code"),
    state: params.get("state"),
    error: params.get("error"),
    errorDescription: params.get("error_description") || "",
  };
  let pending = null;
  try {
    pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) || "null");
  } catch {
    pending = null;
  }
  sessionStorage.removeItem(PENDING_KEY); // one use, whatever the outcome
  let search = "";
  if (pending && typeof pending.search === "string") {
    search = pending.search;
  } else {
    for (const key of ["code", "state", "error", "error_description", "session_state"]) params.delete(key);
    search = params.toString() ? "?" + params : "";
  }
  history.replaceState(null, "", location.pathname + search + location.hash);
  return { ...callback, pending };
}

const callback = takeCallback();

/** The page's address as the redirect and logout URI: origin and path, no query. */
export function pageUri() {
  return location.origin + location.pathname;
}

function allowedDomain(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const local = url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) return null;
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** {domain, clientId} when hosted sign-in is configured, else null (dev tokens). */
export function authConfig() {
  const query = new URLSearchParams(location.search);
  const domain = query.get("auth_domain") || config.auth?.domain || "";
  const clientId = query.get("client_id") || config.auth?.clientId || "";
  const origin = domain && allowedDomain(domain);
  return origin && clientId ? { domain: origin, clientId } : null;
}

function base64url(bytes) {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function randomString(size) {
  return base64url(crypto.getRandomValues(new Uint8Array(size)));
}

async function challengeFor(verifier) {
  return base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
}

/** Sends the browser to the authorize endpoint; the page comes back with ?code=&state=. */
export async function startSignIn(auth) {
  const verifier = randomString(32); // 43 characters, within RFC 7636's 43-128
  const state = randomString(16);
  const redirectUri = pageUri();
  sessionStorage.setItem(
    PENDING_KEY,
    JSON.stringify({ verifier, state, redirectUri, auth, search: location.search }),
  );
  const url = new URL(auth.domain + "/oauth2/authorize");
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: auth.clientId,
    redirect_uri: redirectUri,
    scope: "openid email profile",
    code_challenge: await challengeFor(verifier),
    code_challenge_method: "S256",
    state,
  }).toString();
  location.assign(url.toString());
}

function claimsOf(token) {
  try {
    const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(part), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return {};
  }
}

async function tokenRequest(auth, fields) {
  let response;
  try {
    response = await fetch(auth.domain + "/oauth2/token", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: auth.clientId, ...fields }).toString(),
      cache: "no-store",
    });
  } catch {
    throw new AuthError("network");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok || !data?.id_token) {
    throw new AuthError(data?.error || `http_${response.status}`, data?.error_description || "");
  }
  return data;
}

/** A session for api.js from the token endpoint's answer (keeping a refresh token it lacks). */
function sessionFrom(auth, data, refresh) {
  const claims = claimsOf(data.id_token);
  const now = Math.floor(Date.now() / 1000);
  const exp = Number(claims.exp) || now + (Number(data.expires_in) || 3600);
  return {
    token: data.id_token,
    refresh: data.refresh_token || refresh || null,
    exp,
    player: claims.sub || "",
    name: claims.name || claims.preferred_username || claims.email || claims["cognito:username"] || claims.sub || "",
    auth,
  };
}

/**
 * The return from the authorize endpoint, if this load is one: null when it is not, else a
 * promise of the new session (rejected with AuthError when the state does not match, the
 * server answered an error, or the token endpoint refused the code).
 */
export function finishSignIn() {
  if (!callback) return null;
  const { code, state, error, errorDescription, pending } = callback;
  if (error) return Promise.reject(new AuthError(error, errorDescription));
  if (!pending || !state || state !== pending.state || !code) {
    return Promise.reject(new AuthError("state"));
  }
  return tokenRequest(pending.auth, {
    grant_type: "authorization_code",
    code,
    redirect_uri: pending.redirectUri,
    code_verifier: pending.verifier,
  }).then((data) => sessionFrom(pending.auth, data));
}

/** Whether a hosted session should be renewed now (its ID token expires soon). */
export function needsRenewal(current) {
  return Boolean(current?.refresh && current.auth && current.exp - Date.now() / 1000 < RENEW_BEFORE_S);
}

/** A renewed session (grant_type=refresh_token); AuthError when the server refuses. */
export async function renew(current) {
  const data = await tokenRequest(current.auth, { grant_type: "refresh_token", refresh_token: current.refresh });
  return sessionFrom(current.auth, data, current.refresh);
}

/** The hosted logout: ends the session at the identity provider too, then back to this page. */
export function signOutUrl(auth) {
  const url = new URL(auth.domain + "/logout");
  url.search = new URLSearchParams({ client_id: auth.clientId, logout_uri: pageUri() }).toString();
  return url.toString();
}
