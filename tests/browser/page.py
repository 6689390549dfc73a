#!/usr/bin/env python3
"""Load a `straddle report` page in headless Chromium and say what a reader
would see: the page's requests, console errors, every result section's
screenshot (its size and how much of it is drawn), every plot's, the same in
print media and grey scale, and the page printed to PDF.

    page.py PAGE.html... [--shots DIR [--max-height PX]] [--chromium EXE]
    page.py --self-test     (the PNG decoder on a PNG of every filter)

Pages load one after another in one browser. Prints one JSON document on
stdout; tests/cmd/t_browser.sh asserts on it.
Exit 2 with one line on stderr when the browser cannot be run at all.

Chromium is driven over its DevTools pipe (--remote-debugging-pipe: JSON
messages, each ended by a NUL, read on fd 3 and written on fd 4), so the
test needs no port, no network and nothing beyond python3's standard
library. Sections follow the page's convention: <section class="result
KIND" id="KIND-N">, an <h2> first, plots as <svg role="img"> with a
<title>.
"""
import base64
import collections
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
import zlib

WIDTH = 1280            # the window the issue asks the page to read well in
HEIGHT = 800
SECONDS = 45            # the whole run; the shell's timeout is the last resort
# The flags of the issue's brief, and those that keep a headless Chromium
# from reaching for the network at all: names resolve to nothing, and what
# would still connect goes to a proxy on the loopback's discard port.
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-extensions", "--no-first-run", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--no-default-browser-check", "--disable-quic", "--mute-audio",
    "--disable-dev-shm-usage", "--hide-scrollbars", "--force-color-profile=srgb",
    "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
    "--window-size=%d,%d" % (WIDTH, HEIGHT), "--remote-debugging-pipe",
]


def die(msg):
    print("page.py: " + msg, file=sys.stderr)
    sys.exit(2)


class Chromium:
    """One browser process in a process group of its own, and its pipe."""

    def __init__(self, exe, tmp):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        # Above 9, so moving them to 3 and 4 in the child clobbers neither.
        hi = [os.dup2(fd, 10 + i, inheritable=False) for i, fd in enumerate((to_r, from_w))]
        for fd in (to_r, from_w):
            os.close(fd)

        def child():
            os.dup2(hi[0], 3)
            os.dup2(hi[1], 4)
        # Its chatter to a file: a pipe nobody reads would fill and stop it.
        self.log = os.path.join(tmp, "stderr")
        with open(self.log, "wb") as err:
            self.proc = subprocess.Popen(
                ["nice", "-n", "19", exe] + FLAGS + ["--user-data-dir=" + os.path.join(tmp, "profile"),
                                                     "about:blank"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                pass_fds=(3, 4), preexec_fn=child, start_new_session=True)
        for fd in hi:
            os.close(fd)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.deadline = time.monotonic() + SECONDS

    def cpu_seconds(self):
        """The CPU time of Chromium's processes so far (its group, from
        /proc): what the test costs, whatever else the machine is doing."""
        ticks = 0
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open("/proc/%s/stat" % pid) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == self.proc.pid:         # its process group
                ticks += int(fields[11]) + int(fields[12])
        return round(ticks / os.sysconf("SC_CLK_TCK"), 2)

    def kill(self):
        """The whole group: Chromium's renderers and helpers too."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def message(self):
        while b"\0" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from Chromium in %d s" % SECONDS)
            ready, _, _ = select.select([self.from_r], [], [], left)
            if ready:
                chunk = os.read(self.from_r, 1 << 20)
                if not chunk:
                    raise EOFError("Chromium closed its pipe: " + self.stderr_tail())
                self.buf += chunk
        line, self.buf = self.buf.split(b"\0", 1)
        return json.loads(line)

    def stderr_tail(self):
        self.kill()
        with open(self.log, "rb") as f:
            return f.read().decode(errors="replace").strip()[-400:]

    def call(self, method, params=None, session=None):
        """Send a command and wait for its answer; events met are kept."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self.message()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"].get("message")))
                return m["result"]
            if "method" in m:
                self.events.append(m)

    def wait_event(self, method, session):
        """The first event `method` of `session`, kept or still to come."""
        def match(e):
            return e.get("method") == method and e.get("sessionId") == session
        for i, e in enumerate(self.events):
            if match(e):
                return self.events.pop(i)
        while True:
            m = self.message()
            if match(m):
                return m
            if "method" in m:
                self.events.append(m)


