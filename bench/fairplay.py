"""Fair play: do the after-match signals catch injected cheaters in a simulated population,
and leave honest accounts alone?

    .venv/bin/python bench/fairplay.py [--honest 200] [--seed 1]

The population: --honest accounts, each with a house bot's play per game (mixed strengths),
people-like Dobble reaction times (log-normal, median 0.9-2.6 s) and thinking times (log-normal,
median 2-9 s, spread 0.35-0.8), a rating strength; 20 honest pairs of friends who often sit
at the same tables, 6 honest households sharing an address that sometimes play each other.
The cheaters: a Dobble script that is always right in 250-350 ms; two farming pairs sharing a
browser (one lets the other win every game, one alternates wins); two colluding pairs who
never doubt each other, one at 4-seat I Doubt It tables, one at 4-seat Dudo tables.

Every match is played by the engines (Dobble, Dudo, I Doubt It) with house bots, except rated
duels, whose results are drawn from the players' strengths and rated by ratings.table (the
live rating code). Matches come in a shuffled order; after each, its accounts are judged as the
Celery task judges them: the readers each game registers read the history, fairplay.detectors decides
(the same functions; only the summing of figures over matches is done here in memory rather
than by database queries). Prints, per kind of cheat, how many were flagged and after how many
of their games, and the share of honest accounts flagged (figures in docs/fair-play.md).
"""

import argparse
import math
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from fairplay import detectors  # noqa: E402
from games.bots import Bot  # noqa: E402
from games.dobble.bots import ReactionBot  # noqa: E402
from games.engine import GAMES  # noqa: E402
from games.registry import REGISTRY, get_bot, registered  # noqa: E402
from games.simulate import play  # noqa: E402
from ratings.table import Standing, rate_table  # noqa: E402


@dataclass
class Account:
    id: int
    cheat: str = ""  # "" honest; "dobble script", "farming", "collusion"
    reaction_median: float = 1500.0
    reaction_sigma: float = 0.35
    mistake_rate: float = 0.04
    think_median: float = 4.0
    think_sigma: float = 0.5
    strength: float = 1500.0
    bots: dict = field(default_factory=dict)
    partner: int | None = None
    games: int = 0
    flagged_after: dict = field(default_factory=dict)  # kind -> its games when first flagged


class PersonDobble(ReactionBot):
    """A house Dobble bot with one account's reaction times and mistakes."""

    def __init__(self, account: Account) -> None:
        super().__init__()
        self.median_ms, self.sigma, self.mistake_rate = (
            account.reaction_median,
            account.reaction_sigma,
            account.mistake_rate,
        )


class DobbleScript(ReactionBot):
    """Always right, in 250-350 ms."""

    mistake_rate = 0.0

    def _reaction(self, rng: random.Random) -> int:
        return rng.randint(250, 350)


class Sparing(Bot):
    """A house bot that never doubts its partner: it raises the lowest bid (Dudo) or passes (I Doubt It)."""

    def __init__(self, inner: Bot, partner_seat: int) -> None:
        self.inner, self.partner_seat = inner, partner_seat

    def choose(self, view, legal, rng):
        action = self.inner.choose(view, legal, rng)
        if action is None or action["type"] != "doubt":
            return action
        target = view["bid"]["seat"] if "bid" in view else view["last_play"]["seat"]
        if target != self.partner_seat:
            return action
        return next((a for a in legal if a["type"] in ("pass", "bid")), action)


class Population:
    def __init__(self, honest: int, rng: random.Random) -> None:
        self.rng = rng
        self.accounts: list[Account] = []
        for _ in range(honest):
            self.add(
                reaction_median=rng.uniform(900, 2600),
                reaction_sigma=rng.uniform(0.25, 0.45),
                mistake_rate=rng.uniform(0.01, 0.1),
                think_median=rng.uniform(2, 9),
                think_sigma=rng.uniform(0.35, 0.8),
                strength=rng.gauss(1500, 200),
                bots={"dudo": rng.choice(["heuristic", "heuristic", "random"]), "doubt-it": "heuristic"},
            )
        self.honest = list(self.accounts)
        self.script = self.add(cheat="dobble script")
        self.farmers = [self.add(cheat="farming", strength=1500.0) for _ in range(4)]
        self.colluders = [
            self.add(cheat="collusion", bots={"dudo": "heuristic", "doubt-it": "heuristic"}) for _ in range(4)
        ]
        for a, b in (self.farmers[0:2], self.farmers[2:4], self.colluders[0:2], self.colluders[2:4]):
            a.partner, b.partner = b.id, a.id
        self.friends = [tuple(rng.sample(self.honest, 2)) for _ in range(20)]
        self.households = [tuple(rng.sample(self.honest, 2)) for _ in range(6)]
        self.shared_device = {
            frozenset((a.id, b.id)) for a, b in self.households + [tuple(self.farmers[0:2]), tuple(self.farmers[2:4])]
        }

    def add(self, **fields) -> Account:
        account = Account(id=len(self.accounts), **fields)
        self.accounts.append(account)
        return account


