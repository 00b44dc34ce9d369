// The memories page: a space's memories with version, static or dynamic,
// relations and sources, earlier versions struck through; edit (a new
// version) and forget.
import { $, api, el, button, guarded } from "./core.js";

const mems = { page: 1, pages: 1, seq: 0 };

export async function load() {
  const tag = $("mem-tag").value.trim();
  const ul = $("mem-list");
  $("memories-error").textContent = "";
  if (!tag) { ul.replaceChildren(); return; }
  const seq = ++mems.seq;
  const list = await guarded("memories-error", () =>
    api("POST", "/v4/memories/list", { containerTag: tag, limit: 20, page: mems.page }));
  if (!list || seq !== mems.seq) return;
  ul.replaceChildren();
  for (const m of list.memoryEntries || []) {
    const li = el("li");
    li.appendChild(el("p", m.memory));
    const rel = Object.entries(m.memoryRelations || {}).map(([id, kind]) => `${kind} ${id}`);
    li.appendChild(el("p", [`version ${m.version}`, m.isStatic ? "static" : "dynamic",
      `${m.sourceCount} source${m.sourceCount === 1 ? "" : "s"}`,
      rel.length ? rel.join(", ") : null,
      m.forgetAfter ? `forgotten after ${m.forgetAfter}` : null].filter(Boolean).join(" · "), "meta"));
    for (const h of m.history || []) {
      const old = el("p", `v${h.version}: ${h.memory}`, "old");
      old.title = "an earlier version, superseded";
      li.appendChild(old);
    }
    li.appendChild(button("Edit", "", `Edit: ${m.memory}`, async () => {
      const next = prompt("The new version of this memory", m.memory);
      if (!next || next === m.memory) return;
      await guarded("memories-error", async () => {
        await api("PATCH", "/v4/memories", { id: m.id, containerTag: tag, newContent: next });
        await load();
      });
    }));
    li.appendChild(button("Forget", "danger", `Forget: ${m.memory}`, async () => {
      if (!confirm("Forget this memory? It stops appearing in search and profiles.")) return;
      await guarded("memories-error", async () => {
        await api("DELETE", "/v4/memories", { id: m.id, containerTag: tag, reason: "forgotten in the console" });
        await load();
      });
    }));
    ul.appendChild(li);
  }
  if (!(list.memoryEntries || []).length) $("memories-error").textContent = "No memories in this space.";
  const pg = list.pagination || { currentPage: 1, totalPages: 1 };
  mems.pages = Math.max(1, pg.totalPages);
  $("mem-page-of").textContent = `page ${pg.currentPage} of ${mems.pages}`;
  $("mem-prev").disabled = mems.page <= 1;
  $("mem-next").disabled = mems.page >= mems.pages;
}

/** Opens a space's memories (the spaces page links here). */
export function show(tag) {
  $("mem-tag").value = tag;
  mems.page = 1;
}

export function init() {
  $("mem-form").addEventListener("submit", (ev) => { ev.preventDefault(); mems.page = 1; load(); });
  $("mem-prev").addEventListener("click", () => { mems.page = Math.max(1, mems.page - 1); load(); });
  $("mem-next").addEventListener("click", () => { mems.page = Math.min(mems.pages, mems.page + 1); load(); });
}
