"""The tools around games, apart from the game API users program against: where a game comes from and how it is
checked, guarded and adapted.

* ``sources``: games from a Python file or an installed package's entry point, and the one resolver of every file
  a spec names (``resolve_file``, confined to a folder inside ``confined_to``);
* ``openspiel``: any OpenSpiel game as an evoplay game (``openspiel:NAME``), or its port where evoplay has one;
* ``guard``: a user's game under guard (a hook that raises, loops or returns what no game may is one ``GameError``
  naming it);
* ``check`` and ``check_kernels``: ``evoplay check-game``, the game API's promises and a game's kernels held to its
  State; ``seat_view``: observation tensors made relative to the seat;
* ``champions``: the ``champion.json`` a game's package ships, played by the ``champion`` agent.

The game API itself (``Game``, ``State``, ``Kernels``, ``Agent``, ``load_game`` and the registry) is
``evoplay.games`` and its top-level modules; each game is a package of its own (``evoplay.games.<name>``). This
package imports nothing when imported: ``evoplay.games`` loads ``sources`` from here as it starts.
"""
