"""The console in a real browser: headless Chromium driven over the
DevTools protocol against a live `engram serve`.

    python3 console.py BASE_URL API_KEY SCREENSHOT_DIR

Checks what a person sees: `/` leads to the sign-in page; a bad key is
refused with the API's message; a good key shows the overview with real
numbers; the session cookie is invisible to scripts; the page fits a
phone; a text added on the documents page appears, reaches `done` and can
be deleted; the README's question finds its answer with its score and the
tag's profile beside it; a memory is edited into a new version (the old
one kept in its history) and forgotten; a key is created (shown once),
renamed and revoked on the keys page; a setting and a connector secret are
saved, the secret never shown back; signing out returns to sign-in. Saves a screenshot of each step.
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
        while time.time() < deadline:
            if await self.js(expr):
                return
            await asyncio.sleep(0.1)
        alerts = await self.js(
            "[...document.querySelectorAll('[role=alert]')].map(a => a.id + ': ' + a.textContent)"
            ".filter(t => !t.endsWith(': ')).join('; ')")
        raise AssertionError(f"timed out waiting for {what} (the page says: {alerts or 'nothing'})")

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

    # documents: add one through the form, watch it reach done, delete it
    await page.js("location.hash = '#/documents'; true")
    await page.until(visible("documents-page"), "the documents page")
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
                     "a passage in hybrid results", 30)
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
    await page.shot("9-keys")
    await page.js(f"window.prompt = () => 'browser renamed'; {key_row('browser test')}.querySelector('button').click(); true")
    await page.until(f"!!{key_row('browser renamed')}", "the renamed key")
    await page.js(f"window.confirm = () => true; {key_row('browser renamed')}.querySelector('button.danger').click(); true")
    await page.until(f"{key_row('browser renamed')}.cells[2].textContent.startsWith('revoked')", "the key revoked")
    # settings: change one, set a connector secret (never shown back)
    await page.js("location.hash = '#/settings'; true")
    await page.until(visible("settings-page"), "the settings page")
    await page.until("document.getElementById('set-githubClientSecret').placeholder !== ''", "the settings loaded")
    await page.js(
        "document.getElementById('set-chunkSize').value = '300';"
        "document.getElementById('set-githubClientId').value = 'Iv1.browser';"
        "document.getElementById('set-githubClientSecret').value = 'browser-secret';"
        "document.getElementById('settings-form').requestSubmit(); true")
    await page.until(f"{text('settings-saved')}.startsWith('Saved')", "the save")
    said = await page.js(text("settings-saved"))
    assert "chunkSize" in said and "githubClientSecret" in said, said
    assert await page.js("document.getElementById('set-chunkSize').value") == "300", "the new value is shown"
    assert await page.js("document.getElementById('set-githubClientSecret').value") == "", "the secret is not shown back"
    assert await page.js("document.getElementById('set-githubClientSecret').placeholder") == "set (hidden)"
    page_html = await page.js("document.documentElement.outerHTML")
    assert "browser-secret" not in page_html, "the secret is nowhere on the page"
    await page.js("document.getElementById('set-githubClientSecret').scrollIntoView(); true")
    await page.shot("10-settings")

    await page.js("location.hash = '#/'; true")
    await page.until(visible("overview"), "back to the overview")

    await page.js("document.getElementById('sign-out').click(); true")
    await page.until(visible("sign-in"), "sign-in after signing out")
    assert not await page.js(visible("new-key")), "a new key is not left on screen"
    await page.call("Page.reload")
    await page.until("document.readyState === 'complete'", "the reload")
    await page.until(visible("sign-in"), "sign-in after a reload: the session is gone")
    await page.shot("11-signed-out")
    print(f"console: signed in, {docs} document(s) counted, signed out; screenshots in {OUT}")


async def main():
    os.makedirs(OUT, exist_ok=True)
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
            await asyncio.wait_for(run(Page(ws)), 120)
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


asyncio.run(main())
