// The live scoreboard: draws the view model from /api/events (Server-Sent Events) and keeps drawing it.
// EventSource reconnects by itself and sends Last-Event-ID, so a phone that slept catches up on what it missed.
// Names typed by players go in with textContent only; the board SVG comes from our own engine.
"use strict";

(function () {
  const root = document.getElementById("live");
  if (!root) return;
  const { $, el } = window.tilecamDom;

  let current = null;       // the last state drawn
  let clockBase = 0;        // performance.now() when current arrived, to tick a running clock
  let lastSeq = null;

  // [time left, penalty text]; a running clock is moved on by the time since the state arrived.
  function fmtClock(c) {
    let s = c.remaining_s;
    if (c.running) s -= (performance.now() - clockBase) / 1000;
    const neg = s < 0;
    const a = Math.abs(Math.trunc(s));
    const txt = (neg ? "−" : "") + Math.floor(a / 60) + ":" + String(a % 60).padStart(2, "0");
    let pen = c.penalty || 0;
    if (neg && c.penalty_per_minute) pen = Math.ceil(-s / 60) * c.penalty_per_minute;
    return [txt, pen ? "−" + pen + " pts" : ""];
  }

  function drawPlayers(state) {
    const list = $("players");
    const players = state.players || [];
    list.className = "players n" + players.length + (state.target ? " target" : "");
    // Reuse the same nodes when the player count is unchanged: only text changes, nothing moves.
    if (list.children.length !== players.length) {
      list.replaceChildren();
      players.forEach(() => {
        const li = el("li", "player");
        li.append(el("span", "name"), el("span", "score"), el("span", "clock"), el("span", "progress"));
        list.append(li);
      });
    }
    players.forEach((p, i) => {
      const li = list.children[i];
      const isTurn = state.turn === i && state.status === "active";
      li.classList.toggle("turn", isTurn);
      li.setAttribute("aria-current", isTurn ? "true" : "false");
      const won = state.is_over && (state.winners || []).includes(i);
      li.classList.toggle("winner", !!won);
      li.querySelector(".name").textContent = (isTurn ? "▸ " : won ? "★ " : "") + p.name;
      li.querySelector(".score").textContent = p.score;
      const clock = li.querySelector(".clock");
      if (p.clock) {
        const [time, penalty] = fmtClock(p.clock);
        clock.replaceChildren(el("span", "time", time), el("span", "pen", penalty));
      } else {
        clock.textContent = p.rack_count != null ? p.rack_count + " tiles" : "";
      }
      // Finish Line: how far each player is towards the target
      const bar = li.querySelector(".progress");
      if (state.target) {
        const share = Math.round(100 * ((state.progress || [])[i] || 0));
        const need = (state.to_target || [])[i];
        bar.hidden = false;
        bar.title = need ? need + " to go" : "target reached";
        const fill = el("i");
        fill.style.width = share + "%";
        const track = el("span", "track");
        track.append(fill);
        bar.replaceChildren(track, el("span", "need", need ? need + " to go" : "reached"));
      } else {
        bar.hidden = true;
      }
      clock.classList.toggle("running", !!(p.clock && p.clock.running));
      clock.classList.toggle("over", !!(p.clock && (p.clock.remaining_s < 0 || p.clock.penalty)));
    });
  }

  // a move's flag as a small badge; "phony" reads as a question: only a challenge decides
  function flagBadge(f) {
    return f === "phony" ? el("span", "flag phony", "phony?") : el("span", "flag", f);
  }

  function moveText(m) {
    switch (m.kind) {
      case "play": return m.position + " " + m.word;
      case "pass": return "pass";
      case "exchange": return "exchange " + (m.word || "");
      case "withdraw": return "phony withdrawn";
      case "lose_turn": return "lost challenge";
      case "challenge_bonus": return "challenge bonus";
      case "end_rack": return "rack " + (m.word || "");
      case "end_penalty": return "own rack " + (m.word || "");
      case "time_penalty": return "time penalty";
      case "card": return "card " + (m.word || "");
      case "magical_word": return "magical word " + (m.word || "");
      default: return m.kind.replace(/_/g, " ") + (m.word ? " " + m.word : "");
    }
  }

  function drawLastMove(state) {
    const body = $("lm-body");
    const m = state.last_move;
    body.replaceChildren();
    if (!m) {
      body.textContent = state.status === "none" ? "No game yet — start one on the Control page" : "—";
      return;
    }
    const main = el("div", "lm-main");
    const who = (state.players[m.player] || {}).name || "";
    main.append(el("span", "what", who + ": " + moveText(m)), el("span", "pts", (m.score > 0 ? "+" : "") + m.score));
    body.append(main);
    const detail = el("div", "lm-words");
    if (m.bingo) detail.append(el("span", "flag bingo", "bingo"), document.createTextNode(" "));
    (m.flags || []).forEach((f) => detail.append(flagBadge(f), document.createTextNode(" ")));
    if (m.words && m.words.length) {
      const words = m.words.map((w) => w.word + " " + w.score + (w.breakdown ? " (" + w.breakdown + ")" : ""));
      detail.append(document.createTextNode(words.join(" · ")));
    }
    body.append(detail);
    // Questions only the players can answer (a blank's letter, the racks at the end), for everyone to see.
    const questions = (state.pending || []).map((q) => q.question);
    if (questions.length) body.append(el("div", "lm-question", questions.join(" ")));
  }

  function drawBag(state) {
    $("bag-count").textContent = state.bag == null ? "–" : state.bag;
    $("unseen-count").textContent = state.unseen_total == null ? "–" : state.unseen_total;
    const box = $("unseen");
    box.replaceChildren();
    const unseen = state.unseen || {};
    Object.keys(unseen).sort((a, b) => (a === "?") - (b === "?") || a.localeCompare(b)).forEach((letter) => {
      const n = unseen[letter];
      if (n > 0) box.append(el("span", "grp", letter.repeat(n)));
    });
  }

  function drawMoves(state) {
    const tbody = $("moves").tBodies[0];
    const moves = state.moves || [];
    tbody.replaceChildren();
    for (let i = moves.length - 1; i >= 0; i--) {
      const m = moves[i];
      const tr = el("tr", (m.flags || []).includes("withdrawn") ? "withdrawn" : "");
      const mv = el("td", "mv", moveText(m));
      // a play the camera's lexicon did not know (read clearly): worth a challenge
      if ((m.flags || []).includes("phony")) mv.append(document.createTextNode(" "), flagBadge("phony"));
      tr.append(el("td", "num", m.index + 1), el("td", null, (state.players[m.player] || {}).name || ""),
        mv, el("td", "num", m.score), el("td", "num", m.cumulative));
      tbody.append(tr);
    }
  }

  function draw(state) {
    current = state;
    clockBase = performance.now();
    drawPlayers(state);
    if (state.board_svg !== undefined) $("board").innerHTML = state.board_svg;
    drawLastMove(state);
    drawBag(state);
    drawMoves(state);
    const status = { none: "no game", active: "", paused: "paused", finished: "game over" }[state.status];
    $("game-status").textContent = status === undefined ? state.status : status;
    showCamera(state.device);
    const rules = [];
    if (state.variant_title && state.settings && state.settings.variant !== "tournament") rules.push(state.variant_title);
    if (state.target) rules.push("target " + state.target);
    $("variant").textContent = rules.join(" · ");
    root.dataset.seq = state.seq;
    window.tilecamState = state;
    document.dispatchEvent(new CustomEvent("tilecam:state", { detail: state }));
  }

  // What the camera's move tracker last said (no board found, a hand over it, the board turned …), when it runs:
  // from each state, and polled between events (the camera's state changes without any game event).
  const DEVICE_POLL_MS = 3000;
  function showCamera(device) {
    const tracker = (device || {}).tracker;
    $("camera-status").textContent = tracker ? "camera: " + tracker : "";
  }
  setInterval(() => {
    if (document.hidden) return;
    fetch(root.dataset.deviceUrl, { cache: "no-store" }).then((r) => (r.ok ? r.json() : null))
      .then((device) => { if (device) showCamera(device); }).catch(() => {});
  }, DEVICE_POLL_MS);

  function setConn(ok, text) {
    const c = $("conn");
    c.classList.toggle("live-ok", ok === true);
    c.classList.toggle("live-bad", ok === false);
    $("conn-text").textContent = text;
  }

  function connect() {
    const url = root.dataset.eventsUrl + (lastSeq != null ? "?after=" + lastSeq : "");
    const source = new EventSource(url);
    source.onopen = () => setConn(true, "live");
    source.onerror = () => setConn(false, source.readyState === EventSource.CLOSED ? "offline" : "reconnecting…");
    source.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      lastSeq = msg.seq;
      if (msg.event) root.dataset.events = (parseInt(root.dataset.events || "0", 10) + 1).toString();
      if (msg.state) draw(msg.state);
      setConn(true, "live");
    };
    window.tilecamSource = source;
  }

  // Ticking clocks redraw only the clock text.
  setInterval(() => {
    if (current && (current.players || []).some((p) => p.clock && p.clock.running)) drawPlayers(current);
  }, 250);

  window.tilecamRefresh = function () {
    return fetch(root.dataset.stateUrl, { headers: { Accept: "application/json" } })
      .then((r) => r.json()).then((s) => { if (current == null || s.seq >= current.seq) draw(s); });
  };

  const initial = document.getElementById("initial-state");
  if (initial && initial.textContent.trim() && initial.textContent.trim() !== "null") {
    const state = JSON.parse(initial.textContent);
    draw(state);
    lastSeq = state.seq;
  }
  connect();
})();
