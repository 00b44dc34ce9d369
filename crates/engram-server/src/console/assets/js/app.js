// The Engram console's shell: sign-in and sign-out, and the hash router
// that shows one page at a time and loads it. Each page is its own
// module with `init()` (wire its controls, once) and `load()` (fetch and
// draw); they all talk to the same API as every client.
import { $, api, session } from "./core.js";
import * as overview from "./overview.js";
import * as documents from "./documents.js";
import * as memories from "./memories.js";
import * as graph from "./graph.js";
import * as search from "./search.js";
import * as spaces from "./spaces.js";
import * as connections from "./connections.js";
import * as logs from "./logs.js";
import * as keys from "./keys.js";
import * as settings from "./settings.js";

const PAGES = {
  "/": ["overview", overview],
  "/documents": ["documents-page", documents],
  "/memories": ["memories-page", memories],
  "/graph": ["graph-page", graph],
  "/search": ["search-page", search],
  "/spaces": ["spaces-page", spaces],
  "/connections": ["connections-page", connections],
  "/logs": ["logs-page", logs],
  "/keys": ["keys-page", keys],
  "/settings": ["settings-page", settings],
};
// what a key scoped to one space cannot use: no page that would only refuse
const FULL_KEY_ONLY = ["link-keys", "link-settings", "link-connections", "link-logs", "link-spaces"];

let signedIn = false;
let who = null;

function show(on, identity) {
  signedIn = on;
  who = identity || null;
  session.who = who;
  $("sign-in").hidden = on;
  $("nav").hidden = !on;
  if (on) {
    $("who").textContent = who.scoped ? `${who.keyName} (${who.containerTag})` : who.keyName;
    for (const id of FULL_KEY_ONLY) $(id).hidden = !!who.scoped;
    if (who.scoped) {
      // a scoped key reaches one space: fill it in wherever a tag is asked
      for (const id of ["mem-tag", "graph-tag", "search-tag", "add-tag", "filter-tag"]) $(id).value = who.containerTag;
    }
    route();
  } else {
    for (const [id] of Object.values(PAGES)) $(id).hidden = true;
    keys.forget();
    $("api-key").focus();
  }
}

function route() {
  if (!signedIn) return;
  let path = (location.hash || "#/").slice(1);
  if (!PAGES[path] || (who.scoped && FULL_KEY_ONLY.includes(`link-${path.slice(1)}`))) path = "/";
  const [id, page] = PAGES[path];
  for (const [other] of Object.values(PAGES)) $(other).hidden = other !== id;
  for (const a of document.querySelectorAll("nav a")) {
    if (a.getAttribute("href") === `#${path}`) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const h = $(id).querySelector("h2");
  if (h && document.activeElement && document.activeElement.closest("nav")) h.focus();
  page.load();
}

async function start() {
  for (const [, page] of Object.values(PAGES)) page.init();
  window.addEventListener("hashchange", route);
  if (connections.returned()) location.hash = "#/connections";
  $("sign-in-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("sign-in-error").textContent = "";
    try {
      const me = await api("POST", "/console-session", { apiKey: $("api-key").value });
      $("api-key").value = "";
      show(true, me);
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

start();
