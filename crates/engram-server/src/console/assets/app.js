// The Engram console. Talks to the same API as every client, with the
// session cookie standing in for the key; every change carries the
// X-Engram-Console header (the server's CSRF guard).
"use strict";

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const init = { method, headers: { "X-Engram-Console": "1" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  const text = await r.text();
  const data = text ? JSON.parse(text) : null;
  if (!r.ok) {
    const e = new Error((data && (data.details || data.message || data.error)) || r.statusText);
    e.status = r.status;
    throw e;
  }
  return data;
}

let signedIn = false;
const PAGES = {
  "/": ["overview", overview],
  "/documents": ["documents-page", documents],
  "/memories": ["memories-page", memories],
  "/search": ["search-page", () => {}],
  "/keys": ["keys-page", keys],
  "/settings": ["settings-page", settings],
};

function show(on, who) {
  signedIn = on;
  $("sign-in").hidden = on;
  $("nav").hidden = !on;
  if (on) {
    $("who").textContent = who.scoped ? `${who.keyName} (${who.containerTag})` : who.keyName;
    // a scoped key cannot manage keys: no page that would only say so
    $("link-keys").hidden = !!who.scoped;
    $("link-settings").hidden = !!who.scoped;
    route();
  } else {
    for (const [id] of Object.values(PAGES)) $(id).hidden = true;
    $("new-key").hidden = true;
    $("new-key-value").textContent = "";
    $("api-key").focus();
  }
}

function route() {
  if (!signedIn) return;
  const path = (location.hash || "#/").slice(1);
  const [id, load] = PAGES[path] || PAGES["/"];
  for (const [other] of Object.values(PAGES)) $(other).hidden = other !== id;
  for (const a of document.querySelectorAll("nav a")) {
    if (a.getAttribute("href") === `#${path}`) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  load();
}

// ---- documents

const docs = { page: 1, pages: 1, tag: "", timer: null };

function cell(row, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  row.appendChild(td);
  return td;
}

async function documents() {
  clearTimeout(docs.timer);
  $("documents-error").textContent = "";
  const body = { limit: 20, page: docs.page, sort: "createdAt", order: "desc" };
  if (docs.tag) body.containerTags = [docs.tag];
  let list;
  try {
    list = await api("POST", "/v3/documents/list", body);
  } catch (e) {
    $("documents-error").textContent = e.message;
    return;
  }
  const rows = $("doc-rows");
  rows.replaceChildren();
  let busy = false;
  for (const d of list.memories || []) {
    const tr = document.createElement("tr");
    cell(tr, d.title || d.summary || d.url || d.id, "doc");
    cell(tr, d.type || "");
    const st = cell(tr, "");
    const badge = document.createElement("span");
    badge.className = `status ${d.status}`;
    badge.textContent = d.status;
    st.appendChild(badge);
    busy = busy || !["done", "failed"].includes(d.status);
    cell(tr, (d.containerTags || []).join(", "));
    cell(tr, new Date(d.createdAt).toLocaleString());
    const act = cell(tr, "");
    const del = document.createElement("button");
    del.type = "button";
    del.className = "danger";
    del.textContent = "Delete";
    del.setAttribute("aria-label", `Delete ${d.title || d.id}`);
    del.addEventListener("click", async () => {
      if (!confirm("Delete this document and the memories only it supports?")) return;
      try {
        await api("DELETE", `/v3/documents/${encodeURIComponent(d.id)}`);
        documents();
      } catch (e) { $("documents-error").textContent = e.message; }
    });
    act.appendChild(del);
    rows.appendChild(tr);
  }
  const p = list.pagination || { currentPage: 1, totalPages: 1 };
  docs.pages = Math.max(1, p.totalPages);
  $("doc-empty").hidden = (list.memories || []).length > 0;
  $("page-of").textContent = `page ${p.currentPage} of ${docs.pages}`;
  $("prev").disabled = docs.page <= 1;
  $("next").disabled = docs.page >= docs.pages;
  // the pipeline's progress, live, while anything is still being processed
  if (busy && !$("documents-page").hidden) docs.timer = setTimeout(documents, 1500);
}

async function overview() {
  $("overview-error").textContent = "";
  const put = (id, v) => { $(id).textContent = v === undefined || v === null ? "–" : String(v); };
  try {
    const docs = await api("POST", "/v3/documents/list", { limit: 1 });
    put("documents", docs.pagination && docs.pagination.totalItems);
  } catch (e) { put("documents"); $("overview-error").textContent = e.message; }
  try {
    const usage = await api("GET", "/v3/analytics/usage?period=24h");
    put("memories", usage.totalMemories);
    put("requests", (usage.hourly || []).reduce((n, h) => n + h.count, 0));
  } catch (e) { put("memories"); put("requests"); }
}

// ---- memories

const mems = { page: 1, pages: 1 };

async function memories() {
  $("memories-error").textContent = "";
  const tag = $("mem-tag").value.trim();
  const ul = $("mem-list");
  if (!tag) { ul.replaceChildren(); return; }
  let list;
  try {
    list = await api("POST", "/v4/memories/list", { containerTag: tag, limit: 20, page: mems.page });
  } catch (e) { $("memories-error").textContent = e.message; return; }
  ul.replaceChildren();
  for (const m of list.memoryEntries || []) {
    const li = document.createElement("li");
    const p = document.createElement("p");
    p.textContent = m.memory;
    const meta = document.createElement("p");
    meta.className = "meta";
    meta.textContent = [`version ${m.version}`, m.isStatic ? "static" : "dynamic",
      `${m.sourceCount} source${m.sourceCount === 1 ? "" : "s"}`,
      m.forgetAfter ? `forgotten after ${m.forgetAfter}` : null].filter(Boolean).join(" · ");
    li.append(p, meta);
    for (const h of m.history || []) {
      const old = document.createElement("p");
      old.className = "old";
      old.textContent = `v${h.version}: ${h.memory}`;
      old.title = "an earlier version, superseded";
      li.appendChild(old);
    }
    li.appendChild(button("Edit", "", `Edit: ${m.memory}`, async () => {
      const next = prompt("The new version of this memory", m.memory);
      if (!next || next === m.memory) return;
      try { await api("PATCH", "/v4/memories", { id: m.id, containerTag: tag, newContent: next }); memories(); }
      catch (e) { $("memories-error").textContent = e.message; }
    }));
    li.appendChild(button("Forget", "danger", `Forget: ${m.memory}`, async () => {
      if (!confirm("Forget this memory? It stops appearing in search and profiles.")) return;
      try { await api("DELETE", "/v4/memories", { id: m.id, containerTag: tag, reason: "forgotten in the console" }); memories(); }
      catch (e) { $("memories-error").textContent = e.message; }
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

// ---- search playground

function result(score, kind, text) {
  const li = document.createElement("li");
  const sc = document.createElement("span");
  sc.className = "score";
  sc.textContent = Number(score).toFixed(3);
  const k = document.createElement("span");
  k.className = "kind";
  k.textContent = kind;
  li.append(sc, k, document.createTextNode(text));
  return li;
}

function listInto(id, items) {
  const ul = $(id);
  ul.replaceChildren();
  for (const t of items) {
    const li = document.createElement("li");
    li.textContent = t;
    ul.appendChild(li);
  }
}

async function search(ev) {
  ev.preventDefault();
  $("search-error").textContent = "";
  const q = $("search-q").value;
  const tag = $("search-tag").value.trim();
  const threshold = Number($("search-threshold").value);
  const [api_, mode] = $("search-mode").value.split(":");
  const out = $("search-results");
  out.replaceChildren();
  try {
    let r;
    if (api_ === "v4") {
      const body = { q, threshold, searchMode: mode, rerank: $("search-rerank").checked,
                     rewriteQuery: $("search-rewrite").checked };
      if (tag) body.containerTag = tag;
      r = await api("POST", "/v4/search", body);
      for (const x of r.results) {
        out.appendChild(result(x.similarity, x.memory !== undefined ? "memory" : "passage", x.memory ?? x.chunk));
      }
    } else {
      const body = { q, chunkThreshold: threshold, rerank: $("search-rerank").checked,
                     rewriteQuery: $("search-rewrite").checked };
      if (tag) body.containerTags = [tag];
      r = await api("POST", "/v3/search", body);
      for (const x of r.results) {
        const best = (x.chunks || []).find((c) => c.isRelevant) || {};
        out.appendChild(result(x.score, x.title || x.documentId, best.content || ""));
      }
    }
    $("search-meta").textContent = `(${r.results.length} in ${Number(r.timing).toFixed(1)} ms)`;
    if (!r.results.length) $("search-error").textContent = "Nothing above the threshold.";
  } catch (e) { $("search-error").textContent = e.message; }
  if (tag) {
    try {
      const p = await api("POST", "/v4/profile", { containerTag: tag });
      listInto("profile-static", p.profile.static);
      listInto("profile-dynamic", p.profile.dynamic);
    } catch (e) { listInto("profile-static", []); listInto("profile-dynamic", []); }
  } else {
    listInto("profile-static", ["(choose a container tag)"]);
    listInto("profile-dynamic", []);
  }
}

// ---- settings

const CONNECTORS = [["github", "GitHub"], ["notion", "Notion"], ["googleDrive", "Google (Drive and Gmail)"], ["onedrive", "OneDrive"]];
const TEXTS = ["chunkSize", "workspacePrompt", "filterPrompt"];
const LISTS = ["includeItems", "excludeItems"];
let loaded = {};

function connectorFields() {
  const box = $("connector-fields");
  if (box.children.length) return;
  for (const [id, label] of CONNECTORS) {
    for (const [suffix, what, type] of [["ClientId", "client id", "text"], ["ClientSecret", "client secret", "password"]]) {
      const key = `${id}${suffix}`;
      const l = document.createElement("label");
      l.htmlFor = `set-${key}`;
      l.textContent = `${label} ${what}`;
      const i = document.createElement("input");
      i.id = `set-${key}`;
      i.type = type;
      i.autocomplete = "off";
      box.append(l, i);
    }
  }
}

async function settings() {
  connectorFields();
  $("settings-error").textContent = "";
  $("settings-saved").textContent = "";
  try { loaded = await api("GET", "/v3/settings"); }
  catch (e) { $("settings-error").textContent = e.message; return; }
  for (const k of TEXTS) $(`set-${k}`).value = loaded[k] ?? "";
  for (const k of LISTS) $(`set-${k}`).value = (loaded[k] || []).join(", ");
  $("set-shouldLLMFilter").checked = !!loaded.shouldLLMFilter;
  for (const [id] of CONNECTORS) {
    $(`set-${id}ClientId`).value = loaded[`${id}ClientId`] ?? "";
    const secret = $(`set-${id}ClientSecret`);
    secret.value = "";
    secret.placeholder = loaded[`${id}ClientSecret`] ? "set (hidden)" : "not set";
  }
}

async function saveSettings(ev) {
  ev.preventDefault();
  $("settings-error").textContent = "";
  $("settings-saved").textContent = "";
  const changes = {};
  const differs = (k, v) => { if (JSON.stringify(loaded[k] ?? null) !== JSON.stringify(v)) changes[k] = v; };
  const size = $("set-chunkSize").value.trim();
  differs("chunkSize", size === "" ? null : Number(size));
  for (const k of ["workspacePrompt", "filterPrompt"]) differs(k, $(`set-${k}`).value.trim() || null);
  for (const k of LISTS) {
    const items = $(`set-${k}`).value.split(",").map((x) => x.trim()).filter(Boolean);
    differs(k, items.length ? items : null);
  }
  differs("shouldLLMFilter", $("set-shouldLLMFilter").checked);
  for (const [id] of CONNECTORS) {
    differs(`${id}ClientId`, $(`set-${id}ClientId`).value.trim() || null);
    const secret = $(`set-${id}ClientSecret`).value;
    if (secret) changes[`${id}ClientSecret`] = secret;
  }
  if (!Object.keys(changes).length) { $("settings-saved").textContent = "Nothing changed."; return; }
  try {
    await api("PATCH", "/v3/settings", changes);
    await settings();
    $("settings-saved").textContent = `Saved: ${Object.keys(changes).join(", ")}.`;
  } catch (e) { $("settings-error").textContent = e.message; }
}

// ---- keys

function button(label, cls, aria, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (cls) b.className = cls;
  b.setAttribute("aria-label", aria);
  b.addEventListener("click", onClick);
  return b;
}

async function keys() {
  $("keys-error").textContent = "";
  let list;
  try {
    list = await api("GET", "/v3/auth/keys");
  } catch (e) {
    $("keys-error").textContent = e.message;
    $("key-rows").replaceChildren();
    return;
  }
  const rows = $("key-rows");
  rows.replaceChildren();
  for (const k of list.keys || []) {
    const tr = document.createElement("tr");
    cell(tr, k.name);
    cell(tr, new Date(k.createdAt).toLocaleString());
    cell(tr, k.revokedAt ? `revoked ${new Date(k.revokedAt).toLocaleString()}` : "active");
    const act = cell(tr, "");
    if (!k.revokedAt) {
      act.appendChild(button("Rename", "", `Rename ${k.name}`, async () => {
        const name = prompt("New name", k.name);
        if (!name || name === k.name) return;
        try { await api("PATCH", `/v3/auth/keys/${encodeURIComponent(k.id)}`, { name }); keys(); }
        catch (e) { $("keys-error").textContent = e.message; }
      }));
      act.appendChild(button("Revoke", "danger", `Revoke ${k.name}`, async () => {
        if (!confirm(`Revoke "${k.name}"? Requests with it will fail from now on.`)) return;
        try { await api("DELETE", `/v3/auth/keys/${encodeURIComponent(k.id)}`); keys(); }
        catch (e) { $("keys-error").textContent = e.message; }
      }));
    }
    rows.appendChild(tr);
  }
}

async function createKey(ev) {
  ev.preventDefault();
  $("key-error").textContent = "";
  const name = $("key-name").value.trim();
  const tag = $("key-tag").value.trim();
  try {
    let made;
    if (tag) {
      const body = { name, containerTag: tag };
      if ($("key-hours").value) body.expiresIn = Number($("key-hours").value) * 3600;
      if ($("key-rate").value) body.rateLimit = Number($("key-rate").value);
      made = await api("POST", "/v3/auth/scoped-key", body);
    } else {
      made = await api("POST", "/v3/auth/keys", { name });
    }
    $("new-key-value").textContent = made.key;
    $("new-key").hidden = false;
    $("key-form").reset();
    keys();
  } catch (e) { $("key-error").textContent = e.message; }
}

async function start() {
  $("settings-form").addEventListener("submit", saveSettings);
  $("mem-form").addEventListener("submit", (ev) => { ev.preventDefault(); mems.page = 1; memories(); });
  $("mem-prev").addEventListener("click", () => { mems.page = Math.max(1, mems.page - 1); memories(); });
  $("mem-next").addEventListener("click", () => { mems.page = Math.min(mems.pages, mems.page + 1); memories(); });
  $("search-form").addEventListener("submit", search);
  $("search-threshold").addEventListener("input", () => {
    $("threshold-value").textContent = Number($("search-threshold").value).toFixed(2);
  });
  $("key-form").addEventListener("submit", createKey);
  $("copy-key").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("new-key-value").textContent);
      $("copy-key").textContent = "Copied";
    } catch (e) {
      $("copy-key").textContent = "Select and copy";
    }
  });
  window.addEventListener("hashchange", route);
  $("add-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("add-error").textContent = "";
    const body = { content: $("add-content").value };
    if ($("add-tag").value.trim()) body.containerTag = $("add-tag").value.trim();
    try {
      await api("POST", "/v3/documents", body);
      $("add-content").value = "";
      docs.page = 1;
      documents();
    } catch (e) { $("add-error").textContent = e.message; }
  });
  $("filter-apply").addEventListener("click", () => {
    docs.tag = $("filter-tag").value.trim();
    docs.page = 1;
    documents();
  });
  $("prev").addEventListener("click", () => { docs.page = Math.max(1, docs.page - 1); documents(); });
  $("next").addEventListener("click", () => { docs.page = Math.min(docs.pages, docs.page + 1); documents(); });
  $("sign-in-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("sign-in-error").textContent = "";
    try {
      const who = await api("POST", "/console-session", { apiKey: $("api-key").value });
      $("api-key").value = "";
      show(true, who);
    } catch (e) {
      $("sign-in-error").textContent = e.message;
    }
  });
  $("sign-out").addEventListener("click", async () => {
    await api("DELETE", "/console-session").catch(() => {});
    location.hash = "#/";
    show(false);
  });
  try {
    show(true, await api("GET", "/console-session"));
  } catch (e) {
    show(false);
  }
}

document.addEventListener("DOMContentLoaded", start);
