// Python's state encoding read into the JS engine's and back: a test adaptor for the parity
// vectors (lumina.vectors), kept out of engine.js so no page downloads it.
import { rect } from "../../templates/static/engine.js";

/** [[x, y], ...] per block: Python's positions of a state (stateFromPython's inverse). */
export const positions = (board, state) => board.blocks.map((_, i) => { const r = rect(board, state, i); return [r.x, r.y]; });

/** A state from Python's decode: positions [[x, y], ...] and flags [0/1, ...] per block. */
export function stateFromPython(board, positions, flags) {
  if (positions.length !== board.n || flags.length !== board.n) throw new Error("state: need one position and one flag per block");
  const s = { pos: board.blocks.map(() => 0), flags: board.blocks.map(() => 0) };
  board.blocks.forEach((b, i) => {
    const [x, y] = positions[i];
    if ((b.horiz ? y !== b.y : x !== b.x)) throw new Error(`state: block ${i} left its axis`);
    s.pos[i] = b.horiz ? x : y;
    s.flags[i] = (b.kind === "sand" || b.kind === "rime") && flags[i] ? 1 : 0;
  });
  return s;
}
