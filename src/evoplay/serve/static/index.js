// The play page's setup form: pick a game, an opponent (agent spec, level or a run's best) and a seat.
import { api, el, header, query } from "/static/common.js";

header("/");
const $ = (id) => document.getElementById(id);
let catalog = null;

function catalogGame(spec) {
  const name = spec.split("(")[0].trim();
  return catalog.games.find((g) => g.name === name);
}

function seatOptions(spec) {
  const m = /players=(\d+)/.exec(spec);
  const game = catalogGame(spec);
  const players = m ? Number(m[1]) : game ? game.players : 2;  // a game from a file or OpenSpiel: two seats
  const seat = $("seat");
  const keep = seat.value;
  seat.replaceChildren();
  for (let p = 0; p < players; p++) {
    const text = p === 0 ? "first (0)" : p === 1 ? "second (1)" : `seat ${p}`;
    seat.append(el("option", { value: String(p) }, text));
  }
  if (keep && Number(keep) < players) seat.value = keep;
}

async function fillOpponents(spec, preset) {
  const game = catalogGame(spec);
  const pick = $("opponent-pick");
  pick.replaceChildren();
  const suggestions = game ? game.suggestions : ["random"];
  pick.append(el("optgroup", { label: "agents and levels" },
    suggestions.map((s) => el("option", { value: s }, s))));
  try {
    const found = await api(`/api/opponents?game=${encodeURIComponent(spec)}`);
    if (found.runs.length) {
      pick.append(el("optgroup", { label: "best of a run" }, found.runs.flatMap((r) => [
        el("option", { value: r.agent }, `${r.path} (${r.recipe})`),
        ...(r.levels || []).map((l) => el("option", { value: l.agent }, `${r.path}: level ${l.level}`))])));
    }
    if (found.unplayable && found.unplayable.length) {
      pick.append(el("optgroup", { label: "runs that cannot be played here" }, found.unplayable.map((r) =>
        el("option", { value: "", disabled: true, title: r.why_not }, `${r.path}: ${r.why_not.split(/[,:;]/)[0]}`))));
    }
  } catch (e) { /* the runs folder is optional */ }
  const value = preset || (game ? game.default_opponent : "random");
  $("opponent").value = value;
  if ([...pick.options].some((o) => o.value === value)) pick.value = value;
  $("tick-box").hidden = !(game && game.realtime);
  $("game-help").textContent = game ? `${game.help}. Parameters: ${game.params.join("; ") || "none"}` :
    "a game from a file or OpenSpiel: you get the generic view";
}

async function init() {
  catalog = await api("/api/catalog");
  const names = $("game-name");
  for (const g of catalog.games) names.append(el("option", { value: g.name }, g.name));
  names.append(el("option", { value: "" }, "other (type a spec)"));
  $("agent-names").append(...catalog.agents.map((a) => el("option", { value: a.name }, a.help)));
  const body = $("agents").querySelector("tbody");
  for (const a of catalog.agents) {
    body.append(el("tr", {}, el("td", {}, el("code", {}, a.name)), el("td", {}, a.help),
      el("td", { class: "muted" }, a.params.join("; ") || "-")));
  }
  const presetGame = query("game") || catalog.default_game;
  $("game-spec").value = presetGame;
  const base = presetGame.split("(")[0];
  names.value = catalog.games.some((g) => g.name === base) ? base : "";
  seatOptions(presetGame);
  await fillOpponents(presetGame, query("opponent"));
  names.addEventListener("change", async () => {
    if (names.value) $("game-spec").value = names.value;
    seatOptions($("game-spec").value);
    await fillOpponents($("game-spec").value);
  });
  $("game-spec").addEventListener("change", async () => {
    seatOptions($("game-spec").value);
    await fillOpponents($("game-spec").value);
  });
  $("opponent-pick").addEventListener("change", () => { $("opponent").value = $("opponent-pick").value; });
  $("setup").addEventListener("submit", start);
}

async function start(event) {
  event.preventDefault();
  $("error").textContent = "";
  $("start").disabled = true;
  try {
    const game = await api("/api/games", { body: {
      game: $("game-spec").value, opponent: $("opponent").value, seat: $("seat").value,
      seed: $("seed").value, tick_ms: $("tick").value,
    } });
    window.location.href = `/play?id=${game.id}`;
  } catch (e) {
    $("error").textContent = e.message;
    $("start").disabled = false;
  }
}

init().catch((e) => { $("error").textContent = e.message; });
