"""Every connection method of the official supermemory Python SDK
(3.62.0), in strict mode, against Engram with an S3 connection to a real
S3-compatible server (the test starts it and fills the bucket): create,
list, get_by_id, get_by_tag, import_, list_documents, resources,
configure, delete_by_id and delete_by_provider."""
import os
import time

from supermemory import Supermemory

client = Supermemory(
    api_key=os.environ["ENGRAM_API_KEY"],
    base_url=os.environ["ENGRAM_URL"],
    _strict_response_validation=True,
    max_retries=0,
)
endpoint = os.environ["ENGRAM_S3_ENDPOINT"]
s3 = {
    "endpoint": endpoint,
    "region": "us-east-1",
    "bucket": "sdk-bucket",
    "prefix": "notes/",
    "accessKeyId": "AKIASDK",
    "secretAccessKey": "sdk-secret",
    "team": "sdk",
}

created = client.connections.create("s3", container_tag="sdk_s3", document_limit=50, metadata=s3)
assert created.id and created.expires_in, created
cid = created.id


def synced(after=None):
    deadline = time.time() + 60
    while time.time() < deadline:
        c = client.connections.get_by_id(cid)
        run = c.last_sync_run
        if run and run.status != "running" and run.completed_at and run.completed_at != after:
            return c
        time.sleep(0.1)
    raise AssertionError("the sync did not finish")


c = synced()
assert c.last_sync_run.status == "completed", c
assert c.provider == "s3" and c.container_tags == ["sdk_s3"], c
assert "secretAccessKey" not in (c.metadata or {}) and c.metadata["bucket"] == "sdk-bucket", c

listed = client.connections.list(container_tags=["sdk_s3"])
assert [x.id for x in listed] == [cid], listed
by_tag = client.connections.get_by_tag("s3", container_tags=["sdk_s3"])
assert by_tag.id == cid, by_tag

docs = client.connections.list_documents("s3", container_tags=["sdk_s3"])
assert len(docs) == 2, docs

answer = client.connections.import_("s3", container_tags=["sdk_s3"])
assert isinstance(answer, str) and answer, answer
c = synced(c.last_sync_run.completed_at)

res = client.connections.resources(cid, page=1, per_page=10)
names = [r["id"] for r in res.resources]
assert names == ["notes/deep/"], res
done = client.connections.configure(cid, resources=[{"id": "notes/deep/"}])
assert done.success, done
c = synced(c.last_sync_run.completed_at)
docs = client.connections.list_documents("s3", container_tags=["sdk_s3"])
assert len(docs) == 1, docs

gone = client.connections.delete_by_id(cid, delete_documents="true")
assert [g.id for g in gone] == [cid], gone

second = client.connections.create("web-crawler", container_tags=["sdk_web"], metadata={"startUrl": endpoint + "/"})
removed = client.connections.delete_by_provider("web-crawler", container_tags=["sdk_web"])
assert [r.id for r in removed] == [second.id], removed

print("SDK CONNECTIONS OK")
