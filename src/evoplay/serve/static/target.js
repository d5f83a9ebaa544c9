// The target-number round: countdown, your expression checked as you type (the parser's caret), the CPU's best so far.
import { api, el, header } from "/static/common.js";

header("/target");
const $ = (id) => document.getElementById(id);
let round = null;
let deadline = 0;
let poller = null;
let checkTimer = null;
let checkSeq = 0;

async function init() {
  const catalog = await api("/api/catalog");
  for (const l of catalog.target_levels) {
    $("level").append(el("option", { value: String(l.level) }, `${l.level} ${l.name} (${l.seconds} s of search)`));
  }
  $("level").value = "3";
  $("setup").addEventListener("submit", start);
  $("answer").addEventListener("submit", submit);
  $("expr").addEventListener("input", () => { clearTimeout(checkTimer); checkTimer = setTimeout(check, 120); });
  $("done").addEventListener("click", finish);
}

async function start(event) {
  event.preventDefault();
  $("error").textContent = "";
  try {
    const body = { level: $("level").value, seconds: $("seconds").value, mode: $("mode").value };
    if ($("seed").value !== "") body.seed = $("seed").value;
    round = await api("/api/target", { body });
  } catch (e) { $("error").textContent = e.message; $("round").hidden = false; return; }
  deadline = performance.now() + round.left * 1000;
  $("round").hidden = false;
  $("target").textContent = round.target;
  $("numbers").replaceChildren(...round.numbers.map((n) => el("span", {}, String(n))));
  $("answers").replaceChildren();
  $("verdict").textContent = ""; $("result").replaceChildren();
  $("expr").value = ""; $("expr").disabled = false; $("submit").disabled = false; $("done").disabled = false;
  $("caret").hidden = true; $("check").textContent = "";
  $("expr").focus();
  update(round);
  clearInterval(poller);
  poller = setInterval(poll, 400);
}

function update(view) {
  round = view;
  const left = view.over ? 0 : Math.max(0, (deadline - performance.now()) / 1000);
  $("countdown").textContent = `${left.toFixed(0)} s`;
  $("you").textContent = view.you ? `${view.you.expression} = ${view.you.value} (${view.you.distance ? `off by ${view.you.distance}` : "exact!"})`
    : "no answer yet";
  $("cpu").textContent = view.over ? `${view.cpu_result.expression} = ${view.cpu_result.value} ` +
      `(${view.cpu_result.distance ? `off by ${view.cpu_result.distance}` : "exact!"}; ${view.cpu_result.generations} generations, ` +
      `${view.cpu_result.seconds} s)` : view.cpu ? view.cpu.status : "CPU: starting";
  if (view.over) {
    clearInterval(poller);
    $("expr").disabled = true; $("submit").disabled = true; $("done").disabled = true;
    $("verdict").textContent = view.verdict;
    $("result").replaceChildren(`best possible: ${view.best_possible}`);
  }
}

async function poll() {
  if (!round) return;
  try { update(await api(`/api/target/${round.id}`)); } catch (e) { $("error").textContent = e.message; clearInterval(poller); }
}

function showCheck(result) {
  if (result.empty) { $("caret").hidden = true; $("check").textContent = ""; $("check").className = "muted"; return; }
  if (result.ok) {
    $("caret").hidden = true;
    const d = Math.abs(result.value - round.target);
    $("check").className = "ok";
    $("check").textContent = `= ${result.value} (${d ? `off by ${d}` : "exact!"})` +
      (result.unused.length && d ? `; unused: ${result.unused.join(" ")}` : "");
  } else {
    $("caret").hidden = false;
    $("caret").textContent = result.error.caret;
    $("check").className = "error";
    $("check").textContent = result.error.line;
  }
}

async function check() {
  if (!round || round.over) return;
  const seq = ++checkSeq;
  try {
    const result = await api(`/api/target/${round.id}/check`, { body: { text: $("expr").value } });
    if (seq === checkSeq) showCheck(result);
  } catch (e) { $("error").textContent = e.message; }
}

async function submit(event) {
  event.preventDefault();
  if (!round || round.over) return;
  clearTimeout(checkTimer);
  try {
    const { answer, round: view } = await api(`/api/target/${round.id}/submit`, { body: { text: $("expr").value } });
    showCheck(answer);
    if (answer.ok) {
      $("answers").append(el("li", {}, `${answer.expression} = ${answer.value} ` +
        (answer.distance ? `(off by ${answer.distance})` : "(exact!)") + (answer.kept ? "" : " - not closer, kept your best")));
      $("expr").value = "";
    }
    update(view);
  } catch (e) { $("error").textContent = e.message; }
}

async function finish() {
  if (!round) return;
  $("done").disabled = true;
  try { update(await api(`/api/target/${round.id}/finish`, { method: "POST" })); } catch (e) { $("error").textContent = e.message; }
}

init().catch((e) => { $("error").textContent = e.message; });
