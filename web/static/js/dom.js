// The two DOM helpers every tilecam page script uses. Text goes in with textContent only (player names are typed
// by players), never innerHTML.
"use strict";

window.tilecamDom = {
  $: (id) => document.getElementById(id),
  el: (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  },
};
