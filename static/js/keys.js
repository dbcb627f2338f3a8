// Keyboard browsing: "/" search, j/k next and previous paper, Enter open, s save, c copy the
// BibTeX, ? the shortcuts. Never while typing in a field, never with Ctrl, Alt or Meta, never
// once turned off in the shortcuts' dialog; each move is announced through the page's live
// region (#announcer). Needs lists.js first.
(function () {
  "use strict";

  var lists = window.paperLists;
  var dialog = document.getElementById("shortcuts");

  function typing(target) {
    if (!target || !target.tagName) { return false; }
    return /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable;
  }

  function rows() {
    var main = document.querySelector("main .result-list");
    var list = main || document.querySelector("main .similar-list");
    return list ? Array.prototype.slice.call(list.querySelectorAll(":scope > li[data-paper-id]")) : [];
  }

  // The row holding the focus (the reader may have tabbed), else the one selected last.
  function selectedIndex(all) {
    var active = document.activeElement;
    var holder = active && active.closest ? active.closest("li[data-paper-id]") : null;
    if (holder && all.indexOf(holder) >= 0) { return all.indexOf(holder); }
    for (var index = 0; index < all.length; index += 1) {
      if (all[index].classList.contains("is-selected")) { return index; }
    }
    return -1;
  }

  function select(all, index) {
    all.forEach(function (row) { row.classList.remove("is-selected"); });
    var row = all[index];
    row.classList.add("is-selected");
    var link = row.querySelector("a");
    if (link) { link.focus(); }
    row.scrollIntoView({ block: "nearest" });
    lists.announce("Paper " + (index + 1) + " of " + all.length + ": " + lists.rowTitle(row) + ".");
  }

  function move(step) {
    var all = rows();
    if (!all.length) {
      lists.announce("No list of papers on this page.");
      return;
    }
    var index = selectedIndex(all);
    var next = index < 0 ? (step > 0 ? 0 : all.length - 1) : index + step;
    if (next < 0 || next >= all.length) {
      lists.announce(next < 0 ? "This is the first paper." : "This is the last paper.");
      return;
    }
    select(all, next);
  }

  // The paper the keys act on: the selected row, else the paper of a paper page.
  function current() {
    var all = rows();
    var index = selectedIndex(all);
    if (index >= 0) { return all[index]; }
    return document.querySelector("article.paper");
  }

  function currentId(target) {
    var toggle = target && target.querySelector(".save-toggle");
    return toggle ? toggle.getAttribute("data-save") : null;
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) { return navigator.clipboard.writeText(text); }
    return Promise.reject(new Error("no clipboard"));
  }

  function copyCitation() {
    var target = current();
    var id = currentId(target);
    if (!id) {
      lists.announce("Select a paper first: press j.");
      return;
    }
    var title = lists.rowTitle(target.querySelector(".save-toggle"));
    fetch(lists.listUrl([id]) + "&format=bibtex", { credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (text) {
        var entry = text.split("\n").filter(function (line) { return line.charAt(0) !== "%"; }).join("\n").trim();
        if (!entry) {
          lists.announce("No citation: the source gives this paper no title.");
          return null;
        }
        return copy(entry).then(function () {
          lists.announce("Copied the BibTeX of " + title + ".");
        });
      })
      .catch(function () { lists.announce("Could not copy the citation."); });
  }

  function save() {
    var target = current();
    var button = target && target.querySelector(".save-toggle");
    if (!button) {
      lists.announce("Select a paper first: press j.");
      return;
    }
    button.click();
  }

  function focusSearch() {
    var box = document.getElementById("id_q") || document.getElementById("header-q") ||
      document.querySelector("main input[type=search]");
    if (box) {
      box.focus();
      box.select();
    }
  }

  function open() {
    var all = rows();
    var index = selectedIndex(all);
    if (index < 0) { return false; }
    var link = all[index].querySelector("a");
    var active = document.activeElement;
    // A focused link, button or field answers Enter itself.
    if (!link || (active && active.closest && active.closest("a, button, input, select, textarea, summary"))) {
      return false;
    }
    window.location.href = link.href;
    return true;
  }

  function showShortcuts() {
    if (dialog && !dialog.open) { dialog.showModal(); }
  }

  var actions = {
    "/": focusSearch,
    j: function () { move(1); },
    k: function () { move(-1); },
    s: save,
    c: copyCitation,
    "?": showShortcuts,
  };

  // The keys can be turned off in the shortcuts' dialog (WCAG 2.1.4): a stray "s" saved a
  // paper. The choice is kept in this browser.
  var SWITCH = "papers.shortcuts";
  var switchedOff = false;  // the choice, where the browser keeps no storage

  function keysOn() {
    try { return window.localStorage.getItem(SWITCH) !== "off"; } catch (error) { return !switchedOff; }
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (typing(event.target) || (dialog && dialog.open) || !keysOn()) { return; }
    if (event.key === "Enter") {
      // A focused link or button opens itself; only a selection without focus needs help.
      if (open()) { event.preventDefault(); }
      return;
    }
    var action = actions[event.key];
    if (!action) { return; }
    event.preventDefault();
    action();
  });

  if (dialog) {
    document.querySelectorAll("[data-open-shortcuts]").forEach(function (button) {
      button.closest(".shortcuts-hint").hidden = false;
      button.addEventListener("click", showShortcuts);
    });
    dialog.querySelector("[data-close-shortcuts]").addEventListener("click", function () {
      dialog.close();
    });
    var toggle = dialog.querySelector("[data-shortcuts-switch]");
    toggle.checked = keysOn();
    toggle.addEventListener("change", function () {
      switchedOff = !toggle.checked;
      try { window.localStorage.setItem(SWITCH, toggle.checked ? "on" : "off"); } catch (error) { /* kept for this page */ }
      lists.announce(toggle.checked ? "Single-key shortcuts on." : "Single-key shortcuts off.");
    });
  }
})();
