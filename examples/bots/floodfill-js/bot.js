// A flood-fill Tron bot in JavaScript speaking arena-json/1: one JSON object per line each way.
// It moves to the free neighbouring cell from which it can reach the most free cells, and among those to
// the one with the fewest free neighbours (hugging walls leaves open room for later).
"use strict";
const readline = require("readline");

const DELTA = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function freeCells(obs) {
  const free = obs.rows.map((row) => Array.from(row, (cell) => cell === "."));
  return (x, y) => y >= 0 && y < obs.height && x >= 0 && x < obs.width && free[y][x];
}

function room(obs, isFree, start) {
  const seen = new Set([start.join(",")]);
  const queue = [start];
  while (queue.length) {
    const [x, y] = queue.pop();
    for (const [dx, dy] of Object.values(DELTA)) {
      const key = `${x + dx},${y + dy}`;
      if (isFree(x + dx, y + dy) && !seen.has(key)) {
        seen.add(key);
        queue.push([x + dx, y + dy]);
      }
    }
  }
  return seen.size;
}

function choose(obs, legal) {
  const isFree = freeCells(obs);
  const [hx, hy] = obs.heads[obs.seat];
  let best = legal[0];
  let bestScore = [-1, -1];
  for (const move of legal) {
    const [dx, dy] = DELTA[move] || [0, 0];
    const x = hx + dx;
    const y = hy + dy;
    if (!isFree(x, y)) continue;
    const walls = Object.values(DELTA).filter(([ex, ey]) => !isFree(x + ex, y + ey)).length;
    const score = [room(obs, isFree, [x, y]), walls];
    if (score[0] > bestScore[0] || (score[0] === bestScore[0] && score[1] > bestScore[1])) {
      best = move;
      bestScore = score;
    }
  }
  return best;
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "start") {
    process.stderr.write(`floodfill-js: seat ${message.seat} of ${message.game} on ${message.map}\n`);
    send({ type: "ready" });
  } else if (message.type === "turn") {
    send({ action: choose(message.observation, message.legal) });
  } else if (message.type === "end") {
    lines.close();
  }
});