class Judge:
    """The figures summed over each account's matches, and the detectors run on them after each match."""

    def __init__(self, population: Population) -> None:
        self.population = population
        self.reactions: dict[int, list[int]] = defaultdict(list)
        self.thinking: dict[int, list[float]] = defaultdict(list)
        # (game, doubter, target) -> [chances, doubts], summed over the matches read
        self.challenges: dict[tuple[str, int, int], list[int]] = defaultdict(lambda: [0, 0])
        self.doubter_totals: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
        self.target_totals: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
        self.game_totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.duels: dict[frozenset, list[tuple]] = defaultdict(list)  # pair -> (winner id, before a, before b, ...)
        self.gains: dict[int, float] = defaultdict(float)
        self.under = self.reactions_total = 0

    def read(self, game: str, seated: list[Account], history: list[dict], moves: list[int]) -> None:
        """What records.read_match stores: reactions, thinking times, who could doubt whom."""
        for account in seated:
            account.games += 1
        registration = registered(game)
        if registration.reaction_times:
            for seat, times in registration.reaction_times(history).items():
                self.reactions[seated[seat].id] += times
                self.under += sum(t < detectors.HUMAN_BOUND_MS for t in times)
                self.reactions_total += len(times)
        else:
            rng = self.population.rng
            for seat in moves:
                account = seated[seat]
                self.thinking[account.id].append(account.think_median * math.exp(rng.gauss(0, account.think_sigma)))
        pairs = registration.doubt_chances(history) if registration.doubt_chances else {}
        for (doubter, target), (chances, doubts) in pairs.items():
            for totals in (
                self.challenges[(game, seated[doubter].id, seated[target].id)],
                self.doubter_totals[(game, seated[doubter].id)],
                self.target_totals[(game, seated[target].id)],
                self.game_totals[game],
            ):
                totals[0] += chances
                totals[1] += doubts

    def judge(self, game: str, seated: list[Account], players: int, ranked: bool) -> None:
        """What judge.judge_match decides after the match (a rated "duel" is drawn, not played)."""
        readers = REGISTRY.get(game)
        for account in seated:
            if readers and readers.reaction_times:
                mine = self.reactions[account.id]
                under = sum(t < detectors.HUMAN_BOUND_MS for t in mine)
                others = self.reactions_total - len(mine)
                share = (self.under - under) / others if others else 0.0
                self.note(account, "reactions", detectors.reactions(mine, share, None, None))
            else:
                self.note(account, "regularity", detectors.regularity(self.thinking[account.id]))
        pairs = [(a, b) for i, a in enumerate(seated) for b in seated[i + 1 :]]
        if readers and readers.doubt_chances and players >= 3:
            chances, doubts = self.game_totals[game]
            base_rate = doubts / chances if chances else 0.0
            for a, b in pairs:
                finding = detectors.pair_sparing(*self.between(game, a.id, b.id), base_rate)
                self.note(a, "collusion", finding)
                self.note(b, "collusion", finding)
        if ranked:
            for a, b in pairs:
                games = [
                    (1.0 if winner == a.id else 0.0, *(before[x.id] for x in (a, b)), *(delta[x.id] for x in (a, b)))
                    for winner, before, delta in self.duels[frozenset((a.id, b.id))]
                ]
                shared = frozenset((a.id, b.id)) in self.population.shared_device
                finding = detectors.pair_farming(games, (self.gains[a.id], self.gains[b.id]), shared)
                self.note(a, "farming", finding)
                self.note(b, "farming", finding)

    def between(self, game: str, a: int, b: int) -> tuple[dict, dict, dict]:
        """What judge.challenges_between sums from the database."""
        between = {(x, y): tuple(self.challenges[(game, x, y)]) for x, y in ((a, b), (b, a))}
        doubting, doubted = {}, {}
        for (doubter, target), (chances, doubts) in between.items():
            total = self.doubter_totals[(game, doubter)]
            doubting[doubter] = (total[0] - chances, total[1] - doubts)
            total = self.target_totals[(game, target)]
            doubted[target] = (total[0] - chances, total[1] - doubts)
        return between, doubting, doubted

    @staticmethod
    def note(account: Account, kind: str, finding: detectors.Finding) -> None:
        if finding.flagged and kind not in account.flagged_after:
            account.flagged_after[kind] = account.games


