-- Kalah in Lua: the rules and features of evoplay's kalah (game.py's reference_sow and KalahState), as the host
-- interface an evoplay player reads (docs/your-game.md, "A player for your host game"). `evoplay export RUN --lang
-- lua` writes this file into the player of a Kalah run, so the export runs as it is. Lua 5.1 to 5.5 and LuaJIT.
--
-- A position is {board, player}: board[i + 1] for i = 0 .. 2 * pits + 1 holds the first player's pits, their store,
-- the second player's pits, their store; player is the one to move (-4 once the game is over). An action is the
-- mover's pit, 0..pits-1 from the mover's left. params: pits (6), seeds (4), empty_capture (true).
local function make_game(params)
  local PITS = params.pits or 6
  local SEEDS = params.seeds or 4
  local EMPTY_CAPTURE = true
  if params.empty_capture ~= nil then EMPTY_CAPTURE = params.empty_capture end
  local SIZE, TERMINAL = 2 * PITS + 2, -4

  local function store(player) if player == 0 then return PITS end return 2 * PITS + 1 end
  local function pit(player, p) if player == 0 then return p end return PITS + 1 + p end

  -- Sow pit p for player on board (0-based indices at [i + 1]) in place; the next player, or TERMINAL.
  local function sow(board, player, p)
    local own, opp, index = store(player), store(1 - player), pit(player, p)
    local seeds = board[index + 1]
    board[index + 1] = 0
    while seeds > 0 do
      index = (index + 1) % SIZE
      if index ~= opp then
        board[index + 1] = board[index + 1] + 1
        seeds = seeds - 1
      end
    end
    if pit(player, 0) <= index and index <= pit(player, PITS - 1) and board[index + 1] == 1 then
      local opposite = 2 * PITS - index
      if EMPTY_CAPTURE or board[opposite + 1] > 0 then
        board[own + 1] = board[own + 1] + board[opposite + 1] + 1
        board[index + 1] = 0
        board[opposite + 1] = 0
      end
    end
    local side0, side1 = 0, 0
    for i = 0, PITS - 1 do
      side0 = side0 + board[i + 1]
      side1 = side1 + board[PITS + 2 + i]
    end
    if side0 == 0 or side1 == 0 then
      board[PITS + 1] = board[PITS + 1] + side0
      board[SIZE] = board[SIZE] + side1
      for i = 0, PITS - 1 do
        board[i + 1] = 0
        board[PITS + 2 + i] = 0
      end
      return TERMINAL
    end
    if index == own then return player end
    return 1 - player
  end

  local names = {}
  for k = 1, PITS do names[#names + 1] = "my_pit_" .. k end
  names[#names + 1] = "my_store"
  for k = 1, PITS do names[#names + 1] = "opp_pit_" .. k end
  names[#names + 1] = "opp_store"

  local game = {num_players = 2, feature_names = names}
  function game.new_game()
    local board = {}
    for i = 0, SIZE - 1 do
      if i == PITS or i == SIZE - 1 then board[i + 1] = 0 else board[i + 1] = SEEDS end
    end
    return {board = board, player = 0}
  end
  function game.current_player(s) return s.player end
  function game.is_terminal(s) return s.player == TERMINAL end
  function game.legal_moves(s)
    local base = 0
    if s.player == 1 then base = PITS + 1 end
    local out = {}
    for p = 0, PITS - 1 do
      if s.board[base + p + 1] > 0 then out[#out + 1] = p end
    end
    return out
  end
  function game.clone(s)
    local board = {}
    for i = 1, SIZE do board[i] = s.board[i] end
    return {board = board, player = s.player}
  end
  function game.apply(s, action) s.player = sow(s.board, s.player, action) end
  function game.returns(s)
    if s.player ~= TERMINAL then return {0.0, 0.0} end
    local d = s.board[PITS + 1] - s.board[SIZE]
    if d > 0 then return {1.0, -1.0} elseif d < 0 then return {-1.0, 1.0} end
    return {0.0, 0.0}
  end
  function game.scores(s) return {s.board[PITS + 1] + 0.0, s.board[SIZE] + 0.0} end
  -- the board turned to player's side: its pits from its left, its store, the opponent's pits, their store
  function game.features(s, player)
    local out = {}
    local start = 0
    if player == 1 then start = PITS + 1 end
    for i = 0, SIZE - 1 do out[i + 1] = s.board[(start + i) % SIZE + 1] + 0.0 end
    return out
  end
  function game.action_name(action) return tostring(action + 1) end
  return game
end
return make_game
