// Lumina board input: pointer (mouse, touch, pen) and keyboard, turned into whole moves.
// It asks board.js (`h`) what is legal and hands it moves; it never changes state itself.
//
// Keyboard (the board is one Tab stop; the selected block holds it):
//   arrows               select the nearest block that way (core.nearestBlock)
//   Shift+arrow          slide the selected block along its axis, one cell per press
//                        (ice: glides at once); Enter or Space drops it there
//   Enter, then arrows   the same without Shift: Enter picks the block up, arrows slide
//                        it, Enter drops it; Escape puts it back
import { DIRS } from "./engine.js";
import { nearestBlock } from "./core.js";

const ARROWS = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W" };

/**
 * h = {board, state(), movesOf(i), commit(m) -> bool, locked() -> bool, interrupt(e)}:
 * interrupt is called on the first pointerdown/keydown (autoplay hands over).
 * Returns {cancel(), detach()}.
 */
export function attachInput(el, view, h) {
  const board = h.board;
  let drag = null, pending = null, grabbed = -1, pointing = false;
  // The ring shows for keyboard focus only. Chromium may count a focus() made during a mouse
  // or touch press as :focus-visible, so the board also notes how it was last used.
  const modality = (m) => { if (el.dataset.input !== m) el.dataset.input = m; };

  function clearPending() {
    if (pending) { view.blocks[pending.i].classList.remove("lb-pending"); view.clearOffset(pending.i); }
    pending = null;
  }
  function release() { clearPending(); if (grabbed >= 0) view.blocks[grabbed].classList.remove("lb-grabbed"); grabbed = -1; }

  // ---- pointer --------------------------------------------------------------------
  function down(e) {
    const n = e.target.closest && e.target.closest("[data-block]");
    modality("pointer"); pointing = true; setTimeout(() => { pointing = false; }, 0);
    h.interrupt(e);
    if (!n || e.button > 0) return;
    const i = +n.dataset.block;
    release();
    if (document.activeElement !== n) view.select(i);
    if (h.locked()) return;
    const ms = h.movesOf(i);
    if (!ms.length) { view.nope(i); return; }
    e.preventDefault();
    try { n.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
    const ds = ms.map((m) => m[1]);
    drag = { n, i, id: e.pointerId, x0: e.clientX, y0: e.clientY, ms, lo: Math.min(0, ...ds), hi: Math.max(0, ...ds), d: 0, m: null };
    n.classList.add("lb-dragging");
  }

  function move(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const b = board.blocks[drag.i];
    const raw = (b.horiz ? e.clientX - drag.x0 : e.clientY - drag.y0) / view.cell;
    if (b.kind === "ice") {
      drag.m = Math.abs(raw) < 0.2 ? null : drag.ms.find((m) => Math.sign(m[1]) === Math.sign(raw)) || null;
      view.aim(h.state(), drag.i, drag.m);
      view.offset(drag.i, drag.m ? Math.sign(raw) * Math.min(0.25, Math.abs(raw)) : 0);
    } else {
      drag.d = Math.max(drag.lo, Math.min(drag.hi, raw));
      view.offset(drag.i, drag.d);
    }
  }

  function up(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const { n, i, m } = drag, d = board.blocks[i].kind === "ice" ? (m ? m[1] : 0) : Math.round(drag.d);
    drag = null;
    n.classList.remove("lb-dragging");
    view.aim(h.state(), i, null); view.clearOffset(i);
    if (e.type === "pointerup" && d) h.commit([i, d]);
  }

  // ---- keyboard ---------------------------------------------------------------------
  function slide(i, s) {   // one more cell of a keyboard drag of block i, sign s
    const b = board.blocks[i];
    if (h.locked()) return;
    if (b.kind === "ice") {
      const m = h.movesOf(i).find((q) => Math.sign(q[1]) === s);
      release();
      if (m) h.commit(m); else view.nope(i);
      return;
    }
    const d = (pending && pending.i === i ? pending.d : 0) + s;
    if (d && !h.movesOf(i).some((q) => q[1] === d)) { view.nope(i); return; }
    clearPending();
    pending = d ? { i, d } : null;
    view.blocks[i].classList.toggle("lb-pending", !!pending);
    view.offset(i, d);
  }

  function key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    modality("keyboard");
    const n = e.target.closest && e.target.closest("[data-block]"), dir = DIRS[ARROWS[e.key]];
    if (e.key !== "Tab" && e.key !== "Shift") h.interrupt(e);
    if (!n) {   // the board itself has focus: an arrow picks the key
      if (dir && e.target === el) { e.preventDefault(); view.select(board.key); }
      return;
    }
    const i = +n.dataset.block, b = board.blocks[i];
    const along = dir && (b.horiz ? dir[1] === 0 : dir[0] === 0);
    if (dir) {
      e.preventDefault();
      if (e.shiftKey || grabbed === i) {
        if (along) slide(i, b.horiz ? dir[0] : dir[1]); else view.nope(i);
        return;
      }
      const j = nearestBlock(board, h.state(), i, dir);
      if (j >= 0) view.select(j);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (pending && pending.i === i) { const m = [i, pending.d]; release(); h.commit(m); }
      else if (grabbed === i) release();
      else if (!h.locked()) { release(); grabbed = i; n.classList.add("lb-grabbed"); }
    } else if (e.key === "Escape") {
      release();
    }
  }

  function focusIn(e) {
    const n = e.target.closest && e.target.closest("[data-block]");
    if (!pointing) modality("keyboard");   // Tab from outside the board
    if (n) view.select(+n.dataset.block, false);
    if ((pending || grabbed >= 0) && view.blocks[pending ? pending.i : grabbed] !== n) release();
  }
  function focusOut(e) { if (!el.contains(e.relatedTarget)) release(); }

  const on = [
    [el, "pointerdown", down], [el, "pointermove", move], [el, "pointerup", up], [el, "pointercancel", up],
    [el, "lostpointercapture", up], [el, "keydown", key], [el, "focusin", focusIn], [el, "focusout", focusOut],
  ];
  for (const [t, ev, f] of on) t.addEventListener(ev, f);
  return {
    cancel: release,
    detach() { for (const [t, ev, f] of on) t.removeEventListener(ev, f); },
  };
}
