// The calibration page: every 2 s, the latest JSON from /api/calibration; the picture is swapped only once the new
// one has loaded (no flash), and the grid cells are updated in place (no layout shift).
(function () {
  "use strict";
  const root = document.getElementById("calib");
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const img = $("calib-img");
  const cells = Array.from($("calib-grid").querySelectorAll("td"));
  let shown = img.getAttribute("src") || "";

  // "Learn my tiles": the PIN, then a POST that asks the daemon; its answer comes back in the polled JSON.
  const laidOut = $("laid-out");
  let csrf = null;
  let laidOutShown = "";      // the daemon's answer last drawn: a refusal said here stays until it answers anew

  function sayLaidOut(state) {
    const out = $("laid-out-result");
    out.textContent = (state.state === "refused" ? "not learnt: " : "") + state.message;
    out.dataset.state = state.state;
  }

  function drawLaidOut(state) {
    const key = state ? [state.state, state.asked, state.answered].join(" ") : "";
    if (!state || key === laidOutShown) return;
    laidOutShown = key;
    sayLaidOut(state);
  }

  async function askLaidOut() {
    const r = await fetch(laidOut.dataset.url, {
      method: "POST", credentials: "same-origin", body: "{}",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrf || "" },
    });
    let body = {};
    try { body = await r.json(); } catch (e) { body = { error: r.statusText }; }
    if (r.status === 401) { csrf = null; $("laid-out-pin").hidden = false; return; }
    if (r.ok) drawLaidOut(body.laid_out);
    else sayLaidOut({ state: "refused", message: body.error || ("refused (" + r.status + ")") });
  }

  $("laid-out-btn").addEventListener("click", () => {
    if (csrf) askLaidOut();
    else { $("laid-out-pin").hidden = false; $("laid-out-pin-input").focus(); }
  });

  $("laid-out-pin").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = $("laid-out-pin-input");
    const r = await fetch("/auth/pin", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ pin: input.value }) });
    input.value = "";
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { sayLaidOut({ state: "refused", message: body.error || "wrong PIN" }); return; }
    csrf = body.csrf;
    $("laid-out-pin").hidden = true;
    askLaidOut();
  });

  fetch("/auth/status", { headers: { Accept: "application/json" } })
    .then((r) => r.json()).then((s) => { csrf = s.authorised ? s.csrf : null; }).catch(() => {});

  function draw(info) {
    drawLaidOut(info.laid_out);
    $("calib-status").textContent = info.status.line + (info.age_s > 10 ? " (written " + Math.round(info.age_s) + " s ago)" : "");
    const b = info.board;
    $("calib-board").textContent = b.found ? "board found (" + b.from + ", score " + b.score + ")" : (b.problem || "");
    $("calib-frame").style.aspectRatio = info.image.width + " / " + info.image.height;
    if (info.image_url !== shown) {
      const next = new Image();
      next.onload = () => { img.src = next.src; };
      next.src = info.image_url;
      shown = info.image_url;
    }
    const rd = info.reading;
    $("calib-verdict").textContent = !rd || rd.unsure == null ? "" : (rd.unsure
      ? "the reader is unsure of this board: about " + rd.expected_wrong + " squares may be wrong — check the light, the focus and the grid"
      : "the reader is sure of this board");
    cells.forEach((td, i) => {
      const r = Math.floor(i / 15), c = i % 15;
      const conf = rd ? rd.confidence[r][c] : 1;
      td.textContent = rd ? rd.grid[r][c] : "";
      td.title = conf.toFixed(2);
      td.classList.toggle("low", !!rd && conf < rd.low_below);
    });
  }

  async function poll() {
    try {
      const r = await fetch(root.dataset.url, { cache: "no-store" });
      const body = await r.json();
      if (r.ok) draw(body);
      else $("calib-status").textContent = body.error || "no calibration picture";
    } catch (e) {
      $("calib-status").textContent = "the scorekeeper is not answering";
    }
  }

  setInterval(poll, 2000);
})();
