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
  if (chain !== null && chain >= 2) hard.push(`${chain} moves must come in one order`);
  if (margin) {
    const twist = twistWords(level);
    hard.push(`${twist} ${twist.startsWith("these") ? "add" : "adds"} ${margin} ${plural(margin, "move")} to the same board in plain crystal`);
  }
  if (a.plans === 1 && !a.plans_capped) hard.push("only one idea solves it in par");
  if (good < legal) hard.push(`only ${n(good)} of ${n(legal)} first ${plural(legal, "move")} ${good === 1 ? "keeps" : "keep"} par`);
  if (a.traps) hard.push("some positions can never be won: Undo gets you out");
  if (deepest !== null && deepest === par) hard.push("it starts as far from solved as its board can be");
  const easier = [];
  if (a.plans > 1 || a.plans_capped) easier.push(`${n(a.plans)}${a.plans_capped ? "+" : ""} different ideas reach par`);
  if (good === legal) easier.push("any first move can still make par");
  if (!a.traps) easier.push("no dead ends: you can always still win");
  if (chain !== null && 2 * chain <= par) easier.push("most moves can come in any order");
  return {
    hard: hard.slice(0, ITEMS).join("; ") || `par ${par}`,
    easier: easier.slice(0, ITEMS).join("; ") || "Undo and Reset are free, and Hint shows a best next move",
  };
}