def schedule(population: Population, rng: random.Random) -> list[tuple]:
    """Every match of the run: (game, seated accounts, ranked), in a shuffled order."""
    honest, matches = population.honest, []
    for _ in range(700):
        matches.append(("dobble", rng.sample(honest, rng.randint(2, 4)), False))
    for _ in range(30):
        others = rng.sample(honest, rng.randint(1, 3))
        matches.append(("dobble", [population.script, *others], False))
    for game, pair in (("doubt-it", population.colluders[0:2]), ("dudo", population.colluders[2:4])):
        for _ in range(300):
            matches.append((game, rng.sample(honest, 4), False))
        for _ in range(30):
            matches.append((game, [*pair, *rng.sample(honest, 2)], False))
        for friends in population.friends:
            for _ in range(4):
                matches.append((game, [*friends, *rng.sample(honest, 2)], False))
    by_strength = sorted(honest, key=lambda a: a.strength)
    for _ in range(3000):  # rated duels, paired among players of similar rating
        i = rng.randrange(len(by_strength) - 1)
        matches.append(("duel", [by_strength[i], by_strength[min(i + rng.randint(1, 6), len(by_strength) - 1)]], True))
    for household in population.households:
        for _ in range(4):
            matches.append(("duel", list(household), True))
    for a, b in (population.farmers[0:2], population.farmers[2:4]):
        for _ in range(30):
            matches.append(("duel", [a, b], True))
        for farmer in (a, b):
            for _ in range(10):
                matches.append(("duel", [farmer, rng.choice(honest)], True))
    rng.shuffle(matches)
    return matches


def play_table(game: str, seated: list[Account], seed: int, population: Population) -> tuple[list[dict], list[int]]:
    """One engine game; its history, and the seat of every move."""
    engine, bots = GAMES[game], []
    for account in seated:
        if game == "dobble":
            bots.append(DobbleScript() if account is population.script else PersonDobble(account))
            continue
        bot = get_bot(game, account.bots[game])
        if account.cheat == "collusion":
            bot = Sparing(bot, next(s for s, other in enumerate(seated) if other.id == account.partner))
        bots.append(bot)
    playout = play(engine, bots, seed)
    return playout.state.history, [seat for seat, _ in playout.log]


def play_duel(seated: list[Account], ratings: dict[int, Standing], rng: random.Random, population: Population,
              judge_duels: list):  # fmt: skip
    """A rated duel whose result comes from the strengths (a farming pair's from its arrangement)."""
    a, b = seated
    if {a.id, b.id} == {population.farmers[0].id, population.farmers[1].id}:
        winner = population.farmers[0]
    elif {a.id, b.id} == {population.farmers[2].id, population.farmers[3].id}:
        winner = population.farmers[2 + len(judge_duels) % 2]  # they take turns to win
    else:
        winner = a if rng.random() < detectors.elo_expected(a.strength, b.strength) else b
    before = [ratings[a.id], ratings[b.id]]
    after = rate_table(before, [0 if winner is a else 1, 0 if winner is b else 1])
    for account, new in zip(seated, after, strict=True):
        ratings[account.id] = new
    return (
        winner.id,
        {x.id: s.elo for x, s in zip(seated, before, strict=True)},
        {x.id: n.elo - o.elo for x, o, n in zip(seated, before, after, strict=True)},
    )


def run(honest: int, seed: int) -> Population:
    rng = random.Random(seed)
    population = Population(honest, rng)
    judge = Judge(population)
    ratings: dict[int, Standing] = defaultdict(Standing)
    for game, seated, ranked in schedule(population, rng):
        if game == "duel":
            duels = judge.duels[frozenset(a.id for a in seated)]
            winner, before, delta = play_duel(seated, ratings, rng, population, duels)
            duels.append((winner, before, delta))
            for account in seated:
                judge.gains[account.id] += delta[account.id]
                account.games += 1
            judge.judge("duel", seated, 2, True)
            continue
        rng.shuffle(seated)
        history, moves = play_table(game, seated, rng.randrange(2**62), population)
        judge.read(game, seated, history, moves)
        judge.judge(game, seated, len(seated), ranked)
    return population


def report(population: Population, seconds: float) -> str:
    lines = [
        f"{len(population.honest)} honest accounts, {len(population.accounts) - len(population.honest)} cheaters, "
        f"{seconds:.0f} s"
    ]
    kinds = {"dobble script": "reactions", "farming": "farming", "collusion": "collusion"}
    caught_all = total = 0
    for cheat, kind in kinds.items():
        cheaters = [a for a in population.accounts if a.cheat == cheat]
        caught = [a for a in cheaters if kind in a.flagged_after]
        caught_all, total = caught_all + len(caught), total + len(cheaters)
        needed = ", ".join(str(a.flagged_after[kind]) for a in caught) or "-"
        lines.append(f"{cheat:14} flagged {len(caught)}/{len(cheaters)}; their games when flagged: {needed}")
    lines.append(f"cheaters flagged: {caught_all}/{total} = {caught_all / total:.0%}")
    wrongly = [a for a in population.honest if a.flagged_after]
    by_kind = defaultdict(int)
    for account in wrongly:
        for kind in account.flagged_after:
            by_kind[kind] += 1
    lines.append(
        f"honest accounts flagged: {len(wrongly)}/{len(population.honest)} = "
        f"{len(wrongly) / len(population.honest):.1%}"
        + (f" ({', '.join(f'{k}: {n}' for k, n in sorted(by_kind.items()))})" if by_kind else "")
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--honest", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    population = run(args.honest, args.seed)
    print(report(population, time.perf_counter() - started))


if __name__ == "__main__":
    main()
