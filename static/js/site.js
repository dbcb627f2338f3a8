// Small additions on top of pages that work without JavaScript: a copy button for the BibTeX
// block, submitting the search form when a select changes, the search forms showing the URL's
// state after Back, the filters open on wide screens, and a filter box in long facets.
(function () {
  "use strict";

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "visually-hidden";
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand("copy");
      document.body.removeChild(area);
      if (ok) { resolve(); } else { reject(new Error("copy failed")); }
    });
  }

  document.querySelectorAll("button[data-copy-target]").forEach(function (button) {
    var target = document.getElementById(button.getAttribute("data-copy-target"));
    var status = button.parentElement.querySelector(".copy-status");
    if (!target) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      copyText(target.textContent).then(function () {
        if (status) { status.textContent = "Copied to the clipboard."; }
      }, function () {
        if (status) { status.textContent = "Could not copy: select the text and copy it by hand."; }
      });
    });
  });

  // A choice made with the pointer applies at once; one made with the keys applies on Enter or
  // when the menu is left: each arrow key reloaded the page and lost the keyboard's place.
  document.querySelectorAll("form[data-autosubmit]").forEach(function (form) {
    function submit() {
      if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    }
    form.querySelectorAll("select").forEach(function (select) {
      var keyed = false;
      var shown = select.value;
      select.addEventListener("keydown", function (event) {
        if (event.key === "Enter") {
          event.preventDefault();
          if (select.value !== shown) { submit(); }
        } else if (event.key === " " || event.key === "F4" || event.altKey) {
          // The keys that open the list: a choice made in it applies as the pointer's does.
          keyed = false;
        } else if (event.key !== "Tab") {
          keyed = true;
        }
      });
      select.addEventListener("mousedown", function () { keyed = false; });
      select.addEventListener("change", function () {
        if (!keyed) { submit(); }
      });
      select.addEventListener("blur", function () {
        if (keyed && select.value !== shown) { submit(); }
        keyed = false;
      });
    });
  });

  // A page shown again by Back (from the back-forward cache, or with the fields the browser
  // refilled) shows what its URL asks for: the values the server wrote, not the later ones.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[role=search]").forEach(function (form) { form.reset(); });
    document.querySelectorAll("[data-facet-filter]").forEach(function (box) {
      box.value = "";
      filterFacet(box);
    });
  });

  // The filters, and a venue's or a topic's charts, are disclosures on narrow screens (the
  // papers first) and always open on wide.
  var wide = window.matchMedia("(min-width: 52.01rem)");
  function placeFilters() {
    document.querySelectorAll("details[data-filters], details[data-wide-open]").forEach(function (details) {
      if (wide.matches) { details.open = true; }
    });
    // On wide screens a chart's fold is no control: out of the keys' way, as it is out of
    // the pointer's (it was a tab stop that said "collapsed" over a chart still shown).
    document.querySelectorAll("details[data-wide-open] > summary").forEach(function (summary) {
      if (wide.matches) { summary.setAttribute("tabindex", "-1"); } else { summary.removeAttribute("tabindex"); }
    });
  }
  document.addEventListener("click", function (event) {
    var summary = event.target.closest("details[data-wide-open] > summary");
    if (summary && wide.matches) { event.preventDefault(); }
  });
  placeFilters();
  if (wide.addEventListener) { wide.addEventListener("change", placeFilters); }
  // On a phone a filter chosen in the open filters loads a new page: the filters open again
  // there, so that a second filter is a tap away, not a tap on "Filters" and a scroll.
  var OPEN_FILTERS = "papers-filters-open";
  document.addEventListener("click", function (event) {
    var modified = event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey;
    if (wide.matches || modified || event.defaultPrevented) { return; }
    if (!event.target.closest("details[data-filters] a.facet-link")) { return; }
    try { window.sessionStorage.setItem(OPEN_FILTERS, "1"); } catch (error) { /* no storage */ }
  });
  try {
    if (window.sessionStorage.getItem(OPEN_FILTERS)) {
      window.sessionStorage.removeItem(OPEN_FILTERS);
      document.querySelectorAll("details[data-filters]").forEach(function (details) {
        details.open = true;
      });
    }
  } catch (error) { /* storage refused: the filters stay as the page has them */ }
  // On a phone the open filters push the results a screen or more down: "Show results"
  // closes them and goes to the results (without the script, the link only goes there).
  document.addEventListener("click", function (event) {
    var done = event.target.closest("[data-filters-done]");
    if (!done) { return; }
    var details = done.closest("details[data-filters]");
    if (details && !wide.matches) { details.open = false; }
  });

  // A filter box hides the rows of its facet whose names lack the text, and opens the
  // "Show all" part and any volumes so that every match is in sight. Of a conference whose
  // volume matches, the volumes that do not are hidden and its main volume, shown for its
  // place, is dimmed ("findings" showed every volume of each conference with a Findings).
  // While it filters, the fold's "Show fewer" is hidden, and no match is said in words.
  function filterFacet(box) {
    var facet = box.closest("[data-facet]");
    var text = box.value.trim().toLowerCase();
    facet.querySelectorAll("[data-filter-text]").forEach(function (row) {
      var hit = !text || row.getAttribute("data-filter-text").indexOf(text) !== -1;
      row.hidden = !hit;
      var named = false;
      row.querySelectorAll("[data-volume-text]").forEach(function (volume) {
        var own = !text || volume.getAttribute("data-volume-text").indexOf(text) !== -1;
        volume.hidden = !own;
        named = named || (own && text !== "");
      });
      var head = row.querySelector(":scope > .facet-link");
      var main = row.getAttribute("data-main-text") || "";
      if (head) { head.classList.toggle("filter-context", hit && named && main.indexOf(text) === -1); }
      var volumes = row.querySelector("details.volumes");
      if (volumes) { volumes.open = text ? hit : volumes.hasAttribute("data-selected"); }
    });
    facet.querySelectorAll(".series").forEach(function (series) {
      series.hidden = !series.querySelector("[data-filter-text]:not([hidden])");
    });
    facet.querySelectorAll("details.facet-more").forEach(function (more) {
      if (text) { more.open = true; }
      // Its summary only: a topic facet's fold holds rows of its own.
      more.querySelector(":scope > summary").hidden = text !== "";
    });
    var none = facet.querySelector("[data-filter-none]");
    if (none) {
      none.hidden = !text || !!facet.querySelector("[data-filter-text]:not([hidden])");
      none.textContent = "No name here has “" + box.value.trim() + "”.";
    }
  }
  // "Show N more venues" shows rows above it, each in its series: the focus goes to the first
  // of them (a keyboard went on past the rows it had just shown), and a screen reader hears
  // how many it shows.
  document.addEventListener("click", function (event) {
    var summary = event.target.closest(".venues-more > summary");
    if (!summary) { return; }
    var more = summary.parentNode;
    window.setTimeout(function () {
      if (!more.open) { return; }
      var first = more.closest("[data-facet]").querySelector(".event.is-more:not([hidden]) .facet-link");
      if (first) { first.focus(); }
      if (window.paperLists) {
        var count = more.getAttribute("data-more");
        window.paperLists.announce(count + (count === "1" ? " more venue" : " more venues") + " shown, each in its series.");
      }
    }, 0);
  });
  // How many rows a filter box leaves is told to screen readers once the typing pauses.
  function announceRows(box) {
    var facet = box.closest("[data-facet]");
    var rows = facet.querySelectorAll("[data-filter-text]");
    var shown = facet.querySelectorAll("[data-filter-text]:not([hidden])").length;
    if (window.paperLists) {
      window.paperLists.announce(box.value.trim() ? shown + " of " + rows.length + " shown." : "All " + rows.length + " shown.");
    }
  }
  document.querySelectorAll("[data-facet-filter]").forEach(function (box) {
    var pause = null;
    box.hidden = false;
    box.addEventListener("input", function () {
      filterFacet(box);
      window.clearTimeout(pause);
      pause = window.setTimeout(function () { announceRows(box); }, 500);
    });
  });
})();
