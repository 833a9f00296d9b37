"""No-limit Texas Hold'em for 2 to 6 seats: the hand, its records, bots and sit-and-go
tournaments.  Chips are whole numbers (tournament points, never credits).

Modules, from the bottom up: :mod:`~engine.holdem.actions` (value types),
:mod:`~engine.holdem.records` (what each move did), :mod:`~engine.holdem.views` (what a
seat may see and do), :mod:`~engine.holdem.pots`, :mod:`~engine.holdem.state` (a hand
and its rules), :mod:`~engine.holdem.hand` (the moves), :mod:`~engine.holdem.dealing`,
:mod:`~engine.holdem.replay` (hands from JSON), :mod:`~engine.holdem.equity`,
:mod:`~engine.holdem.bots`, :mod:`~engine.holdem.blinds`, :mod:`~engine.holdem.seats`,
:mod:`~engine.holdem.config`, :mod:`~engine.holdem.stats`,
:mod:`~engine.holdem.tournament`, :mod:`~engine.holdem.phh` (hand histories in the
Poker Hand History format) and :mod:`~engine.holdem.style` (VPIP, PFR, aggression,
folds to big bets, bluffs).  Modules inside ``engine`` import from those, never
from this package.
"""

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.holdem.actions import (
        MAX_SEATS,
        MIN_SEATS,
        Action,
        ActionKind,
        DealerJob,
        Evaluate,
        Street,
    )
    from engine.holdem.blinds import (
        BLIND_LEVELS,
        SEED003_TABLE,
        STARTING_LEVELS,
        TABLES,
        BlindLevel,
        TableSpec,
        level_index,
    )
    from engine.holdem.bots import (
        PERSONALITIES,
        SEED003_PLAYERS,
        Bot,
        Difficulty,
        Personality,
        chen_score,
        random_personality,
    )
    from engine.holdem.config import TournamentConfig, seed003_config
    from engine.holdem.dealing import deck_for_deal
    from engine.holdem.equity import ASSIST_SAMPLES, Equity, EquityAssist, estimate_equity, pot_odds
    from engine.holdem.hand import HoldemHand
    from engine.holdem.phh import HandInfo, hand_phh, log_phh, phh_text, phhs_text
    from engine.holdem.pots import Pot
    from engine.holdem.records import (
        BetMade,
        BlindPosted,
        BoardDealt,
        Called,
        CardBurned,
        Checked,
        Folded,
        HandResult,
        HandShown,
        HoleCardsDealt,
        PotAwarded,
        Raised,
        Record,
        UncalledReturned,
        record_from_dict,
        record_to_dict,
    )
    from engine.holdem.replay import ReplayInputError, parse_hands, replay_all, replay_hand
    from engine.holdem.seats import BotSeat, HumanSeat, RemoteSeat, SeatController, SeatSpec
    from engine.holdem.state import HandState
    from engine.holdem.stats import GameSummary, PlayerRecords, SeatStats
    from engine.holdem.style import StyleCounts, StyleTracker, measure_styles
    from engine.holdem.tournament import Tournament
    from engine.holdem.views import LegalActions, PlayerView

