// A run's page: fitness and size curves that grow while the run goes (polling its log), the best agent, plots, exports.
import { api, el, header, query } from "/static/common.js";
import { drawChart } from "/static/chart.js";

header("/runs");
const $ = (id) => document.getElementById(id);
const path = query("path");
const records = [];
let detail = null;
let progress = null;
let finishedSeen = false;

const FITNESS = ["best", "mean", "worst", "median"];

function sizeKeys() {
  const keys = new Set();
  for (const r of records) for (const k of Object.keys(r)) if (/size/.test(k) && typeof r[k] === "number") keys.add(k);
  return [...keys];
}

function draw() {
  const xs = records.map((r, i) => (typeof r.generation === "number" ? r.generation : i));
  const fitness = {};
  for (const k of FITNESS) if (records.some((r) => typeof r[k] === "number")) fitness[k] = records.map((r) => r[k]);
  drawChart($("fitness"), xs, fitness);
  const sizes = {};
  for (const k of sizeKeys()) sizes[k] = records.map((r) => r[k]);
  $("size-panel").hidden = Object.keys(sizes).length === 0 && records.length > 0;
  drawChart($("size"), xs, sizes);
  const last = records[records.length - 1];
  $("last").replaceChildren(...(last ? Object.entries(last).map(([k, v]) =>
    el("tr", {}, el("th", {}, k), el("td", {}, typeof v === "number" ? String(+v.toPrecision(6)) : String(v)))) : []));
  // In the budget's units: minutes spent and left for a run with a time budget, why it stopped once finished.
  $("progress").textContent = progress ? progress.text : `${records.length} generations logged`;
  document.body.dataset.generations = String(records.length);
}

function bestAgent(d) {
  if (d.notation.length) return d.notation.map((n) => el("p", {}, el("b", {}, `${n.label}: `), n.text));
  const text = d.has_best ? "its best agent is in best.json (below)"
    : d.finished ? `the run finished without a best.json: evoplay report --rewrite ${d.path} writes it again`
    : "the best agent is written when the run finishes";
  return [el("p", { class: "muted", id: "no-notation" }, text)];
}

function playLinks(d) {
  const opp = d.opponent;
  if (!opp) return [];
  if (opp.why_not) return [el("p", { id: "play-why-not", class: "muted" }, `This run cannot be played here: ${opp.why_not}.`)];
  const url = (agent) => `/?game=${encodeURIComponent(opp.game)}&opponent=${encodeURIComponent(agent)}`;
  const out = [el("a", { id: "play-it", href: url(opp.agent), title: opp.agent }, el("button", { type: "button" }, "Play against it"))];
  if (opp.levels && opp.levels.length) {
    out.push(" or a level of the run: ");
    opp.levels.forEach((l, i) => out.push(i ? " · " : "", el("a", { href: url(l.agent), class: "level", title: l.agent,
      dataset: { level: l.level } }, l.level)));
  }
  return out;
}

function showDetail(d) {
  detail = d;
  progress = d.progress;
  $("title").textContent = `${d.path} (${d.recipe})`;
  $("state").textContent = d.finished ? "finished" : "live";
  $("state").className = "badge " + (d.finished ? "done" : "live");
  $("report").textContent = d.report;
  $("config").textContent = d.config;
  $("notation").replaceChildren(...bestAgent(d));
  $("scores").replaceChildren(...Object.entries(d.scores).map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, String(v)))));
  const q = `path=${encodeURIComponent(d.path)}`;
  $("downloads").replaceChildren(...(d.has_best ? [
    el("a", { href: `/api/run/export?${q}&lang=python`, id: "export-python" }, "Python export"), " · ",
    el("a", { href: `/api/run/export?${q}&lang=lua`, id: "export-lua" }, "Lua export"), " · ",
    el("a", { href: `/api/run/file?${q}&name=best.json` }, "best.json")] : []));
  $("play").replaceChildren(...playLinks(d));
  const plots = $("plots");
  plots.replaceChildren(el("h2", { style: "margin-top:0" }, "Plots"), ...(d.plots.length ? d.plots.map((name) =>
    el("figure", {}, el("img", { src: `/api/run/file?${q}&name=${encodeURIComponent(name)}&v=${records.length}`, alt: name }),
      el("figcaption", { class: "muted" }, name))) : [el("p", { class: "muted" }, "the plots are drawn when the run finishes")]));
}

async function poll() {
  try {
    const data = await api(`/api/run/log?path=${encodeURIComponent(path)}&since=${records.length}`);
    if (data.count < records.length) records.length = 0; // a resumed run rewrote its log
    records.push(...data.records);
    if (data.progress) progress = data.progress;
    if (data.records.length || !detail) draw();
    if (data.finished && !finishedSeen) {
      finishedSeen = true;
      showDetail(await api(`/api/run?path=${encodeURIComponent(path)}`));
      draw();
    }
  } catch (e) { $("error").textContent = e.message; }
}

async function init() {
  showDetail(await api(`/api/run?path=${encodeURIComponent(path)}`));
  finishedSeen = detail.finished;
  await poll();
  draw();
  setInterval(poll, 1000);
  window.addEventListener("resize", draw);
}

init().catch((e) => { $("error").textContent = e.message; });
