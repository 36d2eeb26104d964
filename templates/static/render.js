// Lumina board renderer: the DOM of one board (blocks, walls, mirrors, the beam, the
// lantern, the hint arrow). It draws what board.js hands it and decides nothing about
// rules; the class and data-* contract is in tests/js/README.
import * as E from "./engine.js";

/** Each kind in players' words: the one table (block labels here, hints in board.js). */
export const KIND_NAMES = { key: "light key", crystal: "crystal", sand: "sand", ice: "ice", rime: "rime" };
const SVG = "http://www.w3.org/2000/svg";

export function make(tag, cls, parent, vars) {
  const n = tag === "svg" || tag === "polyline" || tag === "circle" ? document.createElementNS(SVG, tag) : document.createElement(tag);
  if (cls) n.setAttribute("class", cls);
  for (const k in vars || {}) n.style.setProperty("--" + k, vars[k]);
  if (parent) parent.append(n);
  return n;
}

/** Draw `board` (engine.compile) into `el`; returns the view board.js drives. */
export function createView(el, board, opts = {}) {
  const level = board.level, W = board.width, H = board.height;
  let cell = 0;
  el.replaceChildren();
  el.classList.add("lb-board");
  layout();   // --cell first, so blocks appear in place instead of transitioning in
  if (board.win === "beam") el.classList.add("lb-beamlevel");
  el.dataset.level = level.id;
  el.setAttribute("role", "group");
  el.setAttribute("aria-label", `Puzzle ${level.name || level.id}: ${W} by ${H}. Bring the light key${board.win === "beam" ? "'s beam" : ""} to the lantern.`);
  const { side, index } = board.exit;
  const lx = side === "left" ? -0.3 : side === "right" ? W + 0.3 : index + 0.5;
  const ly = side === "top" ? -0.3 : side === "bottom" ? H + 0.3 : index + 0.5;
  el.style.setProperty("--_lx", lx); el.style.setProperty("--_ly", ly);
  for (const [x, y] of level.walls || []) make("div", "lb-wall", el, { _x: x, _y: y });
  for (const m of level.mirrors || []) make("div", "lb-mirror " + (m.tilt === "/" ? "lb-fwd" : "lb-back"), el, { _x: m.x, _y: m.y });
  const svg = board.beam ? make("svg", "lb-beam", el) : null;   // the light, on beam levels
  let halo, core, spark, stop;
  if (svg) {
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("aria-hidden", "true");
    stop = make("div", "lb-beam-stop", el);   // where a block stops the light: above the blocks
    halo = make("polyline", "lb-beam-halo", svg); core = make("polyline", "lb-beam-core", svg);
    spark = make("circle", "lb-beam-end", svg); spark.setAttribute("r", "0.13");
  }
  const ghost = make("div", "lb-ghost", el);
  const tip = make("div", "lb-tip", el);   // the hinted move: where the block would land
  tip.setAttribute("aria-hidden", "true");
  const blocks = board.blocks.map((b, i) => {
    const n = make("button", `lb-block lb-${b.kind}`, el, { _w: b.w, _h: b.h, _x: b.x, _y: b.y });
    n.type = "button"; n.dataset.block = i; n.dataset.kind = b.kind;
    n.tabIndex = b.kind === "key" ? 0 : -1;   // roving tabindex: one Tab stop for the whole board
    n.classList.add(b.horiz ? "lb-h" : "lb-v");
    if (b.kind === "ice") make("span", "lb-hint", n);
    if (b.kind === "key" && board.beam) {   // the emitter: where and which way the light leaves the key
      const { dir, offset } = board.beam;
      make("span", `lb-emitter lb-emit-${dir.toLowerCase()}`, n, { _o: offset });
    }
    return n;
  });
  const lantern = make("div", "lb-lantern lb-" + side, el);
  lantern.setAttribute("aria-hidden", "true");
  const live = make("span", "lb-live", el);
  live.setAttribute("aria-live", "polite");

  function layout() {
    const avail = opts.width || (el.parentElement && el.parentElement.clientWidth) || window.innerWidth;
    const byH = Math.max(44, Math.floor((window.innerHeight || 800) * 0.7 / (H + 1)));
    const c = Math.max(24, Math.min(opts.maxCell || 64, Math.floor(avail / (W + 1)), byH));
    if (c === cell) return;
    cell = c;
    el.classList.add("lb-still");   // a resize re-lays the board without sliding blocks
    requestAnimationFrame(() => requestAnimationFrame(() => el.classList.remove("lb-still")));
    el.style.setProperty("--_c", cell + "px");
    el.style.width = W * cell + "px"; el.style.height = H * cell + "px";
    el.dataset.cell = cell;
  }

  function label(state, i) {
    const b = board.blocks[i], r = E.rect(board, state, i), f = state.flags[i];
    const kind = b.kind === "sand" && f ? "spent sand" : b.kind === "rime" ? (f ? "thawed rime" : "frozen rime") : KIND_NAMES[b.kind];
    return `${kind} block, column ${r.x + 1} row ${r.y + 1}, slides ${b.horiz ? "left and right" : "up and down"}`;
  }

  /** Draw the blocks at `state`; info = {moves, won, movable: Set of block indices}. */
  function draw(state, info) {
    blocks.forEach((n, i) => {
      const r = E.rect(board, state, i), k = board.blocks[i].kind, f = state.flags[i];
      n.style.setProperty("--_x", r.x); n.style.setProperty("--_y", r.y);
      n.dataset.x = r.x; n.dataset.y = r.y;
      n.classList.toggle("lb-spent", k === "sand" && !!f);
      n.classList.toggle("lb-frozen", k === "rime" && !f);
      n.classList.toggle("lb-stuck", !info.movable.has(i));
      n.setAttribute("aria-label", label(state, i));
    });
    el.dataset.moves = info.moves;
    el.dataset.solved = info.won;
    el.classList.toggle("lb-won", info.won);
    // the key leaves through the lantern on a counted exit win (CSS drops the motion under reduced motion)
    blocks[board.key].classList.toggle("lb-exit-" + side, info.won && board.win === "exit");
    drawBeam(state);
  }

  function drawBeam(state) {
    el.classList.toggle("lb-lit", E.isSolved(board, state));
    if (!svg) return;
    const p = E.beamPath(board, state), [sx, sy, dx0, dy0] = p.start;
    const pts = [[sx + 0.5 - dx0 / 2, sy + 0.5 - dy0 / 2]];
    for (const [x, y] of p.cells) pts.push([x + 0.5, y + 0.5]);
    if (p.end) {
      const [ex, ey] = p.end, last = p.cells.length ? p.cells[p.cells.length - 1] : [ex - dx0, ey - dy0];
      const ux = ex - last[0], uy = ey - last[1];
      pts.push([ex + 0.5 - ux / 2, ey + 0.5 - uy / 2]);
      if (p.solved) pts.push([ex + 0.5 - ux / 5, ey + 0.5 - uy / 5]);
    }
    const s = pts.map((q) => q.join(",")).join(" ");
    halo.setAttribute("points", s); core.setAttribute("points", s);
    const end = pts[pts.length - 1];
    spark.setAttribute("cx", end[0]); spark.setAttribute("cy", end[1]);
    spark.style.display = p.stop === "blocked" ? "" : "none";
    // the contract (tests/js/README): the cells the light crosses, whether it reaches the lantern
    svg.dataset.beamPath = p.cells.map((c) => c.join(",")).join(" ");
    svg.dataset.lit = p.solved; svg.dataset.stop = p.stop;
    stop.hidden = p.stop !== "blocked";
    stop.style.setProperty("--_x", end[0]); stop.style.setProperty("--_y", end[1]);
  }

  /** Show the hinted move [i, d] at `state` (null hides it): the block glows, an outline marks where it lands. */
  function showTip(state, m) {
    blocks.forEach((n) => n.classList.remove("lb-tipped"));
    tip.classList.toggle("lb-show", !!m);
    if (!m) return;
    const b = board.blocks[m[0]], r = E.rect(board, state, m[0]);
    blocks[m[0]].classList.add("lb-tipped");
    const to = { _x: r.x + (b.horiz ? m[1] : 0), _y: r.y + (b.horiz ? 0 : m[1]), _w: r.w, _h: r.h };
    for (const [k, v] of Object.entries(to)) tip.style.setProperty("--" + k, v);
    tip.dataset.dir = b.horiz ? (m[1] > 0 ? "e" : "w") : (m[1] > 0 ? "s" : "n");
  }

  function nope(i) {
    const n = blocks[i];
    n.classList.remove("lb-nope"); void n.offsetWidth; n.classList.add("lb-nope");
  }
  function offset(i, cells) {
    blocks[i].style.setProperty(board.blocks[i].horiz ? "--_dx" : "--_dy", cells * cell + "px");
  }
  function clearOffset(i) { blocks[i].style.removeProperty("--_dx"); blocks[i].style.removeProperty("--_dy"); }

  /** Ice: the direction glyph and the landing ghost for move m at `state` (null clears). */
  function aim(state, i, m) {
    const n = blocks[i];
    n.classList.remove("lb-aim-n", "lb-aim-e", "lb-aim-s", "lb-aim-w");
    ghost.classList.toggle("lb-show", !!m);
    if (!m) return;
    const b = board.blocks[m[0]], r = E.rect(board, state, m[0]);
    n.classList.add("lb-aim-" + (b.horiz ? (m[1] > 0 ? "e" : "w") : (m[1] > 0 ? "s" : "n")));
    for (const [k, v] of Object.entries({ _x: r.x + (b.horiz ? m[1] : 0), _y: r.y + (b.horiz ? 0 : m[1]), _w: r.w, _h: r.h })) ghost.style.setProperty("--" + k, v);
  }

  /** A move was played: ice glides, longer slides take longer, thawed rime sparkles. */
  function moved(m, thawed) {
    const [i, d] = m, n = blocks[i];
    n.classList.toggle("lb-slide", board.blocks[i].kind === "ice");
    n.style.setProperty("--_ms", 110 + 45 * Math.abs(d) + "ms");
    for (const j of thawed) {
      blocks[j].classList.add("lb-thawing");
      setTimeout(() => blocks[j].classList.remove("lb-thawing"), 900);
    }
  }

  /** Move the roving tab stop (and focus, if asked) to block i. */
  function select(i, focus = true) {
    blocks.forEach((n, j) => { n.tabIndex = j === i ? 0 : -1; });
    if (focus) blocks[i].focus({ preventScroll: true });
  }

  return {
    el, blocks, get cell() { return cell; }, layout, draw, showTip, nope, offset, clearOffset, aim, moved, select,
    label, say(text) { live.textContent = text; },
  };
}
