// Dados de Pagadores: every seat with its cards and what it does this round, the last throw's
// three dice, the round, the insteker and the throw limit (all public, R7.1).
import { svg, el, label, die, seatName } from "../draw.js";

export function draw(view, root) {
  const t = view.table;
  const rowHeight = 34;
  const height = 120 + rowHeight * view.num_players;
  const pic = svg(700, height);
  label(pic, 16, 26, `Round ${t.round}${t.phase === "kampen" ? " (kampen)" : ""}` +
    ` · throw limit ${t.throw_limit ?? "not set"} · throws ${t.throws} of ${t.max_throws}`);
  if (t.last_throw) {
    label(pic, 16, 62, `${seatName(view, t.last_throw.seat)} threw`);
    t.last_throw.dice.forEach((face, i) => die(pic, 230 + 44 * i, 38, face, 36, "die throw"));
  }
  t.seats.forEach((seat, i) => {
    const y = 100 + rowHeight * i;
    const group = el(pic, "g", { class: "seat", "data-seat": i });
    const acting = i === view.to_act;
    el(group, "rect", { x: 10, y: y - 4, width: 680, height: rowHeight - 4, rx: 4,
      fill: acting ? "#3f8a66" : "#285a42" });
    label(group, 20, y + 17, `${i === t.insteker ? "★ " : ""}${seatName(view, i)}`);
    for (let c = 0; c < seat.cards; c++) {
      el(group, "rect", { x: 250 + c * 12, y: y, width: 10, height: 22, rx: 2,
        fill: "#f5e6b8", stroke: "#7a5", class: "card" });
    }
    label(group, 385, y + 17, seat.status, { "font-size": 11 });
  });
  root.replaceChildren(pic);
}
