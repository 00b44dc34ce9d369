// The keys page: list, create (full or scoped with expiry and rate
// limit, shown once with a copy button), rename, revoke.
import { $, api, cell, button, when, guarded } from "./core.js";

export async function load() {
  const list = await guarded("keys-error", () => api("GET", "/v3/auth/keys"));
  const rows = $("key-rows");
  rows.replaceChildren();
  if (!list) return;
  for (const k of list.keys || []) {
    const tr = document.createElement("tr");
    cell(tr, k.name);
    cell(tr, when(k.createdAt));
    cell(tr, k.revokedAt ? `revoked ${when(k.revokedAt)}` : "active");
    const act = cell(tr, "");
    if (!k.revokedAt) {
      act.appendChild(button("Rename", "", `Rename ${k.name}`, async () => {
        const name = prompt("New name", k.name);
        if (!name || name === k.name) return;
        await guarded("keys-error", async () => {
          await api("PATCH", `/v3/auth/keys/${encodeURIComponent(k.id)}`, { name });
          await load();
        });
      }));
      act.appendChild(button("Revoke", "danger", `Revoke ${k.name}`, async () => {
        if (!confirm(`Revoke "${k.name}"? Requests with it will fail from now on.`)) return;
        await guarded("keys-error", async () => {
          await api("DELETE", `/v3/auth/keys/${encodeURIComponent(k.id)}`);
          await load();
        });
      }));
    }
    rows.appendChild(tr);
  }
}

async function createKey(ev) {
  ev.preventDefault();
  const name = $("key-name").value.trim();
  const tag = $("key-tag").value.trim();
  await guarded("key-error", async () => {
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
    $("copy-key").textContent = "Copy";
    $("key-form").reset();
    await load();
  });
}

/** Takes a shown key off the screen (on sign-out). */
export function forget() {
  $("new-key").hidden = true;
  $("new-key-value").textContent = "";
}

export function init() {
  $("key-form").addEventListener("submit", createKey);
  $("copy-key").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("new-key-value").textContent);
      $("copy-key").textContent = "Copied";
    } catch (e) {
      $("copy-key").textContent = "Select and copy";
    }
  });
}
