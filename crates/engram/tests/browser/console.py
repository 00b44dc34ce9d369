"""The console in a real browser: headless Chromium driven over the
DevTools protocol against a live `engram serve`.

    python3 console.py BASE_URL API_KEY SCREENSHOT_DIR [--site PORT]

Checks what a person sees: `/` leads to the sign-in page; a bad key is
refused with the API's message; a good key shows the overview with real
numbers; the session cookie is invisible to scripts; the page fits a
phone; a text added on the documents page appears, reaches `done` and can
be deleted; the README's question finds its answer with its score and the
tag's profile beside it; a memory is edited into a new version (the old
one kept in its history) and forgotten; a key is created (shown once),
renamed and revoked on the keys page; a setting and a connector secret are
saved, the secret never shown back; a file is uploaded through the file input and reaches `done`; the graph draws Ada's nodes and a
synthetic one of 2 000 (its layout and frame times are printed); a space
is edited, merged and deleted; a web site is connected, synced and
removed; the request logs show a search with its input; the overview's
charts are drawn from the traffic; a scoped key sees its space but not
keys or settings; the pages are reached with the keyboard; signing out
returns to sign-in. Saves a screenshot of each step.
Exits non-zero on the first thing that is not so.
"""

import asyncio
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

BASE, KEY, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
# with --site PORT, a small web site for the connections page to crawl and
# a GitHub stand-in are served there (the server must be allowed to fetch
# private addresses, and have ENGRAM_CONNECTOR_GITHUB_URL point there)
SITE = None


def serve_site(port):
    """A small web site for the crawler, and a stand-in for GitHub's OAuth
    and REST endpoints (as GitHub Enterprise at this address) for the
    OAuth round trip: authorize sends the browser straight back with a
    code, as GitHub does once the user approves."""
    import http.server
    import threading
    import urllib.parse
    root = tempfile.mkdtemp()
    pages = {
        "index.html": "<html><head><title>Beekeeping notes</title></head><body><h1>Beekeeping notes</h1>"
                      "<p>Ravi keeps bees on his rooftop in Leeds.</p><a href='bees.html'>Bees</a></body></html>",
        "bees.html": "<html><head><title>Bees in winter</title></head><body><h1>Bees in winter</h1>"
                     "<p>Bees cluster to keep the queen warm through the winter.</p></body></html>",
    }
    for name, html in pages.items():
        with open(os.path.join(root, name), "w") as f:
            f.write(html)

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=root, **k)

        def log_message(self, *a):
            pass

        def answer(self, value):
            body = json.dumps(value).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            url = urllib.parse.urlparse(self.path)
            q = dict(urllib.parse.parse_qsl(url.query))
            if url.path == "/login/oauth/authorize":
                assert q.get("client_id") == "console-client", q
                back = f"{q['redirect_uri']}?{urllib.parse.urlencode({'code': 'c0de', 'state': q['state']})}"
                self.send_response(302)
                self.send_header("Location", back)
                self.end_headers()
            elif url.path == "/api/v3/user":
                self.answer({"login": "octo", "email": "octo@example.com"})
            elif url.path == "/api/v3/user/repos":
                self.answer([])
            else:
                super().do_GET()

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path.startswith("/login/oauth/access_token"):
                self.answer({"access_token": "gho_console", "token_type": "bearer", "scope": "repo"})
            else:
                self.send_error(404)

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}/"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Page:
    def __init__(self, ws):
        self.ws, self.n = ws, 0

    async def call(self, method, **params):
        self.n += 1
        await self.ws.send(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            m = json.loads(await self.ws.recv())
            if m.get("id") == self.n:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})

    async def js(self, expr):
        r = await self.call("Runtime.evaluate", expression=expr, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r.get("result", {}).get("value")

    async def until(self, expr, what, seconds=15):
        deadline = time.time() + seconds
        error = None
        while time.time() < deadline:
            # while the page is away (a redirect to a provider and back) the
            # elements asked about are not there yet: that is "not yet"
            try:
                if await self.js(expr):
                    return
                error = None
            except RuntimeError as e:
                error = e
            await asyncio.sleep(0.1)
        if error is not None:
            raise AssertionError(f"timed out waiting for {what}: {error}")
        alerts = await self.js(
            "[...document.querySelectorAll('[role=alert]')].map(a => a.id + ': ' + a.textContent)"
            ".filter(t => !t.endsWith(': ')).join('; ')")
        raise AssertionError(f"timed out waiting for {what} (the page says: {alerts or 'nothing'})")

    async def fill(self, form, values):
        """Sets the fields (id → value) and submits the form, as a person would."""
        sets = "".join(f"document.getElementById({json.dumps(k)}).value = {json.dumps(v)};" for k, v in values.items())
        await self.js(f"{sets} document.getElementById({json.dumps(form)}).requestSubmit(); true")

    async def key(self, key, code=None, vk=0, text=None):
        for kind in ("keyDown", "keyUp"):
            await self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code or key,
                            windowsVirtualKeyCode=vk, **({"text": text} if text and kind == "keyDown" else {}))

    async def shot(self, name):
        r = await self.call("Page.captureScreenshot", format="png")
        with open(os.path.join(OUT, f"{name}.png"), "wb") as f:
            f.write(base64.b64decode(r["data"]))


