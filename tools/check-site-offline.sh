#!/usr/bin/env bash
# Check that the pkgdown site in docs/ (built by `make site`) is self-contained:
#   1. no <script>, <link>, <img>, <iframe>, ... in the built HTML, and no
#      url()/@import in its CSS, points outside docs/ (http:, https:, //, file:),
#      and every image in docs/reference/ and docs/articles/ is linked;
#   2. in headless Chromium with networking off (offline emulation, a dead
#      proxy, no DNS), opening docs/index.html, a reference page with maths and
#      an article with maths (or the pages given as arguments, relative to
#      docs/) requests no non-file URL, has no failed request and no
#      JavaScript error, and MathJax typesets the maths (counts MathJax's
#      output elements, and fails on MathJax errors or maths left as TeX).
#      It also checks that the vendored scripts did their work: table of
#      contents, headroom, copy buttons, Font Awesome font, and search (types
#      a page title into the search box and expects suggestions that point
#      into the site).
# Usage: tools/check-site-offline.sh [DOCS_DIR [PAGE ...]]
# Needs chromium and node (Debian packages; `tools/install-deps.sh site-check`
# installs them). Exit status 0 only if every check passes.
set -euo pipefail

cd "$(dirname "$0")/.."
DOCS=${1:-docs}
[ "$#" -gt 0 ] && shift
PAGES=("$@")
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
fail=0
say() { printf 'check-site-offline: %s\n' "$*"; }

if [ ! -f "$DOCS/index.html" ]; then
  say "ERROR: $DOCS/index.html not found; run 'make site' first"
  exit 1
fi
if [ -z "$CHROMIUM" ] || ! command -v node >/dev/null 2>&1; then
  bash tools/install-deps.sh site-check
  CHROMIUM=$(command -v chromium || command -v chromium-browser)
fi

# 1. Static: resources referenced outside the site.
outside='((https?|file|ftp):|//)'
tags=$(grep -rnoE "<(script|link|img|iframe|source|audio|video|embed|object|track)\b[^>]*\b(src|href|data|srcset)=[\"']?$outside[^\"' >]*" \
  "$DOCS" --include='*.html' || true)
css=$(grep -rnoE "(url\([\"']?|@import +[\"']?)$outside[^\"') ]*" "$DOCS" --include='*.css' || true)
if [ -n "$tags$css" ]; then
  say "FAIL static: resources outside the site:"
  printf '%s\n' "$tags" "$css" | sed '/^$/d' | sort | uniq -c | sort -rn | head -30
  fail=1
else
  say "ok static: no <script>/<link>/<img>/... in $(find "$DOCS" -name '*.html' | wc -l) HTML files and no CSS url() points outside the site"
fi

# Images written by the build but linked from no page (as pkgdown's
# Rplot001.png used to be).
orphans=()
while IFS= read -r img; do
  grep -rqF --include='*.html' "$(basename "$img")" "$DOCS" || orphans+=("${img#"$DOCS"/}")
done < <(find "$DOCS/reference" "$DOCS/articles" -name '*.png' 2>/dev/null)
if [ "${#orphans[@]}" -gt 0 ]; then
  say "FAIL static: ${#orphans[@]} images linked from no page: ${orphans[*]}"
  fail=1
else
  say "ok static: every image in reference/ and articles/ is linked from a page"
fi

