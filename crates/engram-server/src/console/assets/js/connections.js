// The connections page: connect a source (OAuth providers send the
// browser to the provider and back to the console; the web crawler and
// S3 start at once), each connection's last sync and its state live,
// sync now, its documents, remove (optionally with its documents).
import { $, api, el, cell, button, when, guarded, onScreen } from "./core.js";

// the provider's own fields, beyond the space and the document limit
const FIELDS = {
  "web-crawler": [["startUrl", "Start URL", "url", true]],
  s3: [["bucket", "Bucket", "text", true], ["prefix", "Prefix", "text"], ["region", "Region", "text"],
       ["endpoint", "Endpoint (S3-compatible servers)", "url"], ["accessKeyId", "Access key id", "text"],
       ["secretAccessKey", "Secret access key", "password"]],
  github: [], notion: [], "google-drive": [], onedrive: [], gmail: [],
};
const OAUTH = ["github", "notion", "google-drive", "onedrive", "gmail"];
let timer = null;

function fields() {
  const box = $("conn-fields");
  box.replaceChildren();
  for (const [key, label, type, required] of FIELDS[$("conn-provider").value] || []) {
    const l = el("label", label);
    l.htmlFor = `conn-${key}`;
    const i = el("input");
    i.id = `conn-${key}`;
    i.type = type;
    i.dataset.key = key;
    i.required = !!required;
    i.autocomplete = "off";
    box.append(l, i);
  }
}

function state(c) {
  const r = c.lastSyncRun;
  if (!r) return ["waiting for its first sync", "queued"];
  if (r.status === "failed") return [`failed: ${r.error || r.errorCode}`, "failed"];
  if (r.status === "running" || r.status === "queued") return [`${r.status} since ${when(r.startedAt)}`, "queued"];
  return [`${r.status} ${when(r.completedAt)}`, "done"];
}

export async function load() {
  clearTimeout(timer);
  const list = await guarded("connections-error", () => api("POST", "/v3/connections/list", {}));
  const rows = $("conn-rows");
  rows.replaceChildren();
  if (!list) return;
  let busy = false;
  for (const c of list) {
    const tr = document.createElement("tr");
    cell(tr, c.provider);
    cell(tr, (c.containerTags || []).join(", "));
    cell(tr, c.metadata && (c.metadata.startUrl || c.metadata.bucket) || c.email || "");
    const [said, cls] = state(c);
    busy = busy || cls === "queued";
    cell(tr, "").appendChild(el("span", said, `status ${cls}`));
    const act = cell(tr, "");
    const tags = c.containerTags || [];
    act.appendChild(button("Sync now", "", `Sync ${c.provider} now`, () => guarded("connections-error", async () => {
      await api("POST", `/v3/connections/${encodeURIComponent(c.provider)}/import`, { containerTags: tags });
      $("connections-said").textContent = `Syncing ${c.provider}.`;
      setTimeout(load, 500);
    })));
    act.appendChild(button("Documents", "", `Documents of ${c.provider}`, () => guarded("connections-error", async () => {
      const docs = await api("POST", `/v3/connections/${encodeURIComponent(c.provider)}/documents`, { containerTags: tags });
      const ul = $("conn-docs");
      ul.replaceChildren();
      for (const d of docs) ul.appendChild(el("li", `${d.title || d.id} (${d.status})`));
      if (!docs.length) ul.appendChild(el("li", "No documents from it yet."));
      $("conn-docs-title").textContent = `Documents from ${c.provider}`;
    })));
    act.appendChild(button("Remove", "danger", `Remove ${c.provider}`, () => guarded("connections-error", async () => {
      if (!confirm(`Remove the ${c.provider} connection? Nothing more will sync from it.`)) return;
      const withDocs = confirm("Delete the documents it brought in too? (Cancel keeps them.)");
      await api("DELETE", `/v3/connections/${encodeURIComponent(c.id)}?deleteDocuments=${withDocs}`);
      $("connections-said").textContent = `Removed ${c.provider}${withDocs ? " and its documents" : ""}.`;
      await load();
    })));
    rows.appendChild(tr);
  }
  $("conn-empty").hidden = list.length > 0;
  if (busy && onScreen("connections-page")) timer = setTimeout(load, 1500);
}

async function connect(ev) {
  ev.preventDefault();
  const provider = $("conn-provider").value;
  const body = { containerTag: $("conn-tag").value.trim() };
  // OAuth providers send the browser to the provider and back here
  if (OAUTH.includes(provider)) body.redirectUrl = `${location.origin}/console`;
  if ($("conn-limit").value) body.documentLimit = Number($("conn-limit").value);
  const metadata = {};
  for (const i of $("conn-fields").querySelectorAll("input")) if (i.value.trim()) metadata[i.dataset.key] = i.value.trim();
  if (Object.keys(metadata).length) body.metadata = metadata;
  await guarded("conn-error", async () => {
    const made = await api("POST", `/v3/connections/${encodeURIComponent(provider)}`, body);
    if (made.authLink) { location.assign(made.authLink); return; }
    $("conn-form").reset();
    fields();
    $("connections-said").textContent = `Connected ${provider}: its first sync has started.`;
    await load();
  });
}

/** What the provider's redirect back to the console says, if it is one. */
export function returned() {
  const q = new URLSearchParams(location.search);
  if (!q.has("connectionId") && !q.has("status")) return false;
  const ok = q.get("status") === "success";
  history.replaceState(null, "", "/console#/connections");
  $("connections-said").textContent = ok ? `Connected ${q.get("provider") || ""}: its first sync has started.`
    : `The provider said no: ${q.get("error") || "unknown error"}.`;
  return true;
}

export function init() {
  fields();
  $("conn-provider").addEventListener("change", fields);
  $("conn-form").addEventListener("submit", connect);
}
