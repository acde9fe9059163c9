// Domino tiles with pips, and the board laid out from `board` (docs/openapi.yaml): a line
// (left and right ends), the cruzado cross (north, east, south, west around the opening
// double), the chipre star (the cross plus four diagonals), the All Fives spinner (a line
// whose first double grows north and south arms) and Mexican Train's station (one row a train).
// Doubles lie across.
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
  const open = layout === "line" || layout === "spinner" ? { left: a, right: b } : {};
  if (board.station) {
    // trains: no first tile, every train starts at the station's engine
    const [s] = parseTile(board.station);
    for (const end of board.ends || []) open[end.end] = s;
    const lines = {};
    for (const placed of tiles) {
      const [x, y] = parseTile(placed.tile);
      const inner = open[placed.end];
      const outer = x === inner ? y : x;
      (lines[placed.end] ||= []).push({ inner, outer, tile: placed.tile, seat: placed.seat });
      open[placed.end] = outer;
    }
    return { first: [s, s], lines };
  }
  if (board.spinner) {
    const [s] = parseTile(board.spinner);
    open.north = open.south = s; // the spinner's arms start at its number
  }
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

// Where each arm of a cross or star runs from the centre: a unit direction on screen (y grows
// downwards), and how far from the centre its first tile starts (in cells, see --c in the CSS;
// the opening double is 1 cell wide and 2 tall). Diagonals start far enough out to clear the
// neighbouring sides' first tiles.
const SQRT1_2 = Math.SQRT1_2;
const ARMS = {
  north: [0, -1, 1], east: [1, 0, 0.5], south: [0, 1, 1], west: [-1, 0, 0.5],
  northeast: [SQRT1_2, -SQRT1_2, 1.35], southeast: [SQRT1_2, SQRT1_2, 1.35],
  southwest: [-SQRT1_2, SQRT1_2, 1.35], northwest: [-SQRT1_2, -SQRT1_2, 1.35],
};
const GAP = 0.1;

/** A tile of an arm, drawn along the arm (a double across it), facing away from the centre. */
function armTile(entry, dx, dy) {
  const double = entry.inner === entry.outer;
  const vertical = dx === 0 ? !double : double;
  // along +x or +y the inner half comes first; along -x or -y the outer half does
  const forwards = dx > 0 || (dx === 0 && dy > 0);
  const [first, second] = forwards ? [entry.inner, entry.outer] : [entry.outer, entry.inner];
  return tileElement(first, second, { vertical });
}

