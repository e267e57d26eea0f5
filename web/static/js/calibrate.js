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

  function draw(info) {
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
