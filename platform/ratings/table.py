"""One rated table: Elo and OpenSkill together, for the live path and for replays alike (pure)."""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ratings import elo, skill
from ratings.elo import START
from ratings.skill import MU, SIGMA

# A rating is established, and on the leaderboards, once it rests on enough games and its uncertainty
# has narrowed (Lichess ranks only ratings whose deviation is low, not merely old): 30 rated games (where
# Elo's K drops from 40 to 20) and OpenSkill's sigma at most 5 (it starts at 8.33; about 4.1 after 30 duels).
ESTABLISHED_GAMES = elo.PROVISIONAL_GAMES
ESTABLISHED_SIGMA = 5.0


# A ladder place also needs rated games against this many different opponents who were established
# when they were played (house bots count): a rating measured only against new accounts says nothing of
# where it stands on the ladder. Fourteen fresh puppets, five games each, once put a farmer first
# (docs/ratings.md, "A place on the ladder").
LADDER_OPPONENTS = 10


def is_established(games: int, sigma: float) -> bool:
    """Enough rated games and a narrow enough uncertainty (docs/ratings.md, "Provisional")."""
    return games >= ESTABLISHED_GAMES and sigma <= ESTABLISHED_SIGMA


def is_ranked(games: int, sigma: float, established_opponents: int) -> bool:
    """On the ladder: established, and rated against LADDER_OPPONENTS different established opponents."""
    return is_established(games, sigma) and established_opponents >= LADDER_OPPONENTS


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's standing in one game before or after a table."""

    elo: float = START
    peak: float = START
    games: int = 0
    wins: int = 0
    mu: float = MU
    sigma: float = SIGMA

    @property
    def provisional(self) -> bool:
        return not is_established(self.games, self.sigma)


def rate_table(standings: Sequence[Standing], place: Sequence[int]) -> list[Standing]:
    """Every player's standing after one table; place: 0 = first, equal places are ties.

    A win is finishing alone in first place (a shared first place is a draw, not a win).
    """
    changes = elo.deltas([s.elo for s in standings], [s.games for s in standings], place)
    skills = skill.update([(s.mu, s.sigma) for s in standings], place)
    alone_first = sum(1 for p in place if p == 0) == 1
    after = []
    for s, delta, (mu, sigma), p in zip(standings, changes, skills, place, strict=True):
        rating = s.elo + delta
        after.append(
            replace(
                s,
                elo=rating,
                peak=max(s.peak, rating),
                games=s.games + 1,
                wins=s.wins + (alone_first and p == 0),
                mu=mu,
                sigma=sigma,
            )
        )
    return after


def places_from_ranking(ranking: Sequence[Sequence[int]], seats: int) -> list[int]:
    """[place of seat 0, place of seat 1, ...] from a result's ranking; a seat missing from it is last."""
    found = elo.places(ranking)
    last = len(ranking)
    return [found.get(seat, last) for seat in range(seats)]