/** Mark `el` to be centred on (x, y) cells, turned `degrees`. */
function put(el, x, y, degrees = 0) {
  el.dataset.x = String(x);
  el.dataset.y = String(y);
  el.dataset.turn = String(degrees);
  return el;
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
 * A spinner board: the line in the middle row, the spinner's north arm stacked above it and
 * its south arm below, in the spinner's column of a grid.
 */
function spinnerElement(root, board, laid, ends, options) {
  const [a, b] = laid.first;
  const row = [];
  let spinnerAt = -1;
  if (ends.has("left")) row.push(endMarker("left", ends.get("left"), options));
  for (const entry of [...(laid.lines.left || [])].reverse()) {
    if (entry.tile === board.spinner && spinnerAt < 0) spinnerAt = row.length;
    row.push(armTile(entry, -1, 0));
  }
  if (board.spinner === board.tiles[0].tile) spinnerAt = row.length;
  row.push(tileElement(a, b, { vertical: a === b }));
  for (const entry of laid.lines.right || []) {
    if (entry.tile === board.spinner && spinnerAt < 0) spinnerAt = row.length;
    row.push(armTile(entry, 1, 0));
  }
  if (ends.has("right")) row.push(endMarker("right", ends.get("right"), options));
  const north = (laid.lines.north || []).map((entry) => armTile(entry, 0, -1));
  if (ends.has("north")) north.push(endMarker("north", ends.get("north"), options));
  const south = (laid.lines.south || []).map((entry) => armTile(entry, 0, 1));
  if (ends.has("south")) south.push(endMarker("south", ends.get("south"), options));
  const middle = north.length + 1; // grid rows and columns count from 1
  const grid = h("div", { class: "spin-grid" });
  row.forEach((el, i) => grid.append(cell(el, middle, i + 1)));
  if (spinnerAt >= 0) {
    north.forEach((el, i) => grid.append(cell(el, middle - 1 - i, spinnerAt + 1)));
    south.forEach((el, i) => grid.append(cell(el, middle + 1 + i, spinnerAt + 1)));
  }
  root.append(grid);
  return root;
}

/**
 * Mexican Train: the station's engine, then one row per train: its owner (options.ownerName),
 * its marker, its tiles from the station outwards, and the number it shows (a button where the
 * selected tile may go); a double that waits to be satisfied is highlighted.
 */
function stationElement(board, options) {
  const root = h("div", { class: "board trains", "data-layout": "trains" });
  if (!board.station) {
    root.append(h("p", { class: "empty" }, "—"));
    return root;
  }
  const [s] = parseTile(board.station);
  root.append(
    h("div", { class: "station" }, h("span", { class: "label" }, t("station")), tileElement(s, s)),
  );
  const laid = arms(board, "trains") || { lines: {} }; // null before the first tile
  const waiting = new Set((board.pending || []).map((p) => `${p.end}:${p.tile}`));
  for (const end of board.ends || []) {
    const row = h("div", {
      class: "train" + (end.marker ? " marked" : "") + (end.open ? " open" : ""),
      "data-train": end.end,
    });
    const who = end.owner === null ? t("mexicanTrain") : options.ownerName?.(end.owner) ?? end.end;
    row.append(
      h("span", { class: "label" }, who, end.marker ? h("span", { class: "marker", title: t("marked") }, " ●") : null),
    );
    const line = h("span", { class: "tiles" });
    for (const entry of laid.lines[end.end] || []) {
      const el = armTile(entry, 1, 0);
      if (waiting.has(`${end.end}:${entry.tile}`)) el.classList.add("waiting");
      line.append(el);
    }
    row.append(line, endMarker(end.end, end.pips, options));
    root.append(row);
  }
  return root;
}

function cell(el, rowAt, columnAt) {
  el.style.gridRow = String(rowAt);
  el.style.gridColumn = String(columnAt);
  return el;
}

/**
 * The board. options: {targets: Set of ends the selected tile may go to, legalEnds: Set of
 * ends some legal play uses, onEnd(end)}.
 */
export function boardElement(board, layout, options = {}) {
  if (layout === "trains") return stationElement(board, options);
  const laid = arms(board, layout);
  const ends = new Map((board.ends || []).map((e) => [e.end, e.pips]));
  const root = h("div", { class: "board " + layout, "data-layout": layout });
  if (!laid) {
    root.append(h("p", { class: "empty" }, "—"));
    return root;
  }
  const [a, b] = laid.first;
  if (layout === "spinner") return spinnerElement(root, board, laid, ends, options);
  if (layout === "line") {
    const row = h("div", { class: "line-row" });
    if (ends.has("left")) row.append(endMarker("left", ends.get("left"), options));
    for (const entry of [...(laid.lines.left || [])].reverse()) row.append(armTile(entry, -1, 0));
    row.append(tileElement(a, b, { vertical: a === b }));
    for (const entry of laid.lines.right || []) row.append(armTile(entry, 1, 0));
    if (ends.has("right")) row.append(endMarker("right", ends.get("right"), options));
    root.append(row);
    return root;
  }
  // a cross or a star: every tile placed by coordinates around the opening double
  const placed = [put(tileElement(a, b, { vertical: true }), 0, 0)];
  const extents = [[0.5, 1, 0, 0]];
  for (const [end, [dx, dy, start]] of Object.entries(ARMS)) {
    if (layout === "cross" && end.length > 5) continue; // diagonals: star only
    const diagonal = dx !== 0 && dy !== 0;
    const degrees = diagonal ? (dx * dy > 0 ? 45 : -45) : 0;
    let distance = start + GAP;
    for (const entry of laid.lines[end] || []) {
      const length = entry.inner === entry.outer ? 1 : 2;
      const middle = distance + length / 2;
      const el = armTile(entry, diagonal ? Math.sign(dx) : dx, diagonal ? 0 : dy);
      placed.push(put(el, dx * middle, dy * middle, degrees));
      const half = diagonal ? 1.1 : 0;
      const [w, hgt] = diagonal ? [half, half] : dx === 0 ? [length === 1 ? 1 : 0.5, length / 2] : [length / 2, length === 1 ? 1 : 0.5];
      extents.push([w, hgt, dx * middle, dy * middle]);
      distance += length + GAP;
    }
    if (ends.has(end)) {
      const middle = distance + 0.5;
      placed.push(put(endMarker(end, ends.get(end), options), dx * middle, dy * middle));
      extents.push([0.6, 0.6, dx * middle, dy * middle]);
    }
  }
  const minX = Math.min(...extents.map(([w, , x]) => x - w)) - 0.2;
  const maxX = Math.max(...extents.map(([w, , x]) => x + w)) + 0.2;
  const minY = Math.min(...extents.map(([, hh, , y]) => y - hh)) - 0.2;
  const maxY = Math.max(...extents.map(([, hh, , y]) => y + hh)) + 0.2;
  const field = h("div", { class: "field" });
  field.style.width = `calc(var(--c) * ${(maxX - minX).toFixed(3)})`;
  field.style.height = `calc(var(--c) * ${(maxY - minY).toFixed(3)})`;
  for (const el of placed) {
    el.style.left = `calc(var(--c) * ${(Number(el.dataset.x) - minX).toFixed(3)})`;
    el.style.top = `calc(var(--c) * ${(Number(el.dataset.y) - minY).toFixed(3)})`;
    el.style.transform = `translate(-50%, -50%) rotate(${el.dataset.turn}deg)`;
    field.append(el);
  }
  root.append(field);
  return root;
}
