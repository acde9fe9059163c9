// What the table shows of a game besides the board and your hand: the seats with their tiles
// and scores, the hand just over with every hand revealed, the match result and the move log.
import { parseTile, tileElement } from "./board.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function seatName(game, seat) {
  const found = game.seats.find((s) => s.seat === seat);
  return found?.name || found?.player || `#${seat}`;
}

/** The seats; `extras(seat)` adds what the table shows beside one (its rating, an emote). */
export function seatsElement(game, extras = () => []) {
  const you = game.you;
  return h(
    "ul",
    { class: "seats", "aria-label": t("seats") },
    game.seats.map((s) =>
      h(
        "li",
        {
          class: "seat" + (game.turn === s.seat && game.status === "playing" ? " turn" : "") + (you?.seat === s.seat ? " me" : ""),
          "data-seat": s.seat,
        },
        h("strong", {}, s.name || s.player || t("open_seat")),
        you?.seat === s.seat ? h("em", {}, ` (${t("you")})`) : null,
        s.bot ? h("em", {}, ` · ${t("bot")}`) : null,
        h("span", { class: "count" }, `${s.tiles} ${t("tiles")}`),
        h("span", { class: "score" }, `${s.score} ${t("score")}`),
        s.chips !== null && s.chips !== undefined ? h("span", { class: "chips" }, `◎ ${s.chips}`) : null,
        s.invited ? h("span", { class: "invited" }, t("invitedSeat")) : null,
        s.away ? h("span", { class: "away" }, t("awaySeat")) : null,
        extras(s),
      ),
    ),
  );
}

function handTiles(tiles) {
  return h("span", { class: "mini" }, tiles.map((tile) => {
    const [a, b] = parseTile(tile);
    return tileElement(a, b, { vertical: true });
  }));
}

export function lastHandElement(game) {
  const last = game.last_hand;
  const seats = game.seats.map((s) => s.seat);
  return h(
    "section",
    { class: "card", id: "last-hand" },
    h("h3", {}, t("handOver", { n: last.hand_number }), " · ", t("reason_" + last.reason)),
    h("p", {}, `${t("winners")}: `, (last.winners || []).map((s) => seatName(game, s)).join(", ") || "—"),
    h("h4", {}, t("revealed")),
    h(
      "ul",
      { class: "revealed" },
      seats.map((seat) =>
        h(
          "li",
          {},
          h("strong", {}, seatName(game, seat)),
          ` ${last.points?.[seat] >= 0 ? "+" : ""}${last.points?.[seat] ?? 0} ${t("points")} `,
          // games that score during play: what was made playing, and the hand's award
          last.play_points
            ? h("small", { class: "split" }, t("playAndBonus", { play: last.play_points[seat] ?? 0, bonus: last.bonus?.[seat] ?? 0 }) + " ")
            : null,
          handTiles(last.hands?.[seat] || []),
        ),
      ),
    ),
  );
}

export function resultElement(game) {
  const result = game.result;
  const mine = game.you?.seat;
  const winners = result.match_winners || [];
  let verdict = null;
  if (mine !== undefined && mine !== null) verdict = winners.includes(mine) ? t("youWon") : result.draw ? t("matchDraw") : t("youLost");
  return h(
    "section",
    { class: "card result", id: "result" },
    h("h3", {}, t("matchOver")),
    verdict ? h("p", { class: "verdict" }, verdict) : null,
    h("p", {}, result.draw ? t("matchDraw") : t("matchWinners", { names: winners.map((s) => seatName(game, s)).join(", ") || "—" })),
    h(
      "ul",
      {},
      game.seats.map((s) => h("li", {}, `${s.name || s.player}: ${s.score} ${t("score")}`)),
    ),
  );
}

/** An end's name as a player reads it: "left", or on trains "Ana's train", "Mexican train". */
export function endName(game, end) {
  if (end === "mexican") return t("mexicanTrain");
  if (end.startsWith("train-")) return t("trainOf", { name: seatName(game, Number(end.slice(6))) });
  return t("end_" + end);
}

export function moveText(game, move) {
  // a forced move made for its player (PATCH /me auto_forced) says so
  const made = move.auto ? " · " + t("autoMove") : move.premove ? " · " + t("premoveMade") : "";
  return baseMoveText(game, move) + made;
}

function baseMoveText(game, move) {
  const who = seatName(game, move.seat);
  const end = move.end ? endName(game, move.end) : null;
  switch (move.action) {
    case "play":
      return `${who} ${end ? t("act_play_end", { tile: move.tile, end }) : t("act_play", { tile: move.tile })}`;
    case "draw":
      return `${who} ${move.tile ? t("act_draw_tile", { tile: move.tile }) : t("act_draw")}${move.marked ? " · " + t("marked") : ""}`;
    case "hand_over":
      return t("act_hand_over");
    default:
      return `${who} ${t("act_" + move.action)}`;
  }
}

/** The last 200 moves of the log, newest first. */
export function movesElement(game, moves) {
  const recent = moves.slice(-200).reverse();
  return h(
    "section",
    { class: "card moves", id: "moves" },
    h("h3", {}, t("moves")),
    h(
      "ol",
      { reversed: true },
      recent.map((m) =>
        h(
          "li",
          { "data-n": m.n },
          h("small", {}, `${m.hand_number} · `),
          moveText(game, m),
          // a play that scored during play (All Fives): "+15"
          m.scored ? h("span", { class: "scored", "data-scored": m.scored }, `+${m.scored}`) : null,
        ),
      ),
    ),
  );
}
