/* Search on a site opened from disk or copied under any folder.
 * pkgdown's search reads search.json with fetch(), which browsers refuse for
 * file: pages, and the index's paths start at the web server's root
 * ("/reference/..."). So, for search.json only: on file: pages the index is
 * read from search-index.js (written by `make site`) through a <script> tag,
 * and every path is made relative to the folder that holds the index.
 */
(function() {
  "use strict";
  if (!window.fetch) return;
  var originalFetch = window.fetch.bind(window);

  function loadByScript(url) {
    return new Promise(function(resolve, reject) {
      if (window.pkgdownSearchIndex) return resolve(window.pkgdownSearchIndex);
      var script = document.createElement("script");
      script.src = url.replace(/search\.json$/, "search-index.js");
      script.onload = function() { resolve(window.pkgdownSearchIndex || []); };
      script.onerror = function() { reject(new Error("cannot load " + script.src)); };
      document.head.appendChild(script);
    });
  }

  window.fetch = function(resource, init) {
    var url = String((resource && resource.url) || resource);
    if (!/(^|\/)search\.json$/.test(url)) return originalFetch(resource, init);
    var absolute = new URL(url, window.location.href);
    var root = absolute.href.replace(/search\.json$/, "");
    var index = absolute.protocol === "file:" ?
      loadByScript(absolute.href) :
      originalFetch(resource, init).then(function(r) { return r.json(); });
    return index.then(function(items) {
      items.forEach(function(item) {
        if (typeof item.path === "string" && item.path.charAt(0) === "/") {
          item.path = root + item.path.slice(1);
        }
      });
      return { ok: true, status: 200, json: function() { return Promise.resolve(items); } };
    });
  };
})();
