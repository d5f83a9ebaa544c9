// evoplay's driver of an exported JavaScript player: `node driver.js best.js` reads one JSON command a line on
// stdin and answers "choose" (and "ping") with one JSON line on stdout. evoplay export --check and --play use it.
//   {"op": "player", "level": "hard", "seed": 0, "nodes": 1000, "ms": 0}   a player of that level (nodes, ms:
//                                                                          null for the level's own budget)
//   {"op": "restart", "seed": 7, "seat": 1}   a new game: the player restarts, the position is the start
//   {"op": "play", "action": 12}              the action played at the position (by anyone)
//   {"op": "choose"}                          -> {"move": 12, "ms": 3.1}: the player's move at the position
//   {"op": "ping"}                            -> {"ok": true}
// An error answers the next "choose" or "ping" as {"error": "..."}.
"use strict";
var path = require("path");
var readline = require("readline");
var ai = require(path.resolve(process.argv[2]));
var game = ai.GAME;
var player = null, state = null, error = null;

function handle(msg) {
  if (msg.op === "player") {
    var options = {level: msg.level, seed: msg.seed || 0};
    if (msg.nodes !== null && msg.nodes !== undefined) options.nodes = msg.nodes;
    if (msg.ms !== null && msg.ms !== undefined) options.ms = msg.ms;
    player = ai.createPlayer(game, options);
  } else if (msg.op === "restart") {
    player.restart(msg.seed, msg.seat);
    state = game.newGame();
  } else if (msg.op === "play") {
    game.apply(state, msg.action);
  } else if (msg.op === "choose") {
    var start = process.hrtime.bigint();
    var move = player.choose(state);
    return {move: move, ms: Number(process.hrtime.bigint() - start) / 1e6};
  } else if (msg.op === "ping") {
    return {ok: true};
  } else {
    throw new Error("unknown command " + JSON.stringify(msg.op));
  }
  return null;
}

if (!game) {
  process.stdout.write(JSON.stringify({error: process.argv[2] + " has no host game of its own (GAME)"}) + "\n");
  process.exit(2);
}
var lines = readline.createInterface({input: process.stdin});
lines.on("line", function (line) {
  if (!line.trim()) return;
  var msg = JSON.parse(line), answer = null;
  if (error === null) {
    try {
      answer = handle(msg);
    } catch (err) {
      error = String(err && err.stack ? err.stack.split("\n").slice(0, 3).join(" | ") : err);
    }
  }
  if (msg.op === "choose" || msg.op === "ping") {
    process.stdout.write(JSON.stringify(error !== null ? {error: error} : answer) + "\n");
  }
});
