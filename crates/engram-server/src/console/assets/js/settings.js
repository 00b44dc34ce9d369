// The settings page: every organisation setting and each connector's
// OAuth client; secrets are write-only (a placeholder says whether one
// is set, the value never comes back).
import { $, api, el, guarded } from "./core.js";

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
      const l = el("label", `${label} ${what}`);
      l.htmlFor = `set-${key}`;
      const i = el("input");
      i.id = `set-${key}`;
      i.type = type;
      i.autocomplete = "off";
      box.append(l, i);
    }
  }
}

export async function load() {
  connectorFields();
  $("settings-saved").textContent = "";
  const got = await guarded("settings-error", () => api("GET", "/v3/settings"));
  if (!got) return;
  loaded = got;
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

async function save(ev) {
  ev.preventDefault();
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
  await guarded("settings-error", async () => {
    await api("PATCH", "/v3/settings", changes);
    await load();
    $("settings-saved").textContent = `Saved: ${Object.keys(changes).join(", ")}.`;
  });
}

export function init() {
  $("settings-form").addEventListener("submit", save);
}
