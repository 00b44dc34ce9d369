// What every page shares: the API call (the session cookie stands in for
// the key; every change carries the X-Engram-Console header, the server's
// CSRF guard) and small DOM helpers. No page logic here.

export const $ = (id) => document.getElementById(id);

/** Who is signed in (`/console-session`'s answer), for pages that differ for a scoped key. */
export const session = { who: null };

async function send(method, path, init) {
  init.method = method;
  init.credentials = "same-origin";
  init.headers = Object.assign({ "X-Engram-Console": "1" }, init.headers || {});
  const r = await fetch(path, init);
  const text = await r.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { details: text }; }
  if (!r.ok) {
    const e = new Error((data && (data.details || data.message || data.error)) || r.statusText);
    e.status = r.status;
    throw e;
  }
  return data;
}

/** A JSON request to the API. */
export function api(method, path, body) {
  const init = {};
  if (body !== undefined) {
    init.headers = { "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  return send(method, path, init);
}

/** A multipart upload (the browser sets the boundary). */
export function upload(path, form) {
  return send("POST", path, { body: form });
}

export function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

export function cell(row, text, cls) {
  const td = el("td", text, cls);
  row.appendChild(td);
  return td;
}

export function button(label, cls, aria, onClick) {
  const b = el("button", label, cls);
  b.type = "button";
  if (aria) b.setAttribute("aria-label", aria);
  b.addEventListener("click", onClick);
  return b;
}

export function listInto(id, items) {
  const ul = $(id);
  ul.replaceChildren();
  for (const t of items) ul.appendChild(el("li", t));
}

export function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "–";
}

/** Runs `fn`, showing what went wrong in the alert element `errId`. */
export async function guarded(errId, fn) {
  $(errId).textContent = "";
  try { return await fn(); } catch (e) { $(errId).textContent = e.message; return undefined; }
}

/** Whether a page is on screen (live updates stop when it is not). */
export const onScreen = (id) => !$(id).hidden;
