// OpenSpiel's connect_four in JavaScript: the rules and features of evoplay's port (connect_four.py), as the host
// interface an evoplay player reads (docs/your-game.md, "A player for your host game"). `evoplay export RUN --lang
// js` writes this file into the player of an openspiel:connect_four run, so the export runs as it is.
//
// A position is {board, player, outcome}: board[row * columns + column] (row 0 at the bottom) is 0 empty, 1 o
// (player 1), 2 x (player 0); player is the one to move (-4 once the game is over); outcome 0 none yet, 1 x won,
// 2 o won, 3 a draw. An action is a column. The features are evoplay's for OpenSpiel's connect_four: the player's
// own stones, the opponent's, the empty cells, a plane of rows x columns each. params: rows (6), columns (7),
// x_in_row (4).
function makeGame(params) {
  var ROWS = params.rows === undefined ? 6 : params.rows;
  var COLUMNS = params.columns === undefined ? 7 : params.columns;
  var X_IN_ROW = params.x_in_row === undefined ? 4 : params.x_in_row;
  if (params.egocentric_obs_tensor) throw new Error("this host plays connect_four without egocentric_obs_tensor");
  var EMPTY = 0, NOUGHT = 1, CROSS = 2, TERMINAL = -4, DRAW = 3;
  var MARK = [CROSS, NOUGHT];
  var AXES = [[0, 1], [1, 0], [1, 1], [1, -1]];
  var CELLS = ROWS * COLUMNS;

  function lineThrough(board, row, column) {
    var mark = board[row * COLUMNS + column];
    for (var a = 0; a < 4; a++) {
      var run = 1;
      for (var sign = 1; sign >= -1; sign -= 2) {
        var dr = sign * AXES[a][0], dc = sign * AXES[a][1], r = row + dr, c = column + dc;
        while (r >= 0 && r < ROWS && c >= 0 && c < COLUMNS && board[r * COLUMNS + c] === mark) {
          run += 1;
          r += dr;
          c += dc;
        }
      }
      if (run >= X_IN_ROW) return true;
    }
    return false;
  }

  var names = [];
  for (var p = 0; p < 3; p++) {
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < COLUMNS; c++) names.push("obs[" + p + "," + r + "," + c + "]");
  }

  return {
    numPlayers: 2,
    featureNames: names,
    newGame: function () {
      var board = [];
      for (var i = 0; i < CELLS; i++) board.push(EMPTY);
      return {board: board, player: 0, outcome: 0};
    },
    currentPlayer: function (s) { return s.outcome !== 0 ? TERMINAL : s.player; },
    isTerminal: function (s) { return s.outcome !== 0; },
    legalMoves: function (s) {
      var out = [];
      if (s.outcome !== 0) return out;
      for (var c = 0; c < COLUMNS; c++) if (s.board[(ROWS - 1) * COLUMNS + c] === EMPTY) out.push(c);
      return out;
    },
    clone: function (s) { return {board: s.board.slice(), player: s.player, outcome: s.outcome}; },
    apply: function (s, column) {
      var row = 0;
      while (s.board[row * COLUMNS + column] !== EMPTY) row += 1;
      s.board[row * COLUMNS + column] = MARK[s.player];
      if (lineThrough(s.board, row, column)) {
        s.outcome = s.player + 1;
      } else {
        var full = true;
        for (var c = 0; c < COLUMNS; c++) if (s.board[(ROWS - 1) * COLUMNS + c] === EMPTY) full = false;
        if (full) s.outcome = DRAW;
      }
      s.player = 1 - s.player;
    },
    returns: function (s) {
      if (s.outcome === 1) return [1.0, -1.0];
      if (s.outcome === 2) return [-1.0, 1.0];
      return [0.0, 0.0];
    },
    // the player's own stones, the opponent's, the empty cells (OpenSpiel's tensor made relative to the seat)
    features: function (s, player) {
      var out = [], i;
      for (i = 0; i < 3 * CELLS; i++) out.push(0.0);
      for (i = 0; i < CELLS; i++) {
        var v = s.board[i];
        var plane = v === EMPTY ? 2 : v === MARK[player] ? 0 : 1;
        out[plane * CELLS + i] = 1.0;
      }
      return out;
    },
    key: function (s) { return (s.outcome !== 0 ? TERMINAL : s.player) + ":" + s.board.join(""); },
    actionName: function (column) { return String(column); }
  };
}
if (typeof module === "object" && module.exports) module.exports = makeGame;
