"""Drive Engram with the official supermemory Python SDK (3.62.0) in strict
mode (every response is validated against the SDK's schema): add, batch
add, get, update, list, list processing, delete, v3 and v4 search,
memories update and forget, profile, settings, and container tags (which
the SDK has no typed resource for: reached through its generic
`client.get/patch`)."""
import os
import sys
import time

from supermemory import Supermemory

client = Supermemory(
    api_key=os.environ["ENGRAM_API_KEY"],
    base_url=os.environ["ENGRAM_URL"],
    _strict_response_validation=True,
    max_retries=0,
)

added = client.add(
    content="Engram keeps memories for AI applications. The SDK test wrote this.",
    container_tag="sdk_user",
    custom_id="sdk-doc-1",
    metadata={"source": "sdk", "n": 1},
)
assert added.id and added.status == "queued", added

deadline = time.time() + 60
while True:
    doc = client.documents.get(added.id)
    if doc.status in ("done", "failed"):
        break
    if time.time() > deadline:
        sys.exit(f"document stuck in {doc.status}")
    time.sleep(0.1)
assert doc.status == "done", doc
assert doc.custom_id == "sdk-doc-1", doc
assert "Engram keeps memories" in (doc.content or ""), doc

listed = client.documents.list(container_tags=["sdk_user"], limit=10, page=1)
assert listed.pagination.total_items == 1, listed
assert listed.memories[0].id == added.id, listed

found = client.search.documents(q="memories for AI applications", container_tags=["sdk_user"], limit=5)
assert found.total >= 1 and found.results[0].document_id == added.id, found
assert 0.0 < found.results[0].score <= 1.0, found
assert found.results[0].chunks[0].is_relevant, found

by_custom = client.documents.get("sdk-doc-1")
assert by_custom.id == added.id

client.documents.delete(added.id)
try:
    client.documents.get(added.id)
    sys.exit("document still there after delete")
except Exception as e:  # NotFoundError
    assert getattr(e, "status_code", None) == 404, e

# batch add, processing list, update
batch = client.documents.batch_add(
    documents=[
        {"content": "user: I moved to Lisbon in 2021.", "custom_id": "sdk-b1"},
        {"content": "user: I work as a nurse at the city hospital.", "custom_id": "sdk-b2"},
    ],
    container_tag="sdk_ana",
)
ids = [r.id for r in batch.results]
assert len(ids) == 2 and all(ids), batch
processing = client.documents.list_processing()
assert processing.total_count >= 0, processing


def wait(doc_id):
    deadline = time.time() + 60
    while True:
        d = client.documents.get(doc_id)
        if d.status in ("done", "failed") and getattr(d, "dreaming_status", "done") in (None, "done"):
            return d
        if time.time() > deadline:
            sys.exit(f"document stuck in {d.status}")
        time.sleep(0.1)


for i in ids:
    assert wait(i).status == "done"
updated = client.documents.update(ids[1], content="user: I work as a nurse at the children's hospital.")
assert updated.id == ids[1], updated
assert wait(ids[1]).status == "done"

# v4: memories, search, update, forget, profile
found = client.search.memories(q="Where does the user live?", container_tag="sdk_ana", threshold=0)
texts = [r.memory for r in found.results if r.memory]
assert any("Lisbon" in t for t in texts), found
hybrid = client.search.memories(
    q="hospital", container_tag="sdk_ana", threshold=0, search_mode="hybrid", rerank=True
)
assert hybrid.results, hybrid
lisbon = next(t for t in texts if "Lisbon" in t)
new_version = client.memories.update_memory(
    container_tag="sdk_ana", content=lisbon, new_content="The user moved to Porto in 2024."
)
assert new_version.id, new_version
forgot = client.memories.forget(container_tag="sdk_ana", content="The user moved to Porto in 2024.")
assert forgot.id, forgot
profile = client.profile(container_tag="sdk_ana", q="work")
assert profile.profile is not None, profile

# settings
changed = client.settings.update(chunk_size=300, github_client_secret="write-only")
assert changed.org_id, changed
settings = client.settings.get()
assert settings.chunk_size == 300, settings
assert settings.github_client_secret != "write-only", settings

# container tags: no typed resource in this SDK version
tags = client.get("/v3/container-tags/list", cast_to=object)
assert any(t["containerTag"] == "sdk_ana" for t in tags), tags
client.patch("/v3/container-tags/sdk_ana", cast_to=object, body={"name": "Ana"})
got = client.get("/v3/container-tags/sdk_ana", cast_to=object)
assert got["name"] == "Ana", got

print("SDK OK")
