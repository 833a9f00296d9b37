"""The game's pure checks: bets, tickets, operators' rights, configuration bounds, the PIN
pad's lock."""
