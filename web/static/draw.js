// Shared drawing helpers of the game modules: SVG elements built with createElementNS, every
// text set with textContent (never as HTML), so nothing a view holds can become markup.
const SVG = "http://www.w3.org/2000/svg";

export function svg(width, height) {
  const root = document.createElementNS(SVG, "svg");
  root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  root.setAttribute("width", width);
  root.setAttribute("height", height);
  return root;
}

export function el(parent, name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = String(text);
  parent.appendChild(node);
  return node;
}

export function label(parent, x, y, text, attrs = {}) {
  return el(parent, "text", { x, y, fill: "#fff", "font-size": 14, ...attrs }, text);
}

// The pips of a die face 1-6 on a 3x3 grid (index 0..8).
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8],
  6: [0, 2, 3, 5, 6, 8] };

// A die at (x, y) of side `size`; a face outside 1-6 is written as a number (Paye's specials).
export function die(parent, x, y, face, size = 36, cls = "die", fill = "#fdfdf8") {
  const group = el(parent, "g", { class: cls, "data-face": face });
  el(group, "rect", { x, y, width: size, height: size, rx: size / 6, fill, stroke: "#333" });
  if (PIPS[face]) {
    for (const pip of PIPS[face]) {
      const cx = x + size * (0.25 + 0.25 * (pip % 3));
      const cy = y + size * (0.25 + 0.25 * Math.floor(pip / 3));
      el(group, "circle", { cx, cy, r: size / 11, fill: "#222" });
    }
  } else {
    el(group, "text", { x: x + size / 2, y: y + size * 0.66, "text-anchor": "middle",
      "font-size": size / 2, fill: "#222" }, face);
  }
  return group;
}

// A cup hiding dice: what an opponent's dice look like before the reveal.
export function cup(parent, x, y, count) {
  const group = el(parent, "g", { class: "cup" });
  el(group, "path", { d: `M${x} ${y + 40} L${x + 8} ${y} L${x + 52} ${y} L${x + 60} ${y + 40} Z`,
    fill: "#6b3f1d", stroke: "#3a210e" });
  el(group, "text", { x: x + 30, y: y + 26, "text-anchor": "middle", fill: "#fff",
    "font-size": 14 }, `${count}`);
  return group;
}

export function seatName(view, seat) {
  const who = view.labels ? view.labels[seat] : null;
  return who ? `player_${seat} (${who})` : `player_${seat}`;
}
