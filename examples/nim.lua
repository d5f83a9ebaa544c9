-- Nim in Lua: examples/nim.py's rules and features as the host interface an evoplay player reads (the smallest
-- host; docs/your-game.md, "A player for your host game"). A position is {stones, player}; action a takes a + 1
-- stones; who takes the last wins. Lua lists: returns(s)[p + 1] is player p's.
local function make_game(params)
  local game = {num_players = 2, feature_names = {"stones", "stones_mod_4"}}
  function game.new_game() return {stones = 15, player = 0} end
  function game.current_player(s) if s.stones == 0 then return -4 end return s.player end
  function game.is_terminal(s) return s.stones == 0 end
  function game.legal_moves(s)
    local out = {}
    for a = 0, 2 do if a < s.stones then out[#out + 1] = a end end
    return out
  end
  function game.clone(s) return {stones = s.stones, player = s.player} end
  function game.apply(s, a) s.stones, s.player = s.stones - a - 1, 1 - s.player end
  function game.returns(s)
    if s.stones ~= 0 then return {0.0, 0.0} end
    if s.player == 0 then return {-1.0, 1.0} end -- the player to move took nothing
    return {1.0, -1.0}
  end
  function game.features(s, player) return {s.stones, s.stones % 4} end
  return game
end
return make_game