class Page:
    """A tab of the browser, attached as a flat session."""

    def __init__(self, browser):
        self.b = browser
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.call("Target.attachToTarget",
                                    {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            self.call(domain + ".enable")
        self.resize(HEIGHT)
        # No network at all: the page must need none (file:// is not network).
        self.call("Network.emulateNetworkConditions",
                  {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    def call(self, method, params=None):
        return self.b.call(method, params, self.session)

    def resize(self, height):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def load(self, url):
        nav = self.call("Page.navigate", {"url": url})
        if nav.get("errorText"):
            raise RuntimeError("%s: %s" % (url, nav["errorText"]))
        self.b.wait_event("Page.loadEventFired", self.session)
        self.eval("document.fonts.ready.then(() => true)")

    def eval(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError("evaluate: " + json.dumps(r["exceptionDetails"])[:300])
        return r["result"].get("value")

    def shot(self, box, scale=1, fast=True):
        """PNG of a box of the page. Fast: Chromium's quick encoder (every
        row filtered "up", which png_decode undoes at once, not byte by
        byte); else its smallest file, for doc/report.md."""
        if box["width"] < 1 or box["height"] < 1:
            return b""                  # nothing drawn: region_facts says so
        clip = dict(box, scale=scale)
        # The window is as tall as the page (resize): Chromium need not
        # lay the page out again for each shot, which halves their cost.
        data = self.call("Page.captureScreenshot", {"format": "png", "clip": clip,
                                                    "captureBeyondViewport": False,
                                                    "optimizeForSpeed": fast})["data"]
        return base64.b64decode(data)


# ---- PNG: enough of the format to count a screenshot's colours ----

MASKS = {}


def add_rows(row, prev):
    """Bytewise (row + prev) mod 256 on two whole rows at once: the high bit
    of each byte is added apart so no carry crosses into the next byte."""
    n = len(row)
    if n not in MASKS:
        high = int.from_bytes(b"\x80" * n, "little")
        MASKS[n] = (high, high ^ ((1 << (8 * n)) - 1))
    high, low = MASKS[n]
    x, y = int.from_bytes(row, "little"), int.from_bytes(prev, "little")
    return bytearray((((x & low) + (y & low)) ^ ((x ^ y) & high)).to_bytes(n, "little"))


def unfilter(kind, row, prev, bpp):
    """One scanline back to its bytes (PNG spec, 9.2)."""
    if kind == 0:
        return bytearray(row)
    if kind == 2:
        return add_rows(row, prev)
    out = bytearray(row)
    for i in range(len(out)):
        a = out[i - bpp] if i >= bpp else 0
        b = prev[i]
        if kind == 1:
            out[i] = (out[i] + a) & 255
        elif kind == 3:
            out[i] = (out[i] + ((a + b) >> 1)) & 255
        else:
            c = prev[i - bpp] if i >= bpp else 0
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            out[i] = (out[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return out


def png_decode(data):
    """(width, height, bytes a pixel, rows of bytes), or None when data is
    not a PNG this reads (8-bit RGB or RGBA, not interlaced: what Chromium
    writes)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    pos, idat, head = 8, [], None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        if kind == b"IHDR":
            head = data[pos + 8:pos + 8 + n]
        elif kind == b"IDAT":
            idat.append(data[pos + 8:pos + 8 + n])
        pos += 12 + n
    w, h = int.from_bytes(head[0:4], "big"), int.from_bytes(head[4:8], "big")
    if head[8] != 8 or head[9] not in (2, 6) or head[12]:
        return None
    bpp = 3 if head[9] == 2 else 4
    raw, stride = zlib.decompress(b"".join(idat)), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        at = y * (stride + 1)
        prev = unfilter(raw[at], raw[at + 1:at + 1 + stride], prev, bpp)
        rows.append(prev)
    return w, h, bpp, rows


SAMPLE = 100000     # pixels counted at most in a region: every k-th row


def region_facts(img, x, y, w, h):
    """Of the region (x, y, w, h) of a decoded PNG, clipped to it: its size,
    its distinct colours and the share of its pixels that differ from the
    commonest colour (its background): 'ink'. A tall region is sampled
    every k-th row ("rows_step"), so a page of plots costs no more than a
    screen of them."""
    iw, ih, bpp, rows = img
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(iw, x + w), min(ih, y + h)
    if x1 <= x0 or y1 <= y0:
        return {"png": True, "width": max(0, x1 - x0), "height": max(0, y1 - y0)}
    step = max(1, (x1 - x0) * (y1 - y0) // SAMPLE)
    counts, n = collections.Counter(), 0
    for r in range(y0, y1, step):
        px = rows[r][x0 * bpp:x1 * bpp]
        counts.update(zip(px[0::bpp], px[1::bpp], px[2::bpp]))
        n += x1 - x0
    return {"png": True, "width": x1 - x0, "height": y1 - y0, "rows_step": step,
            "colours": len(counts), "ink": round(1 - max(counts.values()) / n, 4)}


def png_facts(data):
    """region_facts of a whole PNG; {"png": false} when it is none."""
    img = png_decode(data)
    return region_facts(img, 0, 0, img[0], img[1]) if img else {"png": False}


def png_encode(rows, kinds):
    """A PNG (RGB, 8 bit) of rows of pixels, row y filtered by kinds[y]:
    png_facts' own check (--self-test), every filter taken back."""
    raw, prev = b"", bytes(len(rows[0]) * 3)
    for y, row in enumerate(rows):
        line = bytes(c for px in row for c in px)
        out = bytearray()
        for i, v in enumerate(line):
            a = line[i - 3] if i >= 3 else 0
            b = prev[i]
            c = prev[i - 3] if i >= 3 else 0
            p = a + b - c
            pred = [0, a, b, (a + b) >> 1,
                    a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c)
                    else b if abs(p - b) <= abs(p - c) else c][kinds[y]]
            out.append((v - pred) & 255)
        raw += bytes([kinds[y]]) + out
        prev = line

    def chunk(kind, body):
        return (len(body).to_bytes(4, "big") + kind + body +
                zlib.crc32(kind + body).to_bytes(4, "big"))
    head = len(rows[0]).to_bytes(4, "big") + len(rows).to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw)) +
            chunk(b"IEND", b""))


def self_test():
    """10 x 5 pixels, white but for 6 of 3 colours, rows in filters 0..4."""
    ink = {(1, 1): (200, 10, 10), (2, 1): (200, 10, 10), (3, 2): (0, 0, 0),
           (9, 3): (10, 250, 120), (0, 4): (0, 0, 0), (5, 4): (10, 250, 120)}
    rows = [[ink.get((x, y), (255, 255, 255)) for x in range(10)] for y in range(5)]
    return png_facts(png_encode(rows, [0, 1, 2, 3, 4]))


# ---- what the page holds ----

SECTIONS_JS = """[...document.querySelectorAll('section.result')].map(s => {
  const r = s.getBoundingClientRect();
  const box = e => { const b = e.getBoundingClientRect();
    return {x: Math.floor(b.left + scrollX), y: Math.floor(b.top + scrollY),
            width: Math.ceil(b.right + scrollX) - Math.floor(b.left + scrollX),
            height: Math.ceil(b.bottom + scrollY) - Math.floor(b.top + scrollY)}; };
  return {id: s.id, cls: s.className, first: s.firstElementChild ? s.firstElementChild.tagName : '',
          h2: (s.querySelector('h2') || {}).textContent || '', box: box(s),
          top: [...((s.querySelector('table.hazards, table.changes') || {}).rows || [])].slice(1, 6)
             .map(r => [...r.cells].map(c => c.innerText.trim()).join(' | ')),
          plots: [...s.querySelectorAll('svg[role=img]')].map(v => ({
             title: (v.querySelector(':scope > title') || {}).textContent || '', box: box(v),
             folded: !!v.closest('details:not([open])')}))};
})"""

PAGE_JS = """({width: document.documentElement.scrollWidth,
  height: document.documentElement.scrollHeight, title: document.title})"""


def plot_facts(img, section, at, scale):
    """region_facts of each plot of a section, in a picture of `at` (a box
    of the page) shot at `scale`."""
    for p in section["plots"]:
        if p["folded"]:         # inside a closed <details>: not drawn, no box
            p["shot"] = None
            continue
        b = p["box"]
        p["shot"] = (region_facts(img, int((b["x"] - at["x"]) * scale), int((b["y"] - at["y"]) * scale),
                                  int(b["width"] * scale), int(b["height"] * scale))
                     if img else {"png": False})


def look(page, shots):
    """A screenshot of every section: its size and ink, and those of each
    plot in it, read from the same picture (a screenshot takes Chromium a
    second or two on a loaded machine: one a section, not one a plot)."""
    sections = page.eval(SECTIONS_JS)
    for s in sections:
        png = page.shot(s["box"])
        img = png_decode(png)
        s["shot"] = region_facts(img, 0, 0, img[0], img[1]) if img else {"png": False}
        plot_facts(img, s, s["box"], 1)
        if shots:
            # doc/report.md's: the top of a tall section, its smallest PNG.
            top = dict(s["box"], height=min(s["box"]["height"], shots["height"]))
            with open(os.path.join(shots["dir"], s["id"] + ".png"), "wb") as f:
                f.write(page.shot(top, fast=False))
    return sections


PRINT_SCALE = 0.25


def look_printed(page):
    """The page in print media and grey scale, shot whole at a quarter of
    its size (one picture: enough to see a section or plot lost or blank,
    at a sixteenth of the pixels), each section and plot read from it."""
    page.call("Emulation.setEmulatedMedia", {"media": "print"})
    page.eval("document.documentElement.style.filter = 'grayscale(1)'; true")
    whole = page.eval(PAGE_JS)
    page.resize(max(HEIGHT, whole["height"]))
    at = {"x": 0, "y": 0, "width": whole["width"], "height": whole["height"]}
    img = png_decode(page.shot(at, PRINT_SCALE))
    sections = page.eval(SECTIONS_JS)
    for s in sections:
        b = s["box"]
        s["shot"] = (region_facts(img, int(b["x"] * PRINT_SCALE), int(b["y"] * PRINT_SCALE),
                                  int(b["width"] * PRINT_SCALE), int(b["height"] * PRINT_SCALE))
                     if img else {"png": False})
        plot_facts(img, s, at, PRINT_SCALE)
    page.eval("document.documentElement.style.filter = ''; true")
    return sections


def watch(events):
    """Every request the page made, and every error it showed."""
    requests, failed, errors = [], [], []
    for e in events:
        m, p = e["method"], e.get("params", {})
        if m == "Network.requestWillBeSent":
            requests.append(p["request"]["url"])
        elif m == "Network.loadingFailed":
            failed.append("%s %s" % (p.get("errorText", ""), p.get("blockedReason", "")))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            errors.append("console: " + " ".join(str(a.get("value", "")) for a in p["args"]))
        elif m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            errors.append("exception: " + d.get("exception", {}).get("description", d.get("text", "")))
        elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
            errors.append("log: " + p["entry"]["text"])
    return {"requests": requests, "failed": failed, "errors": errors}


def pdf_pages(page):
    data = base64.b64decode(page.call("Page.printToPDF", {"paperWidth": 8.27, "paperHeight": 11.69})["data"])
    # Each page object is "/Type /Page"; the tree's root is "/Type /Pages".
    return {"pdf": data[:5] == b"%PDF-", "pages": data.count(b"/Type /Page") - data.count(b"/Type /Pages")}


def report(page, path, shots):
    """All a reader sees of one page, at 1280 px, then printed in grey."""
    out = {"url": "file://" + os.path.abspath(path)}
    page.load(out["url"])
    out["page"] = page.eval(PAGE_JS)
    # Tall enough that every section is in the viewport when it is shot.
    page.resize(max(HEIGHT, out["page"]["height"]))
    out["sections"] = look(page, shots)
    out["print_sections"] = look_printed(page)
    out["print"] = pdf_pages(page)
    out.update(watch(e for e in page.b.events if e.get("sessionId") == page.session))
    return out


def run(b, pages, shots):
    out = {"chromium": b.call("Browser.getVersion")["product"], "pages": []}
    t = time.monotonic()
    for path in pages:
        out["pages"].append(report(Page(b), path, shots))
    out["seconds"] = round(time.monotonic() - t, 2)
    out["cpu_seconds"] = b.cpu_seconds()
    try:
        b.call("Browser.close")
    except (EOFError, TimeoutError):
        pass
    return out


def main():
    # Debian's binary itself: /usr/bin/chromium is a wrapper that adds
    # flags of its own (extensions, GPU rasterisation) from /etc/chromium.d.
    args, opts = [], {"--shots": None, "--max-height": "100000",
                      "--chromium": os.environ.get("CHROMIUM", "/usr/lib/chromium/chromium")}
    argv = sys.argv[1:]
    while argv:
        a = argv.pop(0)
        if a in opts and argv:
            opts[a] = argv.pop(0)
        else:
            args.append(a)
    if args == ["--self-test"]:
        print(json.dumps(self_test()))
        return
    if not args or any(a.startswith("-") for a in args):
        die("usage: page.py PAGE.html... [--shots DIR [--max-height PX]] [--chromium EXE]")
    if not os.access(opts["--chromium"], os.X_OK):
        die("%s: no Chromium (make deps installs Debian's chromium)" % opts["--chromium"])
    for a in args:
        if not os.path.isfile(a):
            die("%s: no such page" % a)
    with tempfile.TemporaryDirectory(prefix="straddle-chromium-") as tmp:
        b = Chromium(opts["--chromium"], tmp)
        signal.signal(signal.SIGTERM, lambda *_: (b.kill(), sys.exit(2)))
        try:
            shots = opts["--shots"] and {"dir": opts["--shots"], "height": int(opts["--max-height"])}
            out = run(b, args, shots)
        except (TimeoutError, EOFError, RuntimeError) as e:
            die(str(e))
        finally:
            b.kill()
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
