// The leaderboard: a pool (<preset>:<players>) chosen, its top (GET /leaderboards/{pool}, a
// page at a time) and my own line (GET /leaderboards/{pool}/me: rank, percentile or provisional).
import { request, session } from "./api.js";
import { h } from "./dom.js";
import { showError } from "./errors.js";
import { renderHeader } from "./header.js";
import { t } from "./i18n.js";
import { loadRules } from "./lobby.js";
import { currentPool, currentView, go, goLeaderboard } from "./nav.js";
import { main, state } from "./state.js";

const PAGE = 50;

function pools() {
  return state.presets.flatMap((p) => {
    const counts = [];
    for (let n = p.players.min; n <= p.players.max; n++) counts.push({ pool: `${p.id}:${n}`, label: `${p.name} · ${n}` });
    return counts;
  });
}

export async function openLeaderboard() {
  renderHeader();
  main.replaceChildren(h("p", { class: "loading" }, "…"));
  let top = null;
  let mine = null;
  let pool = currentPool();
  try {
    await loadRules();
    const known = pools();
    if (!known.some((p) => p.pool === pool)) pool = known[0]?.pool || "";
    const path = `/leaderboards/${encodeURIComponent(pool)}`;
    [top, mine] = await Promise.all([request("GET", `${path}?limit=${PAGE}`), request("GET", `${path}/me`)]);
  } catch (err) {
    showError(err);
  }
  if (currentView() !== "leaderboard" || !session()) return; // navigated away meanwhile
  main.replaceChildren(page(pool, top?.body, mine?.body));
}

function myLine(mine) {
  if (!mine) return null;
  let text;
  if (mine.provisional) text = t("lbProvisional", { rating: mine.rating, games: mine.games });
  else if (mine.rank !== null && mine.rank !== undefined) text = t("lbRank", { rating: mine.rating, rank: mine.rank, games: mine.games });
  else text = t("lbPercentile", { rating: mine.rating, percentile: mine.percentile ?? 0, games: mine.games });
  return h(
    "p",
    {
      id: "leaderboard-me",
      class: "status",
      "data-rating": mine.rating,
      "data-rank": mine.rank ?? "",
      "data-provisional": mine.provisional ? "true" : "false",
    },
    text,
  );
}

function rows(players) {
  const me = session()?.player;
  return players.map((p) =>
    h(
      "tr",
      { "data-player": p.player, class: p.player === me ? "me" : null },
      h("td", { class: "rank" }, String(p.rank)),
      h("td", {}, p.name),
      h("td", { class: "num rating" }, String(p.rating)),
      h("td", { class: "num" }, String(p.games)),
    ),
  );
}

function page(pool, top, mine) {
  const chooser = h(
    "select",
    { id: "lb-pool", name: "pool" },
    pools().map((p) => h("option", { value: p.pool, selected: p.pool === pool }, p.label)),
  );
  chooser.addEventListener("change", () => goLeaderboard(chooser.value));
  const body = h("tbody", {}, rows(top?.players || []));
  let next = top?.next || null;
  const more = h("button", { type: "button", id: "lb-more", class: "ghost", hidden: !next }, t("more"));
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      const answer = await request("GET", `/leaderboards/${encodeURIComponent(pool)}?limit=${PAGE}&cursor=${encodeURIComponent(next)}`);
      body.append(...rows(answer.body.players));
      next = answer.body.next;
    } catch (err) {
      showError(err);
    }
    more.disabled = false;
    more.hidden = !next;
  });
  return h(
    "section",
    { id: "leaderboard", class: "card", "data-pool": pool },
    h(
      "div",
      { class: "game-head" },
      h("button", { type: "button", class: "ghost", id: "back", onclick: () => go(null) }, "← " + t("back")),
      h("h2", {}, t("leaderboard")),
    ),
    h("label", {}, t("pool"), chooser),
    myLine(mine),
    top?.players?.length
      ? h(
          "table",
          { class: "board-table" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("player")), h("th", { class: "num" }, t("rating")), h("th", { class: "num" }, t("games")))),
          body,
        )
      : h("p", { class: "note" }, t("lbEmpty")),
    more,
  );
}
