"""The progressive side bet's table: the ``[progressive]`` section of a paytable.

The progressive is an optional fixed wager, placed with the Ante, judged on the seat's
first five cards (its two hole cards and the flop).  Its award lines pay either a share
of the meter (``meter_bp``, basis points: 10,000 is the whole meter) or a fixed amount
(``cents``).  Each wager feeds the meter (``contribution_bp`` of it) and, optionally, a
hidden reserve (``reserve_bp``) that funds the meter's next reset.

Only the first five cards are offered (``cards = "first_five"``): every published
variant judges them, the bet is decided at the flop for every seat whatever it does
afterwards, and on seven cards a royal flush comes 21 times as often (4,324 in
133,784,560 against 4 in 2,598,960), which is another bet with other figures.  A file
that asks for ``"seven"`` is refused with that reason.

Rules of the meter (cents throughout):

* each wager adds ``wager * contribution_bp / 10000`` to the meter and
  ``wager * reserve_bp / 10000`` to the reserve, both whole cents (a table where either
  is not a whole number of cents is refused); a contribution that would lift the meter
  above ``ceiling`` goes to the reserve instead;
* a round's awards are settled from the highest line down, each on the meter as it then
  stands; a line's meter award is ``meter * meter_bp // 10000`` (the fraction of a cent
  stays in the meter);
* a line of 10,000 basis points empties the meter, which is then set to ``reset``:
  taken from the reserve, the shortfall put in by the operator;
* several seats on the same meter line in one round: ``split = "share"`` divides the
  line's award equally, each share rounded down to the cent, the remainder breakage;
  ``split = "sequential"`` pays the seats in seat order, each on the meter as the
  previous award (and any reset) left it.  A fixed award is paid in full to every seat.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, field_validator, model_validator

from engine.hands.categories import HandCategory
from engine.uth.paytable_rules import MAX_AMOUNT, RuleError, shown

#: Basis points in the whole (10,000 = 100%).
WHOLE_BP = 10_000

#: Hands an award line may name, strongest first.
PROGRESSIVE_LINES = (
    HandCategory.ROYAL_FLUSH,
    HandCategory.STRAIGHT_FLUSH,
    HandCategory.FOUR_OF_A_KIND,
    HandCategory.FULL_HOUSE,
    HandCategory.FLUSH,
    HandCategory.STRAIGHT,
    HandCategory.THREE_OF_A_KIND,
)

#: Cards the bet may be judged on: the two hole cards and the flop.
CARDS_OFFERED = ("first_five",)

_Cents = Annotated[int, Strict(), Field(gt=0, le=MAX_AMOUNT)]
_Bp = Annotated[int, Strict(), Field(ge=0, le=WHOLE_BP)]


class _Base(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Award(_Base):
    """One award line: ``meter_bp`` basis points of the meter, or ``cents`` fixed."""

    meter_bp: Annotated[int, Strict(), Field(gt=0, le=WHOLE_BP)] | None = None
    cents: _Cents | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Award:
        if (self.meter_bp is None) == (self.cents is None):
            raise ValueError("an award is either meter_bp (a share of the meter) or cents")
        return self

    @property
    def on_meter(self) -> bool:
        return self.meter_bp is not None

    def __str__(self) -> str:
        if self.meter_bp is not None:
            return f"{self.meter_bp / 100:g}% of the meter"
        return f"{self.cents} cents"


class Awards(_Base):
    """Award lines keyed by hand name; a hand without a line loses."""

    royal_flush: Award | None = None
    straight_flush: Award | None = None
    four_of_a_kind: Award | None = None
    full_house: Award | None = None
    flush: Award | None = None
    straight: Award | None = None
    three_of_a_kind: Award | None = None

    def lines(self) -> dict[HandCategory, Award]:
        """The lines present, strongest hand first."""
        found = {c: getattr(self, c.name.lower()) for c in PROGRESSIVE_LINES}
        return {c: a for c, a in found.items() if a is not None}


class Progressive(_Base):
    """The progressive bet of a paytable.  Amounts in cents, shares in basis points.

    Invariants (each refusal names its field): the wager's contributions are whole cents
    and together at most the wager; there is at least one line and at least one on the
    meter; a fixed award is at most ``reset``; ``reset <= ceiling``; a weaker hand's
    fixed award is at most a stronger hand's.
    """

    wager: _Cents
    cards: Annotated[str, Strict()] = "first_five"
    contribution_bp: _Bp
    reserve_bp: _Bp = 0
    reset: _Cents
    ceiling: _Cents
    split: Literal["share", "sequential"] = "share"
    awards: Awards

    @field_validator("cards")
    @classmethod
    def _cards(cls, v: str) -> str:
        if v == "seven":
            raise ValueError(
                "'seven' is not offered: the bet is judged on the first five cards "
                "(hole cards and flop), as published variants are"
            )
        if v not in CARDS_OFFERED:
            raise ValueError(f"unknown cards {shown(v)}; use 'first_five'")
        return v

    @model_validator(mode="after")
    def _coherent(self) -> Progressive:
        total = self.contribution_bp + self.reserve_bp
        if total > WHOLE_BP:
            raise RuleError(
                "progressive.reserve_bp" if self.reserve_bp else "progressive.contribution_bp",
                f"contributions of {total / 100:g}% of the wager are over 100%",
            )
        if self.contribution_bp == 0:
            raise RuleError("progressive.contribution_bp", "nothing would feed the meter")
        for name in ("contribution_bp", "reserve_bp"):
            if self.wager * getattr(self, name) % WHOLE_BP:
                raise RuleError(
                    f"progressive.{name}",
                    f"{getattr(self, name)} basis points of a {self.wager}-cent wager is not "
                    "a whole number of cents",
                )
        if self.ceiling < self.reset:
            raise RuleError(
                "progressive.ceiling", f"ceiling {self.ceiling} is below the reset {self.reset}"
            )
        lines = self.awards.lines()
        if not lines:
            raise RuleError("progressive.awards", "no award line")
        if not any(a.on_meter for a in lines.values()):
            raise RuleError("progressive.awards", "no line pays a share of the meter")
        stronger: tuple[str, int] | None = None
        for cat, award in lines.items():
            field = f"progressive.awards.{cat.name.lower()}.cents"
            if award.cents is None:
                continue
            if award.cents > self.reset:
                raise RuleError(field, f"fixed award {award.cents} is above the reset {self.reset}")
            if stronger is not None and award.cents > stronger[1]:
                raise RuleError(
                    field,
                    f"fixed award {award.cents} is above the {stronger[0]} award {stronger[1]}",
                )
            stronger = (cat.name.lower(), award.cents)
        return self

    @property
    def meter_contribution(self) -> int:
        """Cents each wager adds to the meter."""
        return self.wager * self.contribution_bp // WHOLE_BP

    @property
    def reserve_contribution(self) -> int:
        """Cents each wager adds to the hidden reserve."""
        return self.wager * self.reserve_bp // WHOLE_BP

    @property
    def top(self) -> HandCategory:
        """The top award's hand: the line with the largest share of the meter (of two
        with the same share, the stronger hand)."""
        meter = [(a.meter_bp, c) for c, a in self.awards.lines().items() if a.meter_bp]
        return max(meter, key=lambda bp_cat: bp_cat[0])[1]
