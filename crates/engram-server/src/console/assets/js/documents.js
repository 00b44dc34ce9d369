// The documents page: the list with tag and status filters and paging,
// the pipeline's progress live, a document's content, chunks and
// memories; add text or a URL, upload a file, delete.
import { $, api, upload, el, cell, button, when, guarded, onScreen } from "./core.js";

const docs = { page: 1, pages: 1, tag: "", status: "", timer: null, open: null, seq: 0 };

export async function load() {
  clearTimeout(docs.timer);
  // only the latest request draws (an earlier, slower one must not overwrite it)
  const seq = ++docs.seq;
  const body = { limit: 20, page: docs.page, sort: "createdAt", order: "desc" };
  if (docs.tag) body.containerTags = [docs.tag];
  const list = await guarded("documents-error", () => api("POST", "/v3/documents/list", body));
  if (!list || seq !== docs.seq) return;
  let items = list.memories || [];
  // the list route filters by tag; the status filter narrows this page
  if (docs.status === "busy") items = items.filter((d) => !["done", "failed"].includes(d.status));
  else if (docs.status) items = items.filter((d) => d.status === docs.status);
  const rows = $("doc-rows");
  rows.replaceChildren();
  let busy = false;
  for (const d of list.memories || []) busy = busy || !["done", "failed"].includes(d.status);
  for (const d of items) {
    const tr = document.createElement("tr");
    const name = cell(tr, "", "doc");
    name.appendChild(button(d.title || d.summary || d.url || d.id, "link", `Open ${d.title || d.id}`, () => details(d.id)));
    cell(tr, d.type || "");
    const st = cell(tr, "");
    st.appendChild(el("span", d.status, `status ${d.status}`));
    cell(tr, (d.containerTags || []).join(", "));
    cell(tr, when(d.createdAt));
    const act = cell(tr, "");
    act.appendChild(button("Delete", "danger", `Delete ${d.title || d.id}`, async () => {
      if (!confirm("Delete this document and the memories only it supports?")) return;
      await guarded("documents-error", async () => {
        await api("DELETE", `/v3/documents/${encodeURIComponent(d.id)}`);
        if (docs.open === d.id) $("doc-detail").hidden = true;
        await load();
      });
    }));
    rows.appendChild(tr);
  }
  const p = list.pagination || { currentPage: 1, totalPages: 1 };
  docs.pages = Math.max(1, p.totalPages);
  $("doc-empty").hidden = items.length > 0;
  $("page-of").textContent = `page ${p.currentPage} of ${docs.pages}`;
  $("prev").disabled = docs.page <= 1;
  $("next").disabled = docs.page >= docs.pages;
  // the pipeline's progress, live, while anything is still being processed
  if (busy && onScreen("documents-page")) docs.timer = setTimeout(load, 1500);
  if (docs.open && busy) details(docs.open, true);
}

async function details(id, quiet) {
  docs.open = id;
  const box = $("doc-detail");
  const [d, ch] = await guarded("documents-error", () => Promise.all([
    api("GET", `/v3/documents/${encodeURIComponent(id)}`),
    api("GET", `/v3/documents/${encodeURIComponent(id)}/chunks`),
  ])) || [];
  if (!d) return;
  $("doc-detail-title").textContent = d.title || d.id;
  $("doc-detail-meta").textContent = [d.type, d.status, `${d.chunkCount ?? 0} chunk${d.chunkCount === 1 ? "" : "s"}`,
    (d.containerTags || []).join(", "), d.url, d.error].filter(Boolean).join(" · ");
  $("doc-detail-content").textContent = d.content || "(no text)";
  const chunks = $("doc-detail-chunks");
  chunks.replaceChildren();
  for (const c of ch.chunks || []) chunks.appendChild(el("li", c.content));
  const mems = $("doc-detail-memories");
  mems.replaceChildren();
  for (const m of d.memories || []) {
    const li = el("li", m.memory);
    if (!m.isLatest) li.className = "old";
    mems.appendChild(li);
  }
  if (!(d.memories || []).length) mems.appendChild(el("li", d.status === "done" ? "(none formed)" : "(not yet)"));
  box.hidden = false;
  if (!quiet) $("doc-detail-title").focus();
}

export function init() {
  $("add-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { content: $("add-content").value };
    const tag = $("add-tag").value.trim();
    if (tag) body.containerTag = tag;
    await guarded("add-error", async () => {
      const file = $("add-file").files[0];
      if (file) {
        const form = new FormData();
        form.append("file", file, file.name);
        if (tag) form.append("containerTags", JSON.stringify([tag]));
        await upload("/v3/documents/file", form);
        $("add-file").value = "";
      }
      if (body.content.trim()) await api("POST", "/v3/documents", body);
      else if (!file) throw new Error("Write a text or URL, or choose a file.");
      $("add-content").value = "";
      docs.page = 1;
      await load();
    });
  });
  $("filter-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    docs.tag = $("filter-tag").value.trim();
    docs.status = $("filter-status").value;
    docs.page = 1;
    load();
  });
  $("prev").addEventListener("click", () => { docs.page = Math.max(1, docs.page - 1); load(); });
  $("next").addEventListener("click", () => { docs.page = Math.min(docs.pages, docs.page + 1); load(); });
  $("doc-detail-close").addEventListener("click", () => { docs.open = null; $("doc-detail").hidden = true; });
}
