// What makes a level hard and what makes it easier, in players' words, for the level editor:
// the twin of lumina/render/words.py `why_hard`, so a board in the editor reads exactly as its
// level page would. Held to Python by the parity vectors (lumina/vectors.py "measures": why).
// Pure, no DOM.
const TWISTS = ["sand", "ice", "rime"];
/** Items per line, as words.ITEMS. */
const ITEMS = 3;
/** 1234567 -> "1,234,567" (Python's f"{x:,}"). */
export const thousands = (x) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const n = thousands;
const plural = (k, one, many) => (k === 1 ? one : many || one + "s");

/** 'this sand', 'this ice', 'these twists' (two or more twist kinds on the board). */
export function twistWords(level) {
  const kinds = TWISTS.filter((k) => level.blocks.some((b) => b.kind === k));
  return kinds.length === 1 ? `this ${kinds[0]}` : "these twists";
}

/** {hard, easier}: one line each, for a solved level (`optimal`) and its analysis record (a
 * pack's `analysis`, lumina.judge.analysis; `chain` and `deepest` when known); null without. */
export function whyHard(level, optimal, a) {
  if (!a || optimal == null) return null;
  const par = optimal, chain = a.chain ?? null, deepest = a.deepest ?? null;
  const margin = a.crystal_optimal == null ? null : par - a.crystal_optimal;
  const legal = a.first_moves_legal, good = a.first_moves_optimal;
  const hard = [];
  if (chain !== null && chain >= 2) hard.push(`a chain of ${chain} moves that must come in order`);
  if (margin) {
    const twist = twistWords(level);
    hard.push(`${twist} ${twist.startsWith("these") ? "add" : "adds"} ${margin} ${plural(margin, "move")} to plain crystal (twist margin ${margin})`);
  }
  if (a.plans === 1 && !a.plans_capped) hard.push("one plan: every answer in par is the same idea");
  if (good < legal) hard.push(`${n(good)} of ${n(legal)} first ${plural(legal, "move")} ${good === 1 ? "is" : "are"} optimal`);
  if (a.traps) hard.push(`${n(a.traps)} ${plural(a.traps, "trap")}`);
  if (deepest !== null && deepest === par) hard.push("it starts at its board's deepest position");
  const easier = [];
  if (a.plans > 1 || a.plans_capped) easier.push(`${n(a.plans)}${a.plans_capped ? "+" : ""} plans reach par`);
  const movable = level.blocks.length - 1, dead = a.dead_blocks.length;
  if (dead && movable) easier.push(`${dead} of ${movable} ${plural(movable, "block")} never ${dead === 1 ? "needs" : "need"} to move`);
  if (good === legal) easier.push("any first move works");
  if (!a.traps) easier.push("no traps: you can always still win");
  if (chain !== null && 2 * chain <= par) easier.push(`its longest chain is ${chain} of ${par} moves: jobs that can come in any order`);
  return {
    hard: hard.slice(0, ITEMS).join("; ") || `par ${par}`,
    easier: easier.slice(0, ITEMS).join("; ") || "Undo and Reset are free, and Hint shows a best next move",
  };
}
