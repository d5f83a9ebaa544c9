-- The m,n,k-game in Lua: the rules and features of evoplay's mnk (game.py), as the host interface an evoplay player
-- reads (docs/your-game.md, "A player for your host game"). `evoplay export RUN --lang lua` writes this file into
-- the player of an mnk run, so the export runs as it is. Lua 5.1 to 5.5 and LuaJIT.
--
-- A position is {board, player, winner, empties}: board[cell + 1] is 0 empty, 1 X (player 0), 2 O (player 1), cell =
-- row * m + column; player is the one to move (-4 once the game is over). An action is a cell. params: m (5
-- columns), n (5 rows), k (4 in a line wins).
local function make_game(params)
  local M, N, K = params.m or 5, params.n or 5, params.k or 4
  local TERMINAL = -4
  local DIRECTIONS = {{0, 1}, {1, 0}, {1, 1}, {1, -1}}
  local VIEW = {[0] = {[0] = 0.0, 1.0, -1.0}, [1] = {[0] = 0.0, -1.0, 1.0}}

  local function wins(board, cell)
    local mark = board[cell + 1]
    local row, col = math.floor(cell / M), cell % M
    for d = 1, 4 do
      local run = 1
      for _, sign in ipairs({1, -1}) do
        local dr, dc = sign * DIRECTIONS[d][1], sign * DIRECTIONS[d][2]
        local r, c = row + dr, col + dc
        while r >= 0 and r < N and c >= 0 and c < M and board[r * M + c + 1] == mark do
          run = run + 1
          r, c = r + dr, c + dc
        end
      end
      if run >= K then return true end
    end
    return false
  end

  local function cell_name(cell) return string.char(97 + cell % M) .. tostring(math.floor(cell / M) + 1) end
  local names = {}
  for i = 0, M * N - 1 do names[i + 1] = cell_name(i) end

  local game = {num_players = 2, feature_names = names}
  function game.new_game()
    local board = {}
    for i = 1, M * N do board[i] = 0 end
    return {board = board, player = 0, winner = -1, empties = M * N}
  end
  function game.current_player(s) return s.player end
  function game.is_terminal(s) return s.player == TERMINAL end
  function game.legal_moves(s)
    local out = {}
    if s.player == TERMINAL then return out end
    for c = 0, M * N - 1 do
      if s.board[c + 1] == 0 then out[#out + 1] = c end
    end
    return out
  end
  function game.clone(s)
    local board = {}
    for i = 1, M * N do board[i] = s.board[i] end
    return {board = board, player = s.player, winner = s.winner, empties = s.empties}
  end
  function game.apply(s, cell)
    s.board[cell + 1] = s.player + 1
    s.empties = s.empties - 1
    if wins(s.board, cell) then
      s.winner, s.player = s.player, TERMINAL
    elseif s.empties == 0 then
      s.player = TERMINAL
    else
      s.player = 1 - s.player
    end
  end
  function game.returns(s)
    if s.winner == 0 then return {1.0, -1.0} end
    if s.winner == 1 then return {-1.0, 1.0} end
    return {0.0, 0.0}
  end
  function game.features(s, player)
    local out = {}
    for i = 1, M * N do out[i] = VIEW[player][s.board[i]] end
    return out
  end
  game.action_name = cell_name
  return game
end
return make_game
