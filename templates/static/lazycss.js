// The styles of what loads on demand (the explainers, the settings panel, the daily habits,
// progress moving between devices): static/extra.css, linked once when first needed, so no
// page pays for it before then. Resolves when the styles apply.
import { ROOT } from "./common.js";

let loaded = null;
export function extraCss() {
  if (!loaded) {
    loaded = new Promise((done) => {
      const l = Object.assign(document.createElement("link"), { rel: "stylesheet", href: `${ROOT}static/extra.css` });
      l.onload = l.onerror = () => done();
      document.head.append(l);
    });
  }
  return loaded;
}
