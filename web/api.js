// The HTTP API and its WebSocket: requests with the bearer token and Accept-Language, the
// contract's errors as ApiError, and a live channel that reconnects.
import { needsRenewal, renew } from "./auth.js"; // first: it tidies a sign-in's ?code= away
import config from "./config.js";
import { language } from "./i18n.js";

const query = new URLSearchParams(location.search);

/** The API's base URL: ?api=, else web/config.js, else this page's origin. */
export const API_BASE = (query.get("api") || config.api || location.origin).replace(/\/+$/, "");

/** The WebSocket URL: ?ws=, else web/config.js, else the local runtime's /ws beside the API. */
export const WS_URL = (query.get("ws") || config.ws || API_BASE.replace(/^http/, "ws") + "/ws")
  .replace(/\/+$/, "");

// A token is kept per API base, so a link naming another API never receives it.
const TOKEN_KEY = "domino.session." + API_BASE;

export class ApiError extends Error {
  constructor(status, code, message, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

export function session() {
  try {
    return JSON.parse(localStorage.getItem(TOKEN_KEY) || "null");
  } catch {
    return null;
  }
}

export function saveSession(value) {
  if (value) localStorage.setItem(TOKEN_KEY, JSON.stringify(value));
  else localStorage.removeItem(TOKEN_KEY);
}

let renewing = null;

/** Renews a hosted session's ID token with its refresh token (one renewal at a time). */
export function renewSession() {
  const current = session();
  if (!current?.refresh || !current.auth) return Promise.resolve(current);
  if (!renewing) {
    renewing = renew(current)
      .then((next) => {
        if (session()?.token === current.token) saveSession(next);
        return session();
      })
      .finally(() => {
        renewing = null;
      });
  }
  return renewing;
}

/** The session, its ID token renewed first when it expires soon; a failed renewal is left to
 * the API's 401. */
async function freshSession() {
  const current = session();
  if (!needsRenewal(current)) return current;
  try {
    return await renewSession();
  } catch {
    return current;
  }
}

/**
 * One request. Resolves to {status, etag, body} (body null on 204 and 304); rejects with an
 * ApiError for any 4xx or 5xx, carrying the contract's code and (translated) message.
 */
export async function request(method, path, options = {}, retried = false) {
  const { body, etag, headers = {} } = options;
  const current = await freshSession();
  const sent = { "Accept-Language": language(), ...headers };
  if (current?.token) sent.Authorization = "Bearer " + current.token;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  if (etag) sent["If-None-Match"] = etag;
  let response;
  try {
    response = await fetch(API_BASE + path, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, "network", "");
  }
  const text = response.status === 304 ? "" : await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (response.status === 401 && !retried && current?.refresh && current.auth) {
    // once: the ID token may have expired early (a sleeping laptop); renew and try again
    let renewed = session(); // another request may have renewed it meanwhile
    if (renewed?.token === current.token) {
      try {
        renewed = await renewSession();
      } catch {
        renewed = null;
      }
    }
    if (renewed?.token && renewed.token !== current.token) return request(method, path, options, true);
  }
  if (response.status >= 400) {
    // API Gateway's own answers are {"message": …}: 401 and 429 keep their meaning
    const error = data?.error ?? {
      code: response.status === 401 ? "unauthorized" : response.status === 429 ? "throttled" : "error",
      message: data?.message || response.statusText,
    };
    throw new ApiError(response.status, error.code, error.message, error.params || {});
  }
  return { status: response.status, etag: response.headers.get("ETag"), body: data };
}

/** A change: an Idempotency-Key makes a retry after a lost answer safe. */
export function change(path, body = {}) {
  const key = crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);
  return request("POST", path, { body, headers: { "Idempotency-Key": key } });
}

/**
 * The live channel: a WebSocket that calls onMessage with each JSON message, pings every 9
 * minutes, and reconnects with a growing delay; onState("live" | "offline") says which.
 */
export class Live {
  constructor(onMessage, onState) {
    this.onMessage = onMessage;
    this.onState = onState;
    this.socket = null;
    this.delay = 1000;
    this.stopped = true;
    this.pinger = null;
    this.retry = null;
  }

  get open() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
    this.socket = null;
  }

  async connect() {
    if (this.stopped) return;
    const token = (await freshSession())?.token;
    if (this.stopped || !token) return;
    const separator = WS_URL.includes("?") ? "&" : "?";
    let socket;
    try {
      socket = new WebSocket(WS_URL + separator + "token=" + encodeURIComponent(token));
    } catch {
      this.later();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.delay = 1000;
      this.onState("live");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ action: "ping" }), 9 * 60 * 1000);
    });
    socket.addEventListener("message", (event) => {
      try {
        this.onMessage(JSON.parse(event.data));
      } catch {
        /* not JSON: ignored */
      }
    });
    socket.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.socket === socket) this.socket = null;
      this.onState("offline");
      this.later();
    });
  }

  later() {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, 30000);
  }

  send(message) {
    if (this.open) this.socket.send(JSON.stringify(message));
  }
}
