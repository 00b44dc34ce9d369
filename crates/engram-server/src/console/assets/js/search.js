// The search playground: /v4/search in each mode and /v3/search, a
// threshold slider, rerank and rewrite, scores shown; the tag's profile
// beside the results.
import { $, api, el, listInto } from "./core.js";

function result(score, kind, text, passages = []) {
  const li = el("li");
  li.append(el("span", Number(score).toFixed(3), "score"), el("span", kind, "kind"), document.createTextNode(text));
  // In hybrid mode a memory carries the passage it came from (`chunks`)
  // instead of that passage being listed again as a result of its own.
  for (const p of passages) {
    const q = el("blockquote", "", "carried");
    q.append(el("span", "passage", "kind"), document.createTextNode(p.content));
    li.appendChild(q);
  }
  return li;
}

async function search(ev) {
  ev.preventDefault();
  $("search-error").textContent = "";
  const q = $("search-q").value;
  const tag = $("search-tag").value.trim();
  const threshold = Number($("search-threshold").value);
  const [which, mode] = $("search-mode").value.split(":");
  const out = $("search-results");
  out.replaceChildren();
  try {
    let r;
    const flags = { rerank: $("search-rerank").checked, rewriteQuery: $("search-rewrite").checked };
    if (which === "v4") {
      const body = { q, threshold, searchMode: mode, ...flags };
      if (tag) body.containerTag = tag;
      r = await api("POST", "/v4/search", body);
      for (const x of r.results) {
        const kind = x.memory !== undefined ? "memory" : "passage";
        out.appendChild(result(x.similarity, kind, x.memory ?? x.chunk, x.chunks || []));
      }
    } else {
      const body = { q, chunkThreshold: threshold, ...flags };
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

export function load() {}

export function init() {
  $("search-form").addEventListener("submit", search);
  $("search-threshold").addEventListener("input", () => {
    $("threshold-value").textContent = Number($("search-threshold").value).toFixed(2);
  });
}