async def run(page):
    # what is drawn, not what the attribute says (a CSS rule can undo it)
    visible = lambda id: f"document.getElementById('{id}').getClientRects().length > 0"
    text = lambda id: f"document.getElementById('{id}').textContent"
    await page.call("Page.enable")
    await page.call("Page.navigate", url=f"{BASE}/")
    await page.until("document.readyState === 'complete' && !!document.getElementById('sign-in')", "the page")
    assert await page.js("location.pathname") == "/console", "/ leads to the console"
    await page.until(visible("sign-in"), "the sign-in form")
    assert not await page.js(visible("nav")), "no sign-out before signing in"
    paint = await page.js("(performance.getEntriesByType('paint').find(p => p.name === 'first-contentful-paint') || {}).startTime")
    sizes = await page.js("performance.getEntriesByType('resource').filter(r => r.name.includes('/console-assets/'))"
                          ".map(r => r.transferSize).concat([performance.getEntriesByType('navigation')[0].transferSize])"
                          ".reduce((a, b) => a + b, 0)")
    print(f"console: first contentful paint {paint:.0f} ms, {sizes / 1024:.1f} KB transferred")
    await page.shot("1-sign-in")

    submit = lambda key: page.js(
        f"document.getElementById('api-key').value = {json.dumps(key)};"
        "document.getElementById('sign-in-form').requestSubmit(); true")
    await submit("em_not_a_key")
    await page.until(f"{text('sign-in-error')}.length > 0", "the refusal")
    said = await page.js(text("sign-in-error"))
    assert "invalid" in said, f"a bad key is refused with the API's message: {said!r}"
    await page.shot("2-bad-key")

    await submit(KEY)
    await page.until(visible("overview"), "the overview")
    await page.until(f"/^[0-9]+$/.test({text('documents')})", "the document count")
    docs = int(await page.js(text("documents")))
    assert docs >= 1, f"the overview counts the documents: {docs}"
    await page.until(f"/^[0-9]+$/.test({text('requests')})", "the request count")
    assert await page.js("document.cookie") == "", "the session cookie is HttpOnly"
    assert await page.js("document.getElementById('api-key').value") == "", "the key is not left in the form"
    await page.shot("3-overview")

    await page.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)
    await asyncio.sleep(0.3)
    width = await page.js("document.documentElement.scrollWidth")
    assert width <= 390, f"no sideways scrolling on a phone: {width}px"
    await page.shot("4-overview-phone")
    await page.call("Emulation.clearDeviceMetricsOverride")

    # documents, reached with the keyboard: Tab to its link, Enter
    await page.js("document.getElementById('link-overview').focus(); true")
    await page.key("Tab", vk=9)
    assert await page.js("document.activeElement.id") == "link-documents", "Tab reaches the next page's link"
    await page.key("Enter", vk=13, text="\r")
    await page.until(visible("documents-page"), "the documents page")
    # its document opens with its chunks and the memories formed from it
    ada = "[...document.querySelectorAll('#doc-rows tr')].find(r => r.textContent.includes('green tea'))"
    await page.until(f"!!{ada}", "Ada's document")
    await page.js(f"{ada}.querySelector('button.link').click(); true")
    await page.until(visible("doc-detail"), "the document's details")
    await page.until(f"{text('doc-detail-memories')}.includes('green tea')", "its memories")
    assert await page.js("document.querySelectorAll('#doc-detail-chunks li').length") >= 1, "its chunks"
    assert not await page.js(visible("overview")), "one page at a time"
    await page.until("document.querySelectorAll('#doc-rows tr').length >= 1", "the document list")
    await page.js(
        "document.getElementById('add-content').value = 'Ravi keeps bees on his rooftop in Leeds.';"
        "document.getElementById('add-tag').value = 'user_ravi';"
        "document.getElementById('add-form').requestSubmit(); true")
    row = "[...document.querySelectorAll('#doc-rows tr')].find(r => r.textContent.includes('Ravi keeps bees'))"
    await page.until(f"!!{row}", "the new document in the list")
    await page.until(f"{row}.querySelector('.status').textContent === 'done'", "the document to reach done", 90)
    assert "user_ravi" in await page.js(f"{row}.textContent"), "its tag is shown"
    await page.shot("5-documents")
    await page.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)
    await asyncio.sleep(0.3)
    width = await page.js("document.documentElement.scrollWidth")
    assert width <= 390, f"the document list fits a phone: {width}px"
    await page.shot("6-documents-phone")
    await page.call("Emulation.clearDeviceMetricsOverride")
    await page.js(f"window.confirm = () => true; {row}.querySelector('button.danger').click(); true")
    await page.until(f"!{row}", "the deleted document to leave the list")
    # a file, chosen in the file input as a person would
    upload = os.path.join(tempfile.mkdtemp(), "hives.md")
    with open(upload, "w") as f:
        f.write("# Hives\n\nRavi's hives face south-east, out of the wind.\n")
    root = (await page.call("DOM.getDocument"))["root"]["nodeId"]
    node = (await page.call("DOM.querySelector", nodeId=root, selector="#add-file"))["nodeId"]
    await page.call("DOM.setFileInputFiles", files=[upload], nodeId=node)
    await page.js("document.getElementById('add-tag').value = 'user_ravi';"
                  "document.getElementById('add-form').requestSubmit(); true")
    frow = "[...document.querySelectorAll('#doc-rows tr')].find(r => r.textContent.includes('Hives'))"
    await page.until(f"!!{frow} && {frow}.querySelector('.status').textContent === 'done'", "the uploaded file, done", 90)
    await page.js(f"{frow}.querySelector('button.link').click(); true")
    await page.until(f"{text('doc-detail-content')}.includes('south-east')", "the file's text")

    # search: the README's question with the defaults finds Ada's tea, with
    # its score; the profile of the tag is beside it
    await page.js("location.hash = '#/search'; true")
    await page.until(visible("search-page"), "the search page")
    await page.js(
        "document.getElementById('search-q').value = 'what does Ada drink?';"
        "document.getElementById('search-tag').value = 'user_ada';"
        "document.getElementById('search-form').requestSubmit(); true")
    await page.until("document.querySelectorAll('#search-results li').length > 0", "search results", 30)
    first = await page.js("document.querySelector('#search-results li').textContent")
    assert "green tea" in first, f"the first result answers: {first!r}"
    score = float(await page.js("document.querySelector('#search-results .score').textContent"))
    assert 0.6 <= score <= 1, f"its score, above the default threshold: {score}"
    await page.until("document.querySelectorAll('#profile-static li').length > 0", "the profile")
    assert "Lisbon" in await page.js(text("profile-static")), "the profile's static facts"
    await page.js(
        "{ const t = document.getElementById('search-threshold'); t.value = '0.95';"
        "t.dispatchEvent(new Event('input')); document.getElementById('search-form').requestSubmit(); } true")
    await page.until(f"{text('search-error')}.includes('Nothing above')", "nothing above 0.95")
    assert await page.js(text("threshold-value")) == "0.95", "the slider shows its value"
    await page.js(
        "{ const t = document.getElementById('search-threshold'); t.value = '0.6'; t.dispatchEvent(new Event('input'));"
        "document.getElementById('search-mode').value = 'v4:hybrid';"
        "document.getElementById('search-form').requestSubmit(); } true")
    await page.until("[...document.querySelectorAll('#search-results .kind')].some(k => k.textContent === 'passage')",
                     "a passage in hybrid results, carried by its memory or on its own", 30)
    await page.shot("7-search")

    # memories: Ada's, edited into a new version that keeps the old one,
    # then forgotten
    await page.js("location.hash = '#/memories'; true")
    await page.until(visible("memories-page"), "the memories page")
    await page.js("document.getElementById('mem-tag').value = 'user_ada'; document.getElementById('mem-form').requestSubmit(); true")
    mem = lambda needle: f"[...document.querySelectorAll('#mem-list > li')].find(li => li.querySelector('p').textContent.includes({json.dumps(needle)}))"
    await page.until(f"!!{mem('green tea')}", "Ada's tea among her memories", 60)
    await page.js(f"window.prompt = () => 'Ada prefers jasmine tea.'; {mem('green tea')}.querySelector('button').click(); true")
    await page.until(f"!!{mem('jasmine tea')}", "the new version")
    edited = await page.js(f"{mem('jasmine tea')}.textContent")
    assert "version 2" in edited and "green tea" in edited, f"the new version shows the old one: {edited!r}"
    await page.shot("8-memories")
    await page.js(f"window.confirm = () => true; {mem('jasmine tea')}.querySelector('button.danger').click(); true")
    await page.until(f"!{mem('jasmine tea')}", "the forgotten memory to leave the list")

    # graph: Ada's space, drawn; a node found and its details shown
    await page.js("location.hash = '#/graph'; document.getElementById('graph-tag').value = 'user_ada';"
                  "document.getElementById('graph-form').requestSubmit(); true")
    await page.until(visible("graph-page"), "the graph page")
    canvas = "document.getElementById('graph-canvas').dataset"
    await page.until(f"{canvas}.settled === 'true' && Number({canvas}.nodes) >= 3", "the graph drawn")
    drawn = await page.js(f"({{nodes: {canvas}.nodes, edges: {canvas}.edges}})")
    assert int(drawn["edges"]) >= 2, f"edges drawn: {drawn}"
    painted = await page.js("(() => { const c = document.getElementById('graph-canvas');"
                            "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                            "let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; })()")
    assert painted > 200, f"the canvas has something drawn on it: {painted} pixels"
    await page.js("document.getElementById('graph-find').value = 'Lisbon';"
                  "document.getElementById('graph-find-form').requestSubmit(); true")
    await page.until(f"{text('graph-detail')}.includes('Lisbon')", "the found node's details")
    await page.shot("9-graph")
    # 2 000 nodes: a synthetic graph through the same renderer, then 30 zoom steps
    took = await page.js("""(async () => {
      const m = await import('/console-assets/graph.js');
      const nodes = [], edges = [];
      for (let i = 0; i < 200; i++) nodes.push({type: 'document', id: 'd' + i, label: 'document ' + i});
      for (let i = 0; i < 300; i++) nodes.push({type: 'entity', id: 'e' + i, label: 'entity ' + i});
      for (let i = 0; i < 1500; i++) {
        nodes.push({type: 'memory', id: 'm' + i, label: 'memory ' + i, version: 1, isLatest: i % 7 !== 0});
        edges.push({source: 'm' + i, target: 'd' + (i % 200), type: 'source'});
        edges.push({source: 'm' + i, target: 'e' + ((i * 13) % 300), type: 'mentions'});
        if (i % 7 === 0 && i > 0) edges.push({source: 'm' + i, target: 'm' + (i - 1), type: 'updates'});
      }
      const t0 = performance.now();
      m.show({nodes, edges});
      const c = document.getElementById('graph-canvas');
      while (c.dataset.settled !== 'true') await new Promise(r => setTimeout(r, 50));
      const settled = performance.now() - t0;
      // the time from one painted frame to the next while zooming
      let last = await new Promise(r => requestAnimationFrame(r)), gaps = [];
      for (let i = 0; i < 30; i++) {
        c.dispatchEvent(new WheelEvent('wheel', {deltaY: i < 15 ? -60 : 60, clientX: 300, clientY: 200, bubbles: true, cancelable: true}));
        await new Promise(r => setTimeout(r, 0));
        const t = await new Promise(r => requestAnimationFrame(r));
        gaps.push(t - last); last = t;
      }
      gaps.sort((a, b) => a - b);
      return {settled, nodes: Number(c.dataset.nodes), ticks: Number(c.dataset.ticks), maxDraw: Number(c.dataset.maxFrameMs),
              median: gaps[15], worst: gaps[29]};
    })()""")
    assert took["nodes"] == 2000, took
    print(f"console: graph of 2000 nodes settled in {took['settled']:.0f} ms ({took['ticks']} layout steps), "
          f"zooming: drawing took at most {took['maxDraw']:.1f} ms, frame to frame median {took['median']:.1f} ms, "
          f"worst {took['worst']:.1f} ms")
    await page.shot("10-graph-2000")

    # spaces: Ada's with its counts; its entity context saved; Ravi's
    # merged into a new space, which is then deleted
    await page.js("location.hash = '#/spaces'; true")
    await page.until(visible("spaces-page"), "the spaces page")
    srow = lambda tag: f"[...document.querySelectorAll('#space-rows tr')].find(r => r.cells[0].querySelector('button').textContent === {json.dumps(tag)})"
    await page.until(f"!!{srow('user_ada')}", "Ada's space")
    counts = await page.js(f"[{srow('user_ada')}.cells[1].textContent, {srow('user_ada')}.cells[2].textContent]")
    assert int(counts[0]) >= 1 and int(counts[1]) >= 1, f"Ada's counts: {counts}"
    await page.js(f"{srow('user_ada')}.querySelector('button').click(); true")
    await page.until(visible("space-detail"), "the space's details")
    await page.js("document.getElementById('space-context').value = 'Ada is a nurse in Lisbon.';"
                  "document.getElementById('space-buckets').value = 'health: what Ada says about her health';"
                  "document.getElementById('space-form').requestSubmit(); true")
    await page.until(f"{text('space-saved')} === 'Saved.'", "the space saved")
    made = await page.js("fetch('/v3/documents', {method: 'POST', headers: {'Content-Type': 'application/json', "
                         "'X-Engram-Console': '1'}, body: JSON.stringify({content: 'Ravi keeps bees on his rooftop in Leeds.', "
                         "containerTag: 'user_ravi'})}).then(r => r.status)")
    assert made == 200, made
    await page.js("location.hash = '#/'; location.hash = '#/spaces'; true")
    await page.until(f"!!{srow('user_ravi')}", "Ravi's space")
    await page.js(f"window.confirm = () => true; {srow('user_ravi')}.querySelector('.merge-pick').checked = true;"
                  "document.getElementById('merge-target').value = 'user_ravi_merged';"
                  "document.getElementById('merge-form').requestSubmit(); true")
    await page.until(f"{text('spaces-said')}.startsWith('Merge done')", "the merge", 30)
    await page.until(f"!!{srow('user_ravi_merged')} && !{srow('user_ravi')}", "the merged space in place of Ravi's")
    await page.shot("11-spaces")
    await page.js(f"{srow('user_ravi_merged')}.querySelector('button').click(); true")
    await page.until(f"{text('space-title')} === 'user_ravi_merged'", "the merged space opened")
    await page.js("document.getElementById('space-delete').click(); true")
    await page.until(f"{text('spaces-said')}.startsWith('Deleted user_ravi_merged')", "the space deleted")
    await page.until(f"!{srow('user_ravi_merged')}", "the deleted space gone from the list")
    saved = await page.js("fetch('/v3/container-tags/user_ada').then(r => r.json())")
    assert saved["entityContext"] == "Ada is a nurse in Lisbon." and saved["profileBuckets"][0]["key"] == "health", saved

    # connections: a local web site crawled into a space, synced again, removed
    if SITE:
        await page.js("location.hash = '#/connections'; true")
        await page.until(visible("connections-page"), "the connections page")
        await page.js("document.getElementById('conn-provider').value = 'web-crawler';"
                      "document.getElementById('conn-provider').dispatchEvent(new Event('change'));"
                      f"document.getElementById('conn-tag').value = 'site';"
                      f"document.getElementById('conn-startUrl').value = {json.dumps(SITE)};"
                      "document.getElementById('conn-form').requestSubmit(); true")
        crow = "[...document.querySelectorAll('#conn-rows tr')].find(r => r.cells[0].textContent === 'web-crawler')"
        await page.until(f"!!{crow}", "the new connection")
        await page.until(f"{crow}.querySelector('.status').textContent.startsWith('completed')", "its first sync", 60)
        await page.js(f"{crow}.querySelectorAll('button')[1].click(); true")
        await page.until("document.querySelectorAll('#conn-docs li').length >= 2 && "
                         f"{text('conn-docs')}.includes('Bees')", "the site's pages as documents", 30)
        await page.shot("12-connections")
        await page.js(f"{crow}.querySelectorAll('button')[0].click(); true")
        await page.until(f"{text('connections-said')}.startsWith('Syncing')", "sync now")
        await page.until(f"{crow}.querySelector('.status').textContent.startsWith('completed')", "the sync", 60)
        await page.js(f"window.confirm = () => true; {crow}.querySelector('button.danger').click(); true")
        await page.until(f"!{crow} && {text('connections-said')}.startsWith('Removed')", "the connection removed")
        # GitHub: to the provider and back to the console, connected
        await page.js("document.getElementById('conn-provider').value = 'github';"
                      "document.getElementById('conn-provider').dispatchEvent(new Event('change'));"
                      "document.getElementById('conn-tag').value = 'eng';"
                      "document.getElementById('conn-form').requestSubmit(); true")
        await page.until(f"{text('connections-said')}.startsWith('Connected github')", "back from GitHub", 30)
        assert await page.js("location.pathname + location.search + location.hash") == "/console#/connections", \
            "the provider's answer is taken off the address"
        grow = "[...document.querySelectorAll('#conn-rows tr')].find(r => r.cells[0].textContent === 'github')"
        await page.until(f"!!{grow} && {grow}.cells[2].textContent === 'octo@example.com'", "the GitHub connection")
        await page.until(f"{grow}.querySelector('.status').textContent.startsWith('completed')", "its first sync", 60)
        await page.shot("12b-connections-github")

    # request logs: the search asked on the search page, with its input
    await page.js("location.hash = '#/logs'; true")
    await page.until(visible("logs-page"), "the logs page")
    await page.until("document.getElementById('log-key').options.length > 1", "the key choices")
    await page.js("document.getElementById('log-type').value = 'search';"
                  "document.getElementById('log-form').requestSubmit(); true")
    await page.until("document.querySelectorAll('#log-rows tr').length >= 1 && "
                     "[...document.querySelectorAll('#log-rows tr')].every(r => r.cells[1].textContent === 'search')",
                     "the searches")
    await page.js("[...document.querySelectorAll('#log-rows tr button')].at(-1).click(); true")
    await page.until(visible("log-detail"), "a request's details")
    await page.until(f"{text('log-input')}.includes('what does Ada drink')", "the request's input")
    await page.shot("13-logs")

    # keys: create one (shown once), rename it, revoke it
    await page.js("location.hash = '#/keys'; true")
    await page.until(visible("keys-page"), "the keys page")
    await page.until("document.querySelectorAll('#key-rows tr').length >= 1", "the key list")
    await page.js(
        "document.getElementById('key-name').value = 'browser test';"
        "document.getElementById('key-form').requestSubmit(); true")
    await page.until(visible("new-key"), "the new key, shown once")
    made = await page.js(text("new-key-value"))
    assert made.startswith("em_") and len(made) > 20, f"the key itself: {made!r}"
    assert await page.js(visible("copy-key")), "a copy button"
    key_row = lambda name: f"[...document.querySelectorAll('#key-rows tr')].find(r => r.cells[0].textContent === {json.dumps(name)})"
    await page.until(f"!!{key_row('browser test')}", "the new key in the list")
    await page.shot("14-keys")
    await page.js(f"window.prompt = () => 'browser renamed'; {key_row('browser test')}.querySelector('button').click(); true")
    await page.until(f"!!{key_row('browser renamed')}", "the renamed key")
    await page.js(f"window.confirm = () => true; {key_row('browser renamed')}.querySelector('button.danger').click(); true")
    await page.until(f"{key_row('browser renamed')}.cells[2].textContent.startsWith('revoked')", "the key revoked")
    await page.fill("key-form", {"key-name": "ada only", "key-tag": "user_ada", "key-hours": "2"})
    await page.until(f"!!{key_row('ada only')}", "the scoped key")
    scoped = await page.js(text("new-key-value"))
    # settings: change one, set a connector secret (never shown back)
    await page.js("location.hash = '#/settings'; true")
    await page.until(visible("settings-page"), "the settings page")
    await page.until("document.getElementById('set-githubClientSecret').placeholder !== ''", "the settings loaded")
    await page.fill("settings-form", {"set-chunkSize": "300", "set-githubClientId": "Iv1.browser",
                                      "set-githubClientSecret": "browser-secret"})
    await page.until(f"{text('settings-saved')}.startsWith('Saved')", "the save")
    said = await page.js(text("settings-saved"))
    assert "chunkSize" in said and "githubClientSecret" in said, said
    assert await page.js("document.getElementById('set-chunkSize').value") == "300", "the new value is shown"
    assert await page.js("document.getElementById('set-githubClientSecret').value") == "", "the secret is not shown back"
    assert await page.js("document.getElementById('set-githubClientSecret').placeholder") == "set (hidden)"
    page_html = await page.js("document.documentElement.outerHTML")
    assert "browser-secret" not in page_html, "the secret is nowhere on the page"
    await page.js("document.getElementById('set-githubClientSecret').scrollIntoView(); true")
    await page.shot("15-settings")

    await page.js("location.hash = '#/'; true")
    await page.until(visible("overview"), "back to the overview")
    await page.until("document.querySelectorAll('#chart-requests rect').length > 0", "the requests chart")
    await page.until("document.querySelectorAll('#chart-types rect').length >= 3", "the request types chart")
    assert await page.js("document.querySelectorAll('#chart-latency rect').length") > 0, "the latency chart"
    await page.js("document.getElementById('period').value = '7d'; document.getElementById('period').dispatchEvent(new Event('change')); true")
    await page.until("document.getElementById('overview').dataset.columns === '168'", "a week of hours")
    await page.shot("16-overview-charts")

    # every page fits a phone: no sideways scrolling at 390 px
    await page.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)
    for hash_, section in [("#/documents", "documents-page"), ("#/memories", "memories-page"), ("#/graph", "graph-page"),
                           ("#/search", "search-page"), ("#/spaces", "spaces-page"), ("#/connections", "connections-page"),
                           ("#/logs", "logs-page"), ("#/keys", "keys-page"), ("#/settings", "settings-page"), ("#/", "overview")]:
        await page.js(f"location.hash = {json.dumps(hash_)}; true")
        await page.until(visible(section), section)
        await asyncio.sleep(0.3)
        width = await page.js("document.documentElement.scrollWidth")
        wide = await page.js("[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > 391)"
                             ".slice(0, 3).map(e => e.tagName + '#' + e.id + '.' + e.className).join(', ')")
        assert width <= 390, f"{section} fits a phone: {width}px ({wide})"
    await page.call("Emulation.clearDeviceMetricsOverride")

    await page.js("document.getElementById('sign-out').click(); true")
    await page.until(visible("sign-in"), "sign-in after signing out")
    assert not await page.js(visible("new-key")), "a new key is not left on screen"
    await page.call("Page.reload")
    await page.until("document.readyState === 'complete'", "the reload")
    await page.until(visible("sign-in"), "sign-in after a reload: the session is gone")

    # a key scoped to Ada's space: her memories, but no keys or settings
    await submit(scoped)
    await page.until(visible("overview"), "the overview for the scoped key")
    await page.until(f"/^[0-9]+$/.test({text('memories')})", "the scoped key's memory count")
    assert not await page.js(visible("overview-traffic")), "no organisation traffic for a scoped key"
    assert await page.js(text("overview-error")) == "", "and no error about it"
    for link in ("link-keys", "link-settings", "link-connections", "link-logs", "link-spaces"):
        assert not await page.js(visible(link)), f"{link} is hidden from a scoped key"
    await page.js("location.hash = '#/keys'; true")
    await asyncio.sleep(0.3)
    assert not await page.js(visible("keys-page")), "the keys page does not open for a scoped key"
    await page.js("location.hash = '#/memories'; true")
    await page.until(visible("memories-page"), "the memories page")
    assert await page.js("document.getElementById('mem-tag').value") == "user_ada", "its space filled in"
    await page.js("document.getElementById('mem-form').requestSubmit(); true")
    await page.until(f"!!{mem('Lisbon')}", "Ada's memories for her scoped key")
    await page.shot("17-scoped")
    await page.js("document.getElementById('sign-out').click(); true")
    await page.until(visible("sign-in"), "sign-in after signing out")
    await page.shot("18-signed-out")
    print(f"console: signed in, {docs} document(s) counted, signed out; screenshots in {OUT}")


async def main():
    global SITE
    os.makedirs(OUT, exist_ok=True)
    if "--site" in sys.argv[4:]:
        SITE = serve_site(int(sys.argv[sys.argv.index("--site") + 1]))
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        sys.exit("chromium is not installed (scripts/test.sh installs it)")
    port = free_port()
    profile = tempfile.mkdtemp()
    proc = subprocess.Popen(
        [browser, "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
         f"--remote-debugging-port={port}", "--window-size=1280,800", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while True:
            try:
                tabs = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json"))
                target = next(t for t in tabs if t["type"] == "page")
                break
            except Exception:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        async with websockets.connect(target["webSocketDebuggerUrl"], max_size=50_000_000) as ws:
            await asyncio.wait_for(run(Page(ws)), 300)
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


asyncio.run(main())