#: Each name this package offers, by the module that defines it: imported on first use,
#: so a program that needs one module does not load every other.
_WHERE = {
    "MAX_SEATS": "engine.holdem.actions",
    "MIN_SEATS": "engine.holdem.actions",
    "Action": "engine.holdem.actions",
    "ActionKind": "engine.holdem.actions",
    "DealerJob": "engine.holdem.actions",
    "Evaluate": "engine.holdem.actions",
    "Street": "engine.holdem.actions",
    "BLIND_LEVELS": "engine.holdem.blinds",
    "SEED003_TABLE": "engine.holdem.blinds",
    "STARTING_LEVELS": "engine.holdem.blinds",
    "TABLES": "engine.holdem.blinds",
    "BlindLevel": "engine.holdem.blinds",
    "TableSpec": "engine.holdem.blinds",
    "level_index": "engine.holdem.blinds",
    "PERSONALITIES": "engine.holdem.bots",
    "SEED003_PLAYERS": "engine.holdem.bots",
    "Bot": "engine.holdem.bots",
    "Difficulty": "engine.holdem.bots",
    "Personality": "engine.holdem.bots",
    "chen_score": "engine.holdem.bots",
    "random_personality": "engine.holdem.bots",
    "TournamentConfig": "engine.holdem.config",
    "seed003_config": "engine.holdem.config",
    "deck_for_deal": "engine.holdem.dealing",
    "ASSIST_SAMPLES": "engine.holdem.equity",
    "Equity": "engine.holdem.equity",
    "EquityAssist": "engine.holdem.equity",
    "estimate_equity": "engine.holdem.equity",
    "pot_odds": "engine.holdem.equity",
    "HoldemHand": "engine.holdem.hand",
    "HandInfo": "engine.holdem.phh",
    "hand_phh": "engine.holdem.phh",
    "log_phh": "engine.holdem.phh",
    "phh_text": "engine.holdem.phh",
    "phhs_text": "engine.holdem.phh",
    "Pot": "engine.holdem.pots",
    "BetMade": "engine.holdem.records",
    "BlindPosted": "engine.holdem.records",
    "BoardDealt": "engine.holdem.records",
    "Called": "engine.holdem.records",
    "CardBurned": "engine.holdem.records",
    "Checked": "engine.holdem.records",
    "Folded": "engine.holdem.records",
    "HandResult": "engine.holdem.records",
    "HandShown": "engine.holdem.records",
    "HoleCardsDealt": "engine.holdem.records",
    "PotAwarded": "engine.holdem.records",
    "Raised": "engine.holdem.records",
    "Record": "engine.holdem.records",
    "UncalledReturned": "engine.holdem.records",
    "record_from_dict": "engine.holdem.records",
    "record_to_dict": "engine.holdem.records",
    "ReplayInputError": "engine.holdem.replay",
    "parse_hands": "engine.holdem.replay",
    "replay_all": "engine.holdem.replay",
    "replay_hand": "engine.holdem.replay",
    "BotSeat": "engine.holdem.seats",
    "HumanSeat": "engine.holdem.seats",
    "RemoteSeat": "engine.holdem.seats",
    "SeatController": "engine.holdem.seats",
    "SeatSpec": "engine.holdem.seats",
    "HandState": "engine.holdem.state",
    "GameSummary": "engine.holdem.stats",
    "PlayerRecords": "engine.holdem.stats",
    "SeatStats": "engine.holdem.stats",
    "StyleCounts": "engine.holdem.style",
    "StyleTracker": "engine.holdem.style",
    "measure_styles": "engine.holdem.style",
    "Tournament": "engine.holdem.tournament",
    "LegalActions": "engine.holdem.views",
    "PlayerView": "engine.holdem.views",
}


__getattr__ = lazy_names(__name__, _WHERE)


__all__ = [
    "ASSIST_SAMPLES",
    "BLIND_LEVELS",
    "MAX_SEATS",
    "MIN_SEATS",
    "PERSONALITIES",
    "SEED003_PLAYERS",
    "SEED003_TABLE",
    "STARTING_LEVELS",
    "TABLES",
    "Action",
    "ActionKind",
    "BetMade",
    "BlindLevel",
    "BlindPosted",
    "BoardDealt",
    "Bot",
    "BotSeat",
    "Called",
    "CardBurned",
    "Checked",
    "DealerJob",
    "Difficulty",
    "Equity",
    "EquityAssist",
    "Evaluate",
    "Folded",
    "GameSummary",
    "HandInfo",
    "HandResult",
    "HandShown",
    "HandState",
    "HoldemHand",
    "HoleCardsDealt",
    "HumanSeat",
    "LegalActions",
    "Personality",
    "PlayerRecords",
    "PlayerView",
    "Pot",
    "PotAwarded",
    "Raised",
    "Record",
    "RemoteSeat",
    "ReplayInputError",
    "SeatController",
    "SeatSpec",
    "SeatStats",
    "Street",
    "StyleCounts",
    "StyleTracker",
    "TableSpec",
    "Tournament",
    "TournamentConfig",
    "UncalledReturned",
    "chen_score",
    "deck_for_deal",
    "estimate_equity",
    "hand_phh",
    "level_index",
    "log_phh",
    "measure_styles",
    "parse_hands",
    "phh_text",
    "phhs_text",
    "pot_odds",
    "random_personality",
    "record_from_dict",
    "record_to_dict",
    "replay_all",
    "replay_hand",
    "seed003_config",
]
