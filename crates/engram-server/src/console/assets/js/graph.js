// The graph page: /v3/graph's memories, entities and documents with their
// typed edges (updates, extends, derives, source, mentions), drawn on a
// canvas. A force layout (springs along edges, repulsion between nearby
// nodes found through a uniform grid, so a tick costs O(n) rather than
// O(n²)) settles in time slices between frames; zoom with the wheel or
// the buttons, pan by dragging or with the arrow keys, click or find a
// node for its details. Nodes and edges are drawn one path per kind, so
// a frame of 2 000 nodes stays within a few milliseconds.
import { $, api, el, button, guarded } from "./core.js";

const NODE = { memory: "#2f6fde", entity: "#d48a00", document: "#1f8a5b" };
const EDGE = { updates: "#c2410c", extends: "#7a4fd0", derives: "#0e7490", source: "#9aa3ad", mentions: "#cfd5db" };
const RADIUS = { memory: 5, entity: 4, document: 7 };

let view = null;

/** A deterministic pseudo-random sequence (the same data lays out the same way). */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 4294967296);
}

function prepare(graph) {
  const nodes = graph.nodes.map((n) => ({ ...n, x: 0, y: 0, vx: 0, vy: 0, deg: 0 }));
  const at = new Map(nodes.map((n, i) => [n.id, i]));
  const edges = [];
  for (const e of graph.edges) {
    const a = at.get(e.source), b = at.get(e.target);
    if (a === undefined || b === undefined || a === b) continue;
    edges.push({ a, b, type: e.type });
    nodes[a].deg++; nodes[b].deg++;
  }
  const rand = rng(nodes.length * 7919 + edges.length);
  const spread = 30 * Math.sqrt(nodes.length + 1);
  for (const n of nodes) {
    const r = spread * Math.sqrt(rand()), t = 2 * Math.PI * rand();
    n.x = r * Math.cos(t); n.y = r * Math.sin(t);
  }
  return { nodes, edges, at };
}

/** One step of the layout; `alpha` is how much is still allowed to move. */
function tick(g, alpha) {
  const { nodes, edges } = g;
  const R = 48, cells = new Map();
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    const k = `${Math.floor(n.x / R)},${Math.floor(n.y / R)}`;
    let c = cells.get(k);
    if (!c) cells.set(k, (c = []));
    c.push(i);
  }
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    const cx = Math.floor(n.x / R), cy = Math.floor(n.y / R);
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
      const c = cells.get(`${cx + dx},${cy + dy}`);
      if (!c) continue;
      for (const j of c) {
        if (j <= i) continue;
        const m = nodes[j];
        let x = n.x - m.x, y = n.y - m.y, d2 = x * x + y * y;
        if (d2 > R * R) continue;
        if (d2 < 0.01) { x = 0.1 * (i - j); y = 0.1; d2 = x * x + y * y; }
        const f = (alpha * 300) / d2;
        n.vx += x * f; n.vy += y * f; m.vx -= x * f; m.vy -= y * f;
      }
    }
  }
  for (const e of edges) {
    const a = nodes[e.a], b = nodes[e.b];
    const x = b.x - a.x, y = b.y - a.y, d = Math.sqrt(x * x + y * y) || 1;
    const f = (alpha * 0.08 * (d - 30)) / d;
    const wa = b.deg / (a.deg + b.deg), wb = 1 - wa;
    a.vx += x * f * wa; a.vy += y * f * wa; b.vx -= x * f * wb; b.vy -= y * f * wb;
  }
  for (const n of nodes) {
    n.vx -= n.x * 0.002 * alpha; n.vy -= n.y * 0.002 * alpha;
    n.vx *= 0.6; n.vy *= 0.6;
    n.x += Math.max(-20, Math.min(20, n.vx)); n.y += Math.max(-20, Math.min(20, n.vy));
  }
}

class View {
  constructor(canvas, graph) {
    this.canvas = canvas;
    this.g = prepare(graph);
    this.k = 1; this.tx = 0; this.ty = 0;
    this.alpha = 1; this.ticks = 0; this.started = performance.now();
    this.selected = -1; this.pending = false; this.maxFrame = 0;
    this.fit();
    this.frame();
  }

