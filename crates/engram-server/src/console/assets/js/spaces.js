// The spaces page: every container tag with its document and memory
// counts; a space's name, entity context and profile buckets (edited
// here), its memories and graph a click away; merge spaces into one and
// delete a space, each after a confirmation.
import { $, api, el, cell, button, when, guarded } from "./core.js";
import * as memories from "./memories.js";

let open = null;

export async function load() {
  const list = await guarded("spaces-error", () => api("GET", "/v3/container-tags/list"));
  const rows = $("space-rows");
  rows.replaceChildren();
  if (!list) return;
  for (const s of list) {
    const tr = document.createElement("tr");
    const name = cell(tr, "");
    name.appendChild(button(s.containerTag, "link", `Open the space ${s.containerTag}`, () => details(s.containerTag)));
    if (s.name && s.name !== s.containerTag) name.appendChild(el("span", ` ${s.name}`, "meta"));
    cell(tr, String(s.documentCount));
    cell(tr, String(s.memoryCount));
    cell(tr, when(s.lastActivityAt));
    const pick = cell(tr, "");
    const box = el("input");
    box.type = "checkbox";
    box.value = s.containerTag;
    box.className = "merge-pick";
    box.setAttribute("aria-label", `Merge ${s.containerTag}`);
    pick.appendChild(box);
    rows.appendChild(tr);
  }
  $("spaces-empty").hidden = list.length > 0;
  if (open && !list.some((s) => s.containerTag === open)) { open = null; $("space-detail").hidden = true; }
}

async function details(tag) {
  const s = await guarded("spaces-error", () => api("GET", `/v3/container-tags/${encodeURIComponent(tag)}`));
  if (!s) return;
  open = tag;
  $("space-title").textContent = tag;
  $("space-name").value = s.name ?? "";
  $("space-context").value = s.entityContext ?? "";
  $("space-buckets").value = (s.profileBuckets || []).map((b) => `${b.key}: ${b.description}`).join("\n");
  $("space-saved").textContent = "";
  $("space-detail").hidden = false;
  $("space-title").focus();
}

async function save(ev) {
  ev.preventDefault();
  $("space-saved").textContent = "";
  const buckets = [];
  for (const line of $("space-buckets").value.split("\n")) {
    if (!line.trim()) continue;
    const at = line.indexOf(":");
    buckets.push(at < 0 ? { key: line.trim(), description: "" }
      : { key: line.slice(0, at).trim(), description: line.slice(at + 1).trim() });
  }
  const body = { entityContext: $("space-context").value.trim() || null, profileBuckets: buckets };
  if ($("space-name").value.trim()) body.name = $("space-name").value.trim();
  await guarded("space-error", async () => {
    await api("PATCH", `/v3/container-tags/${encodeURIComponent(open)}`, body);
    $("space-saved").textContent = "Saved.";
    await load();
  });
}

async function remove() {
  if (!open || !confirm(`Delete the space "${open}" with its documents and memories? This cannot be undone.`)) return;
  await guarded("space-error", async () => {
    const r = await api("DELETE", `/v3/container-tags/${encodeURIComponent(open)}`);
    $("spaces-said").textContent = `Deleted ${r.containerTag}: ${r.deletedDocumentsCount} documents, ${r.deletedMemoriesCount} memories.`;
    open = null;
    $("space-detail").hidden = true;
    await load();
  });
}

async function merge(ev) {
  ev.preventDefault();
  const sources = [...document.querySelectorAll(".merge-pick:checked")].map((b) => b.value);
  const target = $("merge-target").value.trim();
  await guarded("merge-error", async () => {
    if (!sources.length) throw new Error("Tick the spaces to merge.");
    if (!confirm(`Move everything in ${sources.join(", ")} into "${target}"?`)) return;
    const q = await api("POST", "/v3/container-tags/merge", { containerTags: sources, targetContainerTag: target });
    $("spaces-said").textContent = `Merging into ${q.targetTag}…`;
    for (let i = 0; i < 120; i++) {
      const st = await api("GET", `/v3/container-tags/merge/${encodeURIComponent(q.mergeId)}`);
      if (st.status === "done" || st.status === "failed") {
        $("spaces-said").textContent = `Merge ${st.status}: ${st.movedDocuments} documents and ${st.movedMemories} memories moved into ${st.targetTag}.`;
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    $("merge-form").reset();
    await load();
  });
}

export function init() {
  $("space-form").addEventListener("submit", save);
  $("space-delete").addEventListener("click", remove);
  $("space-memories").addEventListener("click", () => { memories.show(open); location.hash = "#/memories"; });
  $("space-graph").addEventListener("click", () => { $("graph-tag").value = open; location.hash = "#/graph"; });
  $("merge-form").addEventListener("submit", merge);
}
