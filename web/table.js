// A game at the table: its view and move log fetched and kept up to date, the board, your hand
// and the moves you make.
import { ApiError, change, request, session } from "./api.js";
import { boardElement, parseTile, tileElement } from "./board.js";
import { h } from "./dom.js";
import { emoteBar, emoteBubble } from "./emotes.js";
import { attempt, showError } from "./errors.js";
import { renderHeader } from "./header.js";
import { t } from "./i18n.js";
import { currentGameId, go, shareLink } from "./nav.js";
import { premoveCard } from "./premoves.js";
import { poolOf, ratingBadge } from "./ratings.js";
import { endName, lastHandElement, movesElement, resultElement, seatName, seatsElement } from "./scoreboard.js";
import { errorBox, main, state } from "./state.js";
import { reviewCard } from "./review.js";
import { startPolling, watchGame } from "./updates.js";

const POLL_MS = 3000;

export async function openGame(gameId, created) {
  renderHeader();
  if (!state.game || state.game.id !== gameId) {
    state.game = null;
    state.etag = null;
    state.moves = [];
    state.movesAfter = 0;
    main.replaceChildren(h("p", { class: "loading" }, "…"));
  }
  try {
    if (created) accept(created);
    else await fetchGame();
    await fetchMoves();
  } catch (err) {
    showError(err);
    if (!state.game) {
      main.replaceChildren(h("p", {}, h("button", { type: "button", id: "back", onclick: () => go(null) }, "← " + t("back"))));
      return;
    }
  }
  if (currentGameId() !== gameId) return; // navigated away while it loaded
  renderGame();
  startPolling(POLL_MS, refreshGame);
}

/** Take a view answered by the API unless an older one arrives after a newer one, or one of a
 * game the page has left (a refresh still under way when a rematch opened the next game); true
 * when it differs from the one shown (the same view fetched twice, e.g. by a socket opening while
 * the table loads, need not redraw the table under the player's fingers). */
function accept(answer) {
  const view = answer.body;
  if (!view || view.id !== currentGameId()) return false;
  const shown = state.game && state.game.id === view.id ? state.game : null;
  if (shown && view.version < shown.version) return false;
  const same = shown && answer.etag && answer.etag === state.etag;
  state.game = view;
  state.etag = answer.etag;
  return !same;
}

async function fetchGame() {
  const id = currentGameId();
  const answer = await request("GET", `/games/${encodeURIComponent(id)}`, {
    etag: state.game?.id === id ? state.etag : null,
  });
  if (answer.status === 304) return false;
  return accept(answer);
}

async function fetchMoves() {
  const game = state.game;
  if (!game) return;
  for (let page = 0; page < 20; page++) {
    let answer;
    try {
      answer = await request("GET", `/games/${game.id}/moves?after=${state.movesAfter}&limit=200`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 503) return; // archiving a hand: next time
      throw err;
    }
    if (state.game?.id !== game.id) return; // the page has moved to another game meanwhile
    for (const move of answer.body.moves) {
      if (move.n <= state.movesAfter) continue; // two refreshes at once fetched it twice
      state.moves.push(move);
      state.movesAfter = move.n;
    }
    if (!answer.body.next) return;
  }
}

export async function refreshGame() {
  const gameId = currentGameId();
  if (!gameId) return;
  try {
    const changed = await fetchGame();
    if (changed && currentGameId() === gameId) { // not when the player has left for elsewhere
      await fetchMoves();
      renderGame();
    }
  } catch (err) {
    showError(err);
  }
}

async function act(path, body = {}) {
  await attempt(async () => {
    state.selected = null;
    const answer = await change(`/games/${state.game.id}/${path}`, body);
    accept(answer);
    await fetchMoves();
    renderGame();
  });
  if (!errorBox.hidden) {
    // refused (a stale view, a move no longer legal): show the game as it is now
    state.selected = null;
    await refreshGame();
    renderGame();
  }
}

function play(tile, end) {
  return act("play", end ? { tile, end } : { tile });
}

