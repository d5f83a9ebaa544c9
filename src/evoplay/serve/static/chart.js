// Line charts on a canvas in plain JavaScript: one x axis (generation), a few named series, a legend.
const PALETTE = ["#2f6f4f", "#1f6fb2", "#b2361f", "#9a6b00", "#6b3fa0", "#444"];

function niceTicks(lo, hi, count) {
  if (lo === hi) { lo -= 1; hi += 1; }
  const span = hi - lo;
  const step = Math.pow(10, Math.floor(Math.log10(span / count)));
  const unit = [1, 2, 5, 10].map((m) => m * step).find((s) => span / s <= count) || step * 10;
  const ticks = [];
  for (let v = Math.ceil(lo / unit) * unit; v <= hi + 1e-9; v += unit) ticks.push(v);
  return ticks;
}

export function drawChart(canvas, xs, series) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 600;
  const height = canvas.clientHeight || 260;
  canvas.width = width * ratio;
  canvas.height = height * ratio;
  const g = canvas.getContext("2d");
  g.scale(ratio, ratio);
  g.clearRect(0, 0, width, height);
  const names = Object.keys(series).filter((k) => series[k].some((v) => Number.isFinite(v)));
  const pad = { left: 56, right: 12, top: 24, bottom: 30 };
  const values = names.flatMap((k) => series[k].filter((v) => Number.isFinite(v)));
  g.font = "12px system-ui, sans-serif";
  g.fillStyle = "#6b6b6b";
  if (!values.length || !xs.length) {
    g.fillText("no generation logged yet", pad.left, height / 2);
    return;
  }
  let lo = Math.min(...values), hi = Math.max(...values);
  if (lo === hi) { lo -= Math.abs(lo) * 0.1 || 1; hi += Math.abs(hi) * 0.1 || 1; }
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
  const px = (x) => pad.left + (x - x0) / (x1 - x0) * (width - pad.left - pad.right);
  const py = (y) => height - pad.bottom - (y - lo) / (hi - lo) * (height - pad.top - pad.bottom);
  g.strokeStyle = "#e3e0d6";
  g.lineWidth = 1;
  for (const t of niceTicks(lo, hi, 5)) {
    g.beginPath(); g.moveTo(pad.left, py(t)); g.lineTo(width - pad.right, py(t)); g.stroke();
    g.fillText(Math.abs(t) >= 1e6 ? t.toExponential(1) : String(+t.toPrecision(6)), 4, py(t) + 4);
  }
  for (const t of niceTicks(x0, x1, 8)) {
    if (Number.isInteger(t)) g.fillText(String(t), px(t) - 4, height - 10);
  }
  names.forEach((name, i) => {
    g.strokeStyle = PALETTE[i % PALETTE.length];
    g.lineWidth = 2;
    g.beginPath();
    let started = false;
    series[name].forEach((v, j) => {
      if (!Number.isFinite(v)) return;
      if (!started) { g.moveTo(px(xs[j]), py(v)); started = true; } else g.lineTo(px(xs[j]), py(v));
    });
    g.stroke();
    g.fillStyle = PALETTE[i % PALETTE.length];
    g.fillRect(pad.left + i * 110, 6, 10, 10);
    g.fillStyle = "#333";
    g.fillText(name, pad.left + i * 110 + 14, 15);
  });
}
