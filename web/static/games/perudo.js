// Perudo: every seat's dice count and last bid, the bid to beat; your own dice (the view's
// private part holds only the seats it may show) and, after a dudo, the dice revealed.
// Opponents' dice are drawn as cups with a count: the view never holds their faces (P7.2).
import { svg, el, label, die, cup, seatName } from "../draw.js";

export function draw(view, root) {
  const t = view.table;
  const rowHeight = 56;
  const pic = svg(640, 90 + rowHeight * view.num_players);
  const bid = t.bid ? `${t.bid[0]} x ${t.bid[1]} by player_${t.bidder}` : "no bid yet";
  label(pic, 16, 26, `Round ${t.round}${t.palifico ? " (palifico)" : ""} · ` +
    `${t.total_dice} dice on the table · ${bid}`);
  t.seats.forEach((seat, i) => {
    const y = 50 + rowHeight * i;
    const group = el(pic, "g", { class: "seat", "data-seat": i });
    el(group, "rect", { x: 10, y: y - 4, width: 620, height: rowHeight - 6, rx: 4,
      fill: i === view.to_act ? "#3f8a66" : "#285a42" });
    label(group, 20, y + 22, seatName(view, i));
    const hand = view.private[String(i)];
    if (hand) {
      hand.forEach((face, k) => die(group, 200 + 40 * k, y + 4, face, 34, "die hand"));
    } else if (seat.dice > 0) {
      cup(group, 200, y + 2, seat.dice);
    }
    const last = seat.last_bid ? `bid ${seat.last_bid[0]} x ${seat.last_bid[1]}` : "";
    label(group, 420, y + 22, seat.dice ? last : "out", { "font-size": 12 });
    if (t.revealed && t.revealed[i] && t.revealed[i].length) {
      t.revealed[i].forEach((face, k) => die(group, 520 + 18 * k, y + 28, face, 16, "die revealed"));
    }
  });
  root.replaceChildren(pic);
}
