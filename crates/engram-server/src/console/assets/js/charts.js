// Small SVG charts, drawn from numbers with no library: a column chart
// over time and a bar chart by category. Presentation attributes only
// (the page's Content-Security-Policy allows no inline style), each
// chart labelled for screen readers, each bar titled with its value.

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

const round = (v) => (Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 10) / 10);

/**
 * Columns over time into `box`: `points` are `{label, value}` in order;
 * `unit` names the value ("requests", "ms"). Answers the number of
 * columns drawn.
 */
export function columns(box, points, unit, colour) {
  const W = 600, H = 160, L = 40, B = 18;
  const max = Math.max(1, ...points.map((p) => p.value));
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "chart" });
  const total = points.reduce((n, p) => n + p.value, 0);
  s.setAttribute("aria-label", `${unit}: ${points.length} periods, highest ${round(max)}, total ${round(total)}`);
  s.appendChild(svg("line", { x1: L, y1: H - B, x2: W, y2: H - B, stroke: "#9aa3ad" }));
  s.appendChild(svg("text", { x: L - 4, y: 10, "text-anchor": "end", class: "axis" }, round(max)));
  s.appendChild(svg("text", { x: L - 4, y: H - B, "text-anchor": "end", class: "axis" }, "0"));
  const w = (W - L) / Math.max(1, points.length);
  points.forEach((p, i) => {
    const h = ((H - B - 12) * p.value) / max;
    const r = svg("rect", { x: L + i * w + w * 0.1, y: H - B - h, width: Math.max(0.5, w * 0.8), height: h, fill: colour || "#2f6fde" });
    r.appendChild(svg("title", {}, `${p.label}: ${round(p.value)} ${unit}`));
    s.appendChild(r);
  });
  if (points.length) {
    s.appendChild(svg("text", { x: L, y: H - 4, class: "axis" }, points[0].label));
    s.appendChild(svg("text", { x: W, y: H - 4, "text-anchor": "end", class: "axis" }, points[points.length - 1].label));
  }
  box.replaceChildren(s);
  return points.length;
}

/** Horizontal bars by category into `box`: `items` are `{label, value}`. */
export function bars(box, items, unit, colour) {
  if (!items.length) {
    const p = document.createElement("p");
    p.className = "chart-empty";
    p.textContent = `No ${unit} in this period.`;
    box.replaceChildren(p);
    return 0;
  }
  const W = 600, row = 22, L = 170;
  const H = Math.max(row, items.length * row);
  const max = Math.max(1, ...items.map((p) => p.value));
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "chart" });
  s.setAttribute("aria-label", items.map((p) => `${p.label} ${round(p.value)}`).join(", ") || `no ${unit}`);
  items.forEach((p, i) => {
    const y = i * row;
    s.appendChild(svg("text", { x: L - 6, y: y + 15, "text-anchor": "end", class: "axis" }, p.label));
    const w = ((W - L - 60) * p.value) / max;
    const r = svg("rect", { x: L, y: y + 4, width: Math.max(1, w), height: row - 8, fill: colour || "#2f6fde" });
    r.appendChild(svg("title", {}, `${p.label}: ${round(p.value)} ${unit}`));
    s.appendChild(r);
    s.appendChild(svg("text", { x: L + w + 6, y: y + 15, class: "axis" }, round(p.value)));
  });
  box.replaceChildren(s);
  return items.length;
}
