// Nim in JavaScript: examples/nim.py's rules and features as the host interface an evoplay player reads (the
// smallest host; docs/your-game.md, "A player for your host game"). A position is {stones, player}; action a
// takes a + 1 stones; who takes the last wins.
function makeGame(params) {
  return {
    numPlayers: 2,
    featureNames: ["stones", "stones_mod_4"],
    newGame: function () { return {stones: 15, player: 0}; },
    currentPlayer: function (s) { return s.stones === 0 ? -4 : s.player; },
    isTerminal: function (s) { return s.stones === 0; },
    legalMoves: function (s) { return [0, 1, 2].filter(function (a) { return a < s.stones; }); },
    clone: function (s) { return {stones: s.stones, player: s.player}; },
    apply: function (s, a) { s.stones -= a + 1; s.player = 1 - s.player; },
    returns: function (s) {
      if (s.stones) return [0.0, 0.0];
      return [0, 1].map(function (p) { return p === s.player ? -1.0 : 1.0; });  // the player to move took nothing
    },
    features: function (s, player) { return [s.stones, s.stones % 4]; }
  };
}
if (typeof module === "object" && module.exports) module.exports = makeGame;