  size() {
    const r = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(r.width * dpr)), h = Math.max(1, Math.round(r.height * dpr));
    if (this.canvas.width !== w || this.canvas.height !== h) { this.canvas.width = w; this.canvas.height = h; }
    return { w: r.width, h: r.height, dpr };
  }

  fit() {
    const { w, h } = this.size();
    const ns = this.g.nodes;
    if (!ns.length) return;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const n of ns) { x0 = Math.min(x0, n.x); y0 = Math.min(y0, n.y); x1 = Math.max(x1, n.x); y1 = Math.max(y1, n.y); }
    this.k = Math.min(4, 0.9 * Math.min(w / Math.max(1, x1 - x0), h / Math.max(1, y1 - y0)));
    this.tx = w / 2 - this.k * (x0 + x1) / 2;
    this.ty = h / 2 - this.k * (y0 + y1) / 2;
  }

  /** The layout's slice of this frame, then a draw; again until settled. */
  frame() {
    if (this.alpha > 0.02) {
      const until = performance.now() + 10;
      while (this.alpha > 0.02 && performance.now() < until) {
        tick(this.g, this.alpha);
        this.alpha *= 0.985;
        this.ticks++;
      }
      if (this.alpha <= 0.02) this.canvas.dataset.layoutMs = String(Math.round(performance.now() - this.started));
      if (this.selected < 0) this.fit();
      this.draw();
      requestAnimationFrame(() => this.frame());
    } else {
      this.draw();
    }
  }

  redraw() {
    if (this.pending || this.alpha > 0.02) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  draw() {
    const t0 = performance.now();
    const { w, h, dpr } = this.size();
    const ctx = this.canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.setTransform(dpr * this.k, 0, 0, dpr * this.k, dpr * this.tx, dpr * this.ty);
    const { nodes, edges } = this.g;
    ctx.lineWidth = 1 / this.k;
    for (const [type, colour] of Object.entries(EDGE)) {
      ctx.beginPath();
      for (const e of edges) {
        if (e.type !== type) continue;
        const a = nodes[e.a], b = nodes[e.b];
        ctx.moveTo(a.x, a.y); ctx.lineTo(b.x, b.y);
      }
      ctx.strokeStyle = colour;
      ctx.stroke();
    }
    for (const [type, colour] of Object.entries(NODE)) {
      ctx.beginPath();
      const r = RADIUS[type];
      for (const n of nodes) {
        if (n.type !== type) continue;
        ctx.moveTo(n.x + r, n.y);
        ctx.arc(n.x, n.y, r, 0, 2 * Math.PI);
      }
      ctx.fillStyle = colour;
      ctx.fill();
    }
    // superseded and forgotten memories are drawn hollow
    ctx.beginPath();
    for (const n of nodes) {
      if (n.type === "memory" && (!n.isLatest || n.isForgotten)) { ctx.moveTo(n.x + 3, n.y); ctx.arc(n.x, n.y, 3, 0, 2 * Math.PI); }
    }
    ctx.fillStyle = "#fff";
    ctx.fill();
    const sel = this.selected;
    ctx.font = `${12 / this.k}px system-ui, sans-serif`;
    ctx.fillStyle = "#1d232b";
    if (sel >= 0) {
      const n = nodes[sel];
      ctx.beginPath();
      ctx.arc(n.x, n.y, RADIUS[n.type] + 4 / this.k, 0, 2 * Math.PI);
      ctx.strokeStyle = "#f5b400"; ctx.lineWidth = 3 / this.k; ctx.stroke();
      ctx.fillText(short(n.label), n.x + 8 / this.k, n.y - 8 / this.k);
    }
    if (this.k > 1.5) {
      // labels once they can be read: only what is on screen
      const x0 = -this.tx / this.k, y0 = -this.ty / this.k, x1 = x0 + w / this.k, y1 = y0 + h / this.k;
      let shown = 0;
      for (let i = 0; i < nodes.length; i++) {
        const n = nodes[i];
        if (i === sel || n.x < x0 || n.x > x1 || n.y < y0 || n.y > y1 || shown++ > 300) continue;
        ctx.fillText(short(n.label, 40), n.x + 7 / this.k, n.y + 4 / this.k);
      }
    }
    const ms = performance.now() - t0;
    if (this.alpha <= 0.02) this.maxFrame = Math.max(this.maxFrame, ms);
    const d = this.canvas.dataset;
    d.nodes = String(nodes.length); d.edges = String(edges.length); d.ticks = String(this.ticks);
    d.frameMs = ms.toFixed(2); d.maxFrameMs = this.maxFrame.toFixed(2);
    d.settled = String(this.alpha <= 0.02);
  }

  /** The node under a point of the canvas, if any. */
  hit(px, py) {
    const x = (px - this.tx) / this.k, y = (py - this.ty) / this.k;
    let best = -1, bestD = (10 / this.k) ** 2 + 49;
    this.g.nodes.forEach((n, i) => {
      const d = (n.x - x) ** 2 + (n.y - y) ** 2;
      if (d < bestD) { bestD = d; best = i; }
    });
    return best;
  }

  zoom(f, px, py) {
    const k = Math.max(0.05, Math.min(20, this.k * f));
    this.tx = px - ((px - this.tx) * k) / this.k;
    this.ty = py - ((py - this.ty) * k) / this.k;
    this.k = k;
    this.redraw();
  }

  select(i, centre) {
    this.selected = i;
    if (i >= 0 && centre) {
      const { w, h } = this.size(), n = this.g.nodes[i];
      this.k = Math.max(this.k, 2);
      this.tx = w / 2 - n.x * this.k; this.ty = h / 2 - n.y * this.k;
    }
    this.redraw();
    details(this, i);
  }
}

