"""The words of the tournament's guide (seed 003's pages and seed 000's rules), page by
page, marked for the catalogues.  :mod:`kiosk.ui.scenes.tournament.guide` draws them."""

from __future__ import annotations

from kiosk.ui.i18n import N_

#: (title, paragraphs) of each page of words, in reading order.
TEXT_PAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Be the last one with chips"), (
        N_("Everyone starts with the same number of chips. Win chips from the other players, hand after hand; "
           "a player who loses all their chips is out. The game ends when one player holds every chip on the "
           "table — the champion."),
        N_("You do not need the best cards to win a pot. If you bet and everyone else folds, the pot is yours "
           "without showing your cards. Choosing when to bet, when to call and when to let a hand go is the "
           "whole game."),
        N_("A table seats 2 to 6 players: you and computer players. Chips are points only: no money."),
    )),
    (N_("Seats, the button and the blinds"), (
        N_("Play always goes clockwise, to the left. One seat holds the dealer button, the round D marker. The "
           "first button goes to a random player; after every hand it moves one seat to the left, skipping "
           "players who are out."),
        N_("Before the cards are dealt, the two players to the left of the button put in forced bets called "
           "blinds, so that every hand has something to play for:"),
        N_("• Small blind (SB) — the player directly to the left of the button puts in half the big blind."),
        N_("• Big blind (BB) — the next player puts in the full big blind. It is also the smallest bet allowed "
           "in the hand."),
        N_("A player who cannot cover a whole blind puts in everything they have and is all in. At some tables "
           "the blinds go up as the game goes on, so the game does not last forever."),
    )),
    (N_("A hand"), (
        N_("Every player gets two cards face down, dealt one at a time starting with the small blind. These are "
           "your hole cards, and only you can see them."),
        N_("A hand has up to four betting rounds. Before each new round, shared cards are dealt face up in the "
           "middle of the table: three at once (the flop), then one (the turn), then one more (the river). "
           "Together they are called the board, and every player uses the same board."),
        N_("In each round the players act in turn: check, bet, call, raise or fold. The round is over when "
           "everyone still in has put in the same amount — or is all in — and everyone has had a chance to "
           "act. Before the flop the big blind gets that chance too."),
        N_("If everyone but one player folds, the hand ends at once and that player takes the pot. No more "
           "cards are dealt and nobody shows their hand."),
    )),
    (N_("Betting"), (
        N_("A bet or raise is always shown as your total for the round: “Raise to 120” means your bet in this "
           "round becomes 120 in all, not 120 more."),
        N_("• The smallest bet is one big blind."),
        N_("• The smallest raise is the size of the last full bet or raise in the same round. Before the flop "
           "the big blind counts as the opening bet, so the first raise must add at least one more big blind."),
        N_("• There is no maximum: you can always go all in. If you do not have enough chips for a full bet, "
           "raise or call, you can still go all in with what you have."),
        N_("If a player goes all in for less than a full raise, the others still have to call the extra chips "
           "to stay in, but players who have already acted in that round may not raise again — unless another "
           "player makes a full raise after it."),
    )),
    (N_("All in and side pots"), (
        N_("A player who is all in can only win, from each opponent, as much as they put in themselves. When "
           "players are all in for different amounts, the chips are split into a main pot and one or more side "
           "pots:"),
        N_("• The main pot holds, from every player, up to the amount of the smallest all-in. Everyone still in "
           "can win it."),
        N_("• Each side pot holds the chips above that level, and only the players who put in that much can win "
           "it."),
        N_("Sofia goes all in for 300; you and Kenji each put in 1,000. The main pot is 900 (300 from each of "
           "the three of you) and the side pot is 1,400 (the extra 700 from you and from Kenji)."),
        N_("Chips that nobody matched are returned: they are never a side pot. The table shows each pot "
           "separately once the betting round is over: Main first, then the side pots."),
    )),
    (N_("The showdown and ties"), (
        N_("If two or more players are still in after the betting on the river, everyone still in shows their "
           "hole cards, and the best five-card hand wins the pot."),
        N_("Each player makes the best five-card hand out of seven cards — their two hole cards and the five on "
           "the board. You may use both of your cards, one of them, or none at all. The game picks the best "
           "five for you."),
        N_("When nobody can bet any more because players are all in, the remaining board cards are dealt "
           "straight away and the hands still in are shown."),
        N_("If two or more players have hands of exactly the same value, they split the pot equally. Suits "
           "never break a tie. The odd chips go out one at a time to the tied winners, starting with the first "
           "winner to the left of the button."),
    )),
    (N_("Heads-up and finishing places"), (
        N_("When only two players are left — at the Heads-Up table, or at the end of any game — the player on "
           "the button posts the small blind and the other player the big blind. Before the flop the button "
           "acts first; after the flop, last."),
        N_("A player with no chips left at the end of a hand is out. Players are ranked in the order they go "
           "out, and the last one standing finishes first."),
        N_("If two players go out in the same hand, the one who started that hand with fewer chips finishes "
           "lower."),
    )),
    (N_("Your turn"), (
        N_("Fold to give up the hand and what you’ve bet in it. Call to match the biggest bet, or Check to pass "
           "when there’s no bet to match. Raise (or Bet) to put in more."),
        N_("• Min — the smallest bet or raise allowed. ½ Pot, ¾ Pot and Pot — bet or raise by half, three "
           "quarters or all of the pot, counting your call. All in — all of your chips."),
        N_("• The slider and the − and + buttons set any amount in between; − and + move it by one big blind. "
           "When the amount reaches all of your chips, the button reads All in."),
        N_("Keys: F fold, C or K check or call, R or B raise (then ↑ ↓ to choose, Enter to raise, Esc to go "
           "back), Space next hand, H the hand history, Y the hand rankings, M the menu."),
    )),
    (N_("The computer players"), (
        N_("The players: Ike on your left, then Max, Rosa, Jules and Nina. Each plays their own way: Rosa is "
           "careful, Max is bold, Jules plays a lot of hands, Nina likes to bluff, and Ike is steady. Learn "
           "them."),
        N_("Each computer seat plays at its own strength: Easy, Normal or Hard. Touch a computer player on the "
           "setup screen to change it."),
        N_("The computer never sees your cards, the other players’ cards or the deck. It only knows its own two "
           "cards, the board, the bets and how many players are in — exactly what a player at a real table "
           "knows."),
    )),
    (N_("Equity assist, deck and records"), (
        N_("With Equity assist on, the label under your cards shows your chance of winning (your equity) "
           "against the players still in the hand, from 1,500 random deals of the cards nobody knows. Compare "
           "it with the pot odds."),
        N_("With Deck you choose how the suits look. The 4-colour deck makes diamonds blue and clubs green, so "
           "a flush is easier to spot at a glance."),
        N_("Every finished game is recorded under your name. Your game is saved after every action: Continue "
           "picks it up exactly where you left off, and asks whose game it is when it is another name’s."),
    )),
)

KICKERS = N_("When two players have the same kind of hand, the higher one wins: a pair of kings beats a pair of "
             "queens. If they are still equal, the kickers — the other cards of the five — are compared one by "
             "one, highest first. A-2-3-4-5 is the lowest straight.")
GLANCE = N_("Every table uses the same levels. The highlighted rows are the starting blinds you can choose. The "
            "columns on the right show the hand on which each level begins.")
