// The hall's page and one board's page: both follow /events (`hall` messages).
"use strict";
const PIECES = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙",
                 k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const oneBoard = document.body.classList.contains("one");
const boardName = oneBoard ? decodeURIComponent(location.pathname.split("/").pop()) : null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  });
  children.forEach((c) => node.append(c));
  return node;
}

function miniBoard(fen, big) {
  const grid = el("div", { class: big ? "mini big" : "mini" });
  const rows = (fen || "8/8/8/8/8/8/8/8").split(" ")[0].split("/");
  rows.forEach((row, r) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) {
        for (let i = 0; i < Number(ch); i++, file++) grid.append(square(r, file, ""));
      } else { grid.append(square(r, file, PIECES[ch] || "?")); file++; }
    }
  });
  return grid;
}

function square(rank, file, text) {
  return el("div", { class: (rank + file) % 2 === 0 ? "l" : "d" }, text);
}

function clock(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = String(m).padStart(2, "0"), ss = String(r).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

function clocks(b) {
  const line = el("p", { class: "clocks" });
  line.append(el("span", { class: b.running === "white" ? "run" : "" }, "♔ " + clock(b.white_clock)));
  line.append(el("span", { class: "result" }, b.result === "*" ? (b.to_move ? b.to_move + " to move" : "") : b.result));
  line.append(el("span", { class: b.running === "black" ? "run" : "" }, clock(b.black_clock) + " ♚"));
  return line;
}

function alarmItem(a) {
  const li = el("li", { "data-board": a.board });
  li.append(el("span", { class: "kind" }, a.kind));
  li.append(el("a", { href: "/board/" + encodeURIComponent(a.board) }, "board " + a.board));
  li.append(": " + a.text);
  const clear = el("button", { type: "button" }, "done");
  clear.addEventListener("click", () => post(`/api/alarms/${a.id}/clear`, {}));
  li.append(clear);
  return li;
}

function showHall(state) {
  const alarms = document.getElementById("alarms");
  alarms.replaceChildren(...state.alarms.slice().reverse().map(alarmItem));
  document.getElementById("alarm-count").textContent = `(${state.alarms.length})`;
  const flagged = new Set(state.alarms.map((a) => a.board));
  const cards = state.boards.map((b) => {
    const card = el("a", { class: "card", href: "/board/" + encodeURIComponent(b.board), "data-board": b.board });
    if (flagged.has(b.board)) card.classList.add("alarm");
    if (b.online === false) card.classList.add("offline");
    card.append(el("div", { class: "top" }, el("b", {}, "Board " + b.board),
                   el("span", {}, b.online === false ? "offline" : (b.synced ? `ply ${b.moves}` : "catching up"))));
    card.append(el("div", { class: "names" }, `${b.white} – ${b.black}`));
    card.append(miniBoard(b.fen, false));
    card.append(clocks(b));
    return card;
  });
  document.getElementById("grid").replaceChildren(...cards);
}

function showBoard(state) {
  const b = state.boards.find((x) => x.board === boardName);
  document.getElementById("title").textContent = b ? `Board ${b.board}: ${b.white} – ${b.black}` : `Board ${boardName}`;
  if (!b) return;
  document.getElementById("board").replaceWith(Object.assign(miniBoard(b.fen, true), { id: "board" }));
  document.getElementById("clocks").replaceWith(Object.assign(clocks(b), { id: "clocks" }));
  const alarms = state.alarms.filter((a) => a.board === boardName);
  document.getElementById("alarms").replaceChildren(...alarms.reverse().map(alarmItem));
  fetch(`/api/board/${encodeURIComponent(boardName)}.pgn`).then((r) => r.ok ? r.text() : "")
    .then((text) => { document.getElementById("pgn").textContent = text; });
}

async function post(url, body) {
  const token = (document.getElementById("token") || {}).value || sessionStorage.getItem("hall-token") || "";
  const answer = await fetch(url, { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-Arbiter-Token": token } });
  const data = await answer.json().catch(() => ({}));
  const out = document.getElementById("answer");
  if (out) out.textContent = answer.ok ? (data.seq ? `journaled by the board as event ${data.seq}` : "done") : (data.error || answer.statusText);
  return answer.ok;
}

if (oneBoard) {
  const token = document.getElementById("token");
  token.value = sessionStorage.getItem("hall-token") || "";
  token.addEventListener("change", () => sessionStorage.setItem("hall-token", token.value));
  document.querySelectorAll("[data-action]").forEach((button) => {
    button.addEventListener("click", () =>
      post(`/api/board/${encodeURIComponent(boardName)}/control`, { action: JSON.parse(button.dataset.action) }));
  });
}

const source = new EventSource("/events");
source.addEventListener("hall", (e) => {
  const state = JSON.parse(e.data);
  if (oneBoard) showBoard(state); else showHall(state);
  document.getElementById("link").textContent = `${state.boards.length} boards`;
});
source.onerror = () => { document.getElementById("link").textContent = "reconnecting…"; };