function chooseTile(tile) {
  const legal = state.game.you.legal.filter((p) => p.tile === tile);
  if (!legal.length) return;
  if (legal.length === 1) {
    play(tile, legal[0].end);
    return;
  }
  state.selected = tile;
  renderGame();
}

function renderGame() {
  const game = state.game;
  if (!game) return;
  const you = game.you;
  const myTurn = game.status === "playing" && you && game.turn === you.seat;
  const layout = game.rules?.layout || "line";
  const legalEnds = new Set((you?.legal || []).map((p) => p.end).filter(Boolean));
  const targets = state.selected
    ? new Set(you.legal.filter((p) => p.tile === state.selected).map((p) => p.end))
    : null;

  const status =
    game.status === "waiting"
      ? t("waiting")
      : game.status === "finished"
        ? t("finished")
        : myTurn
          ? t("yourTurn")
          : t("turnOf", { name: seatName(game, game.turn) });

  const root = h("div", {
    id: "game",
    class: "table",
    "data-game": game.id,
    "data-status": game.status,
    "data-version": game.version,
    "data-my-turn": myTurn ? "true" : "false",
    "data-hand": game.hand_number,
  });

  root.append(
    h(
      "div",
      { class: "game-head" },
      h("button", { type: "button", class: "ghost", id: "back", onclick: () => go(null) }, "← " + t("back")),
      h("h2", {}, game.rules?.name || game.preset, h("small", {}, ` · ${game.preset}`)),
      h("p", { id: "status", class: "status" + (myTurn ? " yours" : "") }, status),
      game.hand_number ? h("span", { class: "badge" }, t("hand", { n: game.hand_number })) : null,
      game.status === "playing" ? h("span", { class: "badge" }, t("boneyard", { n: game.boneyard })) : null,
    ),
  );

  if (game.status === "waiting") root.append(shareBox(game));
  const pool = poolOf(game);
  root.append(
    seatsElement(game, (s) => [
      s.player && !s.bot ? ratingBadge(s.player, pool) : null,
      emoteBubble(game.id, s.seat),
    ]),
  );
  if (you && game.status === "playing") root.append(emoteBar(game.id, you.seat));
  if (!you && game.status === "waiting") {
    const me = session();
    const invited = game.seats.some((s) => s.invited && s.player === me.player);
    root.append(
      h(
        "div",
        { class: "controls" },
        h("button", { type: "button", id: "join", onclick: () => attempt(async () => {
          accept(await change(`/games/${game.id}/join`, { name: me.name }));
          renderGame();
        }) }, invited ? t("accept") : t("joinThis")),
        invited
          ? h("button", { type: "button", id: "decline", class: "ghost", onclick: () => attempt(async () => {
              await change(`/games/${game.id}/decline`);
              go(null);
            }) }, t("decline"))
          : null,
      ),
    );
  } else if (!you) {
    root.append(h("p", { class: "note" }, t("spectator")));
  }
  // a spectator of a public game in play has its changes sent to this page's socket
  watchGame(!you && game.status === "playing" && !game.private ? game.id : null);

  if (game.status !== "waiting") {
    root.append(
      h(
        "section",
        { class: "card board-card", "aria-label": t("board") },
        // games that score during play show the count of the open ends
        "count" in game.board ? h("p", { class: "count", id: "count" }, t("count", { n: game.board.count })) : null,
        boardElement(game.board, layout, {
          targets,
          legalEnds: myTurn ? legalEnds : null,
          onEnd: (end) => play(state.selected, end),
          ownerName: (seat) => t("trainOf", { name: seatName(game, seat) }),
        }),
      ),
    );
  }

  if (you && game.status === "playing") root.append(handElement(game, myTurn));
  // answer the other player's move in advance while they think (two-player games)
  if (you && game.status === "playing" && !myTurn && game.seats.length === 2) root.append(premoveCard(game));
  if (game.result) {
    const result = resultElement(game);
    if (you && game.status === "finished") result.append(rematchButton(game));
    root.append(result);
  }
  if (game.last_hand) root.append(lastHandElement(game));
  if (game.status === "finished") root.append(reviewCard(game));
  root.append(movesElement(game, state.moves));
  main.replaceChildren(root);
  fitBoard(root);
}

