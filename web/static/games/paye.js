// Paye's dobbelspel: the race to the target as bars, the special dice's faces, the dice thrown
// this turn and set aside (all public, Y5.1).
import { svg, el, label, die, seatName } from "../draw.js";

export function draw(view, root) {
  const t = view.table;
  const rowHeight = 34;
  const top = 60 + rowHeight * view.num_players;
  const pic = svg(640, top + 60 + 40 * t.dice.length);
  label(pic, 16, 26, `Round ${t.round} of ${t.rounds} · race to ${t.target} · ${t.phase}`);
  t.scores.forEach((score, i) => {
    const y = 44 + rowHeight * i;
    const group = el(pic, "g", { class: "seat", "data-seat": i });
    el(group, "rect", { x: 10, y: y - 4, width: 620, height: rowHeight - 4, rx: 4,
      fill: i === view.to_act ? "#3f8a66" : "#285a42" });
    label(group, 20, y + 17, seatName(view, i));
    el(group, "rect", { x: 220, y, width: 300, height: 20, fill: "#1d3d2d" });
    el(group, "rect", { x: 220, y, width: Math.min(300, 300 * score / t.target), height: 20,
      fill: "#e8c547" });
    label(group, 530, y + 16, `${score}`);
  });
  label(pic, 16, top + 20, `thrown: ${t.thrown.join(" ") || "-"} · set aside: ${t.aside.join(" ") || "-"}`);
  t.dice.forEach((faces, d) => {
    const y = top + 34 + 40 * d;
    label(pic, 16, y + 22, `S${d}`);
    faces.forEach((face, k) => die(pic, 60 + 40 * k, y, face, 32, "die special"));
  });
  root.replaceChildren(pic);
}
