// 6x6 Othello in JavaScript: the rules and features of examples/othello6.py, as the host interface an evoplay
// player reads (docs/your-game.md, "A player for your host game"). `evoplay export RUN --lang js` writes this file
// into the player of a run on examples/othello6.py:Othello, so the export runs as it is.
//
// A position is {board, player, legal}: board[cell] is 0 empty, 1 black (player 0), 2 white (player 1), cell =
// row * 6 + column from a1; player is the one to move (-4 once the game is over); legal its moves (empty: it
// passes). Actions are the cells 0..35 and 36, the pass.
function makeGame(params) {
  var SIZE = 6, CELLS = 36, PASS = 36, TERMINAL = -4;
  var CORNERS = [0, SIZE - 1, CELLS - SIZE, CELLS - 1];
  var DIRECTIONS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
  var VIEW = [[0.0, 1.0, -1.0], [0.0, -1.0, 1.0]]; // cell code -> feature, from each player's side

  // For every cell, its rays in the 8 directions (only those with room for a flip).
  var RAYS = [];
  for (var cell = 0; cell < CELLS; cell++) {
    var rays = [];
    for (var d = 0; d < DIRECTIONS.length; d++) {
      var ray = [], r = Math.floor(cell / SIZE) + DIRECTIONS[d][0], c = (cell % SIZE) + DIRECTIONS[d][1];
      while (r >= 0 && r < SIZE && c >= 0 && c < SIZE) {
        ray.push(r * SIZE + c);
        r += DIRECTIONS[d][0];
        c += DIRECTIONS[d][1];
      }
      if (ray.length >= 2) rays.push(ray);
    }
    RAYS.push(rays);
  }

  function flips(board, cell, me) {
    var turned = [];
    var rays = RAYS[cell];
    for (var i = 0; i < rays.length; i++) {
      var run = [];
      for (var j = 0; j < rays[i].length; j++) {
        var k = rays[i][j];
        if (board[k] !== 3 - me) {
          if (board[k] === me) turned = turned.concat(run);
          break;
        }
        run.push(k);
      }
    }
    return turned;
  }

  function moves(board, me) {
    var out = [];
    for (var c = 0; c < CELLS; c++) if (board[c] === 0 && flips(board, c, me).length) out.push(c);
    return out;
  }

  function cellName(cell) {
    return String.fromCharCode(97 + (cell % SIZE)) + (Math.floor(cell / SIZE) + 1);
  }

  var names = [];
  for (var n = 0; n < CELLS; n++) names.push(cellName(n));
  names = names.concat(["my_discs", "opp_discs", "my_corners", "opp_corners", "to_move", "mobility"]);

  function count(board, v) {
    var k = 0;
    for (var i = 0; i < board.length; i++) if (board[i] === v) k++;
    return k;
  }

  return {
    numPlayers: 2,
    featureNames: names,
    newGame: function () {
      var board = [], mid = SIZE / 2;
      for (var i = 0; i < CELLS; i++) board.push(0);
      board[(mid - 1) * SIZE + mid - 1] = board[mid * SIZE + mid] = 2;
      board[(mid - 1) * SIZE + mid] = board[mid * SIZE + mid - 1] = 1;
      return {board: board, player: 0, legal: moves(board, 1)};
    },
    currentPlayer: function (s) { return s.player; },
    isTerminal: function (s) { return s.player === TERMINAL; },
    legalMoves: function (s) { return s.legal.length ? s.legal.slice() : [PASS]; },
    clone: function (s) { return {board: s.board.slice(), player: s.player, legal: s.legal.slice()}; },
    apply: function (s, action) {
      var me = s.player + 1;
      if (action !== PASS) {
        var turned = flips(s.board, action, me);
        for (var i = 0; i < turned.length; i++) s.board[turned[i]] = me;
        s.board[action] = me;
      }
      var next = 1 - s.player;
      s.legal = moves(s.board, next + 1);
      if (!s.legal.length && (action === PASS || !moves(s.board, me).length)) {
        s.player = TERMINAL; // neither player can move
        s.legal = [];
      } else {
        s.player = next;
      }
    },
    returns: function (s) {
      if (s.player !== TERMINAL) return [0.0, 0.0];
      var margin = Math.sign(count(s.board, 1) - count(s.board, 2));
      return [margin, -margin];
    },
    scores: function (s) { return [count(s.board, 1), count(s.board, 2)]; },
    features: function (s, player) {
      var me = player + 1, opp = 2 - player, out = [];
      for (var i = 0; i < CELLS; i++) out.push(VIEW[player][s.board[i]]);
      var corners = CORNERS.map(function (c) { return s.board[c]; });
      out.push(count(s.board, me), count(s.board, opp), count(corners, me), count(corners, opp),
               s.player === player ? 1.0 : 0.0, s.legal.length);
      return out;
    },
    key: function (s) { return s.player + ":" + s.board.join(""); },
    actionName: function (action) { return action === PASS ? "pass" : cellName(action); }
  };
}
if (typeof module === "object" && module.exports) module.exports = makeGame;
