// The overview: totals, and charts of the organisation's traffic from
// the analytics routes (requests per hour, latency, errors by status and
// kind, the busiest request types) over a chosen period.
import { $, api, session } from "./core.js";
import { columns, bars } from "./charts.js";

const HOURS = { "1h": 1, "24h": 24, "7d": 168, "30d": 720 };
let seq = 0;

/** Every hour of the period, with what the API counted in it (zero when nothing). */
function everyHour(hourly, hours, pick) {
  const by = new Map(hourly.map((h) => [new Date(h.hour).getTime(), h]));
  const now = new Date();
  now.setUTCMinutes(0, 0, 0);
  const out = [];
  for (let i = hours - 1; i >= 0; i--) {
    const t = now.getTime() - i * 3600e3;
    const h = by.get(t);
    const d = new Date(t);
    const label = hours > 24 ? d.toLocaleDateString(undefined, { month: "short", day: "numeric" })
      : d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
    out.push({ label, value: h ? pick(h) : 0 });
  }
  return out;
}

export async function load() {
  const mine = ++seq;
  $("overview-error").textContent = "";
  const period = $("period").value;
  const put = (id, v) => { $(id).textContent = v === undefined || v === null ? "–" : String(v); };
  try {
    const docs = await api("POST", "/v3/documents/list", { limit: 1 });
    put("documents", docs.pagination && docs.pagination.totalItems);
  } catch (e) { put("documents"); $("overview-error").textContent = e.message; }
  const scoped = !!(session.who && session.who.scoped);
  $("overview-traffic").hidden = scoped;
  if (scoped) {
    // analytics are the organisation's: a key for one space sees its own counts only
    const tag = session.who.containerTag;
    try {
      const m = await api("POST", "/v4/memories/list", { containerTag: tag, limit: 1 });
      put("memories", m.pagination && m.pagination.totalItems);
    } catch (e) { put("memories"); }
    return;
  }
  let usage, errors;
  try {
    [usage, errors] = await Promise.all([
      api("GET", `/v3/analytics/usage?period=${period}&limit=100`),
      api("GET", `/v3/analytics/errors?period=${period}&limit=100`),
    ]);
  } catch (e) {
    put("memories"); put("requests"); put("error-rate");
    $("overview-error").textContent = e.message;
    for (const id of ["chart-requests", "chart-latency", "chart-status", "chart-kinds", "chart-types"]) $(id).replaceChildren();
    return;
  }
  // a later load (another period chosen meanwhile) draws instead
  if (mine !== seq) return;
  const hourly = usage.hourly || [];
  const total = hourly.reduce((n, h) => n + h.count, 0);
  put("memories", usage.totalMemories);
  put("requests", total);
  put("error-rate", `${(100 * (errors.errorRate || 0)).toFixed(1)}%`);
  const hours = HOURS[period];
  const n = columns($("chart-requests"), everyHour(hourly, hours, (h) => h.count), "requests");
  columns($("chart-latency"), everyHour(hourly, hours, (h) => h.avgDuration), "ms on average", "#7a4fd0");
  bars($("chart-status"), Object.entries(errors.byStatusCode || {}).map(([k, v]) => ({ label: k, value: v })), "errors", "#b3261e");
  bars($("chart-kinds"), (errors.topErrors || []).map((e) => ({ label: e.type, value: e.count })), "errors", "#d2691e");
  bars($("chart-types"), (usage.usage || []).slice().sort((a, b) => b.count - a.count).slice(0, 10)
    .map((u) => ({ label: u.type, value: u.count })), "requests", "#1f8a5b");
  $("overview").dataset.columns = String(n);
}

export function init() {
  $("period").addEventListener("change", load);
}
