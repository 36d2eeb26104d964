// Lumina's sounds: short effects synthesized with WebAudio (no sound files), played for what
// the player does on the board ("lumina-play" events): a slide, an ice glide, sand spent,
// rime thawing, the win. panel.js loads this module only once the player turns sound on or
// first interacts with the page, so no AudioContext exists before a user gesture, and
// autoplay (tutorials) never makes a sound: the board tells nothing while it plays itself.
let ctx = null, on = false;
const boards = new WeakSet();

/** One enveloped tone: frequency `f` (sliding to `to`), `dur` seconds from `at`. */
function tone(f, dur, { type = "sine", gain = 0.12, at = 0, to = f } = {}) {
  const t = ctx.currentTime + at, o = ctx.createOscillator(), g = ctx.createGain();
  o.type = type;
  o.frequency.setValueAtTime(f, t);
  o.frequency.exponentialRampToValueAtTime(to, t + dur);
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(gain, t + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  o.connect(g).connect(ctx.destination);
  o.start(t); o.stop(t + dur + 0.02);
}

/** Filtered noise: `dur` seconds through a band-pass at `f` Hz (sweeping to `to`). */
function noise(dur, f, { q = 1, gain = 0.1, at = 0, to = f } = {}) {
  const t = ctx.currentTime + at, n = Math.ceil(ctx.sampleRate * dur), buf = ctx.createBuffer(1, n, ctx.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = Math.random() * 2 - 1;
  const src = ctx.createBufferSource(), bp = ctx.createBiquadFilter(), g = ctx.createGain();
  src.buffer = buf; bp.type = "bandpass"; bp.Q.value = q;
  bp.frequency.setValueAtTime(f, t); bp.frequency.exponentialRampToValueAtTime(to, t + dur);
  g.gain.setValueAtTime(gain, t); g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  src.connect(bp).connect(g).connect(ctx.destination);
  src.start(t);
}

const EFFECTS = {
  slide: (d) => { noise(0.05 + 0.02 * d, 900, { q: 2, gain: 0.12 }); tone(180, 0.08, { type: "triangle", gain: 0.08, to: 140 }); },
  glide: () => { noise(0.32, 3200, { q: 3, gain: 0.09, to: 900 }); tone(1320, 0.3, { gain: 0.025, to: 990 }); },
  sand: () => { for (let k = 0; k < 4; k++) noise(0.05, 500 + 150 * k, { q: 0.8, gain: 0.09, at: 0.035 * k }); },
  thaw: () => [1568, 2093, 2637].forEach((f, k) => tone(f, 0.22, { gain: 0.05, at: 0.07 * k })),
  undo: () => tone(330, 0.07, { type: "triangle", gain: 0.05, to: 250 }),
  win: () => [523, 659, 784, 1047].forEach((f, k) => tone(f, 0.45, { type: "triangle", gain: 0.1, at: 0.11 * k })),
};

/** Which effects a move of `block` makes, with the rime flags before and after it. */
function forMove(board, block, distance, before, after) {
  const kind = board.blocks[block].kind;
  const out = [[kind === "ice" ? "glide" : kind === "sand" ? "sand" : "slide", Math.abs(distance)]];
  if (board.blocks.some((b, j) => b.kind === "rime" && after[j] && !before[j])) out.push(["thaw"]);
  return out;
}

/** Sound on or off for board element `el` played by controller `ctl` (board.js). */
export function sound(el, ctl, enabled) {
  on = enabled;
  if (on && !ctx) ctx = new AudioContext();
  if (ctx && on && ctx.state === "suspended") ctx.resume();
  if (boards.has(el)) return;
  boards.add(el);
  let flags = Array.from(ctl.state.flags);
  el.addEventListener("lumina-play", (e) => {
    const { type, block, distance } = e.detail, now = Array.from(ctl.state.flags);
    let play = [];
    if (type === "move") play = forMove(ctl.board, block, distance, flags, now);
    else if (type === "redo") play = [["slide", 1]];
    else if (type === "undo" || type === "reset") play = [["undo"]];
    else if (type === "win") play = [["win"]];
    flags = now;
    if (on && ctx) for (const [k, d] of play) EFFECTS[k](d);
  });
}
