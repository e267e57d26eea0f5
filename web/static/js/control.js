// The players' controls: unlock with the PIN, then every change is a POST with the session's header token.
// The result shows up through the live stream like any other event; this page only reports refusals.
"use strict";

(function () {
  const pinPanel = document.getElementById("pin-panel");
  const controls = document.getElementById("controls");
  const msg = document.getElementById("msg");
  let csrf = null;

  function say(text, ok) {
    msg.textContent = text;
    msg.className = "msg " + (ok ? "ok" : "bad");
  }

  function unlocked(token) {
    csrf = token;
    pinPanel.hidden = !!token;
    controls.hidden = !token;
  }

  async function postJson(url, body) {
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (csrf) headers["X-CSRF-Token"] = csrf;
    const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(body || {}), credentials: "same-origin" });
    let data = {};
    try { data = await r.json(); } catch (e) { data = { error: r.statusText }; }
    return { ok: r.ok, status: r.status, data };
  }

  document.getElementById("pin-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = document.getElementById("pin");
    const r = await postJson("/auth/pin", { pin: input.value });
    input.value = "";
    if (r.ok) { unlocked(r.data.csrf); say("Unlocked.", true); }
    else { alert(r.data.error || "wrong PIN"); }
  });

  document.getElementById("logout").addEventListener("click", async () => {
    await postJson("/auth/logout", {});
    unlocked(null);
  });

  async function act(action, body) {
    const r = await postJson("/api/game/" + action, body);
    if (r.status === 401) { unlocked(null); say("Enter the PIN again.", false); return; }
    if (!r.ok) { say(r.data.error || ("refused (" + r.status + ")"), false); return; }
    say(r.data.message || "Done.", true);
  }

  document.querySelectorAll("button[data-action]").forEach((b) => {
    b.addEventListener("click", () => {
      const action = b.dataset.action;
      if (action === "pause") act("pause", { paused: b.dataset.paused !== "true" });
      else if (action === "undo") { if (confirm("Undo the last change?")) act("undo", {}); }
      else if (action === "challenge" && b.dataset.valid) act("challenge", { valid: b.dataset.valid === "true" });
      else act(action, {});
    });
  });

  function formBody(form) {
    const body = {};
    const data = new FormData(form);
    for (const [k, v] of data.entries()) {
      if (k === "player") { (body.players = body.players || []); if (String(v).trim()) body.players.push(String(v).trim()); }
      else if (k.startsWith("rack-")) {
        // Empty: let the engine work the rack out (two players); "-": nothing left on it.
        const rack = String(v).trim();
        if (rack) (body.racks = body.racks || {})[k.slice(5)] = rack === "-" ? "" : rack;
      }
      else body[k] = String(v).trim();
    }
    return body;
  }

  document.querySelectorAll("form[data-action]").forEach((form) => {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const action = form.dataset.action;
      const body = formBody(form);
      if (action === "new_game") {
        const minutes = parseInt(body.clock_minutes || "0", 10);
        delete body.clock_minutes;
        // only Finish Line has a target: a typed score wins over the level's
        if (document.getElementById("ng-finish-line").hidden) { delete body.level; delete body.target; }
        else if (body.target) delete body.level;
        else delete body.target;
        body.clock_seconds = minutes > 0 ? minutes * 60 : null;
        act("new", body).then(() => form.closest("details").removeAttribute("open"));
        return;
      }
      act(action, body);
    });
  });

  // The new-game form follows the registry: a variant brings its tile set and challenge rule, Finish Line shows
  // its level and target (the targets table by level and number of players), a tile set says whether the shipped
  // word list judges it.
  const registry = JSON.parse(document.getElementById("registry").textContent);
  const ngVariant = document.getElementById("ng-variant");
  const ngTiles = document.getElementById("ng-tileset");
  function targetHint() {
    const form = document.getElementById("new-game-form");
    const players = Array.from(form.querySelectorAll("input[name=player]")).filter((i) => i.value.trim()).length;
    const level = document.getElementById("ng-level").value;
    const row = registry.finish_line.targets.find((t) => t.level === level && t.players === Math.max(2, players));
    document.getElementById("ng-target-hint").textContent = row ? "Target for " + row.players + " players at " +
      level + ": " + row.target + " points." : "";
  }
  function lexiconHint() {
    const info = registry.tilesets.find((t) => t.name === ngTiles.value) || {};
    const lexicon = document.getElementById("ng-lexicon").value.trim();
    const shipped = lexicon === "enable1";
    document.getElementById("ng-lexicon-hint").textContent = shipped && !info.lexicon
      ? "No word list ships for these tiles: the players decide challenges (or give the path of a word list)."
      : "enable1 judges English games; another language needs the path of a word list on the device, or none.";
  }
  ngVariant.addEventListener("change", () => {
    const opt = ngVariant.selectedOptions[0];
    ngTiles.value = opt.dataset.tileset || "english";
    const challenge = document.querySelector("#new-game-form select[name=challenge_rule]");
    challenge.value = opt.dataset.challenge || "double";
    document.getElementById("ng-finish-line").hidden = !opt.dataset.target;
    targetHint();
    lexiconHint();
  });
  ngTiles.addEventListener("change", lexiconHint);
  document.getElementById("ng-lexicon").addEventListener("input", lexiconHint);
  document.getElementById("ng-level").addEventListener("change", targetHint);
  document.getElementById("new-game-form").addEventListener("input", targetHint);

  // The end-of-game form asks for the racks of the players who did not go out (the camera cannot see racks).
  function onState(state) {
    const pause = document.getElementById("pause-btn");
    pause.dataset.paused = state.status === "paused" ? "true" : "false";
    pause.textContent = state.status === "paused" ? "Resume" : "Pause";
    document.getElementById("pending").textContent = (state.pending || []).map((q) => q.question).join(" ");
    document.getElementById("harry-potter").hidden = !(state.cards || state.magical_words);
    document.getElementById("card-form").hidden = !state.cards;
    document.getElementById("magical-form").hidden = !state.magical_words;
    const box = document.getElementById("end-racks");
    const names = (state.players || []).map((p) => p.name);
    if (box.dataset.names === JSON.stringify(names)) return;
    box.dataset.names = JSON.stringify(names);
    box.replaceChildren();
    names.forEach((name, i) => {
      const row = document.createElement("label");
      row.className = "end-rack";
      row.textContent = name + "'s rack ";
      const input = document.createElement("input");
      input.name = "rack-" + i;
      input.placeholder = "tiles left, - for none";
      input.setAttribute("aria-label", name + " rack");
      row.append(input);
      box.append(row);
    });
  }
  document.addEventListener("tilecam:state", (e) => onState(e.detail));
  // live.js (loaded first) may have drawn the page's initial state before this listener existed.
  if (window.tilecamState) onState(window.tilecamState);

  fetch("/auth/status", { headers: { Accept: "application/json" } })
    .then((r) => r.json()).then((s) => unlocked(s.authorised ? s.csrf : null));
})();
