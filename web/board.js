// Domino tiles with pips, and the board laid out from the view's `board` (API.md): a line
// (left and right ends), the cruzado cross (north, east, south, west around the opening
// double) and the chipre star (the cross plus four diagonals). Doubles lie across.
import { h } from "./dom.js";
import { t } from "./i18n.js";

// Which cells of a 3×3 grid hold a dot, for 0 to 9 pips (more are written as a number).
const DOTS = [
  [], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8],
  [0, 2, 3, 4, 5, 6, 8], [0, 1, 2, 3, 5, 6, 7, 8], [0, 1, 2, 3, 4, 5, 6, 7, 8],
];

export function parseTile(text) {
  const [a, b] = text.split("-").map(Number);
  return [a, b];
}

function half(pips) {
  const cell = h("span", { class: "half", "aria-hidden": "true" });
  if (pips < DOTS.length) {
    for (const spot of DOTS[pips]) cell.append(h("i", { class: "dot p" + spot }));
  } else {
    cell.classList.add("number");
    cell.textContent = String(pips);
  }
  return cell;
}

/**
 * A tile showing `first` then `second` (left to right, or top to bottom when `vertical`).
 * `tag` is "button" for a tile in the hand.
 */
export function tileElement(first, second, { vertical = false, tag = "span", label } = {}) {
  const low = Math.min(first, second);
  const high = Math.max(first, second);
  const el = h(tag, {
    class: "tile " + (vertical ? "v" : "h") + (first === second ? " double" : ""),
    "data-tile": `${low}-${high}`,
    title: label ?? `${low}-${high}`,
    "aria-label": label ?? `${low}-${high}`,
  });
  if (tag === "span") el.setAttribute("role", "img");
  el.append(half(first), h("span", { class: "bar", "aria-hidden": "true" }), half(second));
  return el;
}

/** The tiles laid on each end, from the first tile outwards: {inner, outer} pips each. */
export function arms(board, layout) {
  const tiles = board.tiles || [];
  if (!tiles.length) return null;
  const [a, b] = parseTile(tiles[0].tile);
  const open = layout === "line" ? { left: a, right: b } : {};
  const lines = {};
  for (const placed of tiles.slice(1)) {
    const end = placed.end;
    const [x, y] = parseTile(placed.tile);
    const inner = end in open ? open[end] : a; // arms of a cross or star start at the double
    const outer = x === inner ? y : x;
    (lines[end] ||= []).push({ inner, outer, tile: placed.tile, seat: placed.seat });
    open[end] = outer;
  }
  return { first: [a, b], lines };
}

// How each arm of a cross or star runs out from the centre: "row" arms grow to the right,
// "row-reverse" to the left, "col" down, "col-reverse" up; diagonals are rows turned 45°.
const ARM_FLOW = {
  north: "col-reverse", south: "col", east: "row", west: "row-reverse",
  northeast: "row", southeast: "row", southwest: "row-reverse", northwest: "row-reverse",
};

function placedTile(entry, flow) {
  const across = entry.inner === entry.outer; // a double lies across its arm
  const vertical = flow.startsWith("col") ? !across : across;
  const reversed = flow.endsWith("reverse");
  const [first, second] = reversed ? [entry.outer, entry.inner] : [entry.inner, entry.outer];
  return tileElement(first, second, { vertical });
}

function endMarker(end, pips, options) {
  const { targets, onEnd } = options;
  const playable = targets?.has(end);
  const marker = h(
    playable ? "button" : "span",
    {
      class: "end" + (playable ? " target" : "") + (options.legalEnds?.has(end) ? " legal" : ""),
      "data-end": end,
      title: t("end_" + end),
    },
    String(pips),
  );
  if (playable) marker.addEventListener("click", () => onEnd(end));
  return marker;
}

/**
 * The board. options: {targets: Set of ends the selected tile may go to, legalEnds: Set of
 * ends some legal play uses, onEnd(end)}.
 */
export function boardElement(board, layout, options = {}) {
  const laid = arms(board, layout);
  const ends = new Map((board.ends || []).map((e) => [e.end, e.pips]));
  const root = h("div", { class: "board " + layout, "data-layout": layout });
  if (!laid) {
    root.append(h("p", { class: "empty" }, "—"));
    return root;
  }
  const [a, b] = laid.first;
  if (layout === "line") {
    const row = h("div", { class: "line-row" });
    if (ends.has("left")) row.append(endMarker("left", ends.get("left"), options));
    for (const entry of [...(laid.lines.left || [])].reverse()) row.append(placedTile(entry, "row-reverse"));
    row.append(tileElement(a, b, { vertical: a === b }));
    for (const entry of laid.lines.right || []) row.append(placedTile(entry, "row"));
    if (ends.has("right")) row.append(endMarker("right", ends.get("right"), options));
    root.append(row);
    return root;
  }
  const centre = h("div", { class: "centre" }, tileElement(a, b, { vertical: true }));
  root.append(centre);
  for (const [end, flow] of Object.entries(ARM_FLOW)) {
    if (layout === "cross" && end.length > 5) continue; // diagonals: star only
    const arm = h("div", { class: `arm ${end} ${flow}` });
    for (const entry of laid.lines[end] || []) arm.append(placedTile(entry, flow));
    if (ends.has(end)) arm.append(endMarker(end, ends.get(end), options));
    root.append(arm);
  }
  return root;
}
