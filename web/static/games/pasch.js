// Pasch: the five dice and the throws used, every seat's hand, blocks, score and card played,
// and the discs won (all public but the dice to come, X8.2).
import { svg, el, label, die, seatName } from "../draw.js";

export function draw(view, root) {
  const t = view.table;
  const rowHeight = 34;
  const pic = svg(640, 110 + rowHeight * view.num_players);
  label(pic, 16, 26, `Round ${t.round + 1} of ${t.num_rounds} · ${t.phase} · throws ${t.throws}`);
  t.dice.forEach((face, k) => die(pic, 16 + 44 * k, 38, face, 36, "die"));
  t.hands.forEach((hand, i) => {
    const y = 90 + rowHeight * i;
    const group = el(pic, "g", { class: "seat", "data-seat": i });
    el(group, "rect", { x: 10, y: y - 4, width: 620, height: rowHeight - 4, rx: 4,
      fill: i === view.to_act ? "#3f8a66" : "#285a42" });
    label(group, 20, y + 17, seatName(view, i));
    label(group, 210, y + 17, `score ${t.scores[i]} · blocks ${t.blocks[i]} · ` +
      `played ${t.played[i] ?? "-"} · hand ${hand.join(" ") || "-"}`, { "font-size": 12 });
  });
  root.replaceChildren(pic);
}
