// The request logs page: the organisation's requests, filtered by type,
// status and key, newest first and paged; a request's input and output
// opened in place.
import { $, api, el, cell, button, when, guarded } from "./core.js";

const logs = { page: 1, pages: 1, keys: null, seq: 0 };

async function keyChoices() {
  if (logs.keys) return;
  const list = await api("GET", "/v3/auth/keys").catch(() => ({ keys: [] }));
  logs.keys = list.keys || [];
  const sel = $("log-key");
  for (const k of logs.keys) {
    const o = el("option", k.name);
    o.value = k.id;
    sel.appendChild(o);
  }
}

export async function load() {
  // only the latest request draws (an earlier, slower one must not overwrite it)
  const seq = ++logs.seq;
  await keyChoices();
  const q = new URLSearchParams({ period: $("log-period").value, page: String(logs.page), limit: "25" });
  if ($("log-type").value.trim()) q.set("type", $("log-type").value.trim());
  if ($("log-status").value.trim()) q.set("statusCode", $("log-status").value.trim());
  if ($("log-key").value) q.set("keyId", $("log-key").value);
  const r = await guarded("logs-error", () => api("GET", `/v3/analytics/logs?${q}`));
  if (seq !== logs.seq) return;
  const rows = $("log-rows");
  rows.replaceChildren();
  if (!r) return;
  for (const l of r.logs || []) {
    const tr = document.createElement("tr");
    cell(tr, when(l.createdAt));
    cell(tr, l.type);
    cell(tr, String(l.statusCode), l.statusCode >= 400 ? "bad" : "");
    cell(tr, `${Number(l.duration).toFixed(1)} ms`);
    const act = cell(tr, "");
    act.appendChild(button("Details", "", `Details of the ${l.type} request at ${when(l.createdAt)}`, () => {
      $("log-detail-title").textContent = `${l.type} · ${l.statusCode} · ${when(l.createdAt)}`;
      $("log-input").textContent = JSON.stringify(l.input, null, 2);
      $("log-output").textContent = JSON.stringify(l.output, null, 2);
      $("log-detail").hidden = false;
      $("log-detail-title").focus();
    }));
    rows.appendChild(tr);
  }
  const p = r.pagination || { currentPage: 1, totalPages: 1, totalItems: 0 };
  logs.pages = Math.max(1, p.totalPages);
  $("log-empty").hidden = (r.logs || []).length > 0;
  $("log-page-of").textContent = `page ${p.currentPage} of ${logs.pages} (${p.totalItems} requests)`;
  $("log-prev").disabled = logs.page <= 1;
  $("log-next").disabled = logs.page >= logs.pages;
}

export function init() {
  $("log-form").addEventListener("submit", (ev) => { ev.preventDefault(); logs.page = 1; load(); });
  $("log-prev").addEventListener("click", () => { logs.page = Math.max(1, logs.page - 1); load(); });
  $("log-next").addEventListener("click", () => { logs.page = Math.min(logs.pages, logs.page + 1); load(); });
  $("log-detail-close").addEventListener("click", () => { $("log-detail").hidden = true; });
}