/** A cross or star wider than the screen is shrunk to fit (down to 40 %), then scrolls. */
function fitBoard(root) {
  const field = root.querySelector(".board .field");
  const card = root.querySelector(".board-card");
  if (!field || !card) return;
  const style = getComputedStyle(card);
  const room = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const width = field.offsetWidth;
  if (width > room) field.style.zoom = String(Math.max(0.4, room / width));
  card.scrollLeft = (card.scrollWidth - card.clientWidth) / 2;
}

/** The next match: "Rematch" asks for it, "Join rematch" once someone has (the same POST,
 * which answers the game already made); either way the page goes there. */
function rematchButton(game) {
  const asked = Boolean(game.rematch);
  return h(
    "button",
    {
      type: "button",
      id: "rematch",
      "data-rematch": game.rematch || "",
      onclick: () => attempt(async () => {
        const answer = await change(`/games/${game.id}/rematch`);
        go(answer.body.id);
      }),
    },
    asked ? t("joinRematch") : t("rematch"),
  );
}

function shareBox(game) {
  const link = shareLink(game.id);
  const input = h("input", { id: "share-link", readonly: true, value: link });
  const copy = h("button", { type: "button", class: "ghost", onclick: async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(link);
      copy.textContent = t("copied");
    } catch {
      /* selected: the user copies it */
    }
  } }, t("copy"));
  return h("div", { class: "card share" }, h("label", {}, t("share"), h("div", { class: "row" }, input, copy)));
}

function handElement(game, myTurn) {
  const you = game.you;
  const legalTiles = new Set(you.legal.map((p) => p.tile));
  const hand = h("div", { class: "hand", id: "hand" });
  for (const tile of you.hand) {
    const [a, b] = parseTile(tile);
    const legal = myTurn && legalTiles.has(tile);
    const el = tileElement(a, b, { vertical: true, tag: "button" });
    el.type = "button";
    if (legal) el.classList.add("legal");
    if (state.selected === tile) el.classList.add("selected");
    el.disabled = !legal;
    el.addEventListener("click", () => chooseTile(tile));
    hand.append(el);
  }
  const controls = h(
    "div",
    { class: "controls" },
    h("button", { type: "button", id: "draw", disabled: !(myTurn && you.can_draw), onclick: () => act("draw") }, t("draw")),
    h("button", { type: "button", id: "pass", disabled: !(myTurn && you.can_pass), onclick: () => act("pass") }, t("pass")),
    // only games whose team chooses its leader (cubano) offer a cede
    "can_cede" in you
      ? h("button", { type: "button", id: "cede", disabled: !(myTurn && you.can_cede), onclick: () => act("cede") }, t("cede"))
      : null,
    h("button", { type: "button", id: "leave", class: "ghost", onclick: () => confirm(t("leaveConfirm")) && act("leave") }, t("leave")),
  );
  const section = h("section", { class: "card", "aria-label": t("yourHand") }, h("h3", {}, t("yourHand")), hand);
  if (state.selected) {
    section.append(
      h(
        "div",
        { class: "chooser", id: "chooser" },
        h("span", {}, t("chooseEnd", { tile: state.selected })),
        you.legal
          .filter((p) => p.tile === state.selected)
          .map((p) =>
            h(
              "button",
              { type: "button", "data-end": p.end, onclick: () => play(state.selected, p.end) },
              endName(state.game, p.end) + (p.scores ? ` (+${p.scores})` : ""),
            ),
          ),
        h("button", { type: "button", class: "ghost", onclick: () => { state.selected = null; renderGame(); } }, t("cancel")),
      ),
    );
  }
  section.append(controls);
  return section;
}
