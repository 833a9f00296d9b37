"""The RNG dossier's tests: the generator recorded as the shuffle consumes it, biased
shuffles for showing the tests can fail, and the game-level tests on dealt decks."""

from engine.rng_tests.game import (
    ALPHA,
    GAME_TESTS,
    GameTest,
    game_results,
    position_matrix,
    run_game_tests,
)
from engine.rng_tests.sources import (
    ModuloBiasedSource,
    cut_card_decks,
    decks,
    dump_bytes,
    tapped_dump,
)
from engine.rng_tests.stats import chi2_sf, normal_two_sided
from engine.rng_tests.tally import GameTally

__all__ = [
    "ALPHA",
    "GAME_TESTS",
    "GameTally",
    "GameTest",
    "game_results",
    "ModuloBiasedSource",
    "chi2_sf",
    "cut_card_decks",
    "decks",
    "dump_bytes",
    "tapped_dump",
    "normal_two_sided",
    "position_matrix",
    "run_game_tests",
]
