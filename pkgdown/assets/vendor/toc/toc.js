/* Table of contents of a pkgdown page ("On this page").
 * pkgdown 2.0.7 calls bootstrap-toc 1.0.1 from a CDN; that script is in no
 * package registry this project uses, so this is a small stand-in written
 * for riemdp (same licence as the package). Same entry point,
 * Toc.init({$nav, $scope}), and the same markup, which pkgdown's CSS and
 * Bootstrap's scrollspy expect: <ul class="nav nav-pills flex-column"> of
 * <li><a class="nav-link" href="#id">, the highest heading level that occurs
 * more than once at the top, the next level nested below it. Headings marked
 * data-toc-skip are left out; data-toc-text overrides a heading's text.
 */
(function(window, $) {
  "use strict";

  function headingLevel(el) {
    return parseInt(el.tagName.charAt(1), 10);
  }

  function headingText($h) {
    var text = $h.attr("data-toc-text");
    if (text) return text;
    var $copy = $h.clone();
    $copy.find(".anchor, .visually-hidden, [data-toc-skip]").remove();
    return $.trim($copy.text());
  }

  function headingId($h, text) {
    var id = $h.attr("id");
    if (id) return id;
    var base = text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "section";
    id = base;
    for (var i = 1; document.getElementById(id); i++) id = base + "-" + i;
    $h.attr("id", id);
    return id;
  }

  function newList() {
    return $('<ul class="nav nav-pills flex-column"></ul>');
  }

  function topLevel($headings) {
    for (var level = 1; level <= 6; level++) {
      if ($headings.filter("h" + level).length > 1) return level;
    }
    return 1;
  }

  window.Toc = {
    init: function(opts) {
      var $nav = opts.$nav;
      if (!$nav || !$nav.length) return;
      var $headings = opts.$scope.filter(function() {
        return !$(this).is("[data-toc-skip]");
      });
      var top = topLevel($headings);
      var $list = newList();
      var $lastItem = null;
      var $subList = null;
      $headings.each(function() {
        var level = headingLevel(this);
        if (level !== top && level !== top + 1) return;
        var $h = $(this);
        var text = headingText($h);
        var $item = $("<li></li>").append(
          $('<a class="nav-link"></a>').attr("href", "#" + headingId($h, text)).text(text));
        if (level === top || !$lastItem) {
          $list.append($item);
          $lastItem = $item;
          $subList = null;
        } else {
          if (!$subList) {
            $subList = newList();
            $lastItem.append($subList);
          }
          $subList.append($item);
        }
      });
      $nav.attr("data-toggle", "toc").append($list);
    }
  };
})(window, window.jQuery);
