// A tutorial playing itself (the board's autoplay): the board's tip says how to take over,
// and says its usual words again once the player has. panel.js loads this only on a page
// whose board autoplays, so no other level page downloads it.
import { $ } from "./common.js";

export function takeOverHint(el) {
  const hint = $("#board-tip");
  if (!hint || !el.dataset.autoplay) return;
  const old = hint.innerHTML;
  hint.textContent = "Watching the solution… touch the board or press a key to take over.";
  const back = () => { if (!el.dataset.autoplay) hint.innerHTML = old; };
  el.addEventListener("pointerdown", back); el.addEventListener("keydown", back);
}
