// The m,n,k-game in JavaScript: the rules and features of evoplay's mnk (game.py), as the host interface an evoplay
// player reads (docs/your-game.md, "A player for your host game"). `evoplay export RUN --lang js` writes this file
// into the player of an mnk run, so the export runs as it is.
//
// A position is {board, player, winner, empties}: board[cell] is 0 empty, 1 X (player 0), 2 O (player 1), cell =
// row * m + column; player is the one to move (-4 once the game is over). An action is a cell. params: m (5
// columns), n (5 rows), k (4 in a line wins).
function makeGame(params) {
  var M = params.m === undefined ? 5 : params.m;
  var N = params.n === undefined ? 5 : params.n;
  var K = params.k === undefined ? 4 : params.k;
  var TERMINAL = -4;
  var DIRECTIONS = [[0, 1], [1, 0], [1, 1], [1, -1]];
  var VIEW = [[0.0, 1.0, -1.0], [0.0, -1.0, 1.0]];

  function wins(board, cell) {
    var mark = board[cell], row = Math.floor(cell / M), col = cell % M;
    for (var d = 0; d < 4; d++) {
      var run = 1;
      for (var sign = 1; sign >= -1; sign -= 2) {
        var dr = sign * DIRECTIONS[d][0], dc = sign * DIRECTIONS[d][1], r = row + dr, c = col + dc;
        while (r >= 0 && r < N && c >= 0 && c < M && board[r * M + c] === mark) {
          run += 1;
          r += dr;
          c += dc;
        }
      }
      if (run >= K) return true;
    }
    return false;
  }

  function cellName(cell) { return String.fromCharCode(97 + (cell % M)) + (Math.floor(cell / M) + 1); }
  var names = [];
  for (var i = 0; i < M * N; i++) names.push(cellName(i));

  return {
    numPlayers: 2,
    featureNames: names,
    newGame: function () {
      var board = [];
      for (var i = 0; i < M * N; i++) board.push(0);
      return {board: board, player: 0, winner: -1, empties: M * N};
    },
    currentPlayer: function (s) { return s.player; },
    isTerminal: function (s) { return s.player === TERMINAL; },
    legalMoves: function (s) {
      var out = [];
      if (s.player === TERMINAL) return out;
      for (var c = 0; c < s.board.length; c++) if (s.board[c] === 0) out.push(c);
      return out;
    },
    clone: function (s) { return {board: s.board.slice(), player: s.player, winner: s.winner, empties: s.empties}; },
    apply: function (s, cell) {
      s.board[cell] = s.player + 1;
      s.empties -= 1;
      if (wins(s.board, cell)) {
        s.winner = s.player;
        s.player = TERMINAL;
      } else if (s.empties === 0) {
        s.player = TERMINAL;
      } else {
        s.player = 1 - s.player;
      }
    },
    returns: function (s) {
      if (s.winner === 0) return [1.0, -1.0];
      if (s.winner === 1) return [-1.0, 1.0];
      return [0.0, 0.0];
    },
    features: function (s, player) {
      return s.board.map(function (v) { return VIEW[player][v]; });
    },
    actionName: cellName
  };
}
if (typeof module === "object" && module.exports) module.exports = makeGame;
