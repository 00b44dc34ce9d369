"""Drive Engram with the official supermemory Python SDK (3.62.0) in strict
mode (every response is validated against the SDK's schema): add, get,
list, search, delete."""
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

print("SDK OK")
