// The review of a finished match: its record (every deal and move, tiles shown) replayed on the
// board move by move, and its analysis (the expert's choice where it differed from yours).
import { ApiError, request } from "./api.js";
import { boardElement } from "./board.js";
import { h } from "./dom.js";
import { clearError, showError } from "./errors.js";
import { t } from "./i18n.js";
import { moveText, seatName } from "./scoreboard.js";
import { state } from "./state.js";

// tries of a record while its last hand is still being archived (503), 1 s, 2 s, 3 s apart
const RECORD_TRIES = 4;

/** A finished match's record: its last hand may be on its way to the archive for a moment. */
async function fetchRecord(path) {
  for (let tries = 1; ; tries++) {
    try {
      return await request("GET", `${path}/record`);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 503 || tries >= RECORD_TRIES) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1000 * tries));
    }
  }
}

/** The card: a button that loads the record and the analysis, then the review. What was loaded
 * stays in state.review: a redraw of the table (a rematch offered meanwhile) keeps it shown. */
export function reviewCard(game) {
  const loaded = state.review?.game === game.id ? state.review : null;
  const body = h("div", { id: "review-body" }, loaded && reviewElement(game, loaded.record, loaded.analysis));
  const open = h("button", { type: "button", id: "review-open", class: "ghost", hidden: Boolean(loaded) }, t("review"));
  // its own guard rather than attempt()'s one-action-at-a-time: a read, which a refresh of the
  // table in flight at that moment must not swallow
  open.addEventListener("click", async () => {
    if (open.disabled) return;
    open.disabled = true;
    clearError();
    try {
      const path = `/games/${encodeURIComponent(game.id)}`;
      const [record, analysis] = await Promise.all([
        fetchRecord(path),
        request("GET", `${path}/analysis`),
      ]);
      state.review = { game: game.id, record: record.body, analysis: analysis.body };
      // the card on the page now: a redraw while it loaded has replaced this one
      document.getElementById("review")?.replaceWith(reviewCard(game));
    } catch (err) {
      showError(err);
    } finally {
      open.disabled = false;
    }
  });
  return h("section", { class: "card review", id: "review" }, h("h3", {}, t("review")), open, body);
}

function reviewElement(game, record, analysis) {
  const byMove = new Map((analysis.moves || []).map((m) => [m.n, m]));
  const summary =
    analysis.status === "ready"
      ? h(
          "ul",
          { class: "analysis", id: "analysis" },
          analysis.players.map((p) =>
            h(
              "li",
              { "data-seat": p.seat },
              h("strong", {}, seatName(game, p.seat)),
              " ",
              t("agreement", {
                percent: p.agreement === null ? "—" : Math.round(p.agreement * 100),
                decisions: p.decisions,
                lost: p.points_lost,
              }),
            ),
          ),
        )
      : h("p", { class: "note", id: "analysis-pending" }, t("analysisPending"));
  const hands = h("div", { class: "hand-picker" });
  const stage = h("div", { class: "replay" });
  const showHand = (hand) => {
    for (const b of hands.children) b.setAttribute("aria-pressed", String(b.dataset.hand === String(hand.hand_number)));
    stage.replaceChildren(handReplay(game, hand, byMove));
  };
  for (const hand of record.hands) {
    hands.append(h("button", { type: "button", class: "ghost", "data-hand": hand.hand_number, onclick: () => showHand(hand) }, t("handN", { n: hand.hand_number })));
  }
  if (record.hands.length) showHand(record.hands[0]);
  return h("div", {}, summary, hands, stage);
}

/** One hand: its deal, a slider over its moves with the board as it stood, and the moves. */
function handReplay(game, hand, byMove) {
  const moves = hand.moves.filter((m) => m.action !== "hand_over");
  const board = h("div", { class: "replay-board" });
  const slider = h("input", { type: "range", id: "replay-step", min: 0, max: moves.length, value: moves.length });
  const caption = h("p", { class: "note", id: "replay-caption" });
  const draw = () => {
    const step = Number(slider.value);
    const tiles = moves
      .slice(0, step)
      .filter((m) => m.tile && (m.action === "play" || m.move === "play"))
      .map((m) => ({ tile: m.tile, seat: m.seat, end: m.end ?? null }));
    board.replaceChildren(boardElement({ tiles, ends: [] }, game.rules.layout));
    caption.textContent = step ? `${step}/${moves.length} · ${moveText(game, moves[step - 1])}` : `0/${moves.length}`;
  };
  slider.addEventListener("input", draw);
  draw();
  const deal = h(
    "ul",
    { class: "deal" },
    Object.entries(hand.deal).map(([seat, tiles]) => h("li", {}, h("strong", {}, seatName(game, Number(seat))), " ", tiles.join(" "))),
  );
  const list = h(
    "ol",
    { class: "review-moves" },
    moves.map((m) => {
      const judged = byMove.get(m.n);
      const differed = judged && judged.played !== judged.best;
      return h(
        "li",
        { "data-n": m.n, class: differed ? "differed" : null },
        moveText(game, m),
        differed
          ? h("span", { class: "expert" }, " · " + t("expertWould", { best: judged.best, lost: (judged.values[judged.best] - judged.values[judged.played]).toFixed(1) }))
          : null,
      );
    }),
  );
  return h("div", {}, deal, board, slider, caption, list);
}
