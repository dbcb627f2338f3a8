// The reader's list, kept in this browser (localStorage "papers:list": paper ids in order).
// Save toggles on every paper, the count beside "My list", the list page's reordering and
// removing, and the other tabs kept in step through the storage event. The pages work without
// this script: /list/?ids=… is rendered by the server; only saving needs it.
(function () {
  "use strict";

  var KEY = "papers:list";
  // The list a shared one replaced, kept until brought back or let go (it was lost as soon as
  // the reader left the page: an outside tester).
  var FORMER = "papers:former-list";
  var MAX = 500;
  var ID = /^[0-9]{1,18}$/;

  function read(key) {
    var value;
    try {
      value = JSON.parse(window.localStorage.getItem(key || KEY) || "[]");
    } catch (error) {
      return [];
    }
    if (!Array.isArray(value)) { return []; }
    var seen = {};
    return value.map(String).filter(function (id) {
      var fresh = ID.test(id) && !seen[id];
      seen[id] = true;
      return fresh;
    });
  }

  function announce(text) {
    var region = document.getElementById("announcer");
    if (!region) { return; }
    // Emptied first so that the same words said twice are announced twice.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 50);
  }

  function listUrl(ids) {
    var link = document.querySelector(".my-list-link");
    var base = link ? link.getAttribute("href") : "/list/";
    return ids.length ? base + "?ids=" + ids.join(",") : base;
  }

  function showState() {
    var ids = read();
    document.querySelectorAll(".save-toggle").forEach(function (button) {
      button.hidden = false;
      button.setAttribute("aria-pressed", ids.indexOf(button.getAttribute("data-save")) >= 0 ? "true" : "false");
    });
    document.querySelectorAll(".my-list-count").forEach(function (count) {
      count.hidden = ids.length === 0;
      count.textContent = ids.length ? " (" + ids.length + ")" : "";
    });
  }

  function write(ids) {
    window.localStorage.setItem(KEY, JSON.stringify(ids.slice(0, MAX)));
    showState();
  }

  function rowTitle(element) {
    var row = element.closest("[data-paper-id]");
    var link = row ? row.querySelector("a") : document.querySelector("h1");
    return link ? link.textContent.trim() : "this paper";
  }

  // A note beside the button for a sighted reader, who hears no announcement: the button
  // alone, unchanged, looked dead (the announcer says the same to a screen reader).
  function noteBeside(button, text) {
    var note = button.parentNode.querySelector(".save-note");
    if (!note) {
      note = document.createElement("span");
      note.className = "save-note";
      note.setAttribute("aria-hidden", "true");
      button.insertAdjacentElement("afterend", note);
    }
    note.textContent = text;
    window.clearTimeout(note.hideTimer);
    note.hideTimer = window.setTimeout(function () { note.remove(); }, 8000);
  }

  // Saves the paper or takes it off the list; true when it is saved afterwards.
  function toggle(id, title, button) {
    var ids = read();
    var at = ids.indexOf(id);
    if (at >= 0) {
      ids.splice(at, 1);
    } else if (ids.length >= MAX) {
      var full = "Your list is full: it holds at most " + MAX + " papers.";
      announce(full);
      if (button) { noteBeside(button, full + " Remove some on My list first."); }
      return false;
    } else {
      ids.push(id);
    }
    write(ids);
    announce((at >= 0 ? "Removed from your list: " : "Saved to your list: ") + title + ".");
    return at < 0;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest(".save-toggle");
    if (!button) { return; }
    var row = button.closest(".reading-list > li");
    if (row && isOwn()) {
      // On the reader's own list (its buttons hidden there, pressed by the "s" key), taking a
      // paper off the list removes its row too.
      removeRow(row, rowTitle(button));
      return;
    }
    toggle(button.getAttribute("data-save"), rowTitle(button), button);
  });

  // --- the list page ------------------------------------------------------------------------

  var page = document.querySelector(".list-page");

  function pageIds() {
    return Array.prototype.map.call(
      page.querySelectorAll(".reading-list > li[data-paper-id]"),
      function (row) { return row.getAttribute("data-paper-id"); }
    );
  }

  function isOwn() {
    return Boolean(page) && page.getAttribute("data-own") === "true";
  }

  // The first row cannot move up nor the last down: their buttons say so by looking
  // unavailable (aria-disabled, not disabled: they keep their focus and say why when pressed).
  function markEnds() {
    var rows = page.querySelectorAll(".reading-list > li[data-paper-id]");
    rows.forEach(function (row, index) {
      row.querySelector(".move-up").setAttribute("aria-disabled", index === 0 ? "true" : "false");
      row.querySelector(".move-down").setAttribute("aria-disabled", index === rows.length - 1 ? "true" : "false");
    });
  }

  function pageChanged(message) {
    markEnds();
    var ids = pageIds();
    var url = listUrl(ids);
    window.history.replaceState(null, "", url);
    var share = document.getElementById("share-url");
    if (share) { share.value = new URL(url, window.location.href).href; }
    page.querySelectorAll(".exports a[href*='format=']").forEach(function (link) {
      var format = new URL(link.href).searchParams.get("format");
      link.setAttribute("href", "?ids=" + ids.join(",") + "&format=" + format);
    });
    // The export links' label counts the papers they now hold (a list holds at most MAX), as
    // the server writes it: the papers without a title are left out of an export.
    var label = page.querySelector(".exports-label");
    if (label) {
      var untitled = page.querySelectorAll(".reading-list > li[data-untitled]").length;
      var exported = ids.length - untitled;
      label.textContent = exported ?
        "Export " + (exported === 1 ? "this paper" : "these " + exported + " papers") +
          (untitled ? " (" + untitled + " without a title left out)" : "") + ":" :
        "No paper here has a title to export.";
      var links = page.querySelector(".exports .export-links");
      if (links) { links.hidden = !exported; }
    }
    var status = document.getElementById("list-status");
    if (status) {
      status.textContent = ids.length + (ids.length === 1 ? " paper." : " papers.");
    }
    page.setAttribute("data-list-ids", ids.join(","));
    // The tab's title counts the papers the list holds now (it kept the first count).
    document.title = document.title.replace(/^Reading list \(\d+\)|^My list/, ids.length ? "Reading list (" + ids.length + ")" : "My list");
    if (isOwn()) { write(ids); }
    if (!ids.length) { showEmpty(); }
    announce(message);
  }

  // A list emptied on its page reads as a list never filled: no count, link or exports of
  // nothing, the same words the server writes for an empty list. "My list" only when it is
  // the reader's; the way back to a former list stays offered.
  function showEmpty() {
    var empty = document.getElementById("list-empty-text");
    Array.prototype.forEach.call(page.children, function (child) {
      if (!child.classList.contains("undo-adopt")) { child.hidden = true; }
    });
    if (empty) { empty.hidden = false; }
    var heading = document.querySelector("h1");
    if (heading && isOwn()) { heading.textContent = "My list"; }
  }

  function removeRow(row, title) {
    var next = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    (next ? next.querySelector(".remove") : document.querySelector("h1")).focus();
    pageChanged("Removed " + title + " from this list.");
  }

  function edit(event) {
    var button = event.target.closest(".move-up, .move-down, .remove");
    if (!button) { return; }
    var row = button.closest("li[data-paper-id]");
    var title = rowTitle(button);
    if (button.classList.contains("remove")) {
      removeRow(row, title);
      return;
    }
    var up = button.classList.contains("move-up");
    var other = up ? row.previousElementSibling : row.nextElementSibling;
    if (!other) {
      announce(title + " is already " + (up ? "first." : "last."));
      return;
    }
    row.parentNode.insertBefore(row, up ? other : other.nextElementSibling);
    button.focus();
    var position = pageIds().indexOf(row.getAttribute("data-paper-id")) + 1;
    pageChanged("Moved " + title + " to position " + position + " of " + pageIds().length + ".");
  }

  function markOwn() {
    var own = page.getAttribute("data-list-ids") === read().join(",");
    page.setAttribute("data-own", own ? "true" : "false");
    var adopt = page.querySelector(".adopt");
    if (adopt) { adopt.hidden = own; }
    // Adding is replacing while one's own list is empty: only one button says so. Once one's
    // list holds every paper here, there is nothing to add, and the page says so (the button
    // stayed, with no sign that the papers were added).
    var add = page.querySelector(".add-to-list");
    if (add) {
      var mine = read();
      var held = pageIds().every(function (id) { return mine.indexOf(id) >= 0; });
      add.hidden = mine.length === 0 || held;
      page.querySelector(".list-held").hidden = mine.length === 0 || !held;
    }
  }

  // A shared list's papers join one's own after those saved, up to MAX.
  function addToOwn() {
    var mine = read();
    var fresh = pageIds().filter(function (id) { return mine.indexOf(id) < 0; });
    var room = Math.max(0, MAX - mine.length);
    write(mine.concat(fresh.slice(0, room)));
    markOwn();
    if (!fresh.length) {
      announce("Your list holds these papers already.");
    } else if (fresh.length > room) {
      announce("Added " + room + " of " + fresh.length + " papers: your list holds at most " + MAX + ".");
    } else {
      announce("Added " + fresh.length + (fresh.length === 1 ? " paper" : " papers") + " to your list, after the " + mine.length + " saved.");
    }
  }

  function setUpListPage() {
    var shown = page.getAttribute("data-list-ids");
    var asked = new URLSearchParams(window.location.search).has("ids");
    var saved = read();
    if (!shown && !asked && saved.length) {
      window.location.replace(listUrl(saved));
      return;
    }
    markOwn();
    markEnds();
    page.querySelectorAll(".list-edit").forEach(function (span) { span.hidden = false; });
    page.addEventListener("click", edit);
    var add = page.querySelector(".add-to-list");
    if (add) { add.addEventListener("click", addToOwn); }
    var adopt = page.querySelector(".adopt-list");
    if (adopt) { adopt.addEventListener("click", adoptList); }
    if (isOwn()) { offerFormer(read(FORMER)); }
  }

  // Making a shared list one's own replaces the list saved: it is kept, and offered back on
  // one's list, until brought back or let go.
  function adoptList() {
    var former = read();
    write(pageIds());
    markOwn();
    document.querySelector("h1").focus();
    if (former.length && former.join(",") !== read().join(",")) {
      window.localStorage.setItem(FORMER, JSON.stringify(former));
    }
    var papers = offerFormer(former);
    announce(papers ? "This list is now your list. It replaced your former list of " + papers + ": “Bring back my former list” undoes it." : "This list is now your list.");
  }

  // The way back to the list a shared one replaced: its size ("3 papers"), or "" for none.
  function offerFormer(former) {
    var undo = page.querySelector(".undo-adopt");
    if (!undo || !former.length || former.join(",") === read().join(",")) { return ""; }
    var papers = former.length === 1 ? "1 paper" : former.length + " papers";
    var button = undo.querySelector(".bring-back");
    button.textContent = "Bring back my former list (" + papers + ")";
    undo.hidden = false;
    function settled(message) {
      window.localStorage.removeItem(FORMER);
      undo.hidden = true;
      markOwn();
      // The button hides itself: the keyboard goes back to the page's heading, not to nowhere.
      document.querySelector("h1").focus();
      announce(message);
    }
    button.onclick = function () {
      write(former);
      settled("Your former list of " + papers + " is back.");
    };
    undo.querySelector(".keep-list").onclick = function () {
      settled("Your former list of " + papers + " is let go.");
    };
    return papers;
  }

  function setUpCopyLink() {
    document.querySelectorAll("button[data-copy-value]").forEach(function (button) {
      var input = document.getElementById(button.getAttribute("data-copy-value"));
      var status = button.parentElement.querySelector(".copy-status");
      if (!input) { return; }
      button.hidden = false;
      button.addEventListener("click", function () {
        input.select();
        var done = navigator.clipboard && window.isSecureContext
          ? navigator.clipboard.writeText(input.value)
          : Promise.resolve(document.execCommand("copy"));
        done.then(function () { status.textContent = "Link copied."; });
      });
    });
  }

  window.addEventListener("storage", function (event) {
    if (event.key !== KEY && event.key !== null) { return; }
    showState();
    if (!page) { return; }
    if (isOwn() && page.getAttribute("data-list-ids") !== read().join(",")) {
      window.location.replace(listUrl(read()));
    } else {
      markOwn();
    }
  });

  window.paperLists = { toggle: toggle, announce: announce, rowTitle: rowTitle, listUrl: listUrl };
  showState();
  if (page) { setUpListPage(); }
  setUpCopyLink();
})();
