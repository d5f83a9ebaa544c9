// The list of run folders under --runs, refreshed every few seconds so a new or running run shows up.
import { api, el, header } from "/static/common.js";

header("/runs");
const $ = (id) => document.getElementById(id);

function playLink(opponent) {
  if (!opponent) return "";
  if (opponent.why_not) return el("span", { class: "muted", title: opponent.why_not }, `cannot be played here: ${opponent.why_not}`);
  const url = `/?game=${encodeURIComponent(opponent.game)}&opponent=${encodeURIComponent(opponent.agent)}`;
  return el("a", { href: url }, "play against it");
}

async function refresh() {
  try {
    const data = await api("/api/runs");
    $("root").textContent = `run folders under ${data.root}`;
    const body = $("runs").querySelector("tbody");
    body.replaceChildren(...data.runs.map((r) => r.error
      ? el("tr", {}, el("td", {}, r.path), el("td", { colspan: "5", class: "error" }, r.error))
      : el("tr", { dataset: { path: r.path } },
        el("td", {}, el("a", { href: `/run?path=${encodeURIComponent(r.path)}` }, r.path)),
        el("td", {}, r.recipe),
        el("td", { title: r.progress.text }, r.progress.short),
        el("td", {}, el("span", { class: "badge " + (r.finished ? "done" : "live"), title: r.progress.text },
          r.finished ? "finished" : "running or stopped")),
        el("td", {}, r.best === null || r.best === undefined ? "-" : String(Number(r.best).toPrecision(4))),
        el("td", {}, playLink(r.opponent)))));
    $("empty").hidden = data.runs.length > 0;
  } catch (e) { $("error").textContent = e.message; }
}

refresh();
setInterval(refresh, 5000);
