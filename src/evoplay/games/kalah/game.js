// Kalah in JavaScript: the rules and features of evoplay's kalah (game.py's reference_sow and KalahState), as the
// host interface an evoplay player reads (docs/your-game.md, "A player for your host game"). `evoplay export RUN
// --lang js` writes this file into the player of a Kalah run, so the export runs as it is.
//
// A position is {board, player}: board holds the first player's pits, their store, the second player's pits, their
// store (2 * pits + 2 numbers); player is the one to move (-4 once the game is over). An action is the mover's pit,
// 0..pits-1 from the mover's left. params: pits (6), seeds (4), empty_capture (true).
function makeGame(params) {
  var PITS = params.pits === undefined ? 6 : params.pits;
  var SEEDS = params.seeds === undefined ? 4 : params.seeds;
  var EMPTY_CAPTURE = params.empty_capture === undefined ? true : !!params.empty_capture;
  var SIZE = 2 * PITS + 2, TERMINAL = -4;

  function store(player) { return player === 0 ? PITS : 2 * PITS + 1; }
  function pit(player, p) { return player === 0 ? p : PITS + 1 + p; }

  // Sow pit for player in place; the next player, or TERMINAL.
  function sow(board, player, p) {
    var own = store(player), opp = store(1 - player), index = pit(player, p), seeds = board[index];
    board[index] = 0;
    while (seeds > 0) {
      index = (index + 1) % SIZE;
      if (index === opp) continue;
      board[index] += 1;
      seeds -= 1;
    }
    if (pit(player, 0) <= index && index <= pit(player, PITS - 1) && board[index] === 1) {
      var opposite = 2 * PITS - index;
      if (EMPTY_CAPTURE || board[opposite] > 0) {
        board[own] += board[opposite] + 1;
        board[index] = 0;
        board[opposite] = 0;
      }
    }
    var side0 = 0, side1 = 0, i;
    for (i = 0; i < PITS; i++) { side0 += board[i]; side1 += board[PITS + 1 + i]; }
    if (side0 === 0 || side1 === 0) {
      board[PITS] += side0;
      board[2 * PITS + 1] += side1;
      for (i = 0; i < PITS; i++) { board[i] = 0; board[PITS + 1 + i] = 0; }
      return TERMINAL;
    }
    return index === own ? player : 1 - player;
  }

  var names = [], k;
  for (k = 1; k <= PITS; k++) names.push("my_pit_" + k);
  names.push("my_store");
  for (k = 1; k <= PITS; k++) names.push("opp_pit_" + k);
  names.push("opp_store");

  return {
    numPlayers: 2,
    featureNames: names,
    newGame: function () {
      var board = [];
      for (var i = 0; i < SIZE; i++) board.push(i === PITS || i === SIZE - 1 ? 0 : SEEDS);
      return {board: board, player: 0};
    },
    currentPlayer: function (s) { return s.player; },
    isTerminal: function (s) { return s.player === TERMINAL; },
    legalMoves: function (s) {
      var base = s.player === 0 ? 0 : PITS + 1, out = [];
      for (var p = 0; p < PITS; p++) if (s.board[base + p] > 0) out.push(p);
      return out;
    },
    clone: function (s) { return {board: s.board.slice(), player: s.player}; },
    apply: function (s, action) { s.player = sow(s.board, s.player, action); },
    returns: function (s) {
      if (s.player !== TERMINAL) return [0.0, 0.0];
      var d = Math.sign(s.board[PITS] - s.board[2 * PITS + 1]);
      return [d, -d];
    },
    scores: function (s) { return [s.board[PITS], s.board[2 * PITS + 1]]; },
    // the board turned to player's side: its pits from its left, its store, the opponent's pits, their store
    features: function (s, player) {
      return player === 1 ? s.board.slice(PITS + 1).concat(s.board.slice(0, PITS + 1)) : s.board.slice();
    },
    actionName: function (action) { return String(action + 1); }
  };
}
if (typeof module === "object" && module.exports) module.exports = makeGame;
