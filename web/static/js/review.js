// Game review: step through a recorded game (slider, buttons, arrow keys) with the board, the photo taken at that
// move, a score chart drawn here as inline SVG, and per-player statistics.
"use strict";

(function () {
  const root = document.getElementById("review");
  if (!root) return;
  const { $, el } = window.tilecamDom;
  const SVG = "http://www.w3.org/2000/svg";
  const svgEl = (tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  };
  const COLORS = ["#1f6f50", "#c0392b", "#2c6fbb", "#b7791f"];

  let data = null;
  let frame = 0;
  const svgCache = new Map();
  let boardRequest = 0;

  function describe(e, players) {
    if (!e) return "Start of the game";
    const who = players[e.player] + ": ";
    const pts = (e.score > 0 ? " +" : " ") + e.score;
    switch (e.kind) {
      case "play": return who + e.position + " " + e.word + pts + (e.bingo ? " (bingo)" : "");
      case "pass": return who + "pass";
      case "exchange": return who + "exchange " + (e.letters || e.count || "");
      case "withdraw": return who + "phony " + e.word + " withdrawn" + pts;
      case "challenge_bonus": return who + "challenge bonus" + pts;
      case "lose_turn": return who + "lost challenge, loses turn";
      case "end_rack": return who + "rack of others " + (e.letters || "") + pts;
      case "end_penalty": return who + "own rack " + (e.letters || "") + pts;
      case "time_penalty": return who + "time penalty" + pts;
      case "card": return who + "card " + (e.word || "") + pts;
      case "magical_word": return who + "magical word " + (e.word || "") + pts;
      default: return who + e.kind.replace(/_/g, " ") + pts;
    }
  }

  async function boardSvg(f) {
    const key = f.rows.join("/") + "|" + (f.last ? f.last.position + " " + f.last.word : "");
    if (svgCache.has(key)) return svgCache.get(key);
    const q = new URLSearchParams({ rows: f.rows.join("/"), layout: data.layout || "standard15",
      tileset: data.tileset || "english" });
    if (f.last) { q.set("position", f.last.position); q.set("word", f.last.word); }
    const r = await fetch(root.dataset.boardUrl + "?" + q.toString());
    const text = r.ok ? await r.text() : "";
    svgCache.set(key, text);
    return text;
  }

  function drawChart() {
    const box = $("chart");
    const n = data.frames.length - 1;
    const W = 320, H = 150, L = 30, B = 18, T = 6, R = 6;
    let max = 10;
    data.frames.forEach((f) => f.totals.forEach((t) => { if (t > max) max = t; }));
    const x = (i) => L + (n ? (i / n) * (W - L - R) : 0);
    const y = (v) => H - B - (Math.max(v, 0) / max) * (H - B - T);
    const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "score progression" });
    svg.append(svgEl("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }));
    svg.append(svgEl("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
    const label = (txt, xx, yy, anchor) => { const t = svgEl("text", { x: xx, y: yy, "text-anchor": anchor }); t.textContent = txt; svg.append(t); };
    label(String(max), L - 3, T + 8, "end");
    label("0", L - 3, H - B, "end");
    label(String(n), W - R, H - 4, "end");
    data.players.forEach((_, p) => {
      const pts = data.frames.map((f, i) => x(i).toFixed(1) + "," + y(f.totals[p]).toFixed(1)).join(" ");
      svg.append(svgEl("polyline", { points: pts, fill: "none", stroke: COLORS[p % COLORS.length], "stroke-width": 2 }));
    });
    const cursor = svgEl("line", { x1: x(frame), y1: T, x2: x(frame), y2: H - B, class: "cursor", id: "chart-cursor" });
    svg.append(cursor);
    box.replaceChildren(svg);
    const legend = $("legend");
    legend.replaceChildren();
    data.players.forEach((name, p) => {
      const s = el("span");
      const i = el("i"); i.style.background = COLORS[p % COLORS.length];
      s.append(i, document.createTextNode(name));
      legend.append(s);
    });
    root._x = x;
  }

  function drawStats() {
    // One card per player (a wide table would not fit a phone).
    const box = $("stats");
    box.replaceChildren();
    data.stats.players.forEach((s, p) => {
      const card = el("div", "stat-card");
      const title = el("h3", null, s.name);
      title.style.color = COLORS[p % COLORS.length];
      const dl = el("dl", "stats");
      const best = s.best ? s.best.position + " " + s.best.word + " (" + s.best.score + ")" : "—";
      [["final score", s.final], ["plays", s.plays], ["bingos", s.bingos], ["average per turn", s.average_per_turn],
        ["best move", best], ["phonies withdrawn", s.phonies], ["exchanges", s.exchanges], ["passes", s.passes]]
        .forEach(([k, v]) => { const d = el("div"); d.append(el("dt", null, k), el("dd", null, v)); dl.append(d); });
      card.append(title, dl);
      box.append(card);
    });
  }

  async function show(i) {
    const n = data.frames.length - 1;
    frame = Math.max(0, Math.min(n, i));
    const f = data.frames[frame];
    $("slider").value = frame;
    $("pos").textContent = frame + " / " + n;
    $("move-info").textContent = describe(f.event, data.players);
    if (f.event && f.event.breakdown) $("move-info").append(el("div", "lm-words", f.event.breakdown));
    $("totals").textContent = data.players.map((p, k) => p + " " + f.totals[k]).join(" · ");
    const cursor = $("chart-cursor");
    if (cursor) { const xx = root._x(frame); cursor.setAttribute("x1", xx); cursor.setAttribute("x2", xx); }
    const snap = $("snapshot");
    if (f.snapshot) {
      let img = snap.querySelector("img");
      if (!img) { img = el("img"); img.alt = "photo of the board at this move"; snap.replaceChildren(img); }
      img.src = f.snapshot;
    } else {
      snap.replaceChildren(document.createTextNode("no photo"));
    }
    root.dataset.frame = frame;
    const ticket = ++boardRequest;
    const svg = await boardSvg(f);
    if (ticket === boardRequest) { $("board").innerHTML = svg; root.dataset.shown = frame; }
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(frame - 1));
  $("next").addEventListener("click", () => show(frame + 1));
  $("last").addEventListener("click", () => show(data.frames.length - 1));
  $("slider").addEventListener("input", (e) => show(parseInt(e.target.value, 10)));
  document.addEventListener("keydown", (e) => {
    if (!data || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }[e.key];
    if (step) { e.preventDefault(); show(frame + step); }
    else if (e.key === "Home") { e.preventDefault(); show(0); }
    else if (e.key === "End") { e.preventDefault(); show(data.frames.length - 1); }
  });

  fetch(root.dataset.reviewUrl, { headers: { Accept: "application/json" } })
    .then((r) => r.json())
    .then((d) => {
      data = d;
      $("slider").max = d.frames.length - 1;
      drawChart();
      drawStats();
      show(d.frames.length - 1);
    });
})();