# 2. Dynamic: the pages in headless Chromium, offline.
if [ "${#PAGES[@]}" -eq 0 ]; then
  PAGES=(index.html)
  # the first reference page and the first article that have maths
  ref=$(grep -lE '\\\(|\\\[' "$DOCS"/reference/*.html 2>/dev/null | grep -v '/index\.html$' | head -1 || true)
  art=$(grep -lE 'class="math (inline|display)"|\\\(' "$DOCS"/articles/*.html 2>/dev/null | grep -v '/index\.html$' | head -1 || true)
  [ -n "$ref" ] && PAGES+=("${ref#"$DOCS"/}") || { say "FAIL: no reference page with maths found"; fail=1; }
  [ -n "$art" ] && PAGES+=("${art#"$DOCS"/}") || { say "FAIL: no article with maths found"; fail=1; }
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
CHROMIUM="$CHROMIUM" PROFILE="$profile" DOCS_ABS=$(cd "$DOCS" && pwd) node - "${PAGES[@]}" <<'EOF' || fail=1
// A minimal DevTools-protocol client over --remote-debugging-pipe (no npm
// packages needed): fd 3 carries commands to Chromium, fd 4 its replies.
"use strict";
const { spawn } = require("child_process");
const path = require("path");
const { pathToFileURL } = require("url");

const pages = process.argv.slice(2);
const docs = process.env.DOCS_ABS;
const chrome = spawn(process.env.CHROMIUM, [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
  "--user-data-dir=" + process.env.PROFILE, "--no-first-run", "--no-default-browser-check",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-default-apps", "--disable-extensions", "--disable-domain-reliability",
  "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
  "about:blank",
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
let chromeErr = "";
chrome.stderr.on("data", (d) => { chromeErr += d; });

let nextId = 1, buffer = "";
const pending = new Map(), listeners = [];
chrome.stdio[4].on("data", (chunk) => {
  buffer += chunk.toString("utf8");
  let end;
  while ((end = buffer.indexOf("\0")) >= 0) {
    const msg = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      msg.error ? reject(new Error(JSON.stringify(msg.error))) : resolve(msg.result);
    } else if (msg.method) {
      listeners.forEach((f) => f(msg));
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = { id, method, params };
  if (sessionId) msg.sessionId = sessionId;
  chrome.stdio[3].write(JSON.stringify(msg) + "\0");
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What the page's own scripts produced, evaluated in the page.
const probe = `(async () => {
  const r = {};
  if (window.MathJax && MathJax.Hub) {
    await new Promise((done) => MathJax.Hub.Queue(done));
    r.mathjax = MathJax.version;
  } else r.mathjax = null;
  r.mathOutput = document.querySelectorAll(".MathJax, .MathJax_Display, .MathJax_CHTML, .MathJax_SVG, mjx-container").length;
  r.mathErrors = document.querySelectorAll(".MathJax_Error, merror, mjx-merror").length;
  const main = document.querySelector("main") || document.body;
  const clone = main.cloneNode(true);
  clone.querySelectorAll("pre, code, script").forEach((n) => n.remove());
  const t = clone.textContent;
  r.rawTex = (t.match(/\\\\\\(|\\\\\\[|\\$\\$/g) || []).length;
  r.toc = document.querySelectorAll("#toc ul.nav a.nav-link").length;
  r.hasTocNav = !!document.querySelector("#toc");
  r.headroom = !!document.querySelector("nav.navbar.headroom");
  r.copyButtons = document.querySelectorAll(".btn-copy-ex").length;
  r.codeBlocks = document.querySelectorAll("div.sourceCode").length;
  r.search = typeof Fuse === "function" && typeof Mark === "function" &&
    !!(window.jQuery && jQuery.fn.autocomplete);
  // search: focus the box (pkgdown loads the index then), wait for the index,
  // type the heading of its first entry, count real suggestions
  const input = document.querySelector("#search-input");
  r.searchResults = null;
  if (input && window.jQuery) {
    const wait = (ms) => new Promise((w) => setTimeout(w, ms));
    const root = new URL(input.getAttribute("data-search-index"), location.href).href.replace(/search\.json$/, "");
    // (pkgdown 2.0.7 writes some empty entries, with path [])
    const pathsOk = (index) => index.length > 0 &&
      index.every((x) => typeof x.path !== "string" || x.path.startsWith(root));
    const ready = () => window.pkgdownSearchIndex && pathsOk(window.pkgdownSearchIndex) &&
      !input.classList.contains("loading");
    input.dispatchEvent(new FocusEvent("focus"));
    for (let k = 0; k < 100 && !ready(); k++) await wait(100);
    const index = window.pkgdownSearchIndex || [];
    const first = index.find((x) => typeof x.what === "string" && x.what.length > 3);
    r.searchQuery = first ? first.what : "privacy";
    await wait(300);
    jQuery(input).val(r.searchQuery).trigger("input");
    const hits = () => [...document.querySelectorAll(".aa-suggestion")]
      .filter((n) => !/No results found/.test(n.textContent)).length;
    for (let k = 0; k < 50 && !hits(); k++) await wait(100);
    r.searchResults = hits();
    r.searchPathsOk = pathsOk(index);
  }
  await document.fonts.ready;
  r.icons = document.querySelectorAll(".fa, .fas, .far, .fab").length;
  r.fontAwesome = document.fonts.check('900 16px "Font Awesome 5 Free"');
  return r;
})()`;

async function checkPage(rel) {
  const url = pathToFileURL(path.join(docs, rel)).href;
  const problems = [];
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const requests = new Map();
  let loaded = false;
  // MathJax 2's HTML-CSS output declares its blank test font with
  // src: url('about:blank'), which always fails; it is not a resource.
  const mathjaxBlank = (s) => /about:blank/.test(s || "");
  const onEvent = (m) => {
    if (m.sessionId !== sessionId) return;
    const p = m.params;
    if (m.method === "Network.requestWillBeSent") {
      requests.set(p.requestId, p.request.url);
      if (!/^(file|data|blob|about):/.test(p.request.url)) problems.push("request outside the site: " + p.request.url);
    } else if (m.method === "Network.loadingFailed") {
      if (requests.get(p.requestId) === "about:blank") return;
      problems.push("failed request: " + (requests.get(p.requestId) || p.requestId) + " (" + p.errorText + ")");
    } else if (m.method === "Runtime.exceptionThrown") {
      const d = p.exceptionDetails;
      problems.push("JavaScript error: " + ((d.exception && d.exception.description) || d.text).split("\n")[0]);
    } else if (m.method === "Log.entryAdded" && p.entry.level === "error" &&
               !(mathjaxBlank(p.entry.text) && /font|ERR_FAILED/.test(p.entry.text) ||
                 p.entry.url === "about:blank")) {
      problems.push("console error: " + p.entry.text + (p.entry.url ? " (" + p.entry.url + ")" : ""));
    } else if (m.method === "Page.loadEventFired") {
      loaded = true;
    }
  };
  listeners.push(onEvent);
  await send("Network.enable", {}, sessionId);
  await send("Network.emulateNetworkConditions",
    { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }, sessionId);
  await send("Runtime.enable", {}, sessionId);
  await send("Log.enable", {}, sessionId);
  await send("Page.enable", {}, sessionId);
  // a background headless tab gets no focus events otherwise (search loads its index on focus)
  await send("Emulation.setFocusEmulationEnabled", { enabled: true }, sessionId);
  await send("Page.navigate", { url }, sessionId);
  for (let i = 0; i < 600 && !loaded; i++) await sleep(100);
  if (!loaded) problems.push("page did not finish loading in 60 s");
  const res = await Promise.race([
    send("Runtime.evaluate", { expression: probe, awaitPromise: true, returnByValue: true }, sessionId),
    sleep(90000).then(() => null),
  ]);
  await sleep(500); // late requests (fonts, MathJax extensions)
  const r = res && res.result && res.result.value;
  if (!r) {
    problems.push("probe failed: " + JSON.stringify(res && (res.exceptionDetails || res.result)));
  } else {
    if (r.mathOutput > 0 && !r.mathjax) problems.push("maths present but MathJax not loaded");
    if (r.mathErrors > 0) problems.push(r.mathErrors + " MathJax errors");
    if (r.rawTex > 0) problems.push(r.rawTex + " maths delimiters left untypeset");
    if (r.hasTocNav && r.toc === 0) problems.push("table of contents is empty");
    if (!r.headroom) problems.push("headroom.js not applied to the navbar");
    if (r.codeBlocks > 0 && r.copyButtons === 0) problems.push("no copy buttons on code blocks");
    if (!r.search) problems.push("search libraries (fuse.js, autocomplete.js, mark.js) not loaded");
    if (r.searchResults !== null && !(r.searchResults > 0))
      problems.push("search for '" + r.searchQuery + "' found nothing (search index not loaded?)");
    if (r.searchResults !== null && !r.searchPathsOk) problems.push("search results do not point into the site");
    if (r.icons > 0 && !r.fontAwesome) problems.push("Font Awesome font not available");
  }
  listeners.splice(listeners.indexOf(onEvent), 1);
  await send("Target.closeTarget", { targetId });
  const nonFileUrls = [...new Set([...requests.values()].filter((u) => !/^file:/.test(u) && u !== "about:blank"))];
  const nonFile = nonFileUrls.length ? nonFileUrls.length + " not file: " +
    nonFileUrls.map((u) => u.slice(0, 40) + (u.length > 40 ? "..." : "")).join(", ") : "all file:";
  const summary = r ? `MathJax ${r.mathjax || "not loaded"}: ${r.mathOutput} typeset maths elements, ` +
    `${r.mathErrors} errors; toc links ${r.toc}; copy buttons ${r.copyButtons}; ` +
    `search hits ${r.searchResults}; ` +
    `${requests.size} requests (${nonFile})` : "";
  if (problems.length) {
    console.log(`check-site-offline: FAIL ${rel}: ${summary}`);
    [...new Set(problems)].forEach((p) => console.log("    " + p));
  } else {
    console.log(`check-site-offline: ok ${rel}: ${summary}`);
  }
  return problems.length === 0;
}

(async () => {
  let passed = 0, failed = 0;
  const timer = setTimeout(() => { console.log("check-site-offline: Chromium did not answer\n" + chromeErr); process.exit(1); }, 300000);
  try {
    for (const p of pages) (await checkPage(p)) ? passed++ : failed++;
  } catch (e) {
    console.log("check-site-offline: ERROR " + e.message + "\n" + chromeErr.slice(-2000));
    failed++;
  }
  clearTimeout(timer);
  send("Browser.close").catch(() => {});
  await sleep(300);
  const exited = new Promise((done) => chrome.once("exit", done));
  chrome.kill();
  await Promise.race([exited, sleep(5000)]);
  console.log(`check-site-offline: pages: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})();
EOF

if [ "$fail" -ne 0 ]; then
  say "FAILED"
  exit 1
fi
say "all checks passed: $DOCS works offline"
