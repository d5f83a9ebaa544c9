// Shared helpers of the evoplay pages: JSON calls that surface the server's error line, and element building.
export async function api(path, options = {}) {
  const init = { method: options.method || "GET", headers: {} };
  if (options.body !== undefined) {
    init.method = options.method || "POST";
    init.body = JSON.stringify(options.body);
  }
  // Every request that changes something is JSON, even without a body: the server refuses any other type, which
  // a page on another site could send without asking first.
  if (init.method !== "GET") init.headers["Content-Type"] = "application/json";
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const err = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    err.status = response.status;
    throw err;
  }
  return data;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function query(name) {
  return new URLSearchParams(window.location.search).get(name);
}

export function header(here) {
  const links = [["/", "Play"], ["/target", "Target number"], ["/runs", "Runs"]];
  const bar = el("header", {}, el("span", { class: "brand" }, "evoplay"),
    links.map(([href, text]) => el("a", { href, class: href === here ? "here" : null }, text)));
  document.body.prepend(bar);
}

export function ms(value) {
  if (value === null || value === undefined) return "";
  return value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(0)} ms`;
}
