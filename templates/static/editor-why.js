// "Why it's hard" in players' words for the level editor: the twin of lumina/render/words.py
// `why_hard`, so a board in the editor reads exactly as its level page would. Held to Python
// by the parity vectors (lumina/vectors.py "why"). Pure, no DOM.
const TWISTS = ["sand", "ice", "rime"];
const n = (x) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const plural = (k, one, many) => (k === 1 ? one : many || one + "s");

/** 'this sand', 'this ice', 'these twists' (two or more twist kinds on the board). */
export function twistWords(level) {
  const kinds = TWISTS.filter((k) => level.blocks.some((b) => b.kind === k));
  return kinds.length === 1 ? `this ${kinds[0]}` : "these twists";
}

/** [figure, words] pairs for a solved level (`optimal`) and its analysis record (a pack's
 * `analysis`: lumina.judge.analysis); empty without an analysis. */
export function whyHard(level, optimal, a) {
  if (!a) return [];
  const out = [];
  if (a.plans_capped) out.push([`${n(a.plans)}+`, "distinct plans: many ways through, but few short ones"]);
  else if (a.plans === 1) out.push(["1 plan", "one idea solves it in par; every optimal answer is the same plan"]);
  else out.push([`${n(a.plans)} plans`, "distinct plans reach par"]);
  const legal = a.first_moves_legal, good = a.first_moves_optimal;
  out.push([`${n(good)} of ${n(legal)}`,
    `first ${plural(legal, "move")} ${good === 1 ? "is" : "are"} optimal` + (good === legal ? ": any start works" : "")]);
  out.push([n(a.component_states), `${plural(a.component_states, "position")} you can reach`]);
  if (a.traps) out.push([n(a.traps), `trap ${plural(a.traps, "position")} (no way out: Reset or Undo)`]);
  else out.push(["0 traps", "you can always still win from wherever you are"]);
  if (a.crystal_optimal != null) {
    const twist = twistWords(level);
    out.push(["Twist:", a.crystal_optimal === optimal
      ? `as plain crystal: ${optimal} moves; with ${twist}: ${optimal} (the same par)`
      : `as plain crystal: ${a.crystal_optimal} moves; with ${twist}: ${optimal}`]);
  }
  const movable = level.blocks.length - 1, dead = a.dead_blocks.length;
  if (dead && movable) {
    out.push([`${dead} of ${movable}`, dead > 1 ? `${plural(movable, "block")} never need to move: decoys`
      : `${plural(movable, "block")}: one never needs to move, a decoy`]);
  }
  return out;
}
