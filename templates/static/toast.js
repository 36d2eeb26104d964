// A short message at the bottom of the page, read out by screen readers (role=status), gone
// after two seconds: a gate opened, a link copied, a new version of the site. Loaded only by
// the scripts that show one (result.js, offline.js).

export function toast(text) {
  const t = document.createElement("div");
  t.className = "toast"; t.setAttribute("role", "status"); t.textContent = text;
  document.body.append(t);
  setTimeout(() => t.remove(), 2200);
}
