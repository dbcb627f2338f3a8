// Small additions on top of pages that work without JavaScript:
// a copy button for the BibTeX block, and submitting the search form when a select changes.
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

  document.querySelectorAll("form[data-autosubmit]").forEach(function (form) {
    form.querySelectorAll("select").forEach(function (select) {
      select.addEventListener("change", function () {
        if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
      });
    });
  });
})();