function short(s, n = 60) {
  s = String(s || "");
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function details(v, i) {
  const box = $("graph-detail");
  box.replaceChildren();
  if (i < 0) { box.appendChild(el("p", "Click a node, or find one, for its details.")); return; }
  const n = v.g.nodes[i];
  box.appendChild(el("h3", n.type));
  box.appendChild(el("p", n.label));
  const facts = [];
  if (n.type === "memory") {
    facts.push(`version ${n.version}`, n.isLatest ? "current" : "superseded", n.isStatic ? "static" : "dynamic");
    if (n.isForgotten) facts.push("forgotten");
    if (n.isInference) facts.push("inferred");
    facts.push(`space ${n.containerTag}`);
  }
  if (n.entityType) facts.push(n.entityType);
  if (n.documentType) facts.push(n.documentType);
  if (n.createdAt) facts.push(new Date(n.createdAt).toLocaleString());
  box.appendChild(el("p", facts.join(" · "), "meta"));
  const ul = el("ul", null, "links");
  for (const e of v.g.edges) {
    if (e.a !== i && e.b !== i) continue;
    const other = e.a === i ? e.b : e.a;
    const li = el("li");
    li.append(el("span", e.a === i ? `${e.type} →` : `← ${e.type}`, "kind"),
      button(short(v.g.nodes[other].label), "link", null, () => v.select(other, true)));
    ul.appendChild(li);
  }
  box.appendChild(ul);
}

/** Draws `graph` (the /v3/graph answer) on the page's canvas. */
export function show(graph) {
  const canvas = $("graph-canvas");
  view = new View(canvas, graph);
  const counts = {};
  for (const n of graph.nodes) counts[n.type] = (counts[n.type] || 0) + 1;
  const plural = { memory: "memories", entity: "entities", document: "documents" };
  $("graph-summary").textContent = graph.nodes.length
    ? `${Object.entries(counts).map(([k, v]) => `${v} ${v === 1 ? k : plural[k] || k}`).join(", ")}, ${graph.edges.length} edges`
    : "Nothing in this space yet.";
  details(view, -1);
  return view;
}

export async function load() {
  const tag = $("graph-tag").value.trim();
  const q = new URLSearchParams({ limit: $("graph-limit").value });
  if (tag) q.set("containerTag", tag);
  const graph = await guarded("graph-error", () => api("GET", `/v3/graph?${q}`));
  if (graph) show(graph);
}

export function init() {
  const canvas = $("graph-canvas");
  let drag = null;
  canvas.addEventListener("pointerdown", (e) => { drag = { x: e.offsetX, y: e.offsetY, moved: false }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener("pointermove", (e) => {
    if (!drag || !view) return;
    const dx = e.offsetX - drag.x, dy = e.offsetY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
    view.tx += dx; view.ty += dy; drag.x = e.offsetX; drag.y = e.offsetY;
    view.redraw();
  });
  canvas.addEventListener("pointerup", (e) => {
    if (drag && !drag.moved && view) view.select(view.hit(e.offsetX, e.offsetY));
    drag = null;
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    if (view) view.zoom(Math.exp(-e.deltaY * 0.002), e.offsetX, e.offsetY);
  }, { passive: false });
  canvas.addEventListener("keydown", (e) => {
    if (!view) return;
    const step = 40, r = canvas.getBoundingClientRect();
    const moves = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (moves[e.key]) { view.tx += moves[e.key][0]; view.ty += moves[e.key][1]; view.redraw(); }
    else if (e.key === "+" || e.key === "=") view.zoom(1.25, r.width / 2, r.height / 2);
    else if (e.key === "-") view.zoom(0.8, r.width / 2, r.height / 2);
    else return;
    e.preventDefault();
  });
  const centre = (f) => () => { if (view) { const r = canvas.getBoundingClientRect(); view.zoom(f, r.width / 2, r.height / 2); } };
  $("graph-zoom-in").addEventListener("click", centre(1.25));
  $("graph-zoom-out").addEventListener("click", centre(0.8));
  $("graph-fit").addEventListener("click", () => { if (view) { view.fit(); view.redraw(); } });
  $("graph-form").addEventListener("submit", (ev) => { ev.preventDefault(); load(); });
  $("graph-find-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const q = $("graph-find").value.trim().toLowerCase();
    if (!view || !q) return;
    const i = view.g.nodes.findIndex((n) => String(n.label).toLowerCase().includes(q));
    $("graph-error").textContent = i < 0 ? `No node mentions "${q}".` : "";
    if (i >= 0) view.select(i, true);
  });
  window.addEventListener("resize", () => view && view.redraw());
}
