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

function show(signedIn, who) {
  $("sign-in").hidden = signedIn;
  $("overview").hidden = !signedIn;
  $("nav").hidden = !signedIn;
  if (signedIn) {
    $("who").textContent = who.scoped ? `${who.keyName} (${who.containerTag})` : who.keyName;
    overview();
  } else {
    $("api-key").focus();
  }
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

async function start() {
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
    show(false);
  });
  try {
    show(true, await api("GET", "/console-session"));
  } catch (e) {
    show(false);
  }
}

document.addEventListener("DOMContentLoaded", start);
